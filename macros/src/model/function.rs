//! The function an item is made from, whatever its kind: where it is defined, its receiver, its
//! parameters told apart, its return type and its doc comment.

use proc_macro2::Span;
use syn::{Attribute, FnArg, Receiver, ReturnType, Signature, Type};

use crate::attr::key::{Text, WithSpan};
use crate::doc;
use crate::errors::Errors;
use crate::model::kind::Kind;
use crate::model::param::{Param, ParamKind};
use crate::syntax::unraw;

/// Where the function is defined, which decides what receiver it may have and how generated
/// code reaches it.
#[derive(Clone, Copy)]
pub(crate) enum Site<'a> {
    /// A free function.
    Free,
    /// A method of an impl block for `owner`.
    Method { owner: &'a Type },
}

pub(crate) struct Function<'a> {
    pub(crate) kind: &'static Kind,
    pub(crate) attrs: &'a [Attribute],
    pub(crate) sig: &'a Signature,
    pub(crate) site: Site<'a>,
    pub(crate) receiver: Option<&'a Receiver>,
    /// The parameters that parsed; the others' errors are reported instead.
    pub(crate) params: Vec<Param<'a>>,
    /// The return type as written, `None` for `()`. Whether it is a `Result` is decided by the
    /// compiler on the type itself (aliases hide it from the syntax), see `select.rs`.
    pub(crate) output: Option<&'a Type>,
    /// The doc comment outside its `# Arguments` section.
    pub(crate) doc: Option<String>,
    /// `# Arguments` entries, kept to check that each names a parameter.
    pub(crate) documented_arguments: Vec<(String, String)>,
}

impl<'a> Function<'a> {
    /// The function's model, with every parameter that parsed; the errors of the others go to
    /// `errors`.
    pub(crate) fn parse(
        kind: &'static Kind,
        attrs: &'a [Attribute],
        sig: &'a Signature,
        site: Site<'a>,
        errors: &mut Errors,
    ) -> Function<'a> {
        let doc = doc::parse(&doc::lines(attrs));
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(r) => receiver = Some(r),
                FnArg::Typed(pat_type) => {
                    if let Some(param) = errors.ok(Param::parse(pat_type, &doc.arguments, kind)) {
                        params.push(param);
                    }
                }
            }
        }
        Function {
            kind,
            attrs,
            sig,
            site,
            receiver,
            params,
            output: match &sig.output {
                ReturnType::Type(_, ty) => Some(ty),
                ReturnType::Default => None,
            },
            doc: doc.description,
            documented_arguments: doc.arguments,
        }
    }

    /// The item's name as the client sees it: `given` (`name = "..."`), else the function's;
    /// and where an error about it points.
    pub(crate) fn item_name(&self, given: Option<&WithSpan<String>>) -> (String, Span) {
        match given {
            Some(name) => (name.value.clone(), name.span),
            None => (unraw(&self.sig.ident), self.sig.ident.span()),
        }
    }

    /// The item's description: `given` (`description = "..."`), else the doc comment.
    pub(crate) fn item_description(&self, given: Option<&Text>) -> Option<Text> {
        given
            .cloned()
            .or_else(|| self.doc.clone().map(Text::Literal))
    }

    pub(crate) fn is_async(&self) -> bool {
        self.sig.asyncness.is_some()
    }

    /// The client arguments, in order.
    pub(crate) fn arguments(&self) -> impl Iterator<Item = &Param<'a>> {
        self.params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Argument(_)))
    }

    /// `T` of the `Args<T>` parameter, if there is one.
    pub(crate) fn whole(&self) -> Option<&'a Type> {
        self.params.iter().find_map(|p| match p.kind {
            ParamKind::Whole { inner } => Some(inner),
            _ => None,
        })
    }
}
