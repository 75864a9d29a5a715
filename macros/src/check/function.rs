//! Rules on the function an item is made from, whatever its kind: its signature, its receiver
//! for where it is defined, and its doc comment's `# Arguments` section.

use syn::ReceiverKind;
use syn::spanned::Spanned;

use crate::errors::Errors;
use crate::model::function::{Function, Site};
use crate::syntax::unraw;

pub(crate) fn signature(function: &Function<'_>, errors: &mut Errors) {
    let (sig, noun, verb) = (function.sig, function.kind.noun, function.kind.verb);
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            format!(
                "a {noun} cannot be generic: its schemas are fixed when it is registered; use concrete types"
            ),
        ));
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.push(syn::Error::new(
            token.span,
            format!("a {noun} cannot be `unsafe fn`: a client {verb} it with arguments it chooses"),
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            format!("a {noun} cannot be variadic"),
        ));
    }
}

/// One instance of a type serves concurrent calls, so a method borrows it shared.
pub(crate) fn receiver(function: &Function<'_>, errors: &mut Errors) {
    let kind = function.kind;
    match (function.site, function.receiver) {
        (Site::Free, Some(receiver)) => errors.push(syn::Error::new_spanned(
            receiver,
            format!(
                "`#[{}]` on a method needs `#[{}]` on its impl block",
                kind.attribute, kind.type_attribute
            ),
        )),
        (Site::Method { .. }, None) => errors.push(syn::Error::new_spanned(
            &function.sig.ident,
            format!(
                "a {} method takes `&self`; a function without `self` can be a free `#[{}]` fn",
                kind.noun, kind.attribute
            ),
        )),
        (Site::Method { .. }, Some(receiver))
            if !matches!(receiver.kind, ReceiverKind::Reference(_, _, None)) =>
        {
            errors.push(syn::Error::new_spanned(
                receiver,
                format!(
                    "a {} method takes `&self`: one instance serves concurrent calls, so it \
                     cannot be consumed or borrowed mutably; use interior mutability (a `Mutex`) \
                     for state",
                    kind.noun
                ),
            ));
        }
        _ => {}
    }
}

/// Each `# Arguments` entry must name a parameter: a stale entry documents nothing.
pub(crate) fn documented_arguments(function: &Function<'_>, errors: &mut Errors) {
    for (name, _) in &function.documented_arguments {
        let known = function
            .params
            .iter()
            .any(|p| unraw(p.ident) == *name || p.wire_name() == *name);
        if known {
            continue;
        }
        // At the doc line that names it, found in the attribute as written.
        let span = function
            .attrs
            .iter()
            .find(|a| {
                a.path().is_ident("doc")
                    && quote::quote!(#a).to_string().contains(&format!("`{name}`"))
            })
            .map_or_else(|| function.sig.ident.span(), |a| a.span());
        errors.push(syn::Error::new(
            span,
            format!(
                "the `# Arguments` section documents `{name}`, which is not a parameter of this {}",
                function.kind.noun
            ),
        ));
    }
}
