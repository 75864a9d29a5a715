//! `#[mcp_tool(...)]`: the tool's name, texts, annotations, icons, tags, `_meta`, input schema
//! and the facade's path.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Expr, Path, Token};

use crate::attr::key::{
    DESCRIPTION, Text, Value, WithSpan, duplicate, flag, key_of, key_span, set, string, text,
    unknown, value,
};
use crate::errors::Errors;

/// The attribute itself.
pub(crate) const MCP_TOOL: &str = "mcp_tool";

pub(crate) const NAME: &str = "name";
pub(crate) const TITLE: &str = "title";
pub(crate) const READ_ONLY: &str = "read_only";
pub(crate) const DESTRUCTIVE: &str = "destructive";
pub(crate) const IDEMPOTENT: &str = "idempotent";
pub(crate) const OPEN_WORLD: &str = "open_world";
pub(crate) const CRATE: &str = "crate";
pub(crate) const INPUT_SCHEMA: &str = "input_schema";
pub(crate) const ICON: &str = "icon";
pub(crate) const META: &str = "meta";
pub(crate) const UNDOCUMENTED: &str = "undocumented";
pub(crate) const TAGS: &str = "tags";
pub(crate) const IGNORE_UNKNOWN_ARGUMENTS: &str = "ignore_unknown_arguments";

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
    IGNORE_UNKNOWN_ARGUMENTS,
    UNDOCUMENTED,
    CRATE,
];
const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

/// `#[mcp_tool(...)]`.
#[derive(Default)]
pub(crate) struct ToolAttributes {
    pub(crate) name: Option<WithSpan<String>>,
    pub(crate) title: Option<Text>,
    pub(crate) description: Option<Text>,
    pub(crate) read_only: Option<WithSpan<bool>>,
    pub(crate) destructive: Option<WithSpan<bool>>,
    pub(crate) idempotent: Option<WithSpan<bool>>,
    pub(crate) open_world: Option<WithSpan<bool>>,
    /// The author says the tool needs no description.
    pub(crate) undocumented: Option<WithSpan<bool>>,
    /// Unknown argument keys are ignored (`true`) or refused (`false`); unset, the server
    /// decides.
    pub(crate) ignore_unknown_arguments: Option<WithSpan<bool>>,
    pub(crate) icons: Vec<Icon>,
    /// `tags("admin", ...)`: labels the server chooses tools by.
    pub(crate) tags: Vec<syn::LitStr>,
    /// An expression of type `&'static str`: the tool's `_meta` as JSON.
    pub(crate) meta: Option<Expr>,
    /// An expression of type `&'static str`: a hand-written input schema.
    pub(crate) input_schema: Option<Expr>,
    /// `crate = path`: where generated code finds the facade.
    pub(crate) krate: Option<Path>,
}

/// `icon = "src"` or `icon(src = "...", mime_type = "...", sizes = "48x48 96x96", theme = "...")`.
#[derive(Default)]
pub(crate) struct Icon {
    pub(crate) src: String,
    pub(crate) mime_type: Option<String>,
    pub(crate) sizes: Vec<String>,
    pub(crate) theme: Option<String>,
}

/// Parses the arguments of `#[mcp_tool(...)]`, collecting every error.
pub(crate) fn parse(tokens: TokenStream) -> syn::Result<ToolAttributes> {
    let mut args = ToolAttributes::default();
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|meta| {
        let key = key_of(&meta);
        let span = key_span(&meta);
        let result = match key.as_str() {
            NAME => string(&meta, &key).and_then(|v| set(&mut args.name, &key, v)),
            TITLE => text(&meta, &key, &mut args.title),
            DESCRIPTION => text(&meta, &key, &mut args.description),
            READ_ONLY => flag(&meta, &key, span).and_then(|v| set(&mut args.read_only, &key, v)),
            DESTRUCTIVE => {
                flag(&meta, &key, span).and_then(|v| set(&mut args.destructive, &key, v))
            }
            IDEMPOTENT => flag(&meta, &key, span).and_then(|v| set(&mut args.idempotent, &key, v)),
            OPEN_WORLD => flag(&meta, &key, span).and_then(|v| set(&mut args.open_world, &key, v)),
            UNDOCUMENTED => {
                flag(&meta, &key, span).and_then(|v| set(&mut args.undocumented, &key, v))
            }
            IGNORE_UNKNOWN_ARGUMENTS => flag(&meta, &key, span)
                .and_then(|v| set(&mut args.ignore_unknown_arguments, &key, v)),
            ICON => icon(&meta).map(|icon| args.icons.push(icon)),
            TAGS => tags(&meta, &mut args.tags),
            META => expression(&meta, &key, &mut args.meta),
            INPUT_SCHEMA => expression(&meta, &key, &mut args.input_schema),
            CRATE => {
                let path: Path = meta.value()?.parse()?;
                if args.krate.replace(path).is_some() {
                    Err(duplicate(&key, span))
                } else {
                    Ok(())
                }
            }
            _ => Err(unknown(MCP_TOOL, &key, TOOL_KEYS, &meta)),
        };
        errors.ok(result);
        Ok(())
    });
    let parsed = parser.parse2(tokens);
    errors.ok(parsed);
    errors.finish(args)
}

