//! An item's client arguments: the struct serde binds and schemars describes (`__ToolArgs`,
//! `__PromptArgs`, `__ResourceArgs`), the assertions on header arguments' types, and the
//! binding in the handler.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::generate::target::Target;
use crate::generate::tokens::respan;
use crate::model::function::Function;
use crate::syntax::{compact, unraw};

/// The client's arguments as one struct: serde binds it, schemars describes it.
pub(crate) fn args_struct(function: &Function<'_>, target: &Target<'_>) -> TokenStream {
    let krate = &target.krate;
    let serde_path = format!("{}::__private::serde", compact(krate));
    let schemars_path = format!("{}::__private::schemars", compact(krate));
    let arguments = target.item.arguments();
    let mut defaults = Vec::new();
    let fields: Vec<TokenStream> = function
        .params
        .iter()
        .filter_map(|param| Some((param, param.argument()?)))
        .map(|(param, argument)| {
            let ident = param.ident;
            let ty = target.ty(param.ty);
            let description = argument
                .description
                .as_ref()
                .map(|d| quote!(#[schemars(description = #d)]));
            let rename = argument.rename.as_ref().map(|r| {
                let name = &r.value;
                quote!(#[serde(rename = #name)])
            });
            let default = argument.default.as_ref().map(|expr| {
                let function = format_ident!("__default_{}", unraw(ident));
                let path = function.to_string();
                // schemars leaves out a default it cannot serialize: one error, at the default.
                let private = respan(target.private(), expr.span());
                let checked = respan(ty.clone(), expr.span());
                let check = quote_spanned! {expr.span()=>
                    const _: () = #private::schema_default::<#checked>();
                };
                defaults.push(quote! { #check fn #function() -> #ty { #expr } });
                quote!(#[serde(default = #path)])
            });
            let constraints = argument.constraints.iter().map(|c| quote!(#[schemars(#c)]));
            let header = argument.header.as_ref().map(|h| {
                let name = &h.value;
                quote!(#[schemars(extend("x-mcp-header" = #name))])
            });
            let schemars = &argument.schemars;
            quote! { #description #rename #default #(#constraints)* #header #(#schemars)* #ident: #ty }
        })
        .collect();
    quote! {
        #(#defaults)*
        #[derive(#krate::__private::serde::Deserialize, #krate::__private::schemars::JsonSchema)]
        #[serde(crate = #serde_path, deny_unknown_fields)]
        #[schemars(crate = #schemars_path)]
        struct #arguments {
            #(#fields,)*
        }
    }
}

/// An argument sent as an HTTP header must be a string, an integer or a boolean: asserted at
/// its type, so that another type is one error there.
pub(crate) fn header_checks(function: &Function<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let checks = function.params.iter().filter_map(|param| {
        param.argument()?.header.as_ref()?;
        let ty = target.ty(param.ty);
        Some(quote_spanned! {param.ty.span()=>
            const _: () = #private::header_argument::<#ty>();
        })
    });
    quote!(#(#checks)*)
}

/// In the handler, the arguments bound from the invocation (returning the binding's failure as
/// the handler's output).
pub(crate) fn bind(function: &Function<'_>, target: &Target<'_>) -> TokenStream {
    let refused = target.refused(quote!(__invalid));
    match function.whole() {
        Some(inner) => {
            let inner = target.ty(inner);
            quote! {
                let __whole: #inner = match __invocation.arguments.bind_whole::<#inner>() {
                    ::core::result::Result::Ok(__bound) => __bound,
                    ::core::result::Result::Err(__invalid) => return #refused,
                };
            }
        }
        None => {
            let arguments = target.item.arguments();
            // Bound to generated names: an argument called like the function must not shadow it.
            let fields = function.arguments().map(|p| {
                let ident = p.ident;
                let local = argument_local(ident);
                quote!(#ident: #local)
            });
            quote! {
                let #arguments { #(#fields),* } = match __invocation.arguments.bind::<#arguments>() {
                    ::core::result::Result::Ok(__bound) => __bound,
                    ::core::result::Result::Err(__invalid) => return #refused,
                };
            }
        }
    }
}

/// The local a client argument is bound to in the handler.
pub(crate) fn argument_local(ident: &syn::Ident) -> syn::Ident {
    format_ident!("__arg_{}", unraw(ident))
}
