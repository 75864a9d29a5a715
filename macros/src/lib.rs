//! Procedural macros of [toolwright](https://docs.rs/toolwright). Use them through the
//! `toolwright` crate, which re-exports them with the runtime they generate code for.

mod ast;
mod attr;
mod check;
mod doc;
mod expand;
mod expand_impl;
mod fallback;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool. See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::tool(args.into(), item.into()).into()
}

/// Serves the `#[mcp_tool]` methods of an inherent impl block as tools, called on an instance
/// given to the server. See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_tool_type(args: TokenStream, item: TokenStream) -> TokenStream {
    expand_impl::tool_type(args.into(), item.into()).into()
}
