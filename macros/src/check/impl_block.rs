//! Rules on an impl block whose methods are items, whatever their kind. They do not stop its
//! items from being generated: each is reported where it is, once.

use proc_macro2::TokenStream;
use syn::ItemImpl;

use crate::errors::Errors;
use crate::model::kind::Kind;

/// The block's attribute takes no arguments, and the block is an inherent impl of a concrete
/// type (items are registered per type).
pub(crate) fn check(kind: &Kind, args: &TokenStream, block: &ItemImpl, errors: &mut Errors) {
    let attribute = kind.type_attribute;
    if !args.is_empty() {
        errors.push(syn::Error::new_spanned(
            args,
            format!("`#[{attribute}]` takes no arguments"),
        ));
    }
    if let Some((path, _)) = &block.trait_ {
        errors.push(syn::Error::new_spanned(
            path,
            format!(
                "`#[{attribute}]` goes on an inherent impl block (`impl Type {{ ... }}`), not on \
                 a trait impl"
            ),
        ));
    }
    if !block.generics.params.is_empty() {
        errors.push(syn::Error::new_spanned(
            &block.generics,
            format!(
                "`#[{attribute}]` needs a concrete type: {}s are registered per type",
                kind.noun
            ),
        ));
    }
}
