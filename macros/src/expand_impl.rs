//! `#[mcp_tool_type]`: the `#[mcp_tool]` methods of an inherent impl block become tools served
//! on an instance of the type (`server.tools(instance)`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{ImplItem, ImplItemFn, ItemImpl, Meta, Type};

use crate::ast::Tool;
use crate::attr::arg::strip_parameter_attributes;
use crate::check::{self, Site};
use crate::errors::Errors;
use crate::expand::{Target, body};

const MCP_TOOL: &str = "mcp_tool";

// Input:
//     #[mcp_tool_type]
//     impl Notes {
//         /// Store a note.
//         #[mcp_tool]
//         fn add_note(&self, text: String) -> Note { .. }
//         fn helper(&self) { .. }
//     }
// Output: the impl block without the `#[mcp_tool]` attributes, and per tool method
//     const _: () = {
//         /* the items of `expand::body`, calling `__this.add_note(text)` */
//         inventory::submit!(MethodRegistration { owner: TypeId::of::<Notes>, spec: &__SPEC });
//     };
pub(crate) fn tool_type(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                "`#[mcp_tool_type]` goes on an inherent impl block: `impl Type { ... }`",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    };
    let mut errors = Errors::new();
    if !args.is_empty() {
        errors.push(syn::Error::new_spanned(
            &args,
            "`#[mcp_tool_type]` takes no arguments",
        ));
    }
    if let Some((path, _)) = &block.trait_ {
        errors.push(syn::Error::new_spanned(
            path,
            "`#[mcp_tool_type]` goes on an inherent impl block (`impl Type { ... }`), not on a \
             trait impl",
        ));
    }
    if !block.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &block.generics,
            "`#[mcp_tool_type]` needs a concrete type: tools are registered per type",
        ));
    }
    let owner = (*block.self_ty).clone();
    let mut generated = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let Some(args) = take_tool_attribute(method, &mut errors) else {
            continue;
        };
        let copy = method.clone();
        strip_parameter_attributes(method.sig.inputs.iter_mut());
        match tool_method(args, &copy, &owner) {
            Ok((tool_name, span, tokens)) => {
                if names.contains(&tool_name) {
                    errors.push(syn::Error::new(
                        span,
                        format!("two tools in this impl block are named `{tool_name}`; rename one with `#[mcp_tool(name = \"...\")]`"),
                    ));
                }
                names.push(tool_name);
                generated.push(tokens);
            }
            Err(e) => errors.push(e),
        }
    }
    let errors = errors.finish(()).err().map(|e| e.to_compile_error());
    quote! {
        #block
        #(#generated)*
        #errors
    }
}

/// Removes the method's `#[mcp_tool(...)]` and returns its arguments; `None` for other methods.
fn take_tool_attribute(method: &mut ImplItemFn, errors: &mut Errors) -> Option<TokenStream> {
    let position = method
        .attrs
        .iter()
        .position(|a| a.path().is_ident(MCP_TOOL))?;
    let attribute = method.attrs.remove(position);
    if let Some(again) = method
        .attrs
        .iter()
        .position(|a| a.path().is_ident(MCP_TOOL))
    {
        let again = method.attrs.remove(again);
        errors.push(syn::Error::new_spanned(again, "duplicate `#[mcp_tool]`"));
    }
    match attribute.meta {
        Meta::Path(_) => Some(TokenStream::new()),
        Meta::List(list) => Some(list.tokens),
        Meta::NameValue(nv) => {
            errors.push(syn::Error::new_spanned(
                nv,
                "`#[mcp_tool]` takes a list, like `#[mcp_tool(read_only)]`",
            ));
            None
        }
    }
}

fn tool_method(
    args: TokenStream,
    method: &ImplItemFn,
    owner: &Type,
) -> syn::Result<(String, Span, TokenStream)> {
    let args = crate::attr::tool::parse(args)?;
    let tool = Tool::parse(args, &method.attrs, &method.sig)?;
    check::tool(&tool, Site::Method)?;
    let target = Target::new(&tool, Some(owner));
    let body = body(&tool, &target);
    let krate = tool
        .args
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::toolwright));
    let tokens = quote! {
        const _: () = {
            #body
            #krate::__private::inventory::submit! {
                #krate::__private::MethodRegistration {
                    owner: ::core::any::TypeId::of::<#owner>,
                    spec: &__SPEC,
                }
            }
        };
    };
    Ok((tool.name.clone(), tool.name_span, tokens))
}
