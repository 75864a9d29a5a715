//! The responses the endpoint writes: a JSON document, an event stream, 202, and errors whose
//! body is a JSON-RPC error.

use bytes::Bytes;
use http::header::{ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use http::{HeaderValue, Response, StatusCode};
use serde_json::value::RawValue;

use crate::protocol::Era;
use crate::protocol::code::ErrorCode;
use crate::protocol::jsonrpc::{self, Message, ProtocolError};
use crate::transport::http::stream::{EventBody, ResponseBody};

/// Header names, lowercase as `http` keeps them.
pub(crate) const SESSION_ID: &str = "mcp-session-id";
pub(crate) const PROTOCOL_HEADER: &str = "mcp-protocol-version";
pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

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
