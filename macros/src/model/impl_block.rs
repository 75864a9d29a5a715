//! An impl block whose methods are items, whatever their kind: the walk that finds the methods
//! marked with a kind's attribute and takes the attribute off.

use proc_macro2::TokenStream;
use syn::{ImplItem, ImplItemFn, ItemImpl, Meta};

use crate::attr::arg::strip_parameter_attributes;
use crate::model::kind::Kind;

/// A method that carried the kind's attribute.
pub(crate) struct MarkedMethod {
    /// The method as written, without the attribute; its parameters keep theirs, which the
    /// model reads.
    pub(crate) method: ImplItemFn,
    /// The attribute's arguments; `None` when it was not a list, so no item is made.
    pub(crate) args: Option<TokenStream>,
    /// Mistakes in the attribute itself, reported before the method's own.
    pub(crate) problems: Vec<syn::Error>,
}

/// Takes the kind's attribute off every method that carries it, and the parameter attributes
/// off those that become items (the compiler would reject both); returns the marked methods
/// in order, as written.
pub(crate) fn take_marked(block: &mut ItemImpl, kind: &Kind) -> Vec<MarkedMethod> {
    let mut marked = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let Some(position) = attribute_position(method, kind) else {
            continue;
        };
        let attribute = method.attrs.remove(position);
        let mut problems = Vec::new();
        if let Some(again) = attribute_position(method, kind) {
            let again = method.attrs.remove(again);
            problems.push(syn::Error::new_spanned(
                again,
                format!("duplicate `#[{}]`", kind.attribute),
            ));
        }
        let args = match attribute.meta {
            Meta::Path(_) => Some(TokenStream::new()),
            Meta::List(list) => Some(list.tokens),
            Meta::NameValue(nv) => {
                problems.push(syn::Error::new_spanned(
                    nv,
                    format!(
                        "`#[{0}]` takes a list, like `#[{0}({1})]`",
                        kind.attribute, kind.example
                    ),
                ));
                None
            }
        };
        let copy = method.clone();
        if args.is_some() {
            strip_parameter_attributes(method.sig.inputs.iter_mut());
        }
        marked.push(MarkedMethod {
            method: copy,
            args,
            problems,
        });
    }
    marked
}

/// Keeps each method one kind of item: the attribute of another kind after a method's first is
/// taken off, and reported (the first kind's item takes the parameters' attributes off the
/// block, so another kind's would be made without them).
pub(crate) fn one_kind_each(block: &mut ItemImpl, kinds: &[&Kind]) -> Vec<syn::Error> {
    let mut problems = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let kind_of = |attribute: &syn::Attribute| {
            kinds
                .iter()
                .find(|kind| kind.marks(attribute))
                .map(|kind| kind.attribute)
        };
        let Some(first) = method.attrs.iter().find_map(kind_of) else {
            continue;
        };
        method.attrs.retain(|attribute| match kind_of(attribute) {
            Some(other) if other != first => {
                problems.push(syn::Error::new_spanned(
                    attribute,
                    format!(
                        "a method is one kind of item: it is already `#[{first}]`, so it cannot \
                         be `#[{other}]` too"
                    ),
                ));
                false
            }
            _ => true,
        });
    }
    problems
}

fn attribute_position(method: &ImplItemFn, kind: &Kind) -> Option<usize> {
    method.attrs.iter().position(|a| kind.marks(a))
}
