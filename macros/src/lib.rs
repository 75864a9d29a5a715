//! Procedural macros of [toolwright](https://docs.rs/toolwright). Use them through the
//! `toolwright` crate, which re-exports them with the runtime they generate code for.

mod ast;
mod attr;
mod check;
mod doc;
mod expand;
mod fallback;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool. See the `toolwright` crate for the full reference.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::tool(args.into(), item.into()).into()
}
