//! The completion functions a prompt's arguments or a template's variables name
//! (`#[arg(complete = f)]`), each wrapped as the runtime stores them, and the spec's list of
//! them by argument name. Arguments of a unit enum complete from its variants at runtime, with
//! nothing generated.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::generate::target::Target;
use crate::generate::tokens::respan;
use crate::model::function::Function;
use crate::syntax::unraw;

/// One `__complete_<argument>` per argument that names a function, and the list
/// `Cow::Borrowed(&[("argument", Completer::Fn(__complete_argument)), ...])` for the spec's
/// `completions`.
pub(crate) fn completers(
    function: &Function<'_>,
    target: &Target<'_>,
) -> (TokenStream, TokenStream) {
    let private = target.private();
    let mut wrappers = Vec::new();
    let mut listed = Vec::new();
    for param in function.arguments() {
        let Some(path) = param.argument().and_then(|a| a.complete.as_ref()) else {
            continue;
        };
        let wrapper = format_ident!("__complete_{}", unraw(param.ident));
        // At the path, so that a function of the wrong signature is reported there.
        let span = path.span();
        let complete_with = respan(quote!(#private::complete_with), span);
        let path = target.outside(path);
        wrappers.push(quote_spanned! {span=>
            fn #wrapper(__completing: #private::Completing) -> #private::CompletionFuture {
                #complete_with(#path, __completing)
            }
        });
        let name = param.wire_name();
        listed.push(quote! {
            (::std::borrow::Cow::Borrowed(#name), #private::Completer::Fn(#wrapper))
        });
    }
    (
        quote!(#(#wrappers)*),
        quote!(::std::borrow::Cow::Borrowed(&[#(#listed),*])),
    )
}
