//! The entry points' error path, for every kind of item: when an item cannot be generated, the
//! user's function or impl block is still emitted beside the errors, so one mistake gives one
//! error and not a cascade of "cannot find function" errors wherever it is used.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{ItemFn, ItemImpl};

use crate::attr::arg::strip_parameter_attributes;
use crate::model::kind::{Kind, PROMPT, RESOURCE, TOOL};

/// The function as written (its parameter attributes removed), beside what `expand` generates
/// from it or the errors it found.
pub(crate) fn function(
    kind: &Kind,
    item: TokenStream,
    expand: impl FnOnce(&ItemFn) -> syn::Result<TokenStream>,
) -> TokenStream {
    let mut function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            let error = syn::Error::new(
                Span::call_site(),
                format!("`#[{}]` goes on a function", kind.attribute),
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    };
    // A function is one kind of item: another kind's attribute on it is refused, and removed,
    // so that its own expansion does not define the function's marker a second time.
    let mut others = Vec::new();
    function.attrs.retain(|attribute| {
        let other = [&TOOL, &PROMPT, &RESOURCE]
            .into_iter()
            .find(|other| other.attribute != kind.attribute && other.marks(attribute));
        if let Some(other) = other {
            others.push(syn::Error::new_spanned(
                attribute,
                format!(
                    "a function is one kind of item: it is already `#[{}]`, so it cannot be \
                     `#[{}]` too",
                    kind.attribute, other.attribute
                ),
            ));
        }
        other.is_none()
    });
    let generated = match others.into_iter().reduce(|mut all, one| {
        all.combine(one);
        all
    }) {
        Some(errors) => Err(errors),
        None => expand(&function),
    };
    strip_parameter_attributes(function.sig.inputs.iter_mut());
    match generated {
        Ok(generated) => quote!(#function #generated),
        Err(errors) => {
            let errors = errors.to_compile_error();
            quote!(#function #errors)
        }
    }
}

/// The impl block, or, when the item is not one, the item as written beside the error.
pub(crate) fn impl_block(kind: &Kind, item: TokenStream) -> Result<ItemImpl, TokenStream> {
    syn::parse2(item.clone()).map_err(|_| {
        let error = syn::Error::new(
            Span::call_site(),
            format!(
                "`#[{}]` goes on an inherent impl block: `impl Type {{ ... }}`",
                kind.type_attribute
            ),
        )
        .to_compile_error();
        quote!(#error #item)
    })
}
