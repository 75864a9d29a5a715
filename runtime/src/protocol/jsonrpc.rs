//! JSON-RPC 2.0 messages: classifying one incoming line and writing responses.
//!
//! Incoming messages are parsed with borrowed fields: the id and the params stay raw JSON slices
//! of the line, so an id is echoed byte-for-byte and params are deserialized once, straight into
//! the type that needs them.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::protocol::params::{Params, borrowed};

/// Invalid JSON was received.
pub(crate) const PARSE_ERROR: i32 = -32700;
/// The JSON sent is not a valid request object.
pub(crate) const INVALID_REQUEST: i32 = -32600;
/// The method does not exist or is not available.
pub(crate) const METHOD_NOT_FOUND: i32 = -32601;
/// Invalid method parameters (also: unknown tool).
pub(crate) const INVALID_PARAMS: i32 = -32602;
/// Internal JSON-RPC error.
pub(crate) const INTERNAL_ERROR: i32 = -32603;

/// A 2026-07-28 HTTP request's headers disagree with its body.
#[cfg(feature = "http")]
pub(crate) const HEADER_MISMATCH: i32 = -32020;
/// A 2026-07-28 request needs a client capability its client did not declare.
pub(crate) const MISSING_CLIENT_CAPABILITY: i32 = -32021;
/// The protocol revision a 2026-07-28 request named is not one the server speaks.
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;

/// A JSON-RPC error object, before it is given an id.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    /// One of the codes above.
    pub(crate) code: i32,
    /// A concise, single-sentence description.
    pub(crate) message: String,
    /// Details for the client to act on.
    pub(crate) data: Option<serde_json::Value>,
}

impl RpcError {
    /// An error with the given code and message.
    pub(crate) fn new(code: i32, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The same error, with `data`.
    pub(crate) fn with_data(mut self, data: serde_json::Value) -> RpcError {
        self.data = Some(data);
        self
    }
}

/// The raw shape of any message; which fields are present decides what it is. `P` is the
/// params: parsed at once (the common case, one pass over the line), or kept raw to say
/// precisely what is wrong with them.
#[derive(Deserialize)]
struct Envelope<'a, P> {
    #[serde(borrow, default, deserialize_with = "borrowed")]
    jsonrpc: Option<Cow<'a, str>>,
    // Deserialized without `Option`'s null handling, so that `"id": null` stays visible.
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "borrowed")]
    method: Option<Cow<'a, str>>,
    #[serde(default = "none", bound(deserialize = "P: Deserialize<'de>"))]
    params: Option<P>,
    #[serde(borrow, default, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    error: Option<&'a RawValue>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

fn none<P>() -> Option<P> {
    None
}

/// `P` read from a JSON object only: serde's derived structs also accept arrays, and params
/// must be an object.
struct Object<P>(P);

impl<'de, P: Deserialize<'de>> Deserialize<'de> for Object<P> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<P>(std::marker::PhantomData<P>);

        impl<'de, P: Deserialize<'de>> serde::de::Visitor<'de> for Visit<P> {
            type Value = Object<P>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Object<P>, A::Error> {
                P::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }

        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// What one line of input turned out to be.
#[derive(Debug)]
pub(crate) enum Message<'a> {
    /// A request: it gets exactly one response.
    Request {
        /// The id, as raw JSON (a string or an integer).
        id: &'a RawValue,
        /// The method name.
        method: Cow<'a, str>,
        /// The params (all fields absent when there are none).
        params: Params<'a>,
    },
    /// A notification: it is never answered.
    Notification {
        /// The method name.
        method: Cow<'a, str>,
        /// The params; malformed ones read as absent, since a notification cannot be told.
        params: Params<'a>,
    },
    /// A response from the client, to a request the server sent it (or a message that cannot
    /// be answered: a notification without `"jsonrpc": "2.0"`, then `id` is `None`).
    Response {
        /// The id of the server's request it answers.
        id: Option<&'a RawValue>,
        /// The `result`, or the `error` object.
        outcome: Result<&'a RawValue, &'a RawValue>,
    },
    /// Something that may not be answered, not even with an error: a notification without
    /// `"jsonrpc": "2.0"`.
    Unanswerable,
    /// A JSON array: a batch.
    Batch,
    /// Not a message: answer with this error, with the id when one could be read.
    Invalid {
        /// The id of the offending request, when it could be read and is valid.
        id: Option<&'a RawValue>,
        /// The error to answer with.
        error: RpcError,
    },
}

