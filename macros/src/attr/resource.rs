//! `#[mcp_resource("uri", ...)]`: the URI (or URI template) first, then the keys every kind of
//! item takes and a resource's own: its MIME type, size and annotations.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprLit, Lit, LitStr, Token};

use crate::attr::item::{
    CRATE, ICON, ItemAttributes, META, NAME, SCOPES, TAGS, TITLE, item_key, strings,
};
use crate::attr::key::{
    DESCRIPTION, Value, WithSpan, each_key, integer, set, string, unknown, value,
};

/// The attribute itself.
pub(crate) const MCP_RESOURCE: &str = "mcp_resource";

pub(crate) const MIME_TYPE: &str = "mime_type";
pub(crate) const SIZE: &str = "size";
pub(crate) const AUDIENCE: &str = "audience";
pub(crate) const PRIORITY: &str = "priority";
pub(crate) const LAST_MODIFIED: &str = "last_modified";
pub(crate) const TTL_MS: &str = "ttl_ms";
pub(crate) const CACHE: &str = "cache";

const RESOURCE_KEYS: &[&str] = &[
    NAME,
    TITLE,
    DESCRIPTION,
    MIME_TYPE,
    SIZE,
    AUDIENCE,
    PRIORITY,
    LAST_MODIFIED,
    TTL_MS,
    CACHE,
    ICON,
    META,
    TAGS,
    SCOPES,
    CRATE,
];

/// `#[mcp_resource(...)]`.
pub(crate) struct ResourceAttributes {
    /// The URI, or the URI template, as written: the attribute's first value.
    pub(crate) uri: LitStr,
    /// The keys every kind of item takes.
    pub(crate) item: ItemAttributes,
    pub(crate) mime_type: Option<WithSpan<String>>,
    /// The size in bytes, of a resource without variables.
    pub(crate) size: Option<WithSpan<u64>>,
    /// Who the resource is for, in order, each once.
    pub(crate) audience: Vec<Audience>,
    /// How much it matters, from 0 to 1.
    pub(crate) priority: Option<f64>,
    /// When it last changed, in ISO 8601.
    pub(crate) last_modified: Option<String>,
    /// How long a 2026-07-28 client may reuse a read, in milliseconds.
    pub(crate) ttl_ms: Option<u64>,
    /// `public` or `private`: with whom a read may be shared.
    pub(crate) cache: Option<String>,
}

/// One of a resource's readers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    User,
    Assistant,
}

/// Parses the arguments of `#[mcp_resource(...)]`, collecting every error after the URI.
pub(crate) fn parse(tokens: TokenStream) -> syn::Result<ResourceAttributes> {
    let (uri, rest) = (|input: ParseStream<'_>| {
        let uri: LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                format!(
                    "`#[{MCP_RESOURCE}]` needs the resource's URI first, like \
                     `#[{MCP_RESOURCE}(\"notes://{{id}}\")]`"
                ),
            )
        })?;
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
        Ok((uri, input.parse::<TokenStream>()?))
    })
    .parse2(tokens)?;
    let mut args = ResourceAttributes {
        uri,
        item: ItemAttributes::default(),
        mime_type: None,
        size: None,
        audience: Vec::new(),
        priority: None,
        last_modified: None,
        ttl_ms: None,
        cache: None,
    };
    let mut priority = None;
    let mut last_modified = None;
    let mut ttl_ms = None;
    let mut cache_scope = None;
    each_key(rest, |meta, key, span| {
        if let Some(result) = item_key(meta, key, span, &mut args.item) {
            return result;
        }
        match key {
            MIME_TYPE => mime_type(meta).and_then(|v| set(&mut args.mime_type, key, v)),
            SIZE => integer(meta, SIZE_USAGE).and_then(|v| set(&mut args.size, key, v)),
            TTL_MS => integer(meta, TTL_USAGE).and_then(|v| set(&mut ttl_ms, key, v)),
            CACHE => cache(meta).and_then(|v| set(&mut cache_scope, key, v)),
            AUDIENCE => audience(meta, &mut args.audience),
            PRIORITY => self::priority(meta).and_then(|v| set(&mut priority, key, v)),
            LAST_MODIFIED => timestamp(meta).and_then(|v| set(&mut last_modified, key, v)),
            _ => Err(unknown(MCP_RESOURCE, key, RESOURCE_KEYS, meta)),
        }
    })?;
    args.priority = priority.map(|p| p.value);
    args.last_modified = last_modified.map(|t| t.value);
    args.ttl_ms = ttl_ms.map(|t: WithSpan<u64>| t.value);
    args.cache = cache_scope.map(|c: WithSpan<String>| c.value);
    Ok(args)
}

/// `type/subtype`, each part present.
fn mime_type(meta: &ParseNestedMeta<'_>) -> syn::Result<WithSpan<String>> {
    let mime_type = string(meta, MIME_TYPE)?;
    let valid = mime_type
        .value
        .split_once('/')
        .is_some_and(|(kind, subtype)| {
            !kind.is_empty()
                && !subtype.is_empty()
                && !mime_type.value.contains(char::is_whitespace)
        });
    if !valid {
        return Err(syn::Error::new(
            mime_type.span,
            format!(
                "invalid MIME type `{}`; a MIME type is `type/subtype`, like `text/markdown`",
                mime_type.value
            ),
        ));
    }
    Ok(mime_type)
}

