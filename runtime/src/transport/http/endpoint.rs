//! The endpoint's state, shared by every request: the server, the settings, the sessions and
//! the open `subscriptions/listen` streams; and how a message's answer becomes a response.
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
use std::task::Poll;
use std::time::Duration;

use bytes::Buf;
use bytes::Bytes;
use http::header::CONNECTION;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::value::RawValue;

use crate::call::outlet::Outlet;
use crate::call::record::CallRecord;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::params::SUBSCRIPTION_ID;
use crate::protocol::{Era, ProtocolVersion};
use crate::server::engine::Engine;
use crate::server::reply::Reply;
use crate::transport::http::body::{DRAIN, drain};
use crate::transport::http::config::Http;
use crate::transport::http::head::Accepts;
use crate::transport::http::oauth::Protected;
use crate::transport::http::reply::{
    SESSION_ID, accepted, answer_status, error, event_response, json, refusal, status_of,
};
use crate::transport::http::sessions::{HttpSession, Sessions};
use crate::transport::http::stream::{EventBody, EventStream, ResponseBody};

/// How long an answer may take before the response turns into an event stream (which can
/// carry keep-alives through proxies while the call goes on).
const JSON_PATIENCE: Duration = Duration::from_secs(1);
/// Waiting without end, in a form timers accept.
const FOR_GOOD: Duration = Duration::from_secs(365 * 24 * 3600);

pub(crate) struct Endpoint {
    pub(crate) engine: Arc<Engine>,
    pub(crate) http: Http,
    pub(crate) sessions: Sessions,
    sweeping: AtomicBool,
    /// Open `subscriptions/listen` streams, answered when the server shuts down.
    listening: Mutex<Vec<(Weak<EventStream>, Box<RawValue>)>>,
}

impl Endpoint {
    pub(crate) fn new(engine: Arc<Engine>, http: Http) -> Endpoint {
        Endpoint {
            sessions: Sessions::new(http.session_idle, http.max_sessions),
            engine,
            http,
            sweeping: AtomicBool::new(false),
            listening: Mutex::default(),
        }
    }

    /// DNS rebinding: a `Host` or `Origin` (the first of each; `origin` is `None` where it is
    /// not checked) the server does not know is refused before anything else happens.
    pub(super) fn guard(
        &self,
        host: Option<&HeaderValue>,
        origin: Option<&HeaderValue>,
    ) -> Option<Response<ResponseBody>> {
        fn text(value: Option<&HeaderValue>) -> Option<&str> {
            value.and_then(|v| v.to_str().ok())
        }
        if let Some(host) = text(host)
            && !self.http.hosts().host(host)
        {
            let message = format!("host `{host}` is not allowed");
            return Some(refusal(StatusCode::FORBIDDEN, None, message));
        }
        if let Some(origin) = text(origin)
            && !self.http.origins.origin(origin)
        {
            let message = format!("origin `{origin}` is not allowed");
            return Some(refusal(StatusCode::FORBIDDEN, None, message));
        }
        None
    }

