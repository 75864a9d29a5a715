//! What kind of item a function is made into, and the names messages give it. The stages that
//! every kind shares (parameters, signature rules, impl blocks) take a kind, so that their
//! messages say `tool` of a tool.

use crate::attr::tool::MCP_TOOL;

pub(crate) struct Kind {
    /// The item in prose: "a tool cannot be generic".
    pub(crate) noun: &'static str,
    /// The attribute on a function: `#[mcp_tool]`.
    pub(crate) attribute: &'static str,
    /// The attribute on an impl block whose methods are items of this kind.
    pub(crate) type_attribute: &'static str,
}

pub(crate) const TOOL: Kind = Kind {
    noun: "tool",
    attribute: MCP_TOOL,
    type_attribute: "mcp_tool_type",
};
