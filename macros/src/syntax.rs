//! Names and types read as written. The macro sees tokens, not resolved types: these helpers
//! recognise a type by how it is spelt (its last path segment), which is all a macro can do.

use syn::{GenericArgument, Ident, PathArguments, PathSegment, Type};

/// An identifier as the client sees it: `r#type` is `type`.
pub(crate) fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// The last segment of a plain path type: `Progress` of `toolwright::context::Progress`.
pub(crate) fn last_segment(ty: &Type) -> Option<&PathSegment> {
    match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last(),
        _ => None,
    }
}

/// `T` of `Name<T>`.
pub(crate) fn first_type_argument(segment: &PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(ty) => Some(ty),
        _ => None,
    }
}

/// Whether a type is written as an `Option<...>`.
pub(crate) fn is_option(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == "Option")
}

/// A type or path as one string without spaces, for messages and for paths written into
/// attributes (`#[serde(crate = "...")]`).
pub(crate) fn compact(tokens: &impl quote::ToTokens) -> String {
    quote::quote!(#tokens).to_string().replace(' ', "")
}
