//! The request headers a POST is served by, found in one pass over its header map, and what
//! `Accept` and `Content-Type` say.
//!
//! Every POST reads up to nine headers (`Host` and `Origin` for the DNS-rebinding guard among
//! them). Looked up one by one, each lookup hashes the name and
//! probes the map; read in one pass, each header is one comparison of its name, and the
//! common `Accept` value one comparison of its bytes.

use http::{HeaderMap, HeaderValue};

use crate::transport::http::headers::Once;

/// What a client accepts in a response.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Accepts {
    pub(crate) json: bool,
    pub(crate) events: bool,
}

impl Accepts {
    const NOTHING: Accepts = Accepts {
        json: false,
        events: false,
    };
    const BOTH: Accepts = Accepts {
        json: true,
        events: true,
    };

    /// What `Accept` headers say: a request without one (or with none readable) accepts
    /// anything.
    pub(crate) fn of<'h>(values: impl IntoIterator<Item = &'h HeaderValue>) -> Accepts {
        let mut accepts = None;
        for value in values {
            accepts = Accepts::with(accepts, value).or(accepts);
        }
        accepts.unwrap_or(Accepts::BOTH)
    }

    /// `so_far`, and what one more `Accept` value says; `None` for a value that is not visible
    /// ASCII (skipped, as if absent).
    fn with(so_far: Option<Accepts>, value: &HeaderValue) -> Option<Accepts> {
        let mut accepts = so_far.unwrap_or(Accepts::NOTHING);
        // What every SDK client sends, compared at once.
        if value.as_bytes() == b"application/json, text/event-stream" {
            return Some(Accepts::BOTH);
        }
        for t in value.to_str().ok()?.split(',') {
            // A value has only visible ASCII, spaces and tabs: ASCII trimming is all it needs.
            let t = t.split_once(';').map_or(t, |(t, _)| t).trim_ascii();
            let any_of = |wanted: &str, family: &str| {
                t.eq_ignore_ascii_case(wanted) || t.eq_ignore_ascii_case(family) || t == "*/*"
            };
            accepts.json |= any_of("application/json", "application/*");
            accepts.events |= any_of("text/event-stream", "text/*");
        }
        Some(accepts)
    }
}

/// Whether a `Content-Type` is JSON (parameters such as `charset` aside).
pub(crate) fn is_json(content_type: Option<&HeaderValue>) -> bool {
    // What every client sends, compared at once.
    if content_type.is_some_and(|v| v.as_bytes() == b"application/json") {
        return true;
    }
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// The headers a POST is served by, borrowed from its header map.
#[derive(Default)]
pub(crate) struct Head<'h> {
    pub(crate) content_type: Option<&'h HeaderValue>,
    pub(crate) content_length: Option<&'h HeaderValue>,
    pub(crate) expect: Option<&'h HeaderValue>,
    accept: Option<Accepts>,
    /// `MCP-Protocol-Version`.
    pub(crate) protocol_version: Once<'h>,
    /// `Mcp-Method` and `Mcp-Name` (2026-07-28).
    pub(crate) method: Once<'h>,
    pub(crate) name: Once<'h>,
    /// What the DNS-rebinding guard checks.
    pub(crate) host: Option<&'h HeaderValue>,
    pub(crate) origin: Option<&'h HeaderValue>,
}

impl<'h> Head<'h> {
    /// The headers of `headers` a POST is served by; of a header given more than once, the
    /// first (a repeated `Accept` is read whole, and the 2026-07-28 headers say that they
    /// were repeated).
    pub(crate) fn read(headers: &'h HeaderMap) -> Head<'h> {
        let mut head = Head::default();
        for (name, value) in headers {
            // Names are lowercase in a `HeaderMap`.
            match name.as_str() {
                "content-type" => first(&mut head.content_type, value),
                "content-length" => first(&mut head.content_length, value),
                "accept" => head.accept = Accepts::with(head.accept, value).or(head.accept),
                "expect" => first(&mut head.expect, value),
                "mcp-protocol-version" => head.protocol_version.add(value),
                "mcp-method" => head.method.add(value),
                "mcp-name" => head.name.add(value),
                "host" => first(&mut head.host, value),
                "origin" => first(&mut head.origin, value),
                _ => {}
            }
        }
        head
    }

    /// What the client accepts in a response.
    pub(crate) fn accepts(&self) -> Accepts {
        self.accept.unwrap_or(Accepts::BOTH)
    }
}

fn first<'h>(slot: &mut Option<&'h HeaderValue>, value: &'h HeaderValue) {
    slot.get_or_insert(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn accept_values_combine_and_an_unreadable_one_is_skipped() {
        let cases: &[(&[(&str, &str)], Accepts)] = &[
            (&[], Accepts::BOTH),
            (
                &[("accept", "application/json, text/event-stream")],
                Accepts::BOTH,
            ),
            (
                &[("accept", "application/json")],
                Accepts {
                    json: true,
                    events: false,
                },
            ),
            (
                &[
                    ("accept", "text/event-stream;q=1"),
                    ("accept", "application/*"),
                ],
                Accepts::BOTH,
            ),
            (&[("accept", "text/html")], Accepts::NOTHING),
            (&[("accept", "*/*")], Accepts::BOTH),
        ];
        for (pairs, expected) in cases {
            let map = headers(pairs);
            assert_eq!(Head::read(&map).accepts(), *expected, "{pairs:?}");
            assert_eq!(Accepts::of(map.get_all("accept")), *expected, "{pairs:?}");
        }
        let mut map = HeaderMap::new();
        map.append("accept", HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap());
        assert_eq!(Head::read(&map).accepts(), Accepts::BOTH);
        map.append("accept", HeaderValue::from_static("application/json"));
        assert!(!Head::read(&map).accepts().events);
    }

    #[test]
    fn one_pass_finds_each_header_and_says_which_were_repeated() {
        let map = headers(&[
            ("content-type", "application/json; charset=utf-8"),
            ("content-length", "12"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "a"),
            ("mcp-name", "b"),
            ("x-other", "1"),
            ("host", "localhost:3000"),
            ("host", "evil.example"),
        ]);
        let head = Head::read(&map);
        assert_eq!(
            head.host.unwrap(),
            "localhost:3000",
            "the first, as a lookup finds"
        );
        assert!(head.origin.is_none());
        assert!(is_json(head.content_type));
        assert_eq!(head.content_length.unwrap(), "12");
        assert!(head.expect.is_none());
        assert!(matches!(head.method, Once::One(v) if v == "tools/call"));
        assert!(matches!(head.name, Once::Repeated));
        assert!(matches!(head.protocol_version, Once::Absent));
        assert!(!is_json(
            headers(&[("content-type", "text/plain")]).get("content-type")
        ));
        assert!(!is_json(None));
    }
}
