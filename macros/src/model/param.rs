//! A function's parameters, told apart: injected by the server (recognised by its type's name,
//! or marked `#[inject]`), the whole arguments object (`Args<T>`), or one client argument with
//! what `#[arg(...)]` and the doc comment say of it.

use syn::{Attribute, Expr, Ident, Pat, PatType, Type, TypeReference};

use crate::attr::arg::{self, ARG, ArgAttributes, INJECT, SCHEMARS};
use crate::attr::key::{Text, WithSpan};
use crate::model::kind::Kind;
use crate::syntax::{first_type_argument, last_segment, unraw};

/// The types the server injects, recognised by their last path segment.
const INJECTABLE: &[&str] = &[
    "Context",
    "Progress",
    "Cancellation",
    "State",
    "Log",
    "Elicit",
    "Sample",
    "Roots",
    "TaskStart",
    "Auth",
];

/// The injected types that ask the client mid-call, which only an `async` function can await.
const ASKING: &[&str] = &["Elicit", "Sample", "Roots"];

pub(crate) struct Param<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    pub(crate) kind: ParamKind<'a>,
}

pub(crate) enum ParamKind<'a> {
    /// A client argument: one property of the arguments object.
    Argument(Argument<'a>),
    /// `Args<T>`: the whole arguments object.
    Whole { inner: &'a Type },
    /// Filled in by the server.
    Injected(Injected<'a>),
}

pub(crate) struct Argument<'a> {
    pub(crate) description: Option<Text>,
    pub(crate) rename: Option<WithSpan<String>>,
    pub(crate) default: Option<Box<Expr>>,
    /// Schema constraints from `#[arg(...)]`, each the inside of a `#[schemars(...)]`.
    pub(crate) constraints: Vec<proc_macro2::TokenStream>,
    /// `#[schemars(...)]` written on the parameter, passed on to its field as written.
    pub(crate) schemars: Vec<&'a Attribute>,
    /// `header = "Name"`: the argument is also sent as the HTTP header `Mcp-Param-Name`.
    pub(crate) header: Option<WithSpan<String>>,
    /// `complete = path`: the function that suggests values for it.
    pub(crate) complete: Option<syn::Path>,
}

pub(crate) struct Injected<'a> {
    /// The type without its `&`.
    pub(crate) inner: &'a Type,
    pub(crate) reference: Option<&'a TypeReference>,
    /// Marked `#[inject]`, rather than recognised by its name.
    pub(crate) marked: bool,
}

impl<'a> Param<'a> {
    /// One parameter; `documented` is the doc comment's `# Arguments` section, which describes
    /// an argument the `#[arg(description)]` does not.
    pub(crate) fn parse(
        original: &'a PatType,
        documented: &[(String, String)],
        item: &Kind,
    ) -> syn::Result<Param<'a>> {
        let Pat::Ident(pat) = &*original.pat else {
            return Err(syn::Error::new_spanned(
                &original.pat,
                format!(
                    "a {} parameter must be a plain name, like `city: String`; \
                     destructure it inside the function",
                    item.noun
                ),
            ));
        };
        let ident = &pat.ident;
        let ty = &*original.ty;
        let arg_attr = original.attrs.iter().find(|a| a.path().is_ident(ARG));
        let inject_attr = original.attrs.iter().find(|a| a.path().is_ident(INJECT));
        if let (Some(_), Some(inject)) = (arg_attr, inject_attr) {
            return Err(syn::Error::new_spanned(
                inject,
                "a parameter is either a client argument (`#[arg]`) or injected (`#[inject]`), not both",
            ));
        }
        let schemars: Vec<&Attribute> = original
            .attrs
            .iter()
            .filter(|a| a.path().is_ident(SCHEMARS))
            .collect();
        let injected = inject_attr.is_some() || (arg_attr.is_none() && is_injectable(ty));
        let whole = arg_attr.is_none() && args_inner(ty).is_some();
        if let (Some(attribute), true) = (schemars.first(), injected || whole) {
            return Err(syn::Error::new_spanned(
                attribute,
                "`#[schemars(...)]` shapes the schema of one client argument; this parameter is \
                 not one (put it on the fields of an `Args<T>` struct, or mark an argument `#[arg]`)",
            ));
        }
        let kind = if injected {
            let (inner, reference) = match ty {
                Type::Reference(r) => (&*r.elem, Some(r)),
                other => (other, None),
            };
            ParamKind::Injected(Injected {
                inner,
                reference,
                marked: inject_attr.is_some(),
            })
        } else if let (None, Some(inner)) = (arg_attr, args_inner(ty)) {
            ParamKind::Whole { inner }
        } else {
            let ArgAttributes {
                description,
                rename,
                default,
                constraints,
                header,
                complete,
            } = arg::parse(&original.attrs)?;
            let name = unraw(ident);
            let from_doc = documented
                .iter()
                .find(|(n, _)| *n == name || rename.as_ref().is_some_and(|r| r.value == *n))
                .map(|(_, text)| text.clone());
            ParamKind::Argument(Argument {
                description: description.or(from_doc.map(Text::Literal)),
                rename,
                default: default.map(Box::new),
                constraints,
                schemars,
                header,
                complete,
            })
        };
        Ok(Param { ident, ty, kind })
    }

    /// The name the client uses for an argument.
    pub(crate) fn wire_name(&self) -> String {
        match &self.kind {
            ParamKind::Argument(Argument {
                rename: Some(rename),
                ..
            }) => rename.value.clone(),
            _ => unraw(self.ident),
        }
    }

    pub(crate) fn argument(&self) -> Option<&Argument<'a>> {
        match &self.kind {
            ParamKind::Argument(argument) => Some(argument),
            _ => None,
        }
    }
}

fn is_injectable(ty: &Type) -> bool {
    let ty = match ty {
        Type::Reference(r) => &*r.elem,
        other => other,
    };
    last_segment(ty).is_some_and(|s| INJECTABLE.iter().any(|name| s.ident == name))
}

/// The asking type an injected parameter's type names, if it names one.
pub(crate) fn asking_type(ty: &Type) -> Option<&'static str> {
    let segment = last_segment(ty)?;
    ASKING.iter().copied().find(|name| segment.ident == name)
}

/// Whether an injected parameter's type names `TaskStart`.
pub(crate) fn is_task_start(ty: &Type) -> bool {
    last_segment(ty).is_some_and(|segment| segment.ident == "TaskStart")
}

/// `T` of `Args<T>`.
fn args_inner(ty: &Type) -> Option<&Type> {
    let segment = last_segment(ty).filter(|s| s.ident == "Args")?;
    first_type_argument(segment)
}
