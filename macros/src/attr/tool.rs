//! `#[mcp_tool(...)]`: the tool's name, texts, annotations, icons, tags, `_meta`, input schema
//! and the facade's path.

use proc_macro2::TokenStream;
use syn::Expr;

use crate::attr::item::{
    CRATE, ICON, ItemAttributes, META, NAME, SCOPES, TAGS, TITLE, expression, item_key,
};
use crate::attr::key::{DESCRIPTION, WithSpan, each_key, flag, integer, set, string, unknown};

/// The attribute itself.
pub(crate) const MCP_TOOL: &str = "mcp_tool";

pub(crate) const READ_ONLY: &str = "read_only";
pub(crate) const DESTRUCTIVE: &str = "destructive";
pub(crate) const IDEMPOTENT: &str = "idempotent";
pub(crate) const OPEN_WORLD: &str = "open_world";
pub(crate) const INPUT_SCHEMA: &str = "input_schema";
pub(crate) const UNDOCUMENTED: &str = "undocumented";
pub(crate) const IGNORE_UNKNOWN_ARGUMENTS: &str = "ignore_unknown_arguments";
pub(crate) const TASK: &str = "task";
pub(crate) const TASK_TTL_MS: &str = "task_ttl_ms";

const TOOL_KEYS: &[&str] = &[
    NAME,
    TITLE,
    DESCRIPTION,
    READ_ONLY,
    DESTRUCTIVE,
    IDEMPOTENT,
    OPEN_WORLD,
    ICON,
    META,
    INPUT_SCHEMA,
    TAGS,
    SCOPES,
    IGNORE_UNKNOWN_ARGUMENTS,
    UNDOCUMENTED,
    TASK,
    TASK_TTL_MS,
    CRATE,
];

/// How a tool runs as a task (`task = "..."`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskSupport {
    Optional,
    Required,
}

/// `#[mcp_tool(...)]`.
#[derive(Default)]
pub(crate) struct ToolAttributes {
    /// The keys every kind of item takes.
    pub(crate) item: ItemAttributes,
    pub(crate) read_only: Option<WithSpan<bool>>,
    pub(crate) destructive: Option<WithSpan<bool>>,
    pub(crate) idempotent: Option<WithSpan<bool>>,
    pub(crate) open_world: Option<WithSpan<bool>>,
    /// The author says the tool needs no description.
    pub(crate) undocumented: Option<WithSpan<bool>>,
    /// Unknown argument keys are ignored (`true`) or refused (`false`); unset, the server
    /// decides.
    pub(crate) ignore_unknown_arguments: Option<WithSpan<bool>>,
    /// An expression of type `&'static str`: a hand-written input schema.
    pub(crate) input_schema: Option<Expr>,
    /// Whether it runs as a task for clients that can follow one.
    pub(crate) task: Option<WithSpan<TaskSupport>>,
    /// How long its tasks are kept, in milliseconds.
    pub(crate) task_ttl_ms: Option<WithSpan<u64>>,
}

/// Parses the arguments of `#[mcp_tool(...)]`, collecting every error.
pub(crate) fn parse(tokens: TokenStream) -> syn::Result<ToolAttributes> {
    let mut args = ToolAttributes::default();
    each_key(tokens, |meta, key, span| {
        if let Some(result) = item_key(meta, key, span, &mut args.item) {
            return result;
        }
        let slot = match key {
            READ_ONLY => &mut args.read_only,
            DESTRUCTIVE => &mut args.destructive,
            IDEMPOTENT => &mut args.idempotent,
            OPEN_WORLD => &mut args.open_world,
            UNDOCUMENTED => &mut args.undocumented,
            IGNORE_UNKNOWN_ARGUMENTS => &mut args.ignore_unknown_arguments,
            INPUT_SCHEMA => return expression(meta, key, &mut args.input_schema),
            TASK => return task(meta).and_then(|v| set(&mut args.task, key, v)),
            TASK_TTL_MS => {
                let ttl = integer(meta, TASK_TTL_USAGE);
                return ttl.and_then(|v| set(&mut args.task_ttl_ms, key, v));
            }
            _ => return Err(unknown(MCP_TOOL, key, TOOL_KEYS, meta)),
        };
        flag(meta, key, span).and_then(|v| set(slot, key, v))
    })?;
    Ok(args)
}

const TASK_TTL_USAGE: &str = "`task_ttl_ms` expects how long the tool's tasks are kept, in \
                              milliseconds, like `task_ttl_ms = 3600000`";

/// `"optional"` or `"required"`.
fn task(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<WithSpan<TaskSupport>> {
    let support = string(meta, TASK)?;
    let value = match support.value.as_str() {
        "optional" => TaskSupport::Optional,
        "required" => TaskSupport::Required,
        other => {
            return Err(syn::Error::new(
                support.span,
                format!(
                    "`task` is `\"optional\"` (a task for clients that can follow one, a call \
                     for the others) or `\"required\"` (a task only), not `{other}`"
                ),
            ));
        }
    };
    Ok(WithSpan {
        value,
        span: support.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::key::Text;
    use crate::attr::suggest::closest;
    use quote::quote;

    fn errors(tokens: TokenStream) -> Vec<String> {
        match parse(tokens) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn flags_and_values() {
        let args = parse(quote!(
            name = "x",
            read_only,
            open_world = false,
            title = "X"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(args.item.name.unwrap().value, "x");
        assert!(matches!(args.item.title, Some(Text::Literal(t)) if t == "X"));
        assert!(args.read_only.unwrap().value);
        assert!(!args.open_world.unwrap().value);
        assert!(args.destructive.is_none());
        let args = parse(quote!(crate = ::my::tw)).unwrap_or_else(|e| panic!("{e}"));
        assert!(args.item.krate.is_some());
    }

    #[test]
    fn every_error_is_reported() {
        assert_eq!(
            errors(quote!(nmae = "x", read_only = 1, title)),
            vec![
                "unknown `mcp_tool` attribute `nmae`; expected one of `name`, `title`, \
                 `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `icon`, \
                 `meta`, `input_schema`, `tags`, `scopes`, `ignore_unknown_arguments`, `undocumented`, \
                 `task`, `task_ttl_ms`, `crate`; did you mean `name`?",
                "`read_only` expects `true` or `false`, or no value",
                "`title` expects a string or a constant `&str`, like `title = \"...\"`",
            ]
        );
        assert_eq!(
            errors(quote!(name = "a", name = "b")),
            vec!["duplicate attribute `name`"]
        );
    }

    #[test]
    fn suggestions_only_when_close() {
        assert_eq!(closest("readonly", TOOL_KEYS), Some("read_only"));
        assert_eq!(closest("desc", TOOL_KEYS), None);
        assert_eq!(closest("zzzzzz", TOOL_KEYS), None);
    }
}
