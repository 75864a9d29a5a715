//! The handshake era (2025-03-26 to 2025-11-25): sessions created by `initialize` and named by
//! `Mcp-Session-Id`; the GET stream; DELETE.

use std::sync::Arc;

use http::{HeaderMap, HeaderValue, Response, StatusCode};

use crate::call::auth::Auth;
use crate::call::outlet::Outlet;
use crate::protocol::jsonrpc::{Message, ProtocolError};
use crate::protocol::meta::PROTOCOL_VERSION;
use crate::protocol::method::Method;
use crate::protocol::{Era, ProtocolVersion};
use crate::server::reply::Reply;
use crate::transport::http::endpoint::{Answering, Endpoint, Served};
use crate::transport::http::head::Accepts;
use crate::transport::http::oauth::stream_deadline;
use crate::transport::http::reply::{
    LAST_EVENT_ID, PROTOCOL_HEADER, SESSION_ID, error, event_response, not_allowed, refusal,
    request_id,
};
use crate::transport::http::sessions::HttpSession;
use crate::transport::http::stream::{
    EventBody, EventStream, RequestSink, ResponseBody, StandaloneSink,
};

impl Endpoint {
    /// A POST of the handshake era: `initialize` opens a session; anything else needs one.
    pub(super) fn legacy(
        self: &Arc<Self>,
        headers: &HeaderMap,
        body: &[u8],
        message: Message<'_>,
        extensions: http::Extensions,
        accepts: Accepts,
    ) -> Served {
        let id_of = request_id;
        let initialize = matches!(
            &message,
            Message::Request {
                method: Method::Initialize,
                ..
            }
        );
        let caller = extensions.get::<Auth>();
        let session = match headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) {
            Some(id) => match self.sessions.get(id, caller) {
                Some(session) => session,
                None => {
                    let text = "the session is unknown or has ended; send `initialize` again";
                    return Served::Now(refusal(StatusCode::NOT_FOUND, id_of(&message), text));
                }
            },
            None if initialize => match self.sessions.create(&self.engine, caller) {
                Ok(session) => session,
                Err(_) => {
                    let text = "the server holds as many sessions as it may; retry later";
                    return Served::Now(refusal(
                        StatusCode::SERVICE_UNAVAILABLE,
                        id_of(&message),
                        text,
                    ));
                }
            },
            None => {
                let text = "the `Mcp-Session-Id` header is required; send `initialize` first";
                return Served::Now(refusal(StatusCode::BAD_REQUEST, id_of(&message), text));
            }
        };
        let stream = session.open_stream();
        let outlet = Outlet::new(
            "http",
            RequestSink {
                stream: Arc::clone(&stream),
                extensions: extensions.into(),
                headers: None,
            },
        );
        let id = id_of(&message);
        let answer = match message {
            Message::Batch => session.session.handle(body, &outlet),
            message => session.session.message(message, &outlet, None),
        };
        let created = initialize && headers.get(SESSION_ID).is_none();
        if created && matches!(answer, Reply::Error(..)) {
            self.sessions.remove(&session.id);
        }
        let answering = Answering {
            era: Era::Legacy,
            session: Some(&session),
            until: None,
        };
        let served = self.respond(id, answer, stream, &outlet, accepts, answering);
        match HeaderValue::from_str(&session.id) {
            Ok(id) => served.in_session(id),
            Err(_) => served,
        }
    }

    /// GET: a session's stream of messages that belong to no request, or a stream resumed;
    /// either ends when the token that opened it expires (the client, with a new one, opens
    /// or resumes it again).
    pub(super) fn get(
        &self,
        headers: &HeaderMap,
        extensions: &http::Extensions,
    ) -> Response<ResponseBody> {
        if !Accepts::of(headers.get_all(http::header::ACCEPT)).events {
            let message = "a GET stream needs `Accept: text/event-stream`";
            return refusal(StatusCode::NOT_ACCEPTABLE, None, message);
        }
        let session = match self.session_of(headers, extensions.get::<Auth>()) {
            Ok(session) => session,
            Err(refused) => return *refused,
        };
        let until = match stream_deadline(extensions) {
            Ok(until) => until,
            Err(refused) => return *refused,
        };
        let keep_alive = self.http.keep_alive;
        if let Some(last) = headers.get(LAST_EVENT_ID).and_then(|v| v.to_str().ok()) {
            let resumed = EventStream::parse_event_id(last)
                .and_then(|(number, n)| Some((session.stream(number)?, n)));
            return match resumed {
                Some((stream, n)) => {
                    let body = EventBody::new(stream, n + 1, false, keep_alive, None);
                    event_response(body.until(until))
                }
                // Nothing to resume: an empty stream that ends at once (an error would have the
                // client retry for ever).
                None => {
                    let stream = EventStream::new(None);
                    stream.end();
                    self.events(stream, false, None)
                }
            };
        }
        match session.open_standalone() {
            Some(stream) => {
                // The GET stream is where a session hears that a list or a resource changed.
                if self.engine.announces() {
                    let outlet = Outlet::new("http", StandaloneSink(Arc::downgrade(&stream)));
                    let inner = &session.session;
                    self.engine
                        .listeners
                        .connection(&outlet, inner.open_requests(), inner.heard());
                    session.keep_listener(outlet);
                }
                let body = EventBody::new(stream, EventStream::FIRST, false, keep_alive, None);
                event_response(body.until(until))
            }
            None => {
                let message = "this session's GET stream is already open";
                refusal(StatusCode::CONFLICT, None, message)
            }
        }
    }

    /// DELETE: ends a session.
    pub(super) fn delete(
        &self,
        headers: &HeaderMap,
        caller: Option<&Auth>,
    ) -> Response<ResponseBody> {
        match self.session_of(headers, caller) {
            Ok(session) => {
                self.sessions.remove(&session.id);
                let mut response = Response::new(ResponseBody::empty());
                *response.status_mut() = StatusCode::OK;
                response
            }
            Err(refused) => *refused,
        }
    }

    /// The session a GET or DELETE names; 405 when it names none (2026-07-28 has neither).
    fn session_of(
        &self,
        headers: &HeaderMap,
        caller: Option<&Auth>,
    ) -> Result<Arc<HttpSession>, Box<Response<ResponseBody>>> {
        let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
            return Err(Box::new(not_allowed()));
        };
        self.sessions.get(id, caller).ok_or_else(|| {
            let message = "the session is unknown or has ended";
            Box::new(refusal(StatusCode::NOT_FOUND, None, message))
        })
    }
}

/// A POST without a 2026-07-28 claim: a header naming a revision must name one of the
/// handshake era (a modern one means the body lacks its `_meta`).
pub(super) fn legacy_version_header(
    headers: &HeaderMap,
    message: &Message<'_>,
) -> Option<Response<ResponseBody>> {
    let value = headers.get(PROTOCOL_HEADER)?.to_str().ok()?.trim();
    let id = request_id(message);
    match ProtocolVersion::parse(value) {
        Some(version) if version.era() == Era::Legacy => None,
        Some(_) => Some(error(
            StatusCode::BAD_REQUEST,
            id,
            &ProtocolError::invalid_params(format_args!(
                "`_meta` lacks `{PROTOCOL_VERSION}` for a {value} request"
            )),
        )),
        None => Some(refusal(
            StatusCode::BAD_REQUEST,
            id,
            format_args!("unsupported MCP-Protocol-Version `{value}`"),
        )),
    }
}
