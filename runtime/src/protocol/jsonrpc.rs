//! JSON-RPC 2.0 messages: classifying one incoming line and writing responses.
//!
//! Incoming messages are parsed with borrowed fields: the id and the params stay raw JSON slices
//! of the line, so an id is echoed byte-for-byte and params are deserialized once, straight into
//! the type that needs them.
//!
//! The errors the server answers with are `ProtocolError`s, made by one constructor per kind
//! that writes the code (`ErrorCode`) and the standard beginning of the message
//! (`Invalid params: `, `Method not found: `...), so that no caller spells either.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::protocol::code::ErrorCode;
use crate::protocol::method::Method;
use crate::protocol::params::{Params, borrowed};
use crate::protocol::quote::{quoted, shortened};
use crate::protocol::version::ProtocolVersion;

/// A JSON-RPC error object the server answers with, before it is given an id (a protocol
/// error, as opposed to a tool's error result). Each kind has its constructor, which writes the
/// code and the standard beginning of the message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ProtocolError {
    code: ErrorCode,
    /// A concise, single-sentence description.
    message: String,
    /// Details for the client to act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Box<serde_json::Value>>,
    /// For an item the caller could see with more scopes: every scope it needs. Not sent: a
    /// transport that lets a client ask for more (HTTP: 403) answers with them instead.
    #[serde(skip)]
    forbidden: Option<Box<[String]>>,
}

/// The longest message an error carries, whatever it quotes.
const MESSAGE: usize = 4096;

/// The longest URI an error's `data.uri` carries: beyond it, the message quotes its beginning
/// and `data` leaves it out rather than carry a URI no resource has.
const DATA_URI: usize = 4096;

impl ProtocolError {
    fn new(code: ErrorCode, mut message: String) -> ProtocolError {
        if message.len() > MESSAGE {
            message = shortened(&message, MESSAGE).into_owned();
        }
        ProtocolError {
            code,
            message,
            data: None,
            forbidden: None,
        }
    }

    /// The error an author chose: `code`, `message` and `data` as given (the message within
    /// the bound every message keeps).
    pub(crate) fn chosen(
        code: ErrorCode,
        message: &str,
        data: Option<serde_json::Value>,
    ) -> ProtocolError {
        ProtocolError {
            data: data.map(Box::new),
            ..Self::new(code, message.to_owned())
        }
    }

    /// The error an error object the server wrote earlier says (a task's, kept in its store).
    pub(crate) fn written(error: &serde_json::Value) -> ProtocolError {
        ProtocolError {
            code: ErrorCode::of(error["code"].as_i64().unwrap_or_default()),
            message: error["message"].as_str().unwrap_or_default().to_owned(),
            data: error.get("data").cloned().map(Box::new),
            forbidden: None,
        }
    }

    /// `-32601` for a method that exists but not for this request: `detail` says why.
    pub(crate) fn method_not_found_because(detail: impl fmt::Display) -> ProtocolError {
        Self::new(
            ErrorCode::MethodNotFound,
            format!("Method not found: {detail}"),
        )
    }

    /// `-32700`, "Parse error: " and `detail`.
    pub(crate) fn parse_error(detail: impl fmt::Display) -> ProtocolError {
        Self::new(ErrorCode::ParseError, format!("Parse error: {detail}"))
    }

    /// `-32600`, "Invalid Request: " and `detail`.
    pub(crate) fn invalid_request(detail: impl fmt::Display) -> ProtocolError {
        Self::new(
            ErrorCode::InvalidRequest,
            format!("Invalid Request: {detail}"),
        )
    }

    /// `-32601`, "Method not found: " and the method.
    pub(crate) fn method_not_found(method: &str) -> ProtocolError {
        Self::new(
            ErrorCode::MethodNotFound,
            format!("Method not found: {}", quoted(method)),
        )
    }

    /// `-32602`, "Invalid params: " and `detail`.
    pub(crate) fn invalid_params(detail: impl fmt::Display) -> ProtocolError {
        Self::new(
            ErrorCode::InvalidParams,
            format!("Invalid params: {detail}"),
        )
    }