const SIZE_USAGE: &str = "`size` expects a number of bytes, like `size = 1024`";
const TTL_USAGE: &str =
    "`ttl_ms` expects how long clients may reuse a read, in milliseconds, like `ttl_ms = 60000`";

/// `public` or `private`.
fn cache(meta: &ParseNestedMeta<'_>) -> syn::Result<WithSpan<String>> {
    let scope = string(meta, CACHE)?;
    match scope.value.as_str() {
        "public" | "private" => Ok(scope),
        other => Err(syn::Error::new(
            scope.span,
            format!(
                "`cache` is `\"public\"` (any client may share a read) or `\"private\"` (only \
                 the same caller), not `{other}`"
            ),
        )),
    }
}

/// `audience("user", "assistant")`: each role once.
fn audience(meta: &ParseNestedMeta<'_>, audience: &mut Vec<Audience>) -> syn::Result<()> {
    let usage = "`audience` expects a list of roles, like `audience(\"user\", \"assistant\")`";
    for role in strings(meta, usage)? {
        let parsed = match role.value().as_str() {
            "user" => Audience::User,
            "assistant" => Audience::Assistant,
            other => {
                return Err(syn::Error::new(
                    role.span(),
                    format!("unknown role `{other}`; a role is `user` or `assistant`"),
                ));
            }
        };
        if audience.contains(&parsed) {
            return Err(syn::Error::new(
                role.span(),
                format!("duplicate role `{}`", role.value()),
            ));
        }
        audience.push(parsed);
    }
    Ok(())
}

/// A number from 0 to 1.
fn priority(meta: &ParseNestedMeta<'_>) -> syn::Result<WithSpan<f64>> {
    let message = "`priority` expects a number from 0 to 1, like `priority = 0.5`";
    let literal = match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit { lit, .. })) => lit,
        Value::Expr(other) => return Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => return Err(syn::Error::new_spanned(list, message)),
        Value::Absent => return Err(meta.error(message)),
    };
    let number = match &literal {
        Lit::Float(float) => float.base10_parse::<f64>().ok(),
        Lit::Int(int) => int.base10_parse::<u8>().ok().map(f64::from),
        _ => None,
    };
    match number {
        Some(number) if (0.0..=1.0).contains(&number) => Ok(WithSpan {
            value: number,
            span: literal.span(),
        }),
        _ => Err(syn::Error::new(literal.span(), message)),
    }
}

/// An ISO 8601 date, with a time or without: `2025-01-12T15:00:58Z`.
fn timestamp(meta: &ParseNestedMeta<'_>) -> syn::Result<WithSpan<String>> {
    let timestamp = string(meta, LAST_MODIFIED)?;
    let bytes = timestamp.value.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        bytes
            .get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let date = digits(0..4)
        && bytes.get(4) == Some(&b'-')
        && digits(5..7)
        && bytes.get(7) == Some(&b'-')
        && digits(8..10);
    let rest = bytes.get(10..).unwrap_or_default();
    if !date || !(rest.is_empty() || rest.first() == Some(&b'T')) {
        return Err(syn::Error::new(
            timestamp.span,
            format!(
                "`{LAST_MODIFIED}` expects an ISO 8601 date and time, like \
                 `\"2025-01-12T15:00:58Z\"`"
            ),
        ));
    }
    Ok(timestamp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn errors(tokens: TokenStream) -> Vec<String> {
        match parse(tokens) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn the_uri_first_then_keys() {
        let args = parse(quote!(
            "test://a/{id}",
            mime_type = "text/plain",
            audience("user"),
            priority = 1,
            last_modified = "2025-01-12T15:00:58Z"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(args.uri.value(), "test://a/{id}");
        assert_eq!(
            args.mime_type.map(|m| m.value).as_deref(),
            Some("text/plain")
        );
        assert!(args.audience == [Audience::User]);
        assert_eq!(args.priority, Some(1.0));
    }

    #[test]
    fn every_mistake_is_reported() {
        assert_eq!(
            errors(quote!(name = "x")),
            ["`#[mcp_resource]` needs the resource's URI first, like \
              `#[mcp_resource(\"notes://{id}\")]`"]
        );
        assert_eq!(
            errors(quote!(
                "a://b",
                mime_typ = "x",
                priority = 1.5,
                size = "big",
                audience("model"),
                last_modified = "yesterday",
                ttl_ms = -1,
                cache = "shared"
            )),
            [
                "unknown `mcp_resource` attribute `mime_typ`; expected one of `name`, `title`, \
                 `description`, `mime_type`, `size`, `audience`, `priority`, `last_modified`, \
                 `ttl_ms`, `cache`, `icon`, `meta`, `tags`, `scopes`, `crate`; did you mean `mime_type`?",
                "`priority` expects a number from 0 to 1, like `priority = 0.5`",
                "`size` expects a number of bytes, like `size = 1024`",
                "unknown role `model`; a role is `user` or `assistant`",
                "`last_modified` expects an ISO 8601 date and time, like \
                 `\"2025-01-12T15:00:58Z\"`",
                "`ttl_ms` expects how long clients may reuse a read, in milliseconds, like \
                 `ttl_ms = 60000`",
                "`cache` is `\"public\"` (any client may share a read) or `\"private\"` (only the \
                 same caller), not `shared`",
            ]
        );
    }
}
