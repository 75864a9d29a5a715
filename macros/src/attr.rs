//! Parsing of `#[mcp_tool(...)]` and of `#[arg(...)]` on parameters.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Attribute, Expr, ExprLit, Lit, Path, Token};

use crate::errors::Errors;

pub(crate) const NAME: &str = "name";
pub(crate) const TITLE: &str = "title";
pub(crate) const DESCRIPTION: &str = "description";
pub(crate) const READ_ONLY: &str = "read_only";
pub(crate) const DESTRUCTIVE: &str = "destructive";
pub(crate) const IDEMPOTENT: &str = "idempotent";
pub(crate) const OPEN_WORLD: &str = "open_world";
pub(crate) const CRATE: &str = "crate";
pub(crate) const INPUT_SCHEMA: &str = "input_schema";
pub(crate) const ICON: &str = "icon";
pub(crate) const META: &str = "meta";
pub(crate) const UNDOCUMENTED: &str = "undocumented";
pub(crate) const RENAME: &str = "rename";
pub(crate) const DEFAULT: &str = "default";
pub(crate) const PATTERN: &str = "pattern";
pub(crate) const FORMAT: &str = "format";
pub(crate) const HEADER: &str = "header";
pub(crate) const TAGS: &str = "tags";
pub(crate) const IGNORE_UNKNOWN_ARGUMENTS: &str = "ignore_unknown_arguments";

/// `#[arg(...)]` keys that are schemars' own validation attributes, passed on to the argument's
/// field as `#[schemars(...)]` (and so written exactly as schemars documents them). `pattern`
/// and `format` are read here first: `pattern = "..."` is the usual way to write a pattern, and
/// schemars has no attribute for a format of one's choosing.
const SCHEMARS_KEYS: &[&str] = &[
    "length", "range", "regex", "contains", "email", "url", "ip", "ipv4", "ipv6", "inner",
];

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
const ARG_KEYS: &[&str] = &[
    DESCRIPTION,
    RENAME,
    DEFAULT,
    HEADER,
    "length",
    "range",
    PATTERN,
    FORMAT,
    "email",
    "url",
    "ip",
    "ipv4",
    "ipv6",
    "regex",
    "contains",
    "inner",
];

/// The attribute that marks a parameter as a client argument.
pub(crate) const ARG: &str = "arg";
/// The attribute that marks a parameter as injected by the server.
pub(crate) const INJECT: &str = "inject";
/// schemars' own attribute, accepted on an argument and passed on to its field.
pub(crate) const SCHEMARS: &str = "schemars";

/// A value given in an attribute, with the span of its key for error messages.
pub(crate) struct Spanned<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// Text for the client: a string literal, or any constant `&'static str` expression (a `const`,
/// `concat!(...)`), which the compiler checks where the generated code uses it.
#[derive(Clone)]
pub(crate) enum Text {
    Literal(String),
    Expr(Box<Expr>),
}

impl quote::ToTokens for Text {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Text::Literal(s) => s.to_tokens(tokens),
            Text::Expr(e) => e.to_tokens(tokens),
        }
    }
}

/// `#[mcp_tool(...)]`.
#[derive(Default)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) title: Option<Text>,
    pub(crate) description: Option<Text>,
    pub(crate) read_only: Option<Spanned<bool>>,
    pub(crate) destructive: Option<Spanned<bool>>,
    pub(crate) idempotent: Option<Spanned<bool>>,
    pub(crate) open_world: Option<Spanned<bool>>,
    /// The author says the tool needs no description.
    pub(crate) undocumented: Option<Spanned<bool>>,
    /// Unknown argument keys are ignored (`true`) or refused (`false`); unset, the server
    /// decides.
    pub(crate) ignore_unknown_arguments: Option<Spanned<bool>>,
    pub(crate) icons: Vec<Icon>,
    /// `tags("admin", ...)`: labels the server chooses tools by.
    pub(crate) tags: Vec<syn::LitStr>,
    /// An expression of type `&'static str`: the tool's `_meta` as JSON.
    pub(crate) meta: Option<Expr>,
    /// An expression of type `&'static str`: a hand-written input schema.
    pub(crate) input_schema: Option<Expr>,
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

/// `#[arg(...)]`.
#[derive(Default)]
pub(crate) struct ArgArgs {
    pub(crate) description: Option<Text>,
    pub(crate) rename: Option<Spanned<String>>,
    pub(crate) default: Option<Expr>,
    /// Constraints for the argument's schema, each the inside of a `#[schemars(...)]`.
    pub(crate) constraints: Vec<TokenStream>,
    /// `header = "Region"`: HTTP clients also send the argument as `Mcp-Param-Region`.
    pub(crate) header: Option<Spanned<String>>,
}