    /// `-32602` for arguments that did not bind, where the revision makes that a protocol
    /// error: the binding's own description (`invalid arguments: …`).
    pub(crate) fn invalid_arguments(description: String) -> ProtocolError {
        Self::new(ErrorCode::InvalidParams, description)
    }

    /// `-32602` for a tool the caller cannot call: "Unknown tool: " and its name.
    pub(crate) fn unknown_tool(name: &str) -> ProtocolError {
        Self::new(
            ErrorCode::InvalidParams,
            format!("Unknown tool: {}", quoted(name)),
        )
    }

    /// `-32602` for a prompt the caller cannot get: "Unknown prompt: " and its name.
    pub(crate) fn unknown_prompt(name: &str) -> ProtocolError {
        Self::new(
            ErrorCode::InvalidParams,
            format!("Unknown prompt: {}", quoted(name)),
        )
    }

    /// A resource that does not exist, with its URI in `data`: `-32602` on 2026-07-28,
    /// `-32002` before ([`ProtocolVersion::resource_not_found_is_invalid_params`]);
    /// "Resource not found: ", the URI and why, if there is more to say.
    pub(crate) fn resource_not_found(
        version: ProtocolVersion,
        uri: &str,
        why: Option<&dyn fmt::Display>,
    ) -> ProtocolError {
        let code = match version.resource_not_found_is_invalid_params() {
            true => ErrorCode::InvalidParams,
            false => ErrorCode::ResourceNotFound,
        };
        let message = match why {
            None => format!("Resource not found: {}", quoted(uri)),
            Some(why) => format!("Resource not found: {}: {why}", quoted(uri)),
        };
        let data = match uri.len() <= DATA_URI {
            true => serde_json::json!({"uri": uri}),
            false => serde_json::json!({}),
        };
        Self::new(code, message).with_data(data)
    }

    /// `-32603` with the message an author wrote, as written.
    pub(crate) fn failed(message: &str) -> ProtocolError {
        Self::new(ErrorCode::InternalError, message.to_owned())
    }

    /// `-32603`, "Internal error: " and `detail`.
    pub(crate) fn internal(detail: impl fmt::Display) -> ProtocolError {
        Self::new(
            ErrorCode::InternalError,
            format!("Internal error: {detail}"),
        )
    }

    /// `-32021`: the request cannot go on without `capability` (a path like `elicitation.url`),
    /// which `data.requiredCapabilities` names as an object; "Missing required client
    /// capability: " and `detail`.
    pub(crate) fn missing_client_capability(capability: &str, detail: &str) -> ProtocolError {
        let path: Vec<&str> = capability.split('.').collect();
        Self::missing_client_capability_at(&path, detail)
    }

    /// `-32021`, the capability named by the keys of its path (for one whose name has dots:
    /// `["extensions", "io.modelcontextprotocol/tasks"]`).
    pub(crate) fn missing_client_capability_at(path: &[&str], detail: &str) -> ProtocolError {
        let mut required = serde_json::json!({});
        let mut node = &mut required;
        for &step in path {
            node = &mut node[step];
            *node = serde_json::json!({});
        }
        Self::new(
            ErrorCode::MissingClientCapability,
            format!("Missing required client capability: {detail}"),
        )
        .with_data(serde_json::json!({"requiredCapabilities": required}))
    }

    /// `-32022`: the request named the revision `requested`, and the server speaks `supported`
    /// (listed in `data`, with the one requested).
    pub(crate) fn unsupported_protocol_version(
        requested: &str,
        supported: &[ProtocolVersion],
    ) -> ProtocolError {
        let supported: Vec<&str> = supported.iter().map(|v| v.as_str()).collect();
        Self::new(
            ErrorCode::UnsupportedProtocolVersion,
            "Unsupported protocol version".to_owned(),
        )
        .with_data(serde_json::json!({"supported": supported, "requested": requested}))
    }

    /// The same error, with `data`.
    pub(crate) fn with_data(mut self, data: serde_json::Value) -> ProtocolError {
        self.data = Some(Box::new(data));
        self
    }

