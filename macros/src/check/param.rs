//! Rules on a function's parameters: each argument's type (any JSON value for a tool, what a
//! string can hold for a prompt or a resource), the `Args<T>` parameter alone, each injected
//! type once, asking types in `async` tools only, one argument per header.

use syn::{Type, TypeReference};

use crate::check::string_argument::from_a_string;
use crate::errors::Errors;
use crate::model::function::Function;
use crate::model::kind::Kind;
use crate::model::param::{Argument, Injected, Param, ParamKind, asking_type, is_task_start};
use crate::syntax::{compact, is_option};

pub(crate) fn parameters(function: &Function<'_>, errors: &mut Errors) {
    let kind = function.kind;
    let noun = kind.noun;
    let mut injected: Vec<&Type> = Vec::new();
    let arguments = function.arguments().count();
    for param in &function.params {
        match &param.kind {
            ParamKind::Argument(argument) => self::argument(kind, param, argument, errors),
            ParamKind::Whole { .. } => whole(kind, param, arguments, errors),
            ParamKind::Injected(injection) => {
                self::injected(function, param, injection, &injected, errors);
                injected.push(injection.inner);
            }
        }
    }
    let wholes = function
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Whole { .. }))
        .count();
    if wholes > 1 {
        errors.push(syn::Error::new_spanned(
            &function.sig.inputs,
            format!("a {noun} takes at most one `Args<T>`"),
        ));
    }
}

/// `Args<T>`: alone, and only in a tool. The rules between a prompt's or a resource's arguments
/// and its parameters (a template's variables, completions, the listed descriptions) read
/// parameters; a struct's fields are out of the macro's sight.
fn whole(kind: &Kind, param: &Param<'_>, arguments: usize, errors: &mut Errors) {
    let noun = kind.noun;
    let problem = match kind.string_argument {
        Some(each) => {
            format!("a {noun} takes each {each} as a parameter of its own, not `Args<T>`")
        }
        None if arguments > 0 => format!(
            "`Args<T>` takes the whole arguments object, so the {noun} can have no other \
             arguments; move them into `T`"
        ),
        None => return,
    };
    errors.push(syn::Error::new_spanned(param.ty, problem));
}

fn argument(kind: &Kind, param: &Param<'_>, argument: &Argument<'_>, errors: &mut Errors) {
    match kind.string_argument {
        None => {
            argument_type(param.ty, errors);
            if let Some(complete) = &argument.complete {
                errors.push(syn::Error::new_spanned(
                    complete,
                    "`complete` is for prompt arguments and template variables",
                ));
            }
        }
        Some(noun) => string_argument(noun, param, argument, errors),
    }
    if let (Some(default), true) = (&argument.default, is_option(param.ty)) {
        errors.push(syn::Error::new_spanned(
            default,
            "`default` has no effect on an `Option` argument: a missing `Option` is \
             `None`; take the plain type to use a default",
        ));
    }
}

/// A prompt argument or a template variable: a string on the wire, listed by its name and
/// description only, with no schema of its own the client checks against.
fn string_argument(noun: &str, param: &Param<'_>, argument: &Argument<'_>, errors: &mut Errors) {
    if !from_a_string(param.ty) {
        errors.push(syn::Error::new_spanned(
            param.ty,
            format!(
                "a {noun} arrives as a string: `{}` cannot come from one; take a `String` and \
                 parse it, or a number, a `bool`, or a unit enum",
                compact(param.ty)
            ),
        ));
    }
    if let Some(header) = &argument.header {
        errors.push(syn::Error::new(
            header.span,
            format!("`header` is for tool arguments: a {noun} is not sent as an HTTP header"),
        ));
    }
    if let Some(constraint) = argument.constraints.first() {
        errors.push(syn::Error::new_spanned(
            constraint,
            format!(
                "constraints are checked on tool arguments only; check a {noun}'s value in the \
                 function"
            ),
        ));
    }
    if let Some(attribute) = argument.schemars.first() {
        errors.push(syn::Error::new_spanned(
            attribute,
            format!(
                "`#[schemars(...)]` shapes a tool argument's schema; a client sees no schema of \
                 a {noun}"
            ),
        ));
    }
}

/// `before` holds the types injected into the parameters before this one.
fn injected(
    function: &Function<'_>,
    param: &Param<'_>,
    injection: &Injected<'_>,
    before: &[&Type],
    errors: &mut Errors,
) {
    // By its name only when the name is what made it injected: a type of the author's own
    // marked `#[inject]` may share it (the runtime checks those).
    let asking = asking_type(injection.inner).filter(|_| !injection.marked);
    let kind = function.kind;
    if let (Some(asking), false) = (asking, function.is_async()) {
        errors.push(syn::Error::new_spanned(
            param.ty,
            format!(
                "`{asking}` asks the client mid-call, so the {} must be an `async fn`: the \
                 server awaits the client's answer",
                function.kind.noun
            ),
        ));
    }
    if is_task_start(injection.inner) && !injection.marked {
        if !kind.tasks {
            errors.push(syn::Error::new_spanned(
                param.ty,
                format!(
                    "a {} cannot run as a task: take `TaskStart` in a tool",
                    kind.noun
                ),
            ));
        } else if !function.is_async() {
            errors.push(syn::Error::new_spanned(
                param.ty,
                "`TaskStart::start` is awaited, so the tool must be an `async fn`",
            ));
        }
    }
    // Compared as types (syn's structural equality), not as their printed text.
    if before.contains(&injection.inner) {
        errors.push(syn::Error::new_spanned(
            param.ty,
            format!(
                "`{}` is injected twice; take it once",
                compact(injection.inner)
            ),
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
        Type::Slice(s) => format!("`Vec<{}>`", compact(&s.elem)),
        other => format!("`{}`", compact(other)),
    }
}

/// Header names are case-insensitive: two arguments in one `Mcp-Param-` header could not both
/// be sent. Over the parameters that parsed, so it is reported beside the errors of the others.
pub(crate) fn unique_headers(params: &[Param<'_>], errors: &mut Errors) {
    let mut seen: Vec<&str> = Vec::new();
    for header in params
        .iter()
        .filter_map(|p| p.argument().and_then(|a| a.header.as_ref()))
    {
        if seen.iter().any(|s| s.eq_ignore_ascii_case(&header.value)) {
            errors.push(syn::Error::new(
                header.span,
                format!(
                    "two arguments use the header `Mcp-Param-{}` (header names ignore case)",
                    header.value
                ),
            ));
            return;
        }
        seen.push(&header.value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::function::Site;
    use crate::model::kind::TOOL;

    fn messages(f: &syn::ItemFn) -> Vec<String> {
        let mut errors = Errors::new();
        let function = Function::parse(&TOOL, &f.attrs, &f.sig, Site::Free, &mut errors);
        parameters(&function, &mut errors);
        match errors.check() {
            Ok(()) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn injected_types_are_compared_as_types() {
        let twice: syn::ItemFn = syn::parse_quote! {
            async fn f(a: State<Db>, b: &State< Db >, c: State<Other>) {}
        };
        assert_eq!(
            messages(&twice),
            ["`State<Db>` is injected twice; take it once"]
        );
    }
}
