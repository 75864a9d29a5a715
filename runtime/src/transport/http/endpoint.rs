//! The MCP endpoint: one URL for both eras, as a tower `Service`.
//!
//! Every request passes the `Host`/`Origin` guard first (403). Then, by method and body:
//!
//! | request | served |
//! |---|---|
//! | POST whose `_meta` names a revision | statelessly, 2026-07-28: headers checked against the body; `-32020`, `-32021`, `-32022` and a malformed `_meta` are 400, `-32601` is 404, other errors in-band |
//! | POST, no such claim, `MCP-Protocol-Version` naming 2026-07-28 | 400, `-32602`: the request lacks its `_meta` |
//! | POST `initialize` | creates a session; its id in `Mcp-Session-Id` |
//! | any other POST | in its session: missing id 400, unknown or expired 404; errors in-band |
//! | GET | a session's stream of messages that belong to no request (409 for a second), or the resumption of a stream (`Last-Event-ID`); 405 without a session |
//! | DELETE | ends a session (200); 405 without one |
//!
//! A request is answered with one JSON document when its only message is its answer, and with
//! server-sent events once a notification comes first (or the answer is slow to come), as the
//! `Accept` header allows. On 2026-07-28 a client that closes the response cancels the call; in
//! a session it does not (the specification says so), and from 2025-11-25 on the client can
//! resume the stream.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::header::{ACCEPT, ALLOW, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN};
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::value::RawValue;

use crate::call::outlet::Outlet;
use crate::call::record::CallRecord;
use crate::protocol::jsonrpc::{
    self, HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
    MISSING_CLIENT_CAPABILITY, Message, PARSE_ERROR, RpcError, UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::protocol::params::{
    CLIENT_CAPABILITIES, Meta, PROTOCOL_VERSION, Params, SUBSCRIPTION_ID,
};
use crate::protocol::{Era, ProtocolVersion};
use crate::server::service::Service;
use crate::server::session::{Answer, Session};
use crate::transport::http::config::Http;
use crate::transport::http::headers;
use crate::transport::http::sessions::{HttpSession, Sessions};
use crate::transport::http::stream::{EventBody, EventStream, RequestSink, ResponseBody};

/// The session header.
const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_HEADER: &str = "mcp-protocol-version";
const LAST_EVENT_ID: &str = "last-event-id";
/// How long an answer may take before the response turns into an event stream (which can
/// carry keep-alives through proxies while the call goes on).
const JSON_PATIENCE: Duration = Duration::from_secs(1);
/// Waiting without end, in a form timers accept.
const FOR_GOOD: Duration = Duration::from_secs(365 * 24 * 3600);

/// The MCP endpoint as a tower `Service`: mount it on a route of your own server (axum's
/// `Router::route_service("/mcp", endpoint)`, or hyper directly), behind the layers you choose
/// (authentication, CORS, rate limits, tracing, TLS). Cloning it is cheap: clones share the
/// server and its sessions.
#[derive(Clone)]
pub struct HttpService {
    pub(crate) endpoint: Arc<Endpoint>,
}

pub(crate) struct Endpoint {
    pub(crate) service: Arc<Service>,
    pub(crate) http: Http,
    pub(crate) sessions: Sessions,
    sweeping: AtomicBool,
    /// Open `subscriptions/listen` streams, answered when the server shuts down.
    listening: Mutex<Vec<(Weak<EventStream>, Box<RawValue>)>>,
}

/// What a client accepts in a response.
#[derive(Clone, Copy)]
struct Accepts {
    json: bool,
    events: bool,
}

impl HttpService {
    pub(crate) fn new(service: Arc<Service>, http: Http) -> HttpService {
        HttpService {
            endpoint: Arc::new(Endpoint {
                sessions: Sessions::new(http.session_idle, http.max_sessions),
                service,
                http,
                sweeping: AtomicBool::new(false),
                listening: Mutex::default(),
            }),
        }
    }
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<ResponseBody>;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<ResponseBody>, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let endpoint = Arc::clone(&self.endpoint);
        Box::pin(async move { Ok(endpoint.handle(request).await) })
    }
}

