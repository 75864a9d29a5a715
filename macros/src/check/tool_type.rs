//! The rules across the items of one `#[mcp_tool_type]` impl block: no two tools, and no two
//! prompts, share a name; no two resources share a URI.

use proc_macro2::Span;
use syn::Type;

use crate::check::checked::Checked;
use crate::errors::Errors;
use crate::model::kind::{PROMPT, TOOL};
use crate::model::prompt::Prompt;
use crate::model::resource::Resource;
use crate::model::tool::Tool;

/// The items of an impl block, each checked, served on an instance of `owner`.
pub(crate) struct ToolType<'a> {
    pub(crate) owner: &'a Type,
    pub(crate) tools: Vec<Checked<Tool<'a>>>,
    pub(crate) prompts: Vec<Checked<Prompt<'a>>>,
    pub(crate) resources: Vec<Checked<Resource<'a>>>,
}

/// One marked method on its way through the stages: the mistakes in its attribute, and the item
/// made of it or why none could be (`None` when its attribute was not a list).
pub(crate) struct Marked<M> {
    pub(crate) problems: Vec<syn::Error>,
    pub(crate) item: Option<syn::Result<Checked<M>>>,
}

/// The block's items; each method's errors are reported in source order, method by method, a
/// kind at a time. Names and URIs are compared among the items that passed their own checks.
pub(crate) fn check<'a>(
    owner: &'a Type,
    tools: impl IntoIterator<Item = Marked<Tool<'a>>>,
    prompts: impl IntoIterator<Item = Marked<Prompt<'a>>>,
    resources: impl IntoIterator<Item = Marked<Resource<'a>>>,
    errors: &mut Errors,
) -> ToolType<'a> {
    let renamed = |noun: &str, attribute: &str, name: &str| {
        format!(
            "two {noun}s in this impl block are named `{name}`; rename one with \
             `#[{attribute}(name = \"...\")]`"
        )
    };
    ToolType {
        owner,
        tools: unique(
            tools,
            |t| (t.name.clone(), t.name_span),
            |name| renamed(TOOL.noun, TOOL.attribute, name),
            errors,
        ),
        prompts: unique(
            prompts,
            |p| (p.name.clone(), p.name_span),
            |name| renamed(PROMPT.noun, PROMPT.attribute, name),
            errors,
        ),
        resources: unique(
            resources,
            |r| (r.attributes.uri.value(), r.attributes.uri.span()),
            |uri| format!("two resources in this impl block serve `{uri}`; give one another URI"),
            errors,
        ),
    }
}

/// The items that passed their checks, the second of two with one `key` reported at its span.
fn unique<M>(
    methods: impl IntoIterator<Item = Marked<M>>,
    key: impl Fn(&M) -> (String, Span),
    clash: impl Fn(&str) -> String,
    errors: &mut Errors,
) -> Vec<Checked<M>> {
    let mut items: Vec<Checked<M>> = Vec::new();
    for method in methods {
        for problem in method.problems {
            errors.push(problem);
        }
        let Some(item) = method.item.and_then(|item| errors.ok(item)) else {
            continue;
        };
        let (name, span) = key(&*item);
        if items.iter().any(|other| key(&**other).0 == name) {
            errors.push(syn::Error::new(span, clash(&name)));
        }
        items.push(item);
    }
    items
}