    /// The body, within the size and time the server allows.
    ///
    /// A body over the limit is refused with 413, but read first (and dropped), up to
    /// [`DRAIN`] bytes and within the body's time: a client still sending when the server
    /// closes the connection gets a reset instead of the answer, and many clients (the Python
    /// SDK's among them) read nothing before they have sent everything. A client that waits
    /// for `100 Continue`, or declares more than that, is refused at once.
    pub(super) async fn read<B>(
        &self,
        (declared, waits_to_continue): (Option<usize>, bool),
        body: B,
    ) -> Result<Bytes, Response<ResponseBody>>
    where
        B: http_body::Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let limit = self.http.max_body;
        let deadline = tokio::time::Instant::now() + self.http.body_timeout;
        let mut body = std::pin::pin!(body);
        let read = match declared {
            Some(length) if length > limit => Read::TooLarge,
            _ => collect(body.as_mut(), limit, deadline).await,
        };
        match read {
            Read::Whole(bytes) => Ok(bytes),
            Read::TooLarge => {
                // Not worth reading: a client that has not sent it yet, or more than the bound.
                let hopeless = waits_to_continue || declared.is_some_and(|length| length > DRAIN);
                // Boxed, as the timer below: what every request's future holds stays small.
                let drained = match hopeless {
                    true => false,
                    false => Box::pin(tokio::time::timeout_at(
                        deadline,
                        drain(body.as_mut(), DRAIN),
                    ))
                    .await
                    .unwrap_or(false),
                };
                let message = format!("the body exceeds the {limit}-byte limit");
                let mut response = refusal(StatusCode::PAYLOAD_TOO_LARGE, None, message);
                if !drained {
                    // What is left of the body would be read as the next request.
                    response
                        .headers_mut()
                        .insert(CONNECTION, HeaderValue::from_static("close"));
                }
                Err(response)
            }
            Read::Unreadable(e) => Err(error(
                StatusCode::BAD_REQUEST,
                None,
                &ProtocolError::parse_error(format_args!("the body could not be read: {e}")),
            )),
            Read::TimedOut => {
                let message = "the body took too long to arrive";
                Err(refusal(StatusCode::REQUEST_TIMEOUT, None, message))
            }
        }
    }

    /// What a message got, as an HTTP response or one still to come; `id` is the request's,
    /// when it is one (a `subscriptions/listen` stream is known by it). Everything but the wait
    /// is done here, so that what a request's future holds while it waits is [`Pending`] alone.
    pub(super) fn respond(
        &self,
        id: Option<&RawValue>,
        answer: Reply,
        stream: Arc<EventStream>,
        outlet: &Outlet,
        accepts: Accepts,
        answering: Answering<'_>,
    ) -> Served {
        let Answering {
            era,
            session,
            until,
        } = answering;
        let priming = session
            .and_then(HttpSession::version)
            .is_some_and(ProtocolVersion::has_resumable_streams);
        // Closing a 2026-07-28 response cancels its call; in a session it does not.
        let cancel: Option<Arc<CallRecord>> = match answer {
            Reply::None => return Served::Now(accepted()),
            Reply::Now(line) => {
                return Served::Now(self.at_once(StatusCode::OK, line, stream, accepts, priming));
            }
            Reply::Error(code, line) => {
                let status = status_of(code, era);
                return Served::Now(self.at_once(status, line, stream, accepts, priming));
            }
            // An item the caller lacks scopes for: 403 naming them, so that the client can ask
            // for them (step-up), rather than the unknown item it is otherwise shown.
            Reply::Forbidden(scopes, ..) => {
                let protected = outlet.extensions().and_then(|e| e.get::<Protected>());
                let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
                return Served::Now(Protected::insufficient(protected, &scopes));
            }
            Reply::Stream(ack) => {
                stream.send(ack);
                if let Some(id) = id {
                    self.listening
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((Arc::downgrade(&stream), id.to_owned()));
                    if let Some(until) = until {
                        // The subscription ends as the server ends one, with its result.
                        let (listen, id) = (Arc::downgrade(&stream), id.to_owned());
                        tokio::spawn(async move {
                            tokio::time::sleep_until(until).await;
                            if let Some(stream) = listen.upgrade() {
                                complete(&stream, &id);
                            }
                        });
                    }
                }
                return Served::Now(self.events(stream, false, None));
            }
            calls @ (Reply::Later(_) | Reply::Batch(_)) => {
                let cancel = (era == Era::Modern).then(|| first_record(&calls)).flatten();
                calls.deliver(outlet);
                cancel
            }
        };
        // A quick call (a tool that did not wait for anything) has answered already.
        if accepts.json
            && let Some(answer) = stream.answered()
        {
            return Served::Now(json(answer_status(stream.error_code(), era), answer));
        }
        Served::Later(Pending {
            stream,
            cancel,
            accepts,
            era,
            priming,
            session: None,
        })
    }

    /// The response to an answer still to come: a JSON document if it comes soon enough and
    /// alone, else an event stream.
    pub(super) async fn wait(&self, pending: Pending) -> Response<ResponseBody> {
        let Pending {
            stream,
            cancel,
            accepts,
            era,
            priming,
            session,
        } = pending;
        let named = |mut response: Response<ResponseBody>| {
            if let Some(id) = session {
                response.headers_mut().insert(SESSION_ID, id);
            }
            response
        };
        let guard = CancelOnDrop(cancel.clone());
        if accepts.json {
            let patience = if accepts.events {
                JSON_PATIENCE
            } else {
                FOR_GOOD
            };
            if let Some(answer) = stream.first(patience).await {
                guard.defuse();
                return named(json(answer_status(stream.error_code(), era), answer));
            }
        }
        guard.defuse();
        if !accepts.events {
            // JSON only, and notifications came first: they are dropped, the answer waits.
            // Boxed: rare, and inline it would double what every waiting request holds.
            return named(Box::pin(self.json_when_answered(stream, cancel, era)).await);
        }
        named(self.events(stream, priming, cancel))
    }

    /// An answer ready now: one JSON document, or, for a client that accepts only event
    /// streams, a stream of that one message. A refusal (a status other than 200) is a JSON
    /// document whatever the client accepts, as HTTP errors are.
    fn at_once(
        &self,
        status: StatusCode,
        line: Vec<u8>,
        stream: Arc<EventStream>,
        accepts: Accepts,
        priming: bool,
    ) -> Response<ResponseBody> {
        if accepts.json || status != StatusCode::OK {
            return json(status, line);
        }
        stream.answer(line, None);
        self.events(stream, priming, None)
    }

    /// The answer alone, for a client that accepts only JSON.
    async fn json_when_answered(
        &self,
        stream: Arc<EventStream>,
        cancel: Option<Arc<CallRecord>>,
        era: Era,
    ) -> Response<ResponseBody> {
        let guard = CancelOnDrop(cancel);
        let mut body = EventBody::new(
            Arc::clone(&stream),
            EventStream::FIRST,
            false,
            FOR_GOOD,
            None,
        );
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
            Some(line) => {
                let line = line.trim_ascii_end();
                json(answer_status(stream.error_code(), era), line.to_vec())
            }
            None => accepted(),
        }
    }

    pub(super) fn events(
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

    /// Ends idle sessions from time to time, from the first request on.
    pub(super) fn start_sweeping(self: &Arc<Self>) {
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
                complete(&stream, &id);
            }
        }
    }
}