impl Endpoint {
    pub(crate) async fn handle<B>(self: Arc<Self>, request: Request<B>) -> Response<ResponseBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        // Tools run on the runtime that serves HTTP.
        self.service
            .workers
            .adopt(tokio::runtime::Handle::current());
        self.start_sweeping();
        if let Some(refused) = self.guard(request.headers()) {
            return refused;
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::GET => self.get(request.headers()),
            Method::DELETE => self.delete(request.headers()),
            _ => not_allowed(),
        }
    }

    /// DNS rebinding: a `Host` or `Origin` the server does not know is refused before anything
    /// else happens.
    fn guard(&self, headers: &HeaderMap) -> Option<Response<ResponseBody>> {
        let header = |name| {
            headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        if let Some(host) = header(HOST)
            && !self.http.hosts.host(host)
        {
            let message = format!("Forbidden: host `{host}` is not allowed");
            return Some(error(
                StatusCode::FORBIDDEN,
                None,
                INVALID_REQUEST,
                &message,
            ));
        }
        if let Some(origin) = header(ORIGIN)
            && !self.http.origins.origin(origin)
        {
            let message = format!("Forbidden: origin `{origin}` is not allowed");
            return Some(error(
                StatusCode::FORBIDDEN,
                None,
                INVALID_REQUEST,
                &message,
            ));
        }
        None
    }

    async fn post<B>(self: &Arc<Self>, request: Request<B>) -> Response<ResponseBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (parts, body) = request.into_parts();
        let headers = &parts.headers;
        if !is_json(headers) {
            let message =
                "Unsupported Media Type: send the message as `Content-Type: application/json`";
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                None,
                INVALID_REQUEST,
                message,
            );
        }
        let accepts = accepts(headers);
        if !accepts.json && !accepts.events {
            let message = "Not Acceptable: accept `application/json` or `text/event-stream`";
            return error(StatusCode::NOT_ACCEPTABLE, None, INVALID_REQUEST, message);
        }
        let body = match self.read(headers, body).await {
            Ok(body) => body,
            Err(refused) => return refused,
        };
        let message = jsonrpc::classify(&body);
        let modern = match &message {
            Message::Request { params, .. } | Message::Notification { params, .. } => {
                match claim(params) {
                    Ok(claimed) => claimed,
                    Err(refused) => return refused.for_message(&message),
                }
            }
            // A body that is not JSON, or not a message.
            Message::Invalid { id, error: e } => {
                return error(StatusCode::BAD_REQUEST, *id, e.code, &e.message);
            }
            _ => false,
        };
        match modern {
            true => {
                self.modern(&parts.headers, message, parts.extensions, accepts)
                    .await
            }
            false => {
                if let Some(refused) = legacy_version_header(headers, &message) {
                    return refused;
                }
                self.legacy(&parts.headers, &body, message, parts.extensions, accepts)
                    .await
            }
        }
    }

    /// The body, within the size and time the server allows.
    async fn read<B>(&self, headers: &HeaderMap, body: B) -> Result<Bytes, Response<ResponseBody>>
    where
        B: http_body::Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let limit = self.http.max_body;
        let too_large = || {
            let message = format!("Payload Too Large: the body exceeds the {limit}-byte limit");
            error(
                StatusCode::PAYLOAD_TOO_LARGE,
                None,
                INVALID_REQUEST,
                &message,
            )
        };
        let declared = headers
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|length| length > limit) {
            return Err(too_large());
        }
        let limited = http_body_util::Limited::new(body, limit);
        match tokio::time::timeout(self.http.body_timeout, limited.collect()).await {
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
            Ok(Err(e)) => Err(error(
                StatusCode::BAD_REQUEST,
                None,
                PARSE_ERROR,
                &format!("Parse error: the body could not be read: {e}"),
            )),
            Err(_) => {
                let message = "Request Timeout: the body took too long to arrive";
                Err(error(
                    StatusCode::REQUEST_TIMEOUT,
                    None,
                    INVALID_REQUEST,
                    message,
                ))
            }
        }
    }

    /// A 2026-07-28 POST: it stands alone; its headers must agree with its body.
    async fn modern(
        self: &Arc<Self>,
        headers: &HeaderMap,
        message: Message<'_>,
        extensions: http::Extensions,
        accepts: Accepts,
    ) -> Response<ResponseBody> {
        let (id, method, params) = match &message {
            Message::Request { id, method, params } => (Some(*id), method.as_ref(), params),
            // 2026-07-28 defines no notification a client sends over HTTP.
            Message::Notification { .. } => return accepted(),
            _ => unreachable!("only requests and notifications claim a revision"),
        };
        let meta: Meta<'_> = params
            .meta
            .and_then(|m| serde_json::from_str(m.get()).ok())
            .unwrap_or_default();
        if meta.client_capabilities.is_none() {
            let message = format!("Invalid params: `_meta` lacks `{CLIENT_CAPABILITIES}`");
            return error(StatusCode::BAD_REQUEST, id, INVALID_PARAMS, &message);
        }
        let Some(version) = meta
            .protocol_version
            .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
        else {
            let message = format!("Invalid params: `{PROTOCOL_VERSION}` must be a string");
            return error(StatusCode::BAD_REQUEST, id, INVALID_PARAMS, &message);
        };
        if let Err(refused) = self.modern_headers(headers, &version, method, params) {
            return error(StatusCode::BAD_REQUEST, id, HEADER_MISMATCH, &refused.0);
        }
        let session = Session::new(Arc::clone(&self.service));
        let stream = EventStream::new(None);
        let outlet = Outlet::new(RequestSink {
            stream: Arc::clone(&stream),
            extensions,
        });
        let answer = session.message(message, &outlet, None);
        self.respond(answer, stream, accepts, Era::Modern, None)
            .await
    }

    fn modern_headers(
        &self,
        headers: &HeaderMap,
        version: &str,
        method: &str,
        params: &Params<'_>,
    ) -> Result<(), headers::Mismatch> {
        headers::expect(headers, PROTOCOL_HEADER, version)?;
        headers::expect(headers, "mcp-method", method)?;
        if method == "tools/call"
            && let Some(name) = params.name.as_deref()
        {
            headers::expect(headers, "mcp-name", name)?;
            if let Some((_, tool)) = self.service.registry.find(name)
                && !tool.compiled.headers.is_empty()
            {
                let arguments = params
                    .arguments
                    .and_then(|a| serde_json::from_str(a.get()).ok())
                    .unwrap_or(serde_json::Value::Null);
                headers::params(headers, &tool.compiled.headers, &arguments)?;
            }
        }
        Ok(())
    }

    /// A POST of the handshake era: `initialize` opens a session; anything else needs one.
    async fn legacy(
        self: &Arc<Self>,
        headers: &HeaderMap,
        body: &[u8],
        message: Message<'_>,
        extensions: http::Extensions,
        accepts: Accepts,
    ) -> Response<ResponseBody> {
        let id_of = request_id;
        let initialize =
            matches!(&message, Message::Request { method, .. } if method == "initialize");
        let session = match headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) {
            Some(id) => match self.sessions.get(id) {
                Some(session) => session,
                None => {
                    let text =
                        "Not Found: the session is unknown or has ended; send `initialize` again";
                    return error(
                        StatusCode::NOT_FOUND,
                        id_of(&message),
                        INVALID_REQUEST,
                        text,
                    );
                }
            },
            None if initialize => match self.sessions.create(&self.service) {
                Ok(session) => session,
                Err(_) => {
                    let text = "Service Unavailable: the server holds as many sessions as it may; retry later";
                    return error(
                        StatusCode::SERVICE_UNAVAILABLE,
                        id_of(&message),
                        INVALID_REQUEST,
                        text,
                    );
                }
            },
            None => {
                let text =
                    "Bad Request: the `Mcp-Session-Id` header is required; send `initialize` first";
                return error(
                    StatusCode::BAD_REQUEST,
                    id_of(&message),
                    INVALID_REQUEST,
                    text,
                );
            }
        };
        let stream = session.open_stream();
        let outlet = Outlet::new(RequestSink {
            stream: Arc::clone(&stream),
            extensions,
        });
        let answer = match message {
            Message::Batch => session.session.handle(body, &outlet),
            message => session.session.message(message, &outlet, None),
        };
        let created = initialize && headers.get(SESSION_ID).is_none();
        if created && matches!(answer, Answer::Error(..)) {
            self.sessions.remove(&session.id);
        }
        let mut response = self
            .respond(answer, stream, accepts, Era::Legacy, Some(&session))
            .await;
        if let Ok(id) = HeaderValue::from_str(&session.id) {
            response.headers_mut().insert(SESSION_ID, id);
        }
        response
    }

    /// What a message got, as an HTTP response.
    async fn respond(
        &self,
        answer: Answer,
        stream: Arc<EventStream>,
        accepts: Accepts,
        era: Era,
        session: Option<&HttpSession>,
    ) -> Response<ResponseBody> {
        let priming = session
            .and_then(HttpSession::version)
            .is_some_and(|v| v >= ProtocolVersion::V2025_11_25);
        let records: Vec<Arc<CallRecord>> = match answer {
            Answer::None => return accepted(),
            Answer::Now(line) => return json(StatusCode::OK, line),
            Answer::Error(code, line) => return json(status_of(code, era), line),
            Answer::Stream(ack) => {
                let id = listen_id(&ack);
                stream.send(ack);
                if let Some(id) = id {
                    self.listening
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((Arc::downgrade(&stream), id));
                }
                return self.events(stream, false, None);
            }
            Answer::Later(call) => {
                let record = Arc::clone(&call.record);
                call.start();
                vec![record]
            }
            Answer::Batch(calls) => {
                let records = calls.iter().map(|c| Arc::clone(&c.record)).collect();
                calls.into_iter().for_each(|call| call.start());
                records
            }
        };
        // Closing a 2026-07-28 response cancels its call; in a session it does not.
        let cancel = (era == Era::Modern)
            .then(|| records.first().cloned())
            .flatten();
        let guard = CancelOnDrop(cancel.clone());
        if accepts.json {
            let patience = if accepts.events {
                JSON_PATIENCE
            } else {
                FOR_GOOD
            };
            if let Some(answer) = stream.first(patience).await {
                guard.defuse();
                return json(StatusCode::OK, answer.to_vec());
            }
        }
        guard.defuse();
        if !accepts.events {
            // JSON only, and notifications came first: they are dropped, the answer waits.
            return self.json_when_answered(stream, cancel).await;
        }
        self.events(stream, priming, cancel)
    }

    /// The answer alone, for a client that accepts only JSON.
    async fn json_when_answered(
        &self,
        stream: Arc<EventStream>,
        cancel: Option<Arc<CallRecord>>,
    ) -> Response<ResponseBody> {
        let guard = CancelOnDrop(cancel);
        let mut body = EventBody::new(stream, EventStream::FIRST, false, FOR_GOOD, None);
        let mut last = None;
        while let Some(Ok(frame)) = body.frame().await {
            if let Ok(data) = frame.into_data() {
                last = Some(data);
            }
        }
        guard.defuse();
        match last
            .as_deref()
            .and_then(|event| event.strip_prefix(b"event: message\ndata: "))
        {
            Some(line) => json(StatusCode::OK, line.trim_ascii_end().to_vec()),
            None => accepted(),
        }
    }

    fn events(
        &self,
        stream: Arc<EventStream>,
        priming: bool,
        cancel: Option<Arc<CallRecord>>,
    ) -> Response<ResponseBody> {
        let body = EventBody::new(
            stream,
            EventStream::FIRST,
            priming,
            self.http.keep_alive,
            cancel,
        );
        event_response(body)
    }

    /// GET: a session's stream of messages that belong to no request, or a stream resumed.
    fn get(&self, headers: &HeaderMap) -> Response<ResponseBody> {
        if !accepts(headers).events {
            let message = "Not Acceptable: a GET stream needs `Accept: text/event-stream`";
            return error(StatusCode::NOT_ACCEPTABLE, None, INVALID_REQUEST, message);
        }
        let session = match self.session_of(headers) {
            Ok(session) => session,
            Err(refused) => return *refused,
        };
        if let Some(last) = headers.get(LAST_EVENT_ID).and_then(|v| v.to_str().ok()) {
            let resumed = EventStream::parse_event_id(last)
                .and_then(|(number, n)| Some((session.stream(number)?, n)));
            return match resumed {
                Some((stream, n)) => {
                    let body = EventBody::new(stream, n + 1, false, self.http.keep_alive, None);
                    event_response(body)
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
            Some(stream) => self.events(stream, false, None),
            None => {
                let message = "Conflict: this session's GET stream is already open";
                error(StatusCode::CONFLICT, None, INVALID_REQUEST, message)
            }
        }
    }

    /// DELETE: ends a session.
    fn delete(&self, headers: &HeaderMap) -> Response<ResponseBody> {
        match self.session_of(headers) {
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
    ) -> Result<Arc<HttpSession>, Box<Response<ResponseBody>>> {
        let Some(id) = headers.get(SESSION_ID).and_then(|v| v.to_str().ok()) else {
            return Err(Box::new(not_allowed()));
        };
        self.sessions.get(id).ok_or_else(|| {
            let message = "Not Found: the session is unknown or has ended";
            Box::new(error(StatusCode::NOT_FOUND, None, INVALID_REQUEST, message))
        })
    }

    /// Ends idle sessions from time to time, from the first request on.
    fn start_sweeping(self: &Arc<Self>) {
        if self.sweeping.swap(true, Ordering::AcqRel) {
            return;
        }
        let endpoint = Arc::downgrade(self);
        let every =
            (self.http.session_idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                match endpoint.upgrade() {
                    Some(endpoint) => endpoint.sessions.sweep(),
                    None => return,
                }
            }
        });
    }

    /// Ends every session and stream: the server is shutting down. Open
    /// `subscriptions/listen` streams get their result.
    pub(crate) fn close(&self) {
        self.sessions.clear();
        let listening =
            std::mem::take(&mut *self.listening.lock().unwrap_or_else(|e| e.into_inner()));
        for (stream, id) in listening {
            if let Some(stream) = stream.upgrade() {
                let result = serde_json::json!({
                    "resultType": "complete",
                    "_meta": {SUBSCRIPTION_ID: id},
                });
                stream.answer(jsonrpc::result_line(&id, &result));
            }
        }
    }
}

