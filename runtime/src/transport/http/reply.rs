//! The responses the endpoint writes, and what a request's `Accept` and `Content-Type` say:
//! a JSON document, an event stream, 202, and errors whose body is a JSON-RPC error.

use bytes::Bytes;
use http::header::{ACCEPT, ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, Response, StatusCode};
use serde_json::value::RawValue;

use crate::protocol::Era;
use crate::protocol::code::ErrorCode;
use crate::protocol::jsonrpc::{self, Message, ProtocolError};
use crate::transport::http::stream::{EventBody, ResponseBody};

/// Header names, lowercase as `http` keeps them.
pub(crate) const SESSION_ID: &str = "mcp-session-id";
pub(crate) const PROTOCOL_HEADER: &str = "mcp-protocol-version";
pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// What a client accepts in a response.
#[derive(Clone, Copy)]
pub(crate) struct Accepts {
    pub(crate) json: bool,
    pub(crate) events: bool,
}

/// The id of a request, to echo in an error.
pub(crate) fn request_id<'a>(message: &Message<'a>) -> Option<&'a RawValue> {
    match message {
        Message::Request { id, .. } => Some(*id),
        _ => None,
    }
}

/// The HTTP status of a JSON-RPC error: in-band (200) in the handshake era; on 2026-07-28 the
/// specification's own errors are 400 and an unknown method 404.
pub(crate) fn status_of(code: ErrorCode, era: Era) -> StatusCode {
    match (era, code) {
        (Era::Legacy, _) => StatusCode::OK,
        (
            Era::Modern,
            ErrorCode::HeaderMismatch
            | ErrorCode::MissingClientCapability
            | ErrorCode::UnsupportedProtocolVersion,
        ) => StatusCode::BAD_REQUEST,
        (Era::Modern, ErrorCode::MethodNotFound) => StatusCode::NOT_FOUND,
        (Era::Modern, _) => StatusCode::OK,
    }
}

/// The HTTP status of a call's answer: that of its error code, if it is an error.
pub(crate) fn answer_status(error_code: Option<ErrorCode>, era: Era) -> StatusCode {
    error_code.map_or(StatusCode::OK, |code| status_of(code, era))
}

pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

pub(crate) fn accepts(headers: &HeaderMap) -> Accepts {
    // Read in place, once: this runs on every request.
    let mut accepts = Accepts {
        json: false,
        events: false,
    };
    let mut any = false;
    for value in headers.get_all(ACCEPT) {
        let Ok(value) = value.to_str() else { continue };
        any = true;
        for t in value.split(',') {
            // A value has only visible ASCII, spaces and tabs: ASCII trimming is all it needs.
            let t = t.split_once(';').map_or(t, |(t, _)| t).trim_ascii();
            let any_of = |wanted: &str, family: &str| {
                t.eq_ignore_ascii_case(wanted) || t.eq_ignore_ascii_case(family) || t == "*/*"
            };
            accepts.json |= any_of("application/json", "application/*");
            accepts.events |= any_of("text/event-stream", "text/*");
        }
    }
    if !any {
        return Accepts {
            json: true,
            events: true,
        };
    }
    accepts
}

/// A JSON document (a line, its newline dropped) as the response: the bytes as they are, not
/// copied.
pub(crate) fn json(status: StatusCode, line: impl Into<Bytes>) -> Response<ResponseBody> {
    let mut line = line.into();
    if line.last() == Some(&b'\n') {
        line.truncate(line.len() - 1);
    }
    let mut response = Response::new(ResponseBody::full(line));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

pub(crate) fn event_response(body: EventBody) -> Response<ResponseBody> {
    let mut response = Response::new(ResponseBody::events(body));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static("no-cache, no-transform"),
    );
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

pub(crate) fn accepted() -> Response<ResponseBody> {
    let mut response = Response::new(ResponseBody::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

pub(crate) fn not_allowed() -> Response<ResponseBody> {
    let mut response = refusal(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        "send messages with POST; GET and DELETE need a session",
    );
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
    response
}

/// An HTTP error whose body is a JSON-RPC error.
pub(crate) fn error(
    status: StatusCode,
    id: Option<&RawValue>,
    error: &ProtocolError,
) -> Response<ResponseBody> {
    json(status, jsonrpc::error_line(id, error))
}

/// A request refused for what HTTP says of it (its path, headers, body, session): the status,
/// and a `-32600` error whose message begins with the status's reason phrase.
pub(crate) fn refusal(
    status: StatusCode,
    id: Option<&RawValue>,
    detail: impl std::fmt::Display,
) -> Response<ResponseBody> {
    let reason = status.canonical_reason().unwrap_or("Refused");
    error(status, id, &ProtocolError::refused(reason, detail))
}