/// Parses the arguments of `#[mcp_tool(...)]`, collecting every error.
pub(crate) fn tool_args(tokens: TokenStream) -> syn::Result<ToolArgs> {
    let mut args = ToolArgs::default();
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|meta| {
        let key = key_of(&meta);
        let span = meta
            .path
            .segments
            .first()
            .map_or_else(Span::call_site, |s| s.ident.span());
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
            _ => Err(unknown("mcp_tool", &key, TOOL_KEYS, &meta)),
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
            _ => return Err(unknown("icon", &key, ICON_KEYS, &inner)),
        }
        Ok(())
    })?;
    icon.src = src.ok_or_else(|| meta.error("`icon(...)` needs `src = \"...\"`"))?;
    Ok(icon)
}

/// Parses every `#[arg(...)]` among `attrs`.
pub(crate) fn arg_args(attrs: &[Attribute]) -> syn::Result<ArgArgs> {
    let mut args = ArgArgs::default();
    let mut errors = Errors::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ARG)) {
        // `#[arg]` alone only says "this is an argument".
        if matches!(attr.meta, syn::Meta::Path(_)) {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            let result = match key.as_str() {
                DESCRIPTION => text(&meta, &key, &mut args.description),
                RENAME => string(&meta, &key).and_then(|v| set(&mut args.rename, &key, v)),
                DEFAULT => match value(&meta)? {
                    Value::Expr(expr) if args.default.is_none() => {
                        args.default = Some(expr);
                        Ok(())
                    }
                    Value::Expr(expr) => Err(syn::Error::new_spanned(
                        expr,
                        "duplicate attribute `default`",
                    )),
                    _ => Err(meta.error("`default` expects a value, like `default = 10`")),
                },
                HEADER => string(&meta, &key).and_then(|name| {
                    if !is_header_name(&name.value) {
                        return Err(syn::Error::new(
                            name.span,
                            format!(
                                "invalid header name `{}`; a header name has one or more letters, \
                                 digits and !#$%&'*+-.^_`|~",
                                name.value
                            ),
                        ));
                    }
                    set(&mut args.header, &key, name)
                }),
                PATTERN | FORMAT => match value(&meta)? {
                    Value::Expr(expr) => {
                        let path = &meta.path;
                        args.constraints.push(match key.as_str() {
                            PATTERN => quote::quote!(regex(#path = #expr)),
                            _ => quote::quote!(extend(#FORMAT = #expr)),
                        });
                        Ok(())
                    }
                    _ => Err(meta.error(format!(
                        "`{key}` expects a string, like `{key} = \"{}\"`",
                        if key == PATTERN { "^[a-z]+$" } else { "uuid" }
                    ))),
                },
                key if SCHEMARS_KEYS.contains(&key) => {
                    schemars_item(&meta, key).map(|item| args.constraints.push(item))
                }
                _ => Err(unknown("arg", &key, ARG_KEYS, &meta)),
            };
            errors.ok(result);
            Ok(())
        });
        errors.ok(parsed);
    }
    errors.finish(args)
}

/// One of schemars' validation items, checked here so that a mistake is one error at its
/// tokens (schemars' own would leave the arguments struct without its `JsonSchema` impl, and
/// a second error beside it). Returns the item as written, for `#[schemars(...)]`.
fn schemars_item(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<TokenStream> {
    const FLAGS: &[&str] = &["email", "url", "ip", "ipv4", "ipv6"];
    let path = &meta.path;
    match value(meta)? {
        Value::Absent if FLAGS.contains(&key) => Ok(quote::quote!(#path)),
        Value::List(proc_macro2::TokenTree::Group(list)) if !FLAGS.contains(&key) => {
            schemars_list(key, list.stream())?;
            Ok(quote::quote!(#path #list))
        }
        _ if FLAGS.contains(&key) => Err(meta.error(format!("`{key}` takes no value"))),
        _ => Err(meta.error(format!("`{key}` expects a list, like `{key}(...)`"))),
    }
}

fn schemars_list(key: &str, items: TokenStream) -> syn::Result<()> {
    // `contains` takes a pattern or an expression; schemars reads it.
    if key == "contains" {
        return Ok(());
    }
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|item| {
        let name = key_of(&item);
        let result = match (key, name.as_str()) {
            ("length" | "range", "min" | "max" | "equal") | ("regex", PATTERN) => {
                match value(&item)? {
                    Value::Expr(_) => Ok(()),
                    _ => Err(item.error(format!("`{name}` expects a value, like `{name} = 1`"))),
                }
            }
            ("length" | "range", _) => {
                let _ = value(&item);
                Err(item.error(format!(
                    "unknown item `{name}` in `{key}(...)`; expected `min`, `max` or `equal`"
                )))
            }
            ("regex", _) => {
                let _ = value(&item);
                Err(item.error(format!(
                    "unknown item `{name}` in `regex(...)`; expected `pattern = \"...\"`"
                )))
            }
            ("inner", name) if SCHEMARS_KEYS.contains(&name) => {
                schemars_item(&item, name).map(drop)
            }
            ("inner", _) => Err(unknown("inner", &name, SCHEMARS_KEYS, &item)),
            _ => {
                let _ = value(&item);
                Ok(())
            }
        };
        errors.ok(result);
        Ok(())
    });
    let parsed = parser.parse2(items);
    errors.ok(parsed);
    errors.check()
}

/// RFC 9110 `token`: what an HTTP header name may be made of.
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    let path = &meta.path;
    quote::quote!(#path).to_string().replace(' ', "")
}

fn set<T>(slot: &mut Option<Spanned<T>>, key: &str, value: Spanned<T>) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate(key, value.span));
    }
    *slot = Some(value);
    Ok(())
}

fn duplicate(key: &str, span: Span) -> syn::Error {
    syn::Error::new(span, format!("duplicate attribute `{key}`"))
}

/// A string value, spanned at the literal (what an error about its content points at).
fn string(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Spanned<String>> {
    let message = format!("`{key}` expects a string, like `{key} = \"...\"`");
    match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Ok(Spanned {
            value: s.value(),
            span: s.span(),
        }),
        Value::Expr(other) => Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => Err(syn::Error::new_spanned(list, message)),
        Value::Absent => Err(meta.error(message)),
    }
}

/// `key = "text"` or `key = CONSTANT`, once. A literal of another kind is refused here, where
/// the message can say what is expected; any other expression is left to the compiler.
fn text(meta: &ParseNestedMeta<'_>, key: &str, slot: &mut Option<Text>) -> syn::Result<()> {
    let message = format!("`{key}` expects a string or a constant `&str`, like `{key} = \"...\"`");
    let value = match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Text::Literal(s.value()),
        Value::Expr(literal @ Expr::Lit(_)) => {
            return Err(syn::Error::new_spanned(literal, message));
        }
        Value::Expr(expr) => Text::Expr(Box::new(expr)),
        Value::List(list) => return Err(syn::Error::new_spanned(list, message)),
        Value::Absent => return Err(meta.error(message)),
    };
    if slot.is_some() {
        return Err(meta.error(format!("duplicate attribute `{key}`")));
    }
    *slot = Some(value);
    Ok(())
}

/// `key` alone means true; `key = true` and `key = false` say it explicitly. Spanned at the key.
fn flag(meta: &ParseNestedMeta<'_>, key: &str, span: Span) -> syn::Result<Spanned<bool>> {
    let message = format!("`{key}` expects `true` or `false`, or no value");
    match value(meta)? {
        Value::Absent => Ok(Spanned { value: true, span }),
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        })) => Ok(Spanned {
            value: b.value,
            span,
        }),
        Value::Expr(other) => Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => Err(syn::Error::new_spanned(list, message)),
    }
}