/// Whether a request's `_meta` claims a revision (2026-07-28); a claim that is not a valid
/// envelope, or a modern `MCP-Protocol-Version` header without a claim, is refused later by
/// the stateless path or here.
fn claim(params: &Params<'_>) -> Result<bool, Refusal> {
    let Some(meta) = params.meta else {
        return Ok(false);
    };
    let meta: Meta<'_> = serde_json::from_str(meta.get()).map_err(|_| Refusal {
        code: INVALID_PARAMS,
        message: "Invalid params: `_meta` must be an object".into(),
    })?;
    Ok(meta.protocol_version.is_some())
}

/// A refusal before the message was served.
struct Refusal {
    code: i32,
    message: String,
}

impl Refusal {
    fn for_message(&self, message: &Message<'_>) -> Response<ResponseBody> {
        error(
            StatusCode::BAD_REQUEST,
            request_id(message),
            self.code,
            &self.message,
        )
    }
}

/// The id of a request, to echo in an error.
fn request_id<'a>(message: &Message<'a>) -> Option<&'a RawValue> {
    match message {
        Message::Request { id, .. } => Some(*id),
        _ => None,
    }
}

/// A POST without a 2026-07-28 claim: a header naming a revision must name one of the
/// handshake era (a modern one means the body lacks its `_meta`).
fn legacy_version_header(
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
            INVALID_PARAMS,
            &format!("Invalid params: `_meta` lacks `{PROTOCOL_VERSION}` for a {value} request"),
        )),
        None => Some(error(
            StatusCode::BAD_REQUEST,
            id,
            INVALID_REQUEST,
            &format!("Bad Request: unsupported MCP-Protocol-Version `{value}`"),
        )),
    }
}

