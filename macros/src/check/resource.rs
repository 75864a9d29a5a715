//! The rules of one resource: its name, its URI's variables against its parameters, what only a
//! resource without variables may say, and the rules of its function and parameters.

use syn::spanned::Spanned;

use crate::check::checked::Checked;
use crate::check::function;
use crate::check::param;
use crate::errors::Errors;
use crate::model::resource::Resource;
use crate::model::template::Template;
use crate::syntax::is_option;

/// Checks a resource. `errors` holds what building its model found (a URI that is not a
/// template among it); the rules of the whole resource run only once every part of it parsed.
pub(crate) fn check<'a>(
    resource: Resource<'a>,
    errors: Errors,
) -> syn::Result<Checked<Resource<'a>>> {
    errors.check()?;
    let mut errors = Errors::new();
    if resource.name.trim().is_empty() {
        errors.push(syn::Error::new(
            resource.name_span,
            "a resource name cannot be empty",
        ));
    }
    if let Some(template) = &resource.template {
        variables(&resource, template, &mut errors);
        size(&resource, template, &mut errors);
    }
    function::signature(&resource.function, &mut errors);
    function::receiver(&resource.function, &mut errors);
    param::parameters(&resource.function, &mut errors);
    function::documented_arguments(&resource.function, &mut errors);
    errors.finish(Checked::new(resource))
}

/// Every variable is a parameter, and every parameter the client gives is a variable: the
/// values a read binds are the template's, so a variable without a parameter would be dropped
/// and a parameter without a variable never given.
fn variables(resource: &Resource<'_>, template: &Template, errors: &mut Errors) {
    let uri = &resource.attributes.uri;
    let function = &resource.function;
    for variable in &template.variables {
        if !function.arguments().any(|p| p.wire_name() == *variable) {
            // A name no identifier can have (`a.b`, `%XX`) is a parameter's by `rename`.
            let parameter = match syn::parse_str::<syn::Ident>(variable) {
                Ok(_) => format!("`{variable}: String` (or a number, a `bool`, a unit enum)"),
                Err(_) => format!("marked `#[arg(rename = \"{variable}\")]`"),
            };
            errors.push(syn::Error::new(
                uri.span(),
                format!(
                    "the URI template `{}` has the variable `{variable}`, which no parameter \
                     takes; add a parameter {parameter}",
                    uri.value()
                ),
            ));
        }
    }
    for param in function.arguments() {
        let name = param.wire_name();
        // A query variable a URI may leave out must be one the function can go without.
        let optional = param.argument().is_some_and(|a| a.default.is_some()) || is_option(param.ty);
        if template.optional.contains(&name) && !optional {
            errors.push(syn::Error::new(
                param.ty.span(),
                format!(
                    "`{name}` is a query variable of `{}`, which a URI may leave out: take it \
                     as an `Option`, or give it `#[arg(default = ...)]`",
                    uri.value()
                ),
            ));
        }
        if !template.variables.contains(&name) {
            let has = match template.variables.as_slice() {
                [] => "has no variables".to_owned(),
                variables => format!("has the variables `{}`", variables.join("`, `")),
            };
            errors.push(syn::Error::new(
                param.ident.span(),
                format!(
                    "the parameter `{name}` is not a variable of the URI `{}`, which {has}; add \
                     `{{{name}}}` to the URI, or mark the parameter `#[inject]` if the server \
                     provides it",
                    uri.value()
                ),
            ));
        }
    }
}

/// A size is one resource's: a template's reads differ.
fn size(resource: &Resource<'_>, template: &Template, errors: &mut Errors) {
    if let (Some(size), false) = (&resource.attributes.size, template.is_direct()) {
        errors.push(syn::Error::new(
            size.span,
            format!(
                "`size` is for a resource without variables: each read of the template `{}` \
                 has its own size",
                resource.attributes.uri.value()
            ),
        ));
    }
}
