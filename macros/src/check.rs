//! Checks across the parts of a tool that parsing alone cannot make.

use syn::spanned::Spanned;
use syn::{Type, TypeReference};

use crate::ast::Tool;
use crate::attr::Errors;

/// Every problem with the tool, combined; `Ok` when it can be generated.
pub(crate) fn tool(tool: &Tool<'_>) -> syn::Result<()> {
    let mut errors = Errors::default();
    name(tool, &mut errors);
    annotations(tool, &mut errors);
    signature(tool, &mut errors);
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
        errors.add(syn::Error::new(
            tool.name_span,
            format!(
                "invalid tool name `{name}`; a tool name has 1 to 128 characters, each a letter, \
                 a digit, `_`, `-` or `.`"
            ),
        ));
    }
}

fn annotations(tool: &Tool<'_>, errors: &mut Errors) {
    let args = &tool.args;
    if !args.read_only.as_ref().is_some_and(|r| r.value) {
        return;
    }
    for (key, set) in [
        ("destructive", &args.destructive),
        ("idempotent", &args.idempotent),
    ] {
        if let Some(set) = set {
            errors.add(syn::Error::new(
                set.span,
                format!(
                    "`{key}` has no meaning on a `read_only` tool; remove `{key}`, or `read_only` \
                     if the tool changes anything"
                ),
            ));
        }
    }
}

fn signature(tool: &Tool<'_>, errors: &mut Errors) {
    let sig = &tool.original.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.add(syn::Error::new_spanned(
            &sig.generics,
            "a tool cannot be generic: its schemas are fixed when it is registered; use concrete types",
        ));
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.add(syn::Error::new(
            token.span,
            "a tool cannot be `unsafe fn`: a client calls it with arguments it chooses",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.add(syn::Error::new(
            variadic.span(),
            "a tool cannot be variadic",
        ));
    }
    for param in &tool.params {
        argument_type(param.ty, errors);
    }
    if let Some(ty) = tool.output.value_type()
        && let Type::ImplTrait(_) = ty
    {
        errors.add(syn::Error::new_spanned(
            ty,
            "a tool cannot return `impl Trait`: its output schema needs the concrete type",
        ));
    }
}

fn argument_type(ty: &Type, errors: &mut Errors) {
    match ty {
        Type::ImplTrait(_) => errors.add(syn::Error::new_spanned(
            ty,
            "an argument cannot be `impl Trait`: its input schema needs the concrete type",
        )),
        Type::Reference(reference) => errors.add(syn::Error::new_spanned(
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
        if tool
            .params
            .iter()
            .any(|p| p.ident.to_string().trim_start_matches("r#") == name)
        {
            continue;
        }
        let span = tool
            .original
            .attrs
            .iter()
            .find(|a| {
                a.path().is_ident("doc")
                    && quote::quote!(#a).to_string().contains(&format!("`{name}`"))
            })
            .map_or_else(|| tool.original.sig.ident.span(), |a| a.span());
        errors.add(syn::Error::new(
            span,
            format!("the `# Arguments` section documents `{name}`, which is not a parameter of this tool"),
        ));
    }
}
