//! The request headers a 2026-07-28 POST must carry, checked against its body (SEP-2243):
//! `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (the tool of `tools/call`, the prompt of
//! `prompts/get`, the URI of `resources/read`, the task of `tasks/get`, `tasks/update` and
//! `tasks/cancel`) and one
//! `Mcp-Param-<Name>` for each argument the tool marks `x-mcp-header`. A missing, repeated,
//! malformed or mismatched one is `400` with `-32020` (HeaderMismatch).
//!
//! Values are compared after removing optional whitespace around them, and after decoding the
//! `=?base64?…?=` form (strict, padded Base64 of UTF-8); header names are case-insensitive,
//! values case-sensitive. An argument that is absent or `null` needs no header, and a header
//! sent for one is ignored.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use http::header::AsHeaderName;
use http::{HeaderMap, HeaderValue};
use serde_json::Value;

use crate::tools::headers::{HeaderKind, ParamHeader};

/// What is wrong with a header, said as the detail of a `-32020` error.
pub(crate) struct Mismatch(pub(crate) String);

/// A header that may be given once: absent, its one value, or given more than once.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) enum Once<'h> {
    #[default]
    Absent,
    One(&'h HeaderValue),
    Repeated,
}

impl<'h> Once<'h> {
    /// The header `name` of `headers`.
    pub(crate) fn of<K: AsHeaderName>(headers: &'h HeaderMap, name: K) -> Once<'h> {
        let mut once = Once::Absent;
        for value in headers.get_all(name) {
            once.add(value);
        }
        once
    }

    /// One more value of the header.
    pub(crate) fn add(&mut self, value: &'h HeaderValue) {
        *self = match self {
            Once::Absent => Once::One(value),
            _ => Once::Repeated,
        };
    }

    /// The value, trimmed: `None` when absent, an error (naming the header as `name`) when
    /// repeated or not visible ASCII.
    pub(crate) fn text(self, name: impl std::fmt::Display) -> Result<Option<&'h str>, Mismatch> {
        let first = match self {
            Once::Absent => return Ok(None),
            Once::One(value) => value,
            Once::Repeated => {
                return Err(Mismatch(format!("{name} header appears more than once")));
            }
        };
        let text = first
            .to_str()
            .map_err(|_| Mismatch(format!("{name} header value has invalid characters")))?;
        Ok(Some(text.trim_matches([' ', '\t'])))
    }

    /// The header (named `name`) must be present and equal `expected` (after decoding).
    pub(crate) fn expect(
        self,
        name: impl std::fmt::Display,
        expected: &str,
    ) -> Result<(), Mismatch> {
        // What every client sends: the value as the body says it, nothing to trim or decode.
        if let Once::One(value) = self
            && value.as_bytes() == expected.as_bytes()
            && said_as_is(expected)
        {
            return Ok(());
        }
        let Some(raw) = self.text(&name)? else {
            return Err(Mismatch(format!("{name} header is required")));
        };
        let got = decode(raw).map_err(|why| Mismatch(format!("{name} header {why}")))?;
        if got != expected {
            return Err(Mismatch(format!(
                "{name} header value '{got}' does not match body value '{expected}'"
            )));
        }
        Ok(())
    }
}

/// Whether a header value that is `text` byte for byte says `text`: it is what a header may
/// carry (visible ASCII, spaces and tabs; anything else must come encoded), has no whitespace
/// to trim around it, and is not in the encoded form. A header value holds no control
/// character, so of what a header may not carry only raw UTF-8 is left to rule out (checked a
/// word at a time).
fn said_as_is(text: &str) -> bool {
    let edge = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t'));
    let bytes = text.as_bytes();
    let encoded = text.starts_with("=?base64?") && text.ends_with("?=");
    text.is_ascii() && !(edge(bytes.first()) || edge(bytes.last()) || encoded)
}