    /// The error's code.
    pub(crate) fn code(&self) -> ErrorCode {
        self.code
    }

    /// The same error, for an item the caller lacks `scopes` for, which it could otherwise see.
    pub(crate) fn forbidden(self, scopes: &[&str]) -> ProtocolError {
        ProtocolError {
            forbidden: Some(scopes.iter().map(|s| (*s).to_owned()).collect()),
            ..self
        }
    }

    /// The scopes a forbidden item needs (see [`ProtocolError::forbidden`]).
    pub(crate) fn needed_scopes(&self) -> Option<&[String]> {
        self.forbidden.as_deref()
    }

    /// Its message.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// Its data, if it has any.
    pub(crate) fn data(&self) -> Option<&serde_json::Value> {
        self.data.as_deref()
    }
}

/// The errors only the HTTP transport answers with.
#[allow(dead_code, reason = "the HTTP transport's alone")]
impl ProtocolError {
    /// `-32020`, "Header mismatch: " and `detail`.
    pub(crate) fn header_mismatch(detail: impl fmt::Display) -> ProtocolError {
        Self::new(
            ErrorCode::HeaderMismatch,
            format!("Header mismatch: {detail}"),
        )
    }

    /// `-32600` for a request the transport refuses before it reads a message: the refusal's
    /// name (an HTTP status's reason phrase, like `Not Found`), ": " and `detail`.
    pub(crate) fn refused(reason: &str, detail: impl fmt::Display) -> ProtocolError {
        Self::new(ErrorCode::InvalidRequest, format!("{reason}: {detail}"))
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
        /// The method.
        method: Method<'a>,
        /// The params (all fields absent when there are none).
        params: Params<'a>,
    },
    /// A notification: it is never answered.
    Notification {
        /// The method.
        method: Method<'a>,
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
        error: ProtocolError,
    },
}

/// Classifies one line (without its newline).
pub(crate) fn classify(line: &[u8]) -> Message<'_> {
    // MCP messages must be UTF-8 throughout (serde would skip bad bytes in fields it ignores);
    // checked once here, the parser need not check each string again.
    let Ok(line) = std::str::from_utf8(line) else {
        return invalid(
            None,
            ProtocolError::parse_error("the message is not valid UTF-8"),
        );
    };
    let first = line.bytes().find(|b| !b.is_ascii_whitespace());
    if first == Some(b'[') {
        return match serde_json::from_str::<&RawValue>(line) {
            Ok(_) => Message::Batch,
            Err(e) => invalid(None, ProtocolError::parse_error(e)),
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
                ProtocolError::invalid_request("a message is a JSON object"),
            );
        }
        Err(e) if e.is_data() => {
            return invalid(None, ProtocolError::invalid_request(e));
        }
        Err(e) => return invalid(None, ProtocolError::parse_error(e)),
    };
    validate(envelope, |params| {
        match params.filter(|p| p.get() != "null") {
            None => Ok(Params::default()),
            Some(p) if !p.get().starts_with('{') => {
                Err(ProtocolError::invalid_params("`params` must be an object"))
            }
            Some(p) => serde_json::from_str(p.get())
                .map_err(|e| ProtocolError::invalid_params(without_position(&e))),
        }
    })
}