/// Classifies one line (without its newline).
pub(crate) fn classify(line: &[u8]) -> Message<'_> {
    // MCP messages must be UTF-8 throughout (serde would skip bad bytes in fields it ignores);
    // checked once here, the parser need not check each string again.
    let Ok(line) = std::str::from_utf8(line) else {
        return invalid(
            None,
            PARSE_ERROR,
            "Parse error: the message is not valid UTF-8",
        );
    };
    let first = line.bytes().find(|b| !b.is_ascii_whitespace());
    if first == Some(b'[') {
        return match serde_json::from_str::<&RawValue>(line) {
            Ok(_) => Message::Batch,
            Err(e) => invalid(None, PARSE_ERROR, format!("Parse error: {e}")),
        };
    }
    // One pass over the line for a well-formed message; only a malformed one is read again,
    // with its params kept raw, to say exactly what is wrong.
    if let Ok(envelope) = serde_json::from_str::<Envelope<'_, Object<Params<'_>>>>(line) {
        return validate(envelope, |params| {
            Ok(params.map(|p| p.0).unwrap_or_default())
        });
    }
    let envelope: Envelope<'_, &RawValue> = match serde_json::from_str(line) {
        Ok(envelope) => envelope,
        Err(e) if e.is_data() && first != Some(b'{') => {
            return invalid(
                None,
                INVALID_REQUEST,
                "Invalid Request: a message is a JSON object",
            );
        }
        Err(e) if e.is_data() => {
            return invalid(None, INVALID_REQUEST, format!("Invalid Request: {e}"));
        }
        Err(e) => return invalid(None, PARSE_ERROR, format!("Parse error: {e}")),
    };
    validate(envelope, |params| {
        match params.filter(|p| p.get() != "null") {
            None => Ok(Params::default()),
            Some(p) if !p.get().starts_with('{') => {
                Err("Invalid params: `params` must be an object".to_owned())
            }
            Some(p) => serde_json::from_str(p.get())
                .map_err(|e| format!("Invalid params: {}", without_position(&e))),
        }
    })
}

/// What an envelope is, once its params are read by `params`.
fn validate<'a, P>(
    envelope: Envelope<'a, P>,
    params: impl FnOnce(Option<P>) -> Result<Params<'a>, String>,
) -> Message<'a> {
    let Some(method) = envelope.method else {
        let outcome = match (envelope.result, envelope.error) {
            (Some(result), _) => Some(Ok(result)),
            (None, Some(error)) => Some(Err(error)),
            (None, None) => None,
        };
        if let Some(outcome) = outcome {
            return Message::Response {
                id: envelope.id.filter(|id| valid_id(id)),
                outcome,
            };
        }
        let id = envelope.id.filter(|id| valid_id(id));
        return invalid(id, INVALID_REQUEST, "Invalid Request: no `method`");
    };
    let Some(id) = envelope.id else {
        if envelope.jsonrpc.as_deref() != Some("2.0") {
            // A notification cannot be answered, not even with an error.
            return Message::Unanswerable;
        }
        let params = params(envelope.params).unwrap_or_default();
        return Message::Notification { method, params };
    };
    if !valid_id(id) {
        return invalid(
            None,
            INVALID_REQUEST,
            "Invalid Request: `id` must be a string or an integer",
        );
    }
    if envelope.jsonrpc.as_deref() != Some("2.0") {
        return invalid(
            Some(id),
            INVALID_REQUEST,
            "Invalid Request: `jsonrpc` must be \"2.0\"",
        );
    }
    match params(envelope.params) {
        Ok(params) => Message::Request { id, method, params },
        Err(message) => invalid(Some(id), INVALID_PARAMS, message),
    }
}

/// serde_json's message without the position it appends: a line and column in the client's
/// JSON mean nothing to the reader of the error.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

fn invalid(id: Option<&RawValue>, code: i32, message: impl Into<String>) -> Message<'_> {
    Message::Invalid {
        id,
        error: RpcError::new(code, message),
    }
}

/// MCP ids are strings or integers; `null`, fractions, booleans and containers are not ids.
fn valid_id(id: &RawValue) -> bool {
    let s = id.get();
    let digits = s.strip_prefix('-').unwrap_or(s);
    s.starts_with('"') || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Serialize)]
