//! The model of one prompt: its function, its `#[mcp_prompt(...)]` attributes, and the name
//! and description the client sees.

use proc_macro2::Span;
use syn::{Attribute, Signature};

use crate::attr::item::ItemAttributes;
use crate::attr::key::Text;
use crate::errors::Errors;
use crate::model::function::{Function, Site};
use crate::model::kind::PROMPT;

pub(crate) struct Prompt<'a> {
    pub(crate) function: Function<'a>,
    pub(crate) attributes: ItemAttributes,
    /// The MCP name: `name = "..."`, else the function's name.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    /// `description = "..."`, else the doc comment.
    pub(crate) description: Option<Text>,
}

impl<'a> Prompt<'a> {
    /// The prompt's model; its parameters' errors go to `errors`.
    pub(crate) fn parse(
        attributes: ItemAttributes,
        attrs: &'a [Attribute],
        sig: &'a Signature,
        site: Site<'a>,
        errors: &mut Errors,
    ) -> Prompt<'a> {
        let function = Function::parse(&PROMPT, attrs, sig, site, errors);
        let (name, name_span) = function.item_name(attributes.name.as_ref());
        let description = function.item_description(attributes.description.as_ref());
        Prompt {
            function,
            attributes,
            name,
            name_span,
            description,
        }
    }
}
