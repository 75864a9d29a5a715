//! A `#[mcp_tool_type]` impl block's tools to tokens.

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::tool_type::ToolType;
use crate::generate::tool::method;

// Input:
//     #[mcp_tool_type]
//     impl Notes {
//         /// Store a note.
//         #[mcp_tool]
//         fn add_note(&self, text: String) -> Note { .. }
//         fn helper(&self) { .. }
//     }
// Output: the impl block without the `#[mcp_tool]` attributes (kept by the caller), and per tool
//     const _: () = {
//         /* the items of every tool, calling `__this.add_note(text)` */
//         inventory::submit!(MethodRegistration { owner: TypeId::of::<Notes>, spec: &__SPEC });
//     };
pub(crate) fn tools(tool_type: &ToolType<'_>) -> TokenStream {
    let tools = tool_type
        .items
        .iter()
        .map(|tool| method(tool, tool_type.owner));
    quote!(#(#tools)*)
}
