//! Where generated code is going, and what it must name there.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Path, Type};

use crate::generate::tokens::replace_self;
use crate::model::function::Site;

pub(crate) struct Target<'a> {
    /// The facade: `::toolwright`, or the path `crate = ...` gave.
    pub(crate) krate: Path,
    /// The `Self` type of a method.
    pub(crate) owner: Option<&'a Type>,
}

impl<'a> Target<'a> {
    pub(crate) fn new(krate: Option<&Path>, site: Site<'a>) -> Target<'a> {
        let krate = krate
            .cloned()
            .unwrap_or_else(|| syn::parse_quote!(::toolwright));
        let owner = match site {
            Site::Free => None,
            Site::Method { owner } => Some(owner),
        };
        Target { krate, owner }
    }

    /// The one module generated code names.
    pub(crate) fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::__private)
    }

    /// A type from the signature, as code outside the impl block must write it.
    pub(crate) fn ty(&self, ty: &Type) -> TokenStream {
        match self.owner {
            Some(owner) => replace_self(ty.to_token_stream(), owner),
            None => ty.to_token_stream(),
        }
    }
}
