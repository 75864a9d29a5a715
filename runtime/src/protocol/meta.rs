//! A request's `_meta`, read in the same pass as its params: the keys the server acts on, and
//! every entry as it was written (a call's record keeps the whole object for its handler).
//!
//! A 2026-07-28 request's `_meta` is most of its bytes. Kept raw and then read again for its
//! keys, it was scanned twice on every request; read here as a map whose values are kept raw,
//! it is scanned once, and the object is written back (its entries, in order, without the
//! whitespace between them) only for a call, whose record outlives the request.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// `_meta` key naming the revision of a 2026-07-28 request.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of a 2026-07-28 request's client capabilities.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of a 2026-07-28 request's client.
pub(crate) const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of a 2026-07-28 request's log level.
const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key of a request's progress token.
const PROGRESS_TOKEN: &str = "progressToken";

/// The `_meta` of a request that sent one as an object. The revision, the capabilities, the
/// progress token or the log level given twice, or a log level that is not a string, makes it
/// unreadable as a whole (see [`Read`]); of the client's info given twice, the last counts.
#[derive(Default, Debug)]
pub(crate) struct Meta<'a> {
    pub(crate) protocol_version: Option<&'a RawValue>,
    pub(crate) client_capabilities: Option<&'a RawValue>,
    pub(crate) client_info: Option<&'a RawValue>,
    pub(crate) progress_token: Option<&'a RawValue>,
    pub(crate) log_level: Option<Cow<'a, str>>,
    entries: Vec<(Cow<'a, str>, &'a RawValue)>,
}

impl<'a> Meta<'a> {
    /// The value of `key`, as written.
    #[cfg_attr(
        not(feature = "opentelemetry"),
        allow(dead_code, reason = "the trace context's keys are read with it")
    )]
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The revision a 2026-07-28 request names in its envelope, checked: the request must
    /// declare the client's capabilities and name the revision as a string. `Ok(None)` for a
    /// request that names none (it belongs to a handshake session); `Err` says what is wrong.
    pub(crate) fn stateless_version(&self) -> Result<Option<Cow<'a, str>>, String> {
        let Some(version) = self.protocol_version else {
            return Ok(None);
        };
        if self.client_capabilities.is_none() {
            return Err(format!("`_meta` lacks `{CLIENT_CAPABILITIES}`"));
        }
        // A string without escapes is its text (every request's case): no parser needed.
        let plain = version
            .get()
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'));
        if let Some(version) = plain.filter(|v| !v.contains('\\')) {
            return Ok(Some(Cow::Borrowed(version)));
        }
        match serde_json::from_str::<String>(version.get()) {
            Ok(version) => Ok(Some(Cow::Owned(version))),
            Err(_) => Err(format!("`{PROTOCOL_VERSION}` must be a string")),
        }
    }

    /// The object again, its entries in order: what a call's record keeps.
    pub(crate) fn keep(&self) -> Kept {
        // Exactly the text's length (for keys without escapes): the box takes the string's
        // buffer as it is, with no second allocation to shrink it.
        let length = 2
            + (self.entries.iter())
                .map(|(key, value)| key.len() + value.get().len() + 3)
                .sum::<usize>()
            + self.entries.len().saturating_sub(1);
        let mut text = String::with_capacity(length);
        text.push('{');
        for (i, (key, value)) in self.entries.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            match key {
                // Written as it was read: without escapes, its text is the key.
                Cow::Borrowed(key) => {
                    text.push('"');
                    text.push_str(key);
                    text.push('"');
                }
                Cow::Owned(key) => text.push_str(&Value::from(key.as_str()).to_string()),
            }
            text.push(':');
            text.push_str(value.get());
        }
        text.push('}');
        Kept {
            text: text.into_boxed_str(),
            raw: OnceLock::new(),
        }
    }
}

/// A request's `_meta` as a call's record keeps it: its text, and the JSON value made of it
/// when the handler asks for it (most never do).
#[derive(Debug)]
pub(crate) struct Kept {
    text: Box<str>,
    raw: OnceLock<Option<Box<RawValue>>>,
}

impl Kept {
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn raw(&self) -> Option<&RawValue> {
        let raw = || RawValue::from_string(self.text.to_string()).ok();
        self.raw.get_or_init(raw).as_deref()
    }
}

/// What a request's `_meta` was: an object, read; or something else (a `_meta` that is not an
/// object, or whose keys the server acts on it cannot read), refused where it is used.
#[derive(Debug)]
pub(crate) enum Read<'a> {
    Object(Meta<'a>),
    Unreadable,
    /// `null`, as if absent.
    Null,
}

impl<'de> Deserialize<'de> for Read<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ReadVisitor)
    }
}

struct ReadVisitor;

impl<'de> Visitor<'de> for ReadVisitor {
    type Value = Read<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`_meta`")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Read<'de>, M::Error> {
        let mut meta = Meta::default();
        let mut readable = true;
        while let Some(Key(key)) = map.next_key()? {
            let value: &'de RawValue = map.next_value()?;
            readable &= meta.take(&key, value);
            meta.entries.push((key, value));
        }
        Ok(match readable {
            true => Read::Object(meta),
            false => Read::Unreadable,
        })
    }

    fn visit_unit<E>(self) -> Result<Read<'de>, E> {
        Ok(Read::Null)
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Read<'de>, S::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Read::Unreadable)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Read<'de>, E> {
        Ok(Read::Unreadable)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Read<'de>, E> {
        Ok(Read::Unreadable)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Read<'de>, E> {
        Ok(Read::Unreadable)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Read<'de>, E> {
        Ok(Read::Unreadable)
    }

    fn visit_str<E>(self, _: &str) -> Result<Read<'de>, E> {
        Ok(Read::Unreadable)
    }
}