/// The HTTP status of a JSON-RPC error: in-band (200) in the handshake era; on 2026-07-28 the
/// specification's own errors are 400 and an unknown method 404.
fn status_of(code: i32, era: Era) -> StatusCode {
    match (era, code) {
        (Era::Legacy, _) => StatusCode::OK,
        (
            Era::Modern,
            HEADER_MISMATCH | MISSING_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION,
        ) => StatusCode::BAD_REQUEST,
        (Era::Modern, METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        (Era::Modern, _) => StatusCode::OK,
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

fn accepts(headers: &HeaderMap) -> Accepts {
    let values: Vec<&str> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.split(';').next().unwrap_or("").trim())
        .collect();
    if values.is_empty() {
        return Accepts {
            json: true,
            events: true,
        };
    }
    let any = |wanted: &str, family: &str| {
        values.iter().any(|t| {
            t.eq_ignore_ascii_case(wanted) || t.eq_ignore_ascii_case(family) || *t == "*/*"
        })
    };
    Accepts {
        json: any("application/json", "application/*"),
        events: any("text/event-stream", "text/*"),
    }
}

/// The id of a `subscriptions/listen`, from its acknowledgement.
fn listen_id(ack: &[u8]) -> Option<Box<RawValue>> {
    let ack: serde_json::Value = serde_json::from_slice(ack).ok()?;
    let id = ack.pointer("/params/_meta")?.get(SUBSCRIPTION_ID)?;
    serde_json::value::to_raw_value(id).ok()
}

/// Cancels a call if the response is dropped first (the client went away).
struct CancelOnDrop(Option<Arc<CallRecord>>);

impl CancelOnDrop {
    fn defuse(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(record) = self.0.take() {
            record.cancel();
        }
    }
}

fn json(status: StatusCode, mut line: Vec<u8>) -> Response<ResponseBody> {
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    let mut response = Response::new(ResponseBody::full(line));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn event_response(body: EventBody) -> Response<ResponseBody> {
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

fn accepted() -> Response<ResponseBody> {
    let mut response = Response::new(ResponseBody::empty());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

fn not_allowed() -> Response<ResponseBody> {
    let mut response = error(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        INVALID_REQUEST,
        "Method Not Allowed: send messages with POST; GET and DELETE need a session",
    );
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static("GET, POST, DELETE"));
    response
}

/// An HTTP error whose body is a JSON-RPC error.
fn error(
    status: StatusCode,
    id: Option<&RawValue>,
    code: i32,
    message: &str,
) -> Response<ResponseBody> {
    json(
        status,
        jsonrpc::error_line(id, &RpcError::new(code, message)),
    )
}
