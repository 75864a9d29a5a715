//! The rule across the tools of one `#[mcp_tool_type]` impl block: no two share a name.

use syn::Type;

use crate::check::checked::Checked;
use crate::errors::Errors;
use crate::model::impl_block::ImplBlock;
use crate::model::tool::Tool;

/// The tools of an impl block, each checked, none named like another.
pub(crate) type ToolType<'a> = ImplBlock<'a, Checked<Tool<'a>>>;

/// One marked method on its way through the stages: the mistakes in its attribute, and the tool
/// made of it or why none could be (`None` when its attribute was not a list).
pub(crate) struct ToolMethod<'a> {
    pub(crate) problems: Vec<syn::Error>,
    pub(crate) tool: Option<syn::Result<Checked<Tool<'a>>>>,
}

/// The block's tools; each method's errors are reported in source order, method by method.
/// Names are compared among the tools that passed their own checks.
pub(crate) fn check<'a>(
    owner: &'a Type,
    methods: impl IntoIterator<Item = ToolMethod<'a>>,
    errors: &mut Errors,
) -> ToolType<'a> {
    let mut tools: Vec<Checked<Tool<'a>>> = Vec::new();
    for method in methods {
        for problem in method.problems {
            errors.push(problem);
        }
        let Some(tool) = method.tool.and_then(|tool| errors.ok(tool)) else {
            continue;
        };
        if tools.iter().any(|t| t.name == tool.name) {
            errors.push(syn::Error::new(
                tool.name_span,
                format!(
                    "two tools in this impl block are named `{}`; rename one with \
                     `#[mcp_tool(name = \"...\")]`",
                    tool.name
                ),
            ));
        }
        tools.push(tool);
    }
    ImplBlock {
        owner,
        items: tools,
    }
}
