//! The model of one tool, read from a function or method and its attributes. Each part keeps
//! a reference to the syntax it came from, so errors and generated code carry its span.

use proc_macro2::Span;
use syn::{
    Attribute, Expr, FnArg, Ident, Pat, Receiver, ReturnType, Signature, Type, TypeReference,
};

use crate::attr::arg::{self, ARG, INJECT, SCHEMARS};
use crate::attr::key::{Text, WithSpan};
use crate::attr::tool::ToolAttributes;
use crate::doc;
use crate::errors::Errors;
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
];

pub(crate) struct Tool<'a> {
    pub(crate) attrs: &'a [Attribute],
    pub(crate) sig: &'a Signature,
    pub(crate) args: ToolAttributes,
    /// The MCP name: `name = "..."`, else the function's name.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) description: Option<Text>,
    pub(crate) receiver: Option<&'a Receiver>,
    pub(crate) params: Vec<Param<'a>>,
    /// The return type as written, `None` for `()`. Whether it is a `Result` is decided by the
    /// compiler on the type itself (aliases hide it from the syntax), see `select.rs`.
    pub(crate) output: Option<&'a Type>,
    /// `# Arguments` entries, kept to check that each names a parameter.
    pub(crate) documented: Vec<(String, String)>,
}

pub(crate) struct Param<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    pub(crate) kind: ParamKind<'a>,
}

pub(crate) enum ParamKind<'a> {
    /// A client argument: one property of the arguments object.
    Argument {
        description: Option<Text>,
        rename: Option<WithSpan<String>>,
        default: Option<Box<Expr>>,
        /// Schema constraints from `#[arg(...)]`, each the inside of a `#[schemars(...)]`.
        constraints: Vec<proc_macro2::TokenStream>,
        /// `#[schemars(...)]` written on the parameter, passed on to its field as written.
        schemars: Vec<&'a Attribute>,
        /// `header = "Name"`: the argument is also sent as the HTTP header `Mcp-Param-Name`.
        header: Option<WithSpan<String>>,
    },
    /// `Args<T>`: the whole arguments object.
    Whole { inner: &'a Type },
    /// Filled in by the server; `inner` is the type without its `&`.
    Injected {
        inner: &'a Type,
        reference: Option<&'a TypeReference>,
        /// Marked `#[inject]`, rather than recognised by its name.
        marked: bool,
    },
}

/// Header names are case-insensitive: two arguments in one `Mcp-Param-` header could not both
/// be sent.
fn unique_headers(params: &[Param<'_>]) -> syn::Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for param in params {
        if let ParamKind::Argument {
            header: Some(header),
            ..
        } = &param.kind
        {
            if seen.iter().any(|s| s.eq_ignore_ascii_case(&header.value)) {
                return Err(syn::Error::new(
                    header.span,
                    format!(
                        "two arguments use the header `Mcp-Param-{}` (header names ignore case)",
                        header.value
                    ),
                ));
            }
            seen.push(&header.value);
        }
    }
    Ok(())
}

impl<'a> Tool<'a> {
    pub(crate) fn parse(
        args: ToolAttributes,
        attrs: &'a [Attribute],
        sig: &'a Signature,
    ) -> syn::Result<Tool<'a>> {
        let mut errors = Errors::new();
        let doc = doc::parse(&doc::lines(attrs));
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(r) => receiver = Some(r),
                FnArg::Typed(pat_type) => {
                    if let Some(param) = errors.ok(Param::parse(pat_type, &doc.arguments)) {
                        params.push(param);
                    }
                }
            }
        }
        errors.ok(unique_headers(&params));
        let (name, name_span) = match &args.name {
            Some(name) => (name.value.clone(), name.span),
            None => (unraw(&sig.ident), sig.ident.span()),
        };
        let description = args
            .description
            .clone()
            .or(doc.description.map(Text::Literal));
        let tool = Tool {
            attrs,
            sig,
            name,
            name_span,
            description,
            receiver,
            params,
            output: match &sig.output {
                ReturnType::Type(_, ty) => Some(ty),
                ReturnType::Default => None,
            },
            documented: doc.arguments,
            args,
        };
        errors.finish(tool)
    }

    pub(crate) fn is_async(&self) -> bool {
        self.sig.asyncness.is_some()
    }

    pub(crate) fn arguments(&self) -> impl Iterator<Item = &Param<'a>> {
        self.params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Argument { .. }))
    }

    pub(crate) fn whole(&self) -> Option<&'a Type> {
        self.params.iter().find_map(|p| match p.kind {
            ParamKind::Whole { inner } => Some(inner),
            _ => None,
        })
    }
}