impl<'a> Meta<'a> {
    /// Keeps `value` if `key` is one the server acts on; whether it could (a key given once,
    /// a log level that is a string).
    fn take(&mut self, key: &str, value: &'a RawValue) -> bool {
        let slot = match key {
            PROTOCOL_VERSION => &mut self.protocol_version,
            CLIENT_CAPABILITIES => &mut self.client_capabilities,
            PROGRESS_TOKEN => &mut self.progress_token,
            // Read only when something asks who the client is: the last one given counts.
            CLIENT_INFO => {
                self.client_info = (value.get() != "null").then_some(value);
                return true;
            }
            LOG_LEVEL => {
                let again = self.entries.iter().any(|(k, _)| k == LOG_LEVEL);
                return match text(value) {
                    Some(level) if !again => {
                        self.log_level = level;
                        true
                    }
                    _ => false,
                };
            }
            _ => return true,
        };
        let again = self.entries.iter().any(|(k, _)| k == key);
        // `null` is as if absent.
        *slot = (value.get() != "null").then_some(value);
        !again
    }
}

/// A string value (borrowed when it has no escapes), or `null` as none; `None` for anything
/// else.
fn text(value: &RawValue) -> Option<Option<Cow<'_, str>>> {
    let raw = value.get();
    if raw == "null" {
        return Some(None);
    }
    if let Some(plain) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"'))
        && !plain.contains('\\')
    {
        return Some(Some(Cow::Borrowed(plain)));
    }
    serde_json::from_str::<String>(raw)
        .ok()
        .map(|s| Some(Cow::Owned(s)))
}

/// A key, borrowed when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }

            fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }

            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key)))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Read<'_> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn the_keys_the_server_acts_on_and_the_whole_object_again() {
        let text = r#"{ "io.modelcontextprotocol/protocolVersion" : "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"roots": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "a", "version": "1"},
            "progressToken": 7, "io.modelcontextprotocol/logLevel": "debug",
            "other": [1, {"x": "}"}], "esc\"aped": null }"#;
        let Read::Object(meta) = read(text) else {
            panic!("an object")
        };
        assert_eq!(meta.protocol_version.unwrap().get(), r#""2026-07-28""#);
        assert_eq!(meta.client_capabilities.unwrap().get(), r#"{"roots": {}}"#);
        assert_eq!(
            meta.client_info.unwrap().get(),
            r#"{"name": "a", "version": "1"}"#
        );
        assert_eq!(meta.progress_token.unwrap().get(), "7");
        assert_eq!(meta.log_level.as_deref(), Some("debug"));
        assert_eq!(meta.get("other").unwrap().get(), r#"[1, {"x": "}"}]"#);
        let kept = meta.keep();
        let again: serde_json::Value = serde_json::from_str(kept.raw().unwrap().get()).unwrap();
        assert_eq!(kept.text(), kept.raw().unwrap().get());
        let original: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(again, original);
        for compact in [
            "{}",
            r#"{"a":1}"#,
            r#"{"a":1,"bb":[2,{"c":"}"}],"d\"e":null}"#,
        ] {
            let Read::Object(meta) = read(compact) else {
                panic!("an object")
            };
            assert_eq!(meta.keep().text(), compact, "written as it was read");
        }
        let keys: Vec<_> = again.as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            keys.first().map(String::as_str),
            Some(PROTOCOL_VERSION),
            "in order"
        );
    }

    #[test]
    fn null_values_are_absent_and_what_cannot_be_read_is_unreadable() {
        let Read::Object(meta) =
            read(r#"{"progressToken":null,"io.modelcontextprotocol/logLevel":null}"#)
        else {
            panic!("an object")
        };
        assert!(meta.progress_token.is_none() && meta.log_level.is_none());
        assert!(matches!(read("null"), Read::Null));
        for unreadable in [
            "[]",
            "[1, [2]]",
            "3",
            "true",
            r#""text""#,
            r#"{"progressToken":1,"progressToken":2}"#,
            r#"{"io.modelcontextprotocol/logLevel":3}"#,
            r#"{"io.modelcontextprotocol/logLevel":"a","io.modelcontextprotocol/logLevel":"b"}"#,
        ] {
            assert!(matches!(read(unreadable), Read::Unreadable), "{unreadable}");
        }
        let Read::Object(twice) = read(
            r#"{"io.modelcontextprotocol/clientInfo":{"name":"a"},"io.modelcontextprotocol/clientInfo":{"name":"b"}}"#,
        ) else {
            panic!("an object")
        };
        assert_eq!(twice.client_info.unwrap().get(), r#"{"name":"b"}"#);
        let Read::Object(escaped) = read(r#"{"io.modelcontextprotocol\/logLevel":"in\u0066o"}"#)
        else {
            panic!("an object")
        };
        assert_eq!(escaped.log_level.as_deref(), Some("info"));
    }
}