struct ErrorOut<'a> {
    jsonrpc: &'static str,
    id: Option<&'a RawValue>,
    error: ErrorBody<'a>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: i32,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a serde_json::Value>,
}

// Lines are written with their constant parts as bytes: serde would escape each constant key
// and value on every message (a tenth of a small call's cost, measured in bench/).

/// One notification line (newline included).
pub(crate) fn notification_line<T: Serialize + ?Sized>(method: &str, params: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"#);
    serde_json::to_writer(&mut out, method).expect("a string serializes");
    out.extend_from_slice(br#","params":"#);
    serde_json::to_writer(&mut out, params).expect("a notification serializes");
    out.extend_from_slice(b"}\n");
    out
}

/// One response line (newline included) carrying `result`.
pub(crate) fn result_line<T: Serialize + ?Sized>(id: &RawValue, result: &T) -> Vec<u8> {
    result_line_sized(id, result, 128)
}

/// [`result_line`] for a result of about `size` bytes: the line is allocated once, not grown
/// by doubling (a cached tool list is tens of kilobytes).
pub(crate) fn result_line_sized<T: Serialize + ?Sized>(
    id: &RawValue,
    result: &T,
    size: usize,
) -> Vec<u8> {
    result_line_with(id, size, |out| {
        // Serializing plain data into a Vec cannot fail.
        serde_json::to_writer(out, result).expect("a result serializes");
    })
}

/// A response line whose result `write` writes itself.
pub(crate) fn result_line_with(
    id: &RawValue,
    size: usize,
    write: impl FnOnce(&mut Vec<u8>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + id.get().len() + 40);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(br#","result":"#);
    write(&mut out);
    out.extend_from_slice(b"}\n");
    out
}

/// One error response line (newline included). Without an id (it could not be read) the
/// id is `null`, as JSON-RPC 2.0 asks and every revision's schema accepts.
pub(crate) fn error_line(id: Option<&RawValue>, error: &RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    let msg = ErrorOut {
        jsonrpc: "2.0",
        id,
        error: ErrorBody {
            code: error.code,
            message: &error.message,
            data: error.data.as_ref(),
        },
    };
    serde_json::to_writer(&mut out, &msg).expect("an error serializes");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(line: &str) -> i32 {
        match classify(line.as_bytes()) {
            Message::Invalid { error, .. } => error.code,
            other => panic!("expected an error for {line}, got {other:?}"),
        }
    }

    #[test]
    fn requests_and_notifications() {
        match classify(br#"{"jsonrpc":"2.0","id":"a\"b","method":"ping"}"#) {
            Message::Request { id, method, params } => {
                assert_eq!(id.get(), r#""a\"b""#);
                assert_eq!(method, "ping");
                assert!(params.name.is_none());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Message::Notification { .. }
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            Message::Response { id: Some(id), outcome: Ok(_) } if id.get() == "3"
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":"s-1","error":{"code":-1,"message":"no"}}"#),
            Message::Response {
                outcome: Err(_),
                ..
            }
        ));
        assert!(matches!(classify(b" [1]"), Message::Batch));
    }

    #[test]
    fn strings_are_borrowed_and_null_is_absent() {
        match classify(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":null,"name":"a\u0062"}}"#) {
            Message::Request { method, params, .. } => {
                assert!(matches!(method, Cow::Borrowed("tools/list")));
                assert!(params.cursor.is_none());
                assert!(matches!(params.name, Some(Cow::Owned(ref n)) if n == "ab"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn malformed_messages() {
        assert_eq!(code_of("not json"), PARSE_ERROR);
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":"ping""#),
            PARSE_ERROR
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":7}"#),
            INVALID_REQUEST
        );
        assert_eq!(code_of(r#"{"jsonrpc":"2.0","id":1}"#), INVALID_REQUEST);
        assert_eq!(code_of("42"), INVALID_REQUEST);
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#),
            INVALID_PARAMS
        );
    }

    #[test]
    fn responses_echo_the_raw_id() {
        let id: &RawValue = serde_json::from_str(r#""x\u0041""#).unwrap();
        let line = result_line(id, &serde_json::json!({}));
        assert_eq!(
            line,
            b"{\"jsonrpc\":\"2.0\",\"id\":\"x\\u0041\",\"result\":{}}\n"
        );
        let line = error_line(None, &RpcError::new(PARSE_ERROR, "Parse error"));
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n"
        );
    }
}