impl<'a> Param<'a> {
    fn parse(
        original: &'a syn::PatType,
        documented: &[(String, String)],
    ) -> syn::Result<Param<'a>> {
        let Pat::Ident(pat) = &*original.pat else {
            return Err(syn::Error::new_spanned(
                &original.pat,
                "a tool parameter must be a plain name, like `city: String`; \
                 destructure it inside the function",
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
            ParamKind::Injected {
                inner,
                reference,
                marked: inject_attr.is_some(),
            }
        } else if let (None, Some(inner)) = (arg_attr, args_inner(ty)) {
            ParamKind::Whole { inner }
        } else {
            let parsed = arg::parse(&original.attrs)?;
            let name = unraw(ident);
            let from_doc = documented
                .iter()
                .find(|(n, _)| *n == name || parsed.rename.as_ref().is_some_and(|r| r.value == *n))
                .map(|(_, text)| text.clone());
            ParamKind::Argument {
                description: parsed.description.or(from_doc.map(Text::Literal)),
                rename: parsed.rename,
                default: parsed.default.map(Box::new),
                constraints: parsed.constraints,
                schemars,
                header: parsed.header,
            }
        };
        Ok(Param { ident, ty, kind })
    }

    /// The name the client uses for an argument.
    pub(crate) fn wire_name(&self) -> String {
        match &self.kind {
            ParamKind::Argument {
                rename: Some(rename),
                ..
            } => rename.value.clone(),
            _ => unraw(self.ident),
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

/// The injected types that ask the client mid-call, which only an `async` tool can await.
const ASKING: &[&str] = &["Elicit", "Sample", "Roots"];

/// The asking type an injected parameter's type names, if it names one.
pub(crate) fn asking_type(ty: &Type) -> Option<&'static str> {
    let segment = last_segment(ty)?;
    ASKING.iter().copied().find(|name| segment.ident == name)
}

/// `T` of `Args<T>`.
fn args_inner(ty: &Type) -> Option<&Type> {
    let segment = last_segment(ty).filter(|s| s.ident == "Args")?;
    first_type_argument(segment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(f: &syn::ItemFn) -> Tool<'_> {
        Tool::parse(ToolAttributes::default(), &f.attrs, &f.sig).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn descriptions_prefer_the_attribute() {
        let f: syn::ItemFn = syn::parse_quote! {
            /// Greets.
            ///
            /// # Arguments
            /// * `who` - From the docs.
            /// * `how` - Also from the docs.
            fn greet(who: String, #[arg(description = "From the attribute.")] how: String) {}
        };
        let tool = parse(&f);
        assert_eq!(tool.name, "greet");
        let literal = |text: &Option<Text>| match text {
            Some(Text::Literal(s)) => Some(s.clone()),
            _ => None,
        };
        assert_eq!(literal(&tool.description).as_deref(), Some("Greets."));
        let descriptions: Vec<_> = tool
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Argument { description, .. } => literal(description),
                _ => panic!("an argument"),
            })
            .collect();
        assert_eq!(
            descriptions,
            [
                Some("From the docs.".into()),
                Some("From the attribute.".into())
            ]
        );
    }

    #[test]
    fn injected_parameters_are_told_apart_by_type() {
        let f: syn::ItemFn = syn::parse_quote! {
            fn f(
                cx: &Context, p: Progress, c: toolwright::Cancellation, s: State<Db>,
                #[inject] conn: Conn, #[arg] context: Context, q: String, w: Args<Query>,
            ) {}
        };
        let kinds: Vec<&str> = parse(&f)
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Argument { .. } => "argument",
                ParamKind::Whole { .. } => "whole",
                ParamKind::Injected { .. } => "injected",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "injected", "injected", "injected", "injected", "injected", "argument", "argument",
                "whole"
            ]
        );
    }
}
