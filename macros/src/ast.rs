//! The model of one tool, read from the function and its attributes. Each part keeps a
//! reference to the syntax it came from, so errors and generated code carry its span.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, Ident, ItemFn, Pat, PathArguments, ReturnType, Type};

use crate::attr::{self, Errors, ToolArgs};
use crate::doc;

pub(crate) struct Tool<'a> {
    pub(crate) original: &'a ItemFn,
    pub(crate) args: ToolArgs,
    /// The MCP name: `name = "..."`, else the function's name.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    pub(crate) description: Option<String>,
    pub(crate) params: Vec<Param<'a>>,
    pub(crate) output: Output<'a>,
    /// `# Arguments` entries, kept to check that each names a parameter.
    pub(crate) documented: Vec<(String, String)>,
}

pub(crate) struct Param<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    pub(crate) description: Option<String>,
}

/// What the function returns, as far as the syntax tells.
pub(crate) enum Output<'a> {
    /// `T`, or nothing (`()`).
    Value(Option<&'a Type>),
    /// `Result<T, E>` or an alias of it (`anyhow::Result<T>`): `T` is shaped, `E` mapped.
    Result(&'a Type),
}

impl<'a> Tool<'a> {
    pub(crate) fn parse(args: ToolArgs, original: &'a ItemFn) -> syn::Result<Tool<'a>> {
        let mut errors = Errors::default();
        let doc = doc::parse(&doc::lines(&original.attrs));
        let params = original
            .sig
            .inputs
            .iter()
            .filter_map(|input| errors.push(Param::parse(input, &doc.arguments)))
            .collect();
        let (name, name_span) = match &args.name {
            Some(name) => (name.value.clone(), name.span),
            None => (original.sig.ident.unraw_string(), original.sig.ident.span()),
        };
        let description = args
            .description
            .as_ref()
            .map(|d| d.value.clone())
            .or(doc.description);
        let tool = Tool {
            original,
            name,
            name_span,
            description,
            params,
            output: Output::parse(&original.sig.output),
            documented: doc.arguments,
            args,
        };
        errors.finish(tool)
    }

    pub(crate) fn is_async(&self) -> bool {
        self.original.sig.asyncness.is_some()
    }
}

impl<'a> Param<'a> {
    fn parse(input: &'a FnArg, documented: &[(String, String)]) -> syn::Result<Param<'a>> {
        let original = match input {
            FnArg::Typed(pat_type) => pat_type,
            FnArg::Receiver(receiver) => {
                return Err(syn::Error::new(
                    receiver.span(),
                    "`#[mcp_tool]` takes a free function; a method with `self` cannot be a tool here",
                ));
            }
        };
        let Pat::Ident(pat) = &*original.pat else {
            return Err(syn::Error::new(
                original.pat.span(),
                "a tool parameter must be a plain name, like `city: String`; \
                 destructure it inside the function",
            ));
        };
        let ident = &pat.ident;
        let from_attr = attr::arg_args(&original.attrs)?
            .description
            .map(|d| d.value);
        let name = ident.unraw_string();
        let from_doc = documented
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| text.clone());
        Ok(Param {
            ident,
            ty: &original.ty,
            description: from_attr.or(from_doc),
        })
    }
}

impl<'a> Output<'a> {
    fn parse(output: &'a ReturnType) -> Output<'a> {
        let ReturnType::Type(_, ty) = output else {
            return Output::Value(None);
        };
        match result_ok_type(ty) {
            Some(ok) => Output::Result(ok),
            None => Output::Value(Some(ty)),
        }
    }

    /// The type whose values become the result's content.
    pub(crate) fn value_type(&self) -> Option<&'a Type> {
        match self {
            Output::Value(ty) => *ty,
            Output::Result(ok) => Some(ok),
        }
    }
}

/// `T` of a path type whose last segment is `Result<T, ...>`.
fn result_ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(ok) => Some(ok),
        _ => None,
    }
}

trait UnrawString {
    fn unraw_string(&self) -> String;
}

impl UnrawString for Ident {
    fn unraw_string(&self) -> String {
        let s = self.to_string();
        s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok_type(ty: Type) -> Option<String> {
        result_ok_type(&ty).map(|t| quote::quote!(#t).to_string())
    }

    #[test]
    fn results_and_aliases() {
        assert_eq!(
            ok_type(syn::parse_quote!(Result<u8, E>)).as_deref(),
            Some("u8")
        );
        assert_eq!(
            ok_type(syn::parse_quote!(anyhow::Result<Vec<u8>>)).as_deref(),
            Some("Vec < u8 >")
        );
        assert_eq!(
            ok_type(syn::parse_quote!(std::result::Result<(), String>)).as_deref(),
            Some("()")
        );
        assert_eq!(ok_type(syn::parse_quote!(CallToolResult)), None);
        assert_eq!(ok_type(syn::parse_quote!(Option<u8>)), None);
    }

    #[test]
    fn descriptions_prefer_the_attribute() {
        let f: ItemFn = syn::parse_quote! {
            /// Greets.
            ///
            /// # Arguments
            /// * `who` - From the docs.
            /// * `how` - Also from the docs.
            fn greet(who: String, #[arg(description = "From the attribute.")] how: String) {}
        };
        let tool = Tool::parse(ToolArgs::default(), &f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tool.name, "greet");
        assert_eq!(tool.description.as_deref(), Some("Greets."));
        let descriptions: Vec<_> = tool
            .params
            .iter()
            .map(|p| p.description.as_deref())
            .collect();
        assert_eq!(
            descriptions,
            [Some("From the docs."), Some("From the attribute.")]
        );
    }
}
