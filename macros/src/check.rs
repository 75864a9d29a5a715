//! Checks across the parts of a tool that parsing alone cannot make.

use syn::spanned::Spanned;
use syn::{ReceiverKind, Type, TypeReference};

use crate::ast::{ParamKind, Tool, asking_type};
use crate::errors::Errors;
use crate::syntax::{is_option, unraw};

/// Where the tool is defined, which decides what receiver it may have.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// A free function.
    Free,
    /// A method of a `#[mcp_tool_type]` impl block.
    Method,
}

/// Every problem with the tool, combined; `Ok` when it can be generated.
pub(crate) fn tool(tool: &Tool<'_>, site: Site) -> syn::Result<()> {
    let mut errors = Errors::new();
    name(tool, &mut errors);
    description(tool, &mut errors);
    annotations(tool, &mut errors);
    signature(tool, &mut errors);
    receiver(tool, site, &mut errors);
    parameters(tool, &mut errors);
    documented_arguments(tool, &mut errors);
    errors.finish(())
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
    let opted_out = tool.args.undocumented.as_ref().is_some_and(|u| u.value);
    if tool.description.is_none() && !opted_out {
        errors.push(syn::Error::new_spanned(
            &tool.sig.ident,
            "a tool needs a description, which the model reads to choose it: write a doc \
             comment (`/// ...`) or `#[mcp_tool(description = \"...\")]`, or opt out with \
             `#[mcp_tool(undocumented)]`",
        ));
    }
}

/// Only a real contradiction: a read-only tool that may destroy. Hints that agree with
/// `read_only` (`destructive = false`, `idempotent`) are sent, since clients apply the
/// pessimistic defaults to any hint that is absent.
fn annotations(tool: &Tool<'_>, errors: &mut Errors) {
    let args = &tool.args;
    let read_only = args.read_only.as_ref().is_some_and(|r| r.value);
    if let Some(destructive) = args.destructive.as_ref().filter(|d| read_only && d.value) {
        errors.push(syn::Error::new(
            destructive.span,
            "a `read_only` tool cannot be `destructive`; remove `destructive`, or `read_only` if \
             the tool changes anything",
        ));
    }
}

fn signature(tool: &Tool<'_>, errors: &mut Errors) {
    let sig = tool.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push(syn::Error::new_spanned(
            &sig.generics,
            "a tool cannot be generic: its schemas are fixed when it is registered; use concrete types",
        ));
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.push(syn::Error::new(
            token.span,
            "a tool cannot be `unsafe fn`: a client calls it with arguments it chooses",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            "a tool cannot be variadic",
        ));
    }
    if let Some(ty) = tool.output.and_then(impl_trait_in) {
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

fn receiver(tool: &Tool<'_>, site: Site, errors: &mut Errors) {
    match (site, tool.receiver) {
        (Site::Free, Some(receiver)) => errors.push(syn::Error::new_spanned(
            receiver,
            "`#[mcp_tool]` on a method needs `#[mcp_tool_type]` on its impl block",
        )),
        (Site::Method, None) => errors.push(syn::Error::new_spanned(
            &tool.sig.ident,
            "a tool method takes `&self`; a function without `self` can be a free `#[mcp_tool]` fn",
        )),
        (Site::Method, Some(receiver))
            if !matches!(receiver.kind, ReceiverKind::Reference(_, _, None)) =>
        {
            errors.push(syn::Error::new_spanned(
                receiver,
                "a tool method takes `&self`: one instance serves concurrent calls, so it cannot \
                 be consumed or borrowed mutably; use interior mutability (a `Mutex`) for state",
            ));
        }
        _ => {}
    }
}

fn parameters(tool: &Tool<'_>, errors: &mut Errors) {
    let mut injected: Vec<&Type> = Vec::new();
    let arguments = tool.arguments().count();
    for param in &tool.params {
        match &param.kind {
            ParamKind::Argument { default, .. } => {
                argument_type(param.ty, errors);
                if let (Some(default), true) = (default, is_option(param.ty)) {
                    errors.push(syn::Error::new_spanned(
                        default,
                        "`default` has no effect on an `Option` argument: a missing `Option` is \
                         `None`; take the plain type to use a default",
                    ));
                }
            }
            ParamKind::Whole { .. } if arguments > 0 => errors.push(syn::Error::new_spanned(
                param.ty,
                "`Args<T>` takes the whole arguments object, so the tool can have no other \
                 arguments; move them into `T`",
            )),
            ParamKind::Whole { .. } => {}
            ParamKind::Injected { inner, marked, .. } => {
                // By its name only when the name is what made it injected: a type of the
                // author's own marked `#[inject]` may share it (the runtime checks those).
                let asking = asking_type(inner).filter(|_| !marked);
                if let (Some(asking), false) = (asking, tool.is_async()) {
                    errors.push(syn::Error::new_spanned(
                        param.ty,
                        format!(
                            "`{asking}` asks the client mid-call, so the tool must be an \
                             `async fn`: the server awaits the client's answer"
                        ),
                    ));
                }
                // Compared as types (syn's structural equality), not as their printed text.
                if injected.contains(inner) {
                    let written = quote::quote!(#inner).to_string().replace(' ', "");
                    errors.push(syn::Error::new_spanned(
                        param.ty,
                        format!("`{written}` is injected twice; take it once"),
                    ));
                }
                injected.push(*inner);
            }
        }
    }
    let wholes = tool
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Whole { .. }))
        .count();
    if wholes > 1 {
        errors.push(syn::Error::new_spanned(
            &tool.sig.inputs,
            "a tool takes at most one `Args<T>`",
        ));
    }
}

fn argument_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::ImplTrait(_) => errors.push(syn::Error::new_spanned(
            ty,
            "an argument cannot be `impl Trait`: its input schema needs the concrete type",
        )),
        Type::Reference(reference) => errors.push(syn::Error::new_spanned(
            ty,
            format!(
                "an argument cannot be a reference: it is deserialized from the client's JSON; \
                 take {} instead",
                owned_suggestion(reference)
            ),
        )),
        _ => {}
    }
}

fn owned_suggestion(reference: &TypeReference) -> String {
    let inner = &reference.elem;
    match &**inner {
        Type::Path(p) if p.path.is_ident("str") => "`String`".to_owned(),
        Type::Slice(s) => {
            let elem = &s.elem;
            format!(
                "`Vec<{}>`",
                quote::quote!(#elem).to_string().replace(' ', "")
            )
        }
        other => format!("`{}`", quote::quote!(#other).to_string().replace(' ', "")),
    }
}

/// Each `# Arguments` entry must name a parameter: a stale entry documents nothing.
fn documented_arguments(tool: &Tool<'_>, errors: &mut Errors) {
    for (name, _) in &tool.documented {
        let known = tool
            .params
            .iter()
            .any(|p| unraw(p.ident) == *name || p.wire_name() == *name);
        if known {
            continue;
        }
        let span = tool
            .attrs
            .iter()
            .find(|a| {
                a.path().is_ident("doc")
                    && quote::quote!(#a).to_string().contains(&format!("`{name}`"))
            })
            .map_or_else(|| tool.sig.ident.span(), |a| a.span());
        errors.push(syn::Error::new(
            span,
            format!("the `# Arguments` section documents `{name}`, which is not a parameter of this tool"),
        ));
    }
}