/// `key = <expression>`, once.
fn expression(meta: &ParseNestedMeta<'_>, key: &str, slot: &mut Option<Expr>) -> syn::Result<()> {
    match value(meta)? {
        Value::Expr(expr) if slot.is_none() => {
            *slot = Some(expr);
            Ok(())
        }
        Value::Expr(expr) => Err(syn::Error::new_spanned(
            expr,
            format!("duplicate attribute `{key}`"),
        )),
        _ => Err(meta.error(format!(
            "`{key}` expects a JSON text, like `{key} = include_str!(\"file.json\")`"
        ))),
    }
}

/// `tags("a", "b")`: string literals, none empty, none twice (across repeated `tags(...)`).
fn tags(meta: &ParseNestedMeta<'_>, tags: &mut Vec<syn::LitStr>) -> syn::Result<()> {
    let usage = "`tags` expects a list of strings, like `tags(\"admin\", \"billing\")`";
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(usage));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    // All of it, so that a mistake inside is one error, not one more for what follows it.
    let inside: TokenStream = content.parse()?;
    let listed = syn::punctuated::Punctuated::<syn::LitStr, Token![,]>::parse_terminated
        .parse2(inside)
        .map_err(|e| syn::Error::new(e.span(), usage))?;
    for tag in listed {
        let value = tag.value();
        if value.trim().is_empty() {
            return Err(syn::Error::new(tag.span(), "a tag cannot be empty"));
        }
        if tags.iter().any(|t| t.value() == value) {
            return Err(syn::Error::new(
                tag.span(),
                format!("duplicate tag `{value}`"),
            ));
        }
        tags.push(tag);
    }
    Ok(())
}

fn icon(meta: &ParseNestedMeta<'_>) -> syn::Result<Icon> {
    if meta.input.peek(Token![=]) {
        let src = string(meta, ICON)?;
        return Ok(Icon {
            src: src.value,
            ..Icon::default()
        });
    }
    let mut icon = Icon::default();
    let mut src = None;
    meta.parse_nested_meta(|inner| {
        let key = key_of(&inner);
        let value = string(&inner, &key)?.value;
        match key.as_str() {
            "src" => src = Some(value),
            "mime_type" => icon.mime_type = Some(value),
            "sizes" => icon.sizes = value.split_whitespace().map(str::to_owned).collect(),
            "theme" => icon.theme = Some(value),
            _ => return Err(unknown(ICON, &key, ICON_KEYS, &inner)),
        }
        Ok(())
    })?;
    icon.src = src.ok_or_else(|| meta.error("`icon(...)` needs `src = \"...\"`"))?;
    Ok(icon)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert_eq!(args.name.unwrap().value, "x");
        assert!(matches!(args.title, Some(Text::Literal(t)) if t == "X"));
        assert!(args.read_only.unwrap().value);
        assert!(!args.open_world.unwrap().value);
        assert!(args.destructive.is_none());
        let args = parse(quote!(crate = ::my::tw)).unwrap_or_else(|e| panic!("{e}"));
        assert!(args.krate.is_some());
    }

    #[test]
    fn every_error_is_reported() {
        assert_eq!(
            errors(quote!(nmae = "x", read_only = 1, title)),
            vec![
                "unknown `mcp_tool` attribute `nmae`; expected one of `name`, `title`, \
                 `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `icon`, \
                 `meta`, `input_schema`, `tags`, `ignore_unknown_arguments`, `undocumented`, \
                 `crate`; did you mean `name`?",
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