/// Each argument the tool marks `x-mcp-header` that the body carries must come with its
/// `Mcp-Param-<Name>` header, of the same value.
pub(crate) fn params(
    headers: &HeaderMap,
    declared: &[ParamHeader],
    arguments: &Value,
) -> Result<(), Mismatch> {
    for param in declared {
        let name = format!("Mcp-Param-{}", param.name);
        let body = param
            .path
            .iter()
            .try_fold(arguments, |value, key| value.get(key))
            .filter(|value| !value.is_null());
        let Some(body) = body else { continue };
        let Some(raw) = Once::of(headers, name.as_str()).text(&name)? else {
            return Err(Mismatch(format!("{name} header is required")));
        };
        let got = decode(raw).map_err(|why| Mismatch(format!("{name} header {why}")))?;
        let same = match (param.kind, body) {
            (HeaderKind::String, Value::String(s)) => got == *s,
            (HeaderKind::Boolean, Value::Bool(b)) => got == if *b { "true" } else { "false" },
            (HeaderKind::Integer, Value::Number(n)) => {
                let header = got.parse::<f64>().ok();
                header.is_some() && header == n.as_f64()
            }
            _ => *got == *body.to_string(),
        };
        if !same {
            return Err(Mismatch(format!(
                "{name} header value '{got}' does not match body value '{}'",
                match body {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                }
            )));
        }
    }
    Ok(())
}

/// A header value as the body would say it: the `=?base64?…?=` form decoded strictly, any
/// other value as it is (borrowed: the usual case costs nothing).
pub(crate) fn decode(value: &str) -> Result<Cow<'_, str>, &'static str> {
    let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    else {
        return Ok(Cow::Borrowed(value));
    };
    let bytes = BASE64.decode(encoded).map_err(|_| "is not valid Base64")?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| "is not valid UTF-8 once decoded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_equal_to_the_body_is_compared_as_the_slow_path_would() {
        let header = |bytes: &[u8]| HeaderValue::from_bytes(bytes).unwrap();
        fn once(value: &HeaderValue) -> Once<'_> {
            let mut once = Once::Absent;
            once.add(value);
            once
        }
        let tool = header(b"add");
        assert!(once(&tool).expect("mcp-name", "add").is_ok());
        // Raw UTF-8 is refused even when it equals the body: it must come encoded.
        let raw = header("caf\u{e9}".as_bytes());
        assert!(once(&raw).expect("mcp-name", "caf\u{e9}").is_err());
        let encoded = header(b"=?base64?Y2Fmw6k=?=");
        assert!(once(&encoded).expect("mcp-name", "caf\u{e9}").is_ok());
        // Whitespace around the value is trimmed; a value that is the encoded form decodes.
        let spaced = header(b" add\t");
        assert!(once(&spaced).expect("mcp-name", "add").is_ok());
        let sentinel = header(b"=?base64?YQ==?=");
        assert!(
            once(&sentinel)
                .expect("mcp-name", "=?base64?YQ==?=")
                .is_err()
        );
        let mut twice = once(&tool);
        twice.add(&tool);
        assert!(twice.expect("mcp-name", "add").is_err());
    }

    #[test]
    fn base64_is_strict_and_only_within_the_sentinel() {
        assert_eq!(decode("=?base64?SGVsbG8=?=").as_deref(), Ok("Hello"));
        assert!(decode("=?base64?SGVsbG8?=").is_err(), "missing padding");
        assert!(decode("=?base64?SGVs!!!bG8=?=").is_err());
        assert_eq!(decode("SGVsbG8=").as_deref(), Ok("SGVsbG8="));
        assert_eq!(
            decode("=?base64?SGVsbG8=").as_deref(),
            Ok("=?base64?SGVsbG8=")
        );
        assert_eq!(
            decode("=?BASE64?SGVsbG8=?=").as_deref(),
            Ok("=?BASE64?SGVsbG8=?=")
        );
    }

    #[test]
    fn param_headers_against_the_body() {
        let declared = [
            ParamHeader {
                name: "Region".into(),
                path: vec!["region".into()],
                kind: HeaderKind::String,
            },
            ParamHeader {
                name: "Limit".into(),
                path: vec!["opts".into(), "limit".into()],
                kind: HeaderKind::Integer,
            },
        ];
        let mut headers = HeaderMap::new();
        let arguments = serde_json::json!({"region": "eu", "opts": {"limit": 42}});
        assert!(params(&headers, &declared, &arguments).is_err(), "missing");
        headers.insert("mcp-param-region", " eu ".parse().unwrap());
        headers.insert("mcp-param-limit", "42".parse().unwrap());
        assert!(params(&headers, &declared, &arguments).is_ok());
        headers.insert("mcp-param-limit", "42.0".parse().unwrap());
        assert!(
            params(&headers, &declared, &arguments).is_ok(),
            "compared as numbers"
        );
        headers.insert("mcp-param-region", "us".parse().unwrap());
        assert!(params(&headers, &declared, &arguments).is_err(), "mismatch");
        assert!(
            params(
                &HeaderMap::new(),
                &declared,
                &serde_json::json!({"region": null})
            )
            .is_ok()
        );
    }
}