enum Value {
    Absent,
    Expr(Expr),
    List(proc_macro2::TokenTree),
}

/// The value after the key, consumed whatever it is, so that one bad value is one error.
fn value(meta: &ParseNestedMeta<'_>) -> syn::Result<Value> {
    if meta.input.peek(Token![=]) {
        return Ok(Value::Expr(meta.value()?.parse()?));
    }
    if meta.input.peek(syn::token::Paren) {
        return Ok(Value::List(meta.input.parse()?));
    }
    Ok(Value::Absent)
}

fn unknown(attr: &str, key: &str, valid: &[&str], meta: &ParseNestedMeta<'_>) -> syn::Error {
    let expected = valid
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = closest(key, valid)
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default();
    // Skip the value so parsing goes on with the next key.
    let _ = value(meta);
    meta.error(format!(
        "unknown `{attr}` attribute `{key}`; expected one of {expected}{hint}"
    ))
}

/// The valid key nearest to a misspelt one, if it is near enough to be what was meant.
pub(crate) fn closest<'a>(key: &str, valid: &[&'a str]) -> Option<&'a str> {
    valid
        .iter()
        .map(|v| (edit_distance(key, v), *v))
        .filter(|(d, v)| *d <= v.len().max(3) / 3 + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j] + 1).min(row[j + 1] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn errors(tokens: TokenStream) -> Vec<String> {
        match tool_args(tokens) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn flags_and_values() {
        let args = tool_args(quote!(
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
        let args = tool_args(quote!(crate = ::my::tw)).unwrap_or_else(|e| panic!("{e}"));
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

    #[test]
    fn arg_attributes() {
        let f: syn::ItemFn = syn::parse_quote! {
            fn f(#[arg(description = "d")] a: i32, #[arg(descr = "x")] b: i32) {}
        };
        let attrs = |i: usize| match &f.sig.inputs[i] {
            syn::FnArg::Typed(p) => p.attrs.clone(),
            _ => unreachable!(),
        };
        assert!(matches!(
            arg_args(&attrs(0)).unwrap_or_default().description,
            Some(Text::Literal(d)) if d == "d"
        ));
        assert!(arg_args(&attrs(1)).is_err());
    }
}