/// How a request is answered besides its reply: in which era, in which session, and until when
/// a stream it opens may last.
pub(super) struct Answering<'a> {
    pub(super) era: Era,
    pub(super) session: Option<&'a HttpSession>,
    pub(super) until: Option<tokio::time::Instant>,
}

/// What a message got: its response now, or an answer still to come.
pub(super) enum Served {
    Now(Response<ResponseBody>),
    Later(Pending),
}

impl Served {
    /// The response names its session (`Mcp-Session-Id`), whenever it comes.
    pub(super) fn in_session(mut self, id: HeaderValue) -> Served {
        match &mut self {
            Served::Now(response) => {
                response.headers_mut().insert(SESSION_ID, id);
            }
            Served::Later(pending) => pending.session = Some(id),
        }
        self
    }
}

/// An answer still to come, and all its response needs.
pub(super) struct Pending {
    stream: Arc<EventStream>,
    /// The call a 2026-07-28 response cancels if it is dropped first.
    cancel: Option<Arc<CallRecord>>,
    accepts: Accepts,
    era: Era,
    /// The event stream starts with a priming event (resumable streams).
    priming: bool,
    /// The session the response names.
    session: Option<HeaderValue>,
}

/// Ends the `subscriptions/listen` stream of request `id` with its result.
fn complete(stream: &EventStream, id: &RawValue) {
    let result = serde_json::json!({
        "resultType": "complete",
        "_meta": {SUBSCRIPTION_ID: id},
    });
    stream.answer(jsonrpc::result_line(id, &result), None);
}

/// How reading a body went.
enum Read {
    Whole(Bytes),
    TooLarge,
    Unreadable(Box<dyn std::error::Error + Send + Sync>),
    TimedOut,
}

/// The body, if it is at most `limit` bytes and all of it comes by `deadline`; what is left of
/// it stays unread otherwise. A body of one piece (the usual case) is not copied, and one that
/// came with its request's head (hyper hands it over on the poll after the first) needs no
/// timer: the timer is made, boxed, only for a body still coming after that.
async fn collect<B>(mut body: Pin<&mut B>, limit: usize, deadline: tokio::time::Instant) -> Read
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut timer: Option<Pin<Box<tokio::time::Sleep>>> = None;
    let mut polled = false;
    // The first piece apart: a body of one piece (the usual case) needs no vector.
    let mut first: Option<Bytes> = None;
    let mut pieces: Vec<Bytes> = Vec::new();
    let mut size = 0;
    loop {
        let frame = std::future::poll_fn(|cx| {
            if let Poll::Ready(frame) = body.as_mut().poll_frame(cx) {
                return Poll::Ready(Some(frame));
            }
            if !polled {
                // Polled again at once, so that a body that is not on its way still gets its
                // timer.
                polled = true;
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
            timer.as_mut().poll(cx).map(|()| None)
        })
        .await;
        let mut data = match frame {
            None => return Read::TimedOut,
            Some(None) => break,
            Some(Some(Ok(frame))) => match frame.into_data() {
                Ok(data) => data,
                Err(_) => continue,
            },
            Some(Some(Err(e))) => return Read::Unreadable(e.into()),
        };
        size += data.remaining();
        if size > limit {
            return Read::TooLarge;
        }
        let piece = data.copy_to_bytes(data.remaining());
        match first {
            None => first = Some(piece),
            Some(_) => pieces.push(piece),
        }
    }
    match first {
        None => Read::Whole(Bytes::new()),
        Some(first) if pieces.is_empty() => Read::Whole(first),
        Some(first) => {
            pieces.insert(0, first);
            Read::Whole(pieces.concat().into())
        }
    }
}

/// The record of the first call a reply starts: a 2026-07-28 response dropped before its
/// answer cancels its call (a batch is not 2026-07-28's).
fn first_record(reply: &Reply) -> Option<Arc<CallRecord>> {
    match reply {
        Reply::Later(call) => Some(Arc::clone(call.record())),
        Reply::Batch(calls) => calls.first().map(|call| Arc::clone(call.record())),
        _ => None,
    }
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
            record.gate.cancel();
        }
    }
}
