//! Injected parameters, for any kind of item whose function takes them: where their `Inject`
//! bound is asserted, what they need from the server, and how the handler makes each one.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::generate::target::Target;
use crate::generate::tokens::respan;
use crate::model::function::Function;
use crate::model::param::{Injected, ParamKind};

/// One `__injector_N` per injected parameter (`N` its position), where the `Inject` bound is
/// checked (spanned at the parameter's type, so a type that cannot be injected is reported
/// there, once), and `__requirements`: what they need from the server, checked when it starts.
pub(crate) fn injectors(function: &Function<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let mut injectors = Vec::new();
    let mut requires = Vec::new();
    for (i, param) in function.params.iter().enumerate() {
        if let ParamKind::Injected(Injected { inner, .. }) = param.kind {
            let ty = target.ty(inner);
            let injector = format_ident!("__injector_{i}");
            let bound = quote_spanned! {inner.span()=> #private::injector::<#ty>() };
            injectors.push(quote! {
                const fn #injector() -> #private::Injector<#ty> { #bound }
            });
            // An injected type of the author's own may ask the client (`#[inject]` hides its
            // name from the macro): one error, at the parameter (every token of the assertion
            // carries its span, so the error points there).
            let span = inner.span();
            let injector = format_ident!("__injector_{i}", span = span);
            if !function.is_async() {
                // Asking the client means awaiting it.
                let private = respan(private.clone(), span);
                injectors.push(quote_spanned! {span=>
                    const _: () = #private::sync_injectable(#injector().asks);
                });
            }
            requires.push(quote!((#injector().require)(__requirements);));
        }
    }
    quote! {
        #(#injectors)*
        fn __requirements(__requirements: &mut #private::Requirements) {
            let _ = &__requirements;
            #(#requires)*
        }
    }
}

/// In the handler, the parameter at `position` made from the invocation (returning its failure
/// as the handler's output), and the expression that passes it to the function.
pub(crate) fn injection(
    position: usize,
    injected: &Injected<'_>,
    target: &Target<'_>,
) -> (TokenStream, TokenStream) {
    let local = format_ident!("__inject_{position}");
    let injector = format_ident!("__injector_{position}");
    let ty = target.ty(injected.inner);
    let failed = target.refused(quote!(__failed));
    let make = quote! {
        #[allow(unused_mut)]
        let mut #local: #ty = match __invocation.inject(#injector()) {
            ::core::result::Result::Ok(__value) => __value,
            ::core::result::Result::Err(__failed) => return #failed,
        };
    };
    let pass = match injected.reference {
        Some(r) if r.mutability.is_some() => quote!(&mut #local),
        Some(_) => quote!(&#local),
        None => local.to_token_stream(),
    };
    (make, pass)
}
