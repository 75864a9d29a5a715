//! Which types a prompt argument or a template variable may have. Both arrive as strings: the
//! runtime reads a number, a `bool` or a unit enum's variant out of one (by the argument's
//! schema), and nothing else. The macro sees the type as written, so it refuses the shapes it
//! can recognise: references, tuples, arrays, and the standard collections and JSON values.

use syn::Type;

use crate::syntax::{first_type_argument, last_segment};

/// Types whose values a string cannot hold, by their last path segment.
const NOT_FROM_A_STRING: &[&str] = &[
    "Vec",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "HashMap",
    "BTreeMap",
    "HashSet",
    "BTreeSet",
    "IndexMap",
    "IndexSet",
    "Value",
    "Map",
];

/// Whether a value of `ty` can come from one string: a `String`, a number, a `bool`, a unit
/// enum, or an `Option` or a `Box` of one.
pub(crate) fn from_a_string(ty: &Type) -> bool {
    match ty {
        Type::Paren(inner) => from_a_string(&inner.elem),
        Type::Group(inner) => from_a_string(&inner.elem),
        Type::Path(_) => {
            let Some(segment) = last_segment(ty) else {
                return false;
            };
            if segment.ident == "Option" || segment.ident == "Box" {
                return first_type_argument(segment).is_some_and(from_a_string);
            }
            !NOT_FROM_A_STRING.iter().any(|name| segment.ident == name)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_numbers_and_enums_but_no_collection() {
        let accepted: [Type; 6] = [
            syn::parse_quote!(String),
            syn::parse_quote!(Option<String>),
            syn::parse_quote!(i64),
            syn::parse_quote!(bool),
            syn::parse_quote!(Language),
            syn::parse_quote!(std::option::Option<u32>),
        ];
        assert!(accepted.iter().all(from_a_string));
        let refused: [Type; 8] = [
            syn::parse_quote!(Vec<String>),
            syn::parse_quote!(&str),
            syn::parse_quote!((u8, u8)),
            syn::parse_quote!([u8; 4]),
            syn::parse_quote!(serde_json::Value),
            syn::parse_quote!(Option<HashMap<String, u8>>),
            syn::parse_quote!(impl Display),
            syn::parse_quote!(<T as Trait>::Output),
        ];
        assert!(!refused.iter().any(from_a_string));
    }
}
