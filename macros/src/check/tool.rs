//! The rules of one tool: its name, its description, its annotations, what it returns, and the
//! rules of its function and parameters.

use syn::Type;

use crate::check::checked::Checked;
use crate::check::function;
use crate::check::param;
use crate::errors::Errors;
use crate::model::param::{ParamKind, is_task_start};
use crate::model::tool::Tool;

/// Checks a tool. `errors` holds what building its model found: the rules between parameters
/// are reported with those, over the parameters that parsed; the rules of the whole tool run
/// only once every part of it parsed, so a broken part is not reported again as a broken whole.
pub(crate) fn check<'a>(tool: Tool<'a>, mut errors: Errors) -> syn::Result<Checked<Tool<'a>>> {
    param::unique_headers(&tool.function.params, &mut errors);
    errors.check()?;
    let mut errors = Errors::new();
    name(&tool, &mut errors);
    description(&tool, &mut errors);
    annotations(&tool, &mut errors);
    task(&tool, &mut errors);
    function::signature(&tool.function, &mut errors);
    output(&tool, &mut errors);
    function::receiver(&tool.function, &mut errors);
    param::parameters(&tool.function, &mut errors);
    function::documented_arguments(&tool.function, &mut errors);
    errors.finish(Checked::new(tool))
}

/// The 2025-11-25 guidance: 1 to 128 characters of `A-Z a-z 0-9 _ - .`.
fn name(tool: &Tool<'_>, errors: &mut Errors) {
    let name = &tool.name;
    let valid_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if name.is_empty() || name.chars().count() > 128 || !valid_chars {
        errors.push(syn::Error::new(
            tool.name_span,
            format!(
                "invalid tool name `{name}`; a tool name has 1 to 128 characters, each a letter, \
                 a digit, `_`, `-` or `.`"
            ),
        ));
    }
}

/// Clients show the description to the model, which picks tools by it; the conformance suite
/// requires one on every tool.
fn description(tool: &Tool<'_>, errors: &mut Errors) {
    let opted_out = tool
        .attributes
        .undocumented
        .as_ref()
        .is_some_and(|u| u.value);
    if tool.description.is_none() && !opted_out {
        errors.push(syn::Error::new_spanned(
            &tool.function.sig.ident,
            "a tool needs a description, which the model reads to choose it: write a doc \
             comment (`/// ...`) or `#[mcp_tool(description = \"...\")]`, or opt out with \
             `#[mcp_tool(undocumented)]`",
        ));
    }
}

/// A task's keys go together: a time to live, or a `TaskStart`, only for a tool that runs as a
/// task.
fn task(tool: &Tool<'_>, errors: &mut Errors) {
    let attributes = &tool.attributes;
    let add = "add `task = \"optional\"` (a task for clients that can follow one) or \
               `task = \"required\"`";
    if let Some(ttl) = &attributes.task_ttl_ms {
        if attributes.task.is_none() {
            errors.push(syn::Error::new(
                ttl.span,
                format!("`task_ttl_ms` is for a tool that runs as a task: {add}"),
            ));
        } else if ttl.value == 0 {
            errors.push(syn::Error::new(
                ttl.span,
                "a task is kept at least 1 ms: `task_ttl_ms` must be positive",
            ));
        }
    }
    if attributes.task.is_some() {
        return;
    }
    for param in &tool.function.params {
        if let ParamKind::Injected(injection) = &param.kind
            && !injection.marked
            && is_task_start(injection.inner)
        {
            errors.push(syn::Error::new_spanned(
                param.ty,
                format!("`TaskStart` is for a tool that runs as a task: {add}"),
            ));
        }
    }
}

/// Only a real contradiction: a read-only tool that may destroy. Hints that agree with
/// `read_only` (`destructive = false`, `idempotent`) are sent, since clients apply the
/// pessimistic defaults to any hint that is absent.
fn annotations(tool: &Tool<'_>, errors: &mut Errors) {
    let attributes = &tool.attributes;
    let read_only = attributes.read_only.as_ref().is_some_and(|r| r.value);
    if let Some(destructive) = attributes
        .destructive
        .as_ref()
        .filter(|d| read_only && d.value)
    {
        errors.push(syn::Error::new(
            destructive.span,
            "a `read_only` tool cannot be `destructive`; remove `destructive`, or `read_only` if \
             the tool changes anything",
        ));
    }
}

fn output(tool: &Tool<'_>, errors: &mut Errors) {
    if let Some(ty) = tool.function.output.and_then(impl_trait_in) {
        errors.push(syn::Error::new_spanned(
            ty,
            "a tool cannot return `impl Trait`: its output schema needs the concrete type",
        ));
    }
}

/// The first `impl Trait` anywhere in a type (`Result<impl Serialize, E>` as much as
/// `impl Serialize`).
fn impl_trait_in(ty: &Type) -> Option<&Type> {
    match ty {
        Type::ImplTrait(_) => Some(ty),
        Type::Reference(r) => impl_trait_in(&r.elem),
        Type::Paren(p) => impl_trait_in(&p.elem),
        Type::Array(a) => impl_trait_in(&a.elem),
        Type::Slice(s) => impl_trait_in(&s.elem),
        Type::Tuple(t) => t.elems.iter().find_map(impl_trait_in),
        Type::Path(p) => p
            .path
            .segments
            .iter()
            .find_map(|segment| match &segment.arguments {
                syn::PathArguments::AngleBracketed(args) => {
                    args.args.iter().find_map(|arg| match arg {
                        syn::GenericArgument::Type(t) => impl_trait_in(t),
                        _ => None,
                    })
                }
                _ => None,
            }),
        _ => None,
    }
}
