//! A `#[mcp_tool_type]` impl block's items to tokens.

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::tool_type::ToolType;
use crate::generate::{prompt, resource, tool};

// Input:
//     #[mcp_tool_type]
//     impl Notes {
//         /// Store a note.
//         #[mcp_tool]
//         fn add_note(&self, text: String) -> Note { .. }
//         /// A note.
//         #[mcp_resource("notes://{id}")]
//         fn note(&self, id: u32) -> Option<String> { .. }
//         fn helper(&self) { .. }
//     }
// Output: the impl block without the attributes (kept by the caller), and per item
//     const _: () = {
//         /* the items of its kind, calling `__this.add_note(text)` */
//         inventory::submit!(MethodRegistration { owner: TypeId::of::<Notes>, item: Item::Tool(&__SPEC) });
//     };
pub(crate) fn items(tool_type: &ToolType<'_>) -> TokenStream {
    let owner = tool_type.owner;
    let tools = tool_type.tools.iter().map(|t| tool::method(t, owner));
    let prompts = tool_type.prompts.iter().map(|p| prompt::method(p, owner));
    let resources = tool_type
        .resources
        .iter()
        .map(|r| resource::method(r, owner));
    quote!(#(#tools)* #(#prompts)* #(#resources)*)
}
