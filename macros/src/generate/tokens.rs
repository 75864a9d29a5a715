//! Rewriting tokens for where generated code stands: `Self` spelt out, lifetimes filled in,
//! spans moved to where an error must point.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::{Lifetime, Type};

/// `Self` in a method's signature means the impl's type; outside the impl block it must be
/// spelt out.
pub(crate) fn replace_self(tokens: TokenStream, owner: &Type) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Ident(ident) if ident == "Self" => {
                let owner = owner.to_token_stream();
                quote_spanned!(ident.span()=> #owner)
            }
            TokenTree::Group(group) => {
                let mut replaced =
                    Group::new(group.delimiter(), replace_self(group.stream(), owner));
                replaced.set_span(group.span());
                TokenTree::Group(replaced).into_token_stream()
            }
            other => other.into_token_stream(),
        })
        .collect()
}

/// `&str` in a return type names no lifetime; in the generated signature it must be `'static`
/// (the only lifetime a returned reference can have when no argument is borrowed).
pub(crate) fn with_static_lifetimes(ty: &Type) -> Type {
    let mut ty = ty.clone();
    fill_lifetimes(&mut ty);
    ty
}

fn fill_lifetimes(ty: &mut Type) {
    match ty {
        Type::Reference(r) => {
            if r.lifetime.is_none() {
                r.lifetime = Some(Lifetime::new("'static", Span::call_site()));
            }
            fill_lifetimes(&mut r.elem);
        }
        Type::Path(p) => {
            for segment in &mut p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in &mut args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            fill_lifetimes(t);
                        }
                    }
                }
            }
        }
        Type::Tuple(t) => t.elems.iter_mut().for_each(fill_lifetimes),
        Type::Array(a) => fill_lifetimes(&mut a.elem),
        Type::Slice(s) => fill_lifetimes(&mut s.elem),
        Type::Paren(p) => fill_lifetimes(&mut p.elem),
        _ => {}
    }
}

/// `tokens` with every token at `span`.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

/// `Some(value)` or `None`, as an expression of generated code.
pub(crate) fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
