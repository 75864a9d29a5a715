//! The model of one tool: its function, its `#[mcp_tool(...)]` attributes, and the name and
//! description the client sees.

use proc_macro2::Span;
use syn::{Attribute, Signature};

use crate::attr::key::Text;
use crate::attr::tool::ToolAttributes;
use crate::errors::Errors;
use crate::model::function::{Function, Site};
use crate::model::kind::TOOL;

pub(crate) struct Tool<'a> {
    pub(crate) function: Function<'a>,
    pub(crate) attributes: ToolAttributes,
    /// The MCP name: `name = "..."`, else the function's name.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    /// `description = "..."`, else the doc comment.
    pub(crate) description: Option<Text>,
}

impl<'a> Tool<'a> {
    /// The tool's model; its parameters' errors go to `errors`.
    pub(crate) fn parse(
        attributes: ToolAttributes,
        attrs: &'a [Attribute],
        sig: &'a Signature,
        site: Site<'a>,
        errors: &mut Errors,
    ) -> Tool<'a> {
        let function = Function::parse(&TOOL, attrs, sig, site, errors);
        let (name, name_span) = function.item_name(attributes.item.name.as_ref());
        let description = function.item_description(attributes.item.description.as_ref());
        Tool {
            function,
            attributes,
            name,
            name_span,
            description,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::param::ParamKind;

    fn parse(f: &syn::ItemFn) -> Tool<'_> {
        let mut errors = Errors::new();
        let tool = Tool::parse(
            ToolAttributes::default(),
            &f.attrs,
            &f.sig,
            Site::Free,
            &mut errors,
        );
        errors.check().unwrap_or_else(|e| panic!("{e}"));
        tool
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
            .function
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Argument(argument) => literal(&argument.description),
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
                cx: &Context, p: Progress, c: toolwright::context::Cancellation, s: State<Db>,
                #[inject] conn: Conn, #[arg] context: Context, q: String, w: Args<Query>,
            ) {}
        };
        let kinds: Vec<&str> = parse(&f)
            .function
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Argument(_) => "argument",
                ParamKind::Whole { .. } => "whole",
                ParamKind::Injected(_) => "injected",
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