/// What an envelope is, once its params are read by `params`.
fn validate<'a, P>(
    envelope: Envelope<'a, P>,
    params: impl FnOnce(Option<P>) -> Result<Params<'a>, ProtocolError>,
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
        return invalid(id, ProtocolError::invalid_request("no `method`"));
    };
    let Some(id) = envelope.id else {
        if envelope.jsonrpc.as_deref() != Some("2.0") {
            // A notification cannot be answered, not even with an error.
            return Message::Unanswerable;
        }
        let params = params(envelope.params).unwrap_or_default();
        let method = Method::parse(method);
        return Message::Notification { method, params };
    };
    if !valid_id(id) {
        return invalid(
            None,
            ProtocolError::invalid_request("`id` must be a string or an integer"),
        );
    }
    if envelope.jsonrpc.as_deref() != Some("2.0") {
        return invalid(
            Some(id),
            ProtocolError::invalid_request("`jsonrpc` must be \"2.0\""),
        );
    }
    match params(envelope.params) {
        Ok(params) => Message::Request {
            id,
            method: Method::parse(method),
            params,
        },
        Err(error) => invalid(Some(id), error),
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

fn invalid(id: Option<&RawValue>, error: ProtocolError) -> Message<'_> {
    Message::Invalid { id, error }
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
    error: &'a ProtocolError,
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
pub(crate) fn error_line(id: Option<&RawValue>, error: &ProtocolError) -> Vec<u8> {
    let mut out = Vec::with_capacity(96);
    let msg = ErrorOut {
        jsonrpc: "2.0",
        id,
        error,
    };
    serde_json::to_writer(&mut out, &msg).expect("an error serializes");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(line: &str) -> ErrorCode {
        match classify(line.as_bytes()) {
            Message::Invalid { error, .. } => error.code(),
            other => panic!("expected an error for {line}, got {other:?}"),
        }
    }

    #[test]
    fn requests_and_notifications() {
        match classify(br#"{"jsonrpc":"2.0","id":"a\"b","method":"ping"}"#) {
            Message::Request { id, method, params } => {
                assert_eq!(id.get(), r#""a\"b""#);
                assert_eq!(method, Method::Ping);
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
        match classify(br#"{"jsonrpc":"2.0","id":1,"method":"tools/lis","params":{"cursor":null,"name":"a\u0062"}}"#) {
            Message::Request { method, params, .. } => {
                assert!(matches!(method, Method::Other(Cow::Borrowed("tools/lis"))));
                assert!(params.cursor.is_none());
                assert!(matches!(params.name, Some(Cow::Owned(ref n)) if n == "ab"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn malformed_messages() {
        assert_eq!(code_of("not json"), ErrorCode::ParseError);
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":"ping""#),
            ErrorCode::ParseError
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            ErrorCode::InvalidRequest
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            ErrorCode::InvalidRequest
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            ErrorCode::InvalidRequest
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":7}"#),
            ErrorCode::InvalidRequest
        );
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1}"#),
            ErrorCode::InvalidRequest
        );
        assert_eq!(code_of("42"), ErrorCode::InvalidRequest);
        assert_eq!(
            code_of(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#),
            ErrorCode::InvalidParams
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
        let line = error_line(None, &ProtocolError::parse_error("no JSON"));
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: no JSON\"}}\n"
        );
    }

    #[test]
    fn each_kind_writes_its_code_and_prefix() {
        let id: &RawValue = serde_json::from_str("7").unwrap();
        let line = |error: ProtocolError| {
            let line = error_line(Some(id), &error);
            let value: serde_json::Value = serde_json::from_slice(&line).unwrap();
            (
                value["error"]["code"].as_i64().unwrap(),
                value["error"]["message"].clone(),
            )
        };
        assert_eq!(
            line(ProtocolError::invalid_request("x")),
            (-32600, "Invalid Request: x".into())
        );
        assert_eq!(
            line(ProtocolError::method_not_found("x")),
            (-32601, "Method not found: x".into())
        );
        assert_eq!(
            line(ProtocolError::invalid_params("x")),
            (-32602, "Invalid params: x".into())
        );
        assert_eq!(
            line(ProtocolError::unknown_tool("x")),
            (-32602, "Unknown tool: x".into())
        );
        assert_eq!(
            line(ProtocolError::internal("x")),
            (-32603, "Internal error: x".into())
        );
        let error = ProtocolError::missing_client_capability("elicitation.url", "x");
        assert_eq!(
            String::from_utf8(error_line(Some(id), &error)).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32021,\"message\":\"Missing required client capability: x\",\"data\":{\"requiredCapabilities\":{\"elicitation\":{\"url\":{}}}}}}\n"
        );
        let error =
            ProtocolError::unsupported_protocol_version("1999-01-01", &ProtocolVersion::MODERN);
        assert_eq!(
            String::from_utf8(error_line(Some(id), &error)).unwrap(),
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[\"2026-07-28\"],\"requested\":\"1999-01-01\"}}}\n"
        );
    }
}
