//! Where generated code is going, and what it must name there.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::spanned::Spanned;
use syn::{Path, Type};

use crate::generate::tokens::{replace_self, with_static_lifetimes};
use crate::model::function::{Function, Site};

pub(crate) struct Target<'a> {
    /// The facade: `::toolwright`, or the path `crate = ...` gave.
    pub(crate) krate: Path,
    /// The `Self` type of a method.
    pub(crate) owner: Option<&'a Type>,
    /// What kind of item the code makes.
    pub(crate) item: Made,
}

/// The kind of item generated code makes, for the runtime names that differ between kinds.
#[derive(Clone, Copy)]
pub(crate) enum Made {
    Tool,
    Prompt,
    Resource,
}

impl Made {
    /// The variant of the runtime's `Item`, and the trait its marker type implements: `Tool`.
    pub(crate) fn item(self) -> Ident {
        match self {
            Made::Tool => format_ident!("Tool"),
            Made::Prompt => format_ident!("Prompt"),
            Made::Resource => format_ident!("Resource"),
        }
    }

    /// The spec's type: `ToolSpec`.
    pub(crate) fn spec(self) -> Ident {
        format_ident!("{}Spec", self.item())
    }

    /// What the handler returns: `ToolOutput`.
    pub(crate) fn output(self) -> Ident {
        format_ident!("{}Output", self.item())
    }

    /// The struct the client's arguments bind to: `__ToolArgs`.
    pub(crate) fn arguments(self) -> Ident {
        format_ident!("__{}Args", self.item())
    }
}

impl<'a> Target<'a> {
    pub(crate) fn new(krate: Option<&Path>, site: Site<'a>, item: Made) -> Target<'a> {
        let krate = krate
            .cloned()
            .unwrap_or_else(|| syn::parse_quote!(::toolwright));
        let owner = match site {
            Site::Free => None,
            Site::Method { owner } => Some(owner),
        };
        Target { krate, owner, item }
    }

    /// The one module generated code names.
    pub(crate) fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::__private)
    }

    /// A type from the signature, as code outside the impl block must write it.
    pub(crate) fn ty(&self, ty: &Type) -> TokenStream {
        self.outside(ty)
    }

    /// Tokens from inside the impl block (a type, a path like `Self::topics`) as code outside
    /// it must write them: `Self` spelt out.
    pub(crate) fn outside(&self, tokens: &impl ToTokens) -> TokenStream {
        match self.owner {
            Some(owner) => replace_self(tokens.to_token_stream(), owner),
            None => tokens.to_token_stream(),
        }
    }

    /// The handler's output type.
    pub(crate) fn output(&self) -> TokenStream {
        let (private, output) = (self.private(), self.item.output());
        quote!(#private::#output)
    }

    /// `refused`, a `ToolOutput` that refused the arguments or an injected parameter, as the
    /// handler's output.
    pub(crate) fn refused(&self, refused: TokenStream) -> TokenStream {
        match self.item {
            Made::Tool => refused,
            Made::Prompt | Made::Resource => {
                let output = self.output();
                quote!(#output::unbound(#refused))
            }
        }
    }

    /// The function's return type as generated code writes it (`()` when it has none), and
    /// where an error about it points: the type, or the function's name.
    pub(crate) fn returned(&self, function: &Function<'_>) -> (TokenStream, Span) {
        match function.output {
            Some(ty) => (self.ty(&with_static_lifetimes(ty)), ty.span()),
            None => (quote!(()), function.sig.ident.span()),
        }
    }
}
