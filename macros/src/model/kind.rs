//! What kind of item a function is made into, the names messages give it, and the rules that
//! differ between kinds. The stages that every kind shares (parameters, signature rules, impl
//! blocks) take a kind, so that their messages say `tool` of a tool and `prompt` of a prompt.

use crate::attr::prompt::MCP_PROMPT;
use crate::attr::resource::MCP_RESOURCE;
use crate::attr::tool::MCP_TOOL;

pub(crate) struct Kind {
    /// The item in prose: "a tool cannot be generic".
    pub(crate) noun: &'static str,
    /// The attribute on a function: `#[mcp_tool]`.
    pub(crate) attribute: &'static str,
    /// The attribute on an impl block whose methods are items of this kind.
    pub(crate) type_attribute: &'static str,
    /// The inside of an example of the attribute's list: `read_only` of
    /// `#[mcp_tool(read_only)]`.
    pub(crate) example: &'static str,
    /// What a client does to it: "calls" a tool.
    pub(crate) verb: &'static str,
    /// One client argument in prose when arguments arrive as strings (a prompt's arguments,
    /// a URI's variables); `None` when they are JSON values of any type (a tool's).
    pub(crate) string_argument: Option<&'static str>,
    /// Whether it may run as a task (`TaskStart`): a tool may; a prompt or a resource is
    /// answered in its request.
    pub(crate) tasks: bool,
}

impl Kind {
    /// Whether `attribute` is this kind's, however it is spelt (`#[mcp_prompt]`,
    /// `#[toolwright::mcp_prompt]`).
    pub(crate) fn marks(&self, attribute: &syn::Attribute) -> bool {
        let last = attribute.path().segments.last();
        last.is_some_and(|segment| segment.ident == self.attribute)
    }
}

pub(crate) const TOOL: Kind = Kind {
    noun: "tool",
    attribute: MCP_TOOL,
    type_attribute: "mcp_tool_type",
    example: "read_only",
    verb: "calls",
    string_argument: None,
    tasks: true,
};

pub(crate) const PROMPT: Kind = Kind {
    noun: "prompt",
    attribute: MCP_PROMPT,
    type_attribute: TOOL.type_attribute,
    example: "name = \"review\"",
    verb: "gets",
    string_argument: Some("prompt argument"),
    tasks: false,
};

pub(crate) const RESOURCE: Kind = Kind {
    noun: "resource",
    attribute: MCP_RESOURCE,
    type_attribute: TOOL.type_attribute,
    example: "\"notes://{id}\"",
    verb: "reads",
    string_argument: Some("template variable"),
    tasks: false,
};
