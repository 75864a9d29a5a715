//! The keys every kind of item takes (`#[mcp_tool]`, `#[mcp_prompt]`, `#[mcp_resource]`): its
//! name, texts, icons, tags, scopes, `_meta` and the facade's path, read alike whatever the
//! attribute.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Expr, Path, Token};

use crate::attr::key::{
    DESCRIPTION, Text, Value, WithSpan, duplicate, key_of, set, string, text, unknown, value,
};

pub(crate) const NAME: &str = "name";
pub(crate) const TITLE: &str = "title";
pub(crate) const ICON: &str = "icon";
pub(crate) const META: &str = "meta";
pub(crate) const TAGS: &str = "tags";
pub(crate) const SCOPES: &str = "scopes";
pub(crate) const CRATE: &str = "crate";

const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

/// What every kind of item's attribute may say.
#[derive(Default)]
pub(crate) struct ItemAttributes {
    pub(crate) name: Option<WithSpan<String>>,
    pub(crate) title: Option<Text>,
    pub(crate) description: Option<Text>,
    pub(crate) icons: Vec<Icon>,
    /// `tags("admin", ...)`: labels the server chooses items by.
    pub(crate) tags: Vec<syn::LitStr>,
    /// `scopes("notes:write", ...)`: what a caller must have been granted to see and use it.
    pub(crate) scopes: Vec<syn::LitStr>,
    /// An expression of type `&'static str`: the item's `_meta` as JSON.
    pub(crate) meta: Option<Expr>,
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

/// Reads `key` into `attributes` when it is one every kind takes; `None` when it is not, for
/// the attribute's own keys to be tried.
pub(crate) fn item_key(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    attributes: &mut ItemAttributes,
) -> Option<syn::Result<()>> {
    Some(match key {
        NAME => string(meta, key).and_then(|v| set(&mut attributes.name, key, v)),
        TITLE => text(meta, key, &mut attributes.title),
        DESCRIPTION => text(meta, key, &mut attributes.description),
        ICON => icon(meta).map(|icon| attributes.icons.push(icon)),
        TAGS => tags(meta, &mut attributes.tags),
        SCOPES => scopes(meta, &mut attributes.scopes),
        META => expression(meta, key, &mut attributes.meta),
        CRATE => meta
            .value()
            .and_then(|v| v.parse::<Path>())
            .and_then(|path| match attributes.krate.replace(path) {
                Some(_) => Err(duplicate(key, span)),
                None => Ok(()),
            }),
        _ => return None,
    })
}

/// `key = <expression>`, once: a JSON text the compiler checks is a `&'static str`.
pub(crate) fn expression(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    slot: &mut Option<Expr>,
) -> syn::Result<()> {
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

/// `key("a", "b")`: the string literals of a list, as written, or `usage` as the error.
pub(crate) fn strings(meta: &ParseNestedMeta<'_>, usage: &str) -> syn::Result<Vec<syn::LitStr>> {
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
    Ok(listed.into_iter().collect())
}

/// `tags("a", "b")`: string literals, none empty, none twice (across repeated `tags(...)`).
fn tags(meta: &ParseNestedMeta<'_>, tags: &mut Vec<syn::LitStr>) -> syn::Result<()> {
    let usage = "`tags` expects a list of strings, like `tags(\"admin\", \"billing\")`";
    for tag in strings(meta, usage)? {
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

/// `scopes("a", "b")`: OAuth scope tokens (RFC 6749 §3.3: visible ASCII but `"` and `\\`, no
/// spaces), none twice (across repeated `scopes(...)`).
fn scopes(meta: &ParseNestedMeta<'_>, scopes: &mut Vec<syn::LitStr>) -> syn::Result<()> {
    let usage =
        "`scopes` expects a list of OAuth scopes, like `scopes(\"notes:read\", \"notes:write\")`";
    for scope in strings(meta, usage)? {
        let value = scope.value();
        if value.is_empty() {
            return Err(syn::Error::new(scope.span(), "a scope cannot be empty"));
        }
        if !value
            .bytes()
            .all(|b| matches!(b, 0x21 | 0x23..=0x5b | 0x5d..=0x7e))
        {
            return Err(syn::Error::new(
                scope.span(),
                format!(
                    "invalid scope `{value}`; a scope is one or more visible ASCII characters, \
                     without spaces, `\"` or `\\`"
                ),
            ));
        }
        if scopes.iter().any(|s| s.value() == value) {
            return Err(syn::Error::new(
                scope.span(),
                format!("duplicate scope `{value}`"),
            ));
        }
        scopes.push(scope);
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
