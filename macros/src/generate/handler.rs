//! The handler every kind of item has, `__call`: it binds the client's arguments, makes the
//! injected parameters, calls the function (on the instance, for a method) and turns what it
//! returned into the handler's output; for an `async fn`, all of it as a boxed future.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::generate::arguments::{argument_local, bind};
use crate::generate::injected::injection;
use crate::generate::target::Target;
use crate::generate::tokens::respan;
use crate::model::function::Function;
use crate::model::param::ParamKind;

/// `__call`; `finish` is the expression that turns `__returned`, the function's value, into
/// the handler's output (it may read `__invocation`).
pub(crate) fn handler(
    function: &Function<'_>,
    target: &Target<'_>,
    finish: TokenStream,
) -> TokenStream {
    let private = target.private();
    let output = target.output();
    let bind = bind(function, target);
    let mut injects = Vec::new();
    let call_args: Vec<TokenStream> = function
        .params
        .iter()
        .enumerate()
        .map(|(i, param)| match &param.kind {
            ParamKind::Argument(_) => argument_local(param.ident).to_token_stream(),
            ParamKind::Whole { .. } => quote!(#private::Args(__whole)),
            ParamKind::Injected(injected) => {
                let (make, pass) = injection(i, injected, target);
                injects.push(make);
                pass
            }
        })
        .collect();
    let name = &function.sig.ident;
    let (this, callee) = match target.owner {
        Some(owner) => (
            quote! {
                let __this: &#owner = __invocation.instance::<#owner>();
            },
            quote!(__this.#name),
        ),
        None => (quote!(), quote!(#name)),
    };
    let invoke = if function.is_async() {
        quote!(#callee(#(#call_args),*).await)
    } else {
        quote!(#callee(#(#call_args),*))
    };
    let body = quote! {
        #bind
        #(#injects)*
        #this
        let __returned = #invoke;
        #finish
    };
    if function.is_async() {
        // At the function's name: a future that is not `Send` is reported there.
        let boxed = quote_spanned! {name.span()=>
            #private::tool_future(async move { #body })
        };
        quote! {
            fn __call(__invocation: #private::Invocation) -> #private::BoxFuture<#output> {
                #boxed
            }
        }
    } else {
        quote! {
            fn __call(__invocation: #private::Invocation) -> #output {
                #body
            }
        }
    }
}

/// `fn __into_output(__value: T, <parameters>) -> Output { <conversion> }`, for a prompt or a
/// resource: `conversion` turns `__value`, of the function's return type `T`, into the
/// handler's output. It is spanned at the return type, so that a type that cannot be converted
/// is reported there, once: the handler calls it with a `T` whatever the conversion's bound.
pub(crate) fn into_output(
    function: &Function<'_>,
    target: &Target<'_>,
    parameters: TokenStream,
    conversion: TokenStream,
) -> TokenStream {
    let (ty, span) = target.returned(function);
    let output = respan(target.output(), span);
    let parameters = respan(parameters, span);
    let conversion = respan(conversion, span);
    quote_spanned! {span=>
        fn __into_output(__value: #ty, #parameters) -> #output {
            #conversion
        }
    }
}
