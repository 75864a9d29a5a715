//! The model of one resource: its function, its `#[mcp_resource(...)]` attributes, its URI
//! read as a template, and the name and description the client sees.

use proc_macro2::Span;
use syn::{Attribute, Signature};

use crate::attr::key::Text;
use crate::attr::resource::ResourceAttributes;
use crate::errors::Errors;
use crate::model::function::{Function, Site};
use crate::model::kind::RESOURCE;
use crate::model::template::Template;

pub(crate) struct Resource<'a> {
    pub(crate) function: Function<'a>,
    pub(crate) attributes: ResourceAttributes,
    /// The URI's variables; `None` when it is not a template, whose error went to `errors`.
    pub(crate) template: Option<Template>,
    /// The MCP name: `name = "..."`, else the function's name.
    pub(crate) name: String,
    pub(crate) name_span: Span,
    /// `description = "..."`, else the doc comment.
    pub(crate) description: Option<Text>,
}

impl<'a> Resource<'a> {
    /// The resource's model; the errors of its URI and its parameters go to `errors`.
    pub(crate) fn parse(
        attributes: ResourceAttributes,
        attrs: &'a [Attribute],
        sig: &'a Signature,
        site: Site<'a>,
        errors: &mut Errors,
    ) -> Resource<'a> {
        let function = Function::parse(&RESOURCE, attrs, sig, site, errors);
        let uri = &attributes.uri;
        let template = errors
            .ok(Template::parse(&uri.value())
                .map_err(|problem| syn::Error::new(uri.span(), problem)));
        let (name, name_span) = function.item_name(attributes.item.name.as_ref());
        let description = function.item_description(attributes.item.description.as_ref());
        Resource {
            function,
            attributes,
            template,
            name,
            name_span,
            description,
        }
    }
}
