//! The messages of one request (or of a session's GET stream) on their way to an HTTP
//! response: an [`EventStream`] keeps them, in order, and a response body reads them, as one
//! JSON document or as server-sent events.
//!
//! In a 2025-11-25 session every event has an id (`<stream>_<n>`) and the stream keeps its
//! events until they are read, so a client whose connection ended (or that the server let go,
//! `Context::close_stream`) resumes it with a GET and `Last-Event-ID`. Elsewhere events carry no
//! id and a stream is read once.

use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use serde_json::value::RawValue;

use crate::call::extensions::Extensions;
use crate::call::outlet::Sink;
use crate::call::record::CallRecord;
use crate::protocol::code::ErrorCode;
use crate::tools::headers::ParamHeader;
use crate::transport::http::backlog::Backlog;
use crate::transport::http::headers;

/// How long a client waits before reconnecting to a stream the server let go (SSE `retry`).
const RETRY_MS: u64 = 1000;

/// The most events a stream keeps for a client that has not read them.
const KEPT: usize = 4096;

pub(crate) struct EventStream {
    /// The stream's number in its session (the first part of its event ids), when its events
    /// have ids.
    pub(crate) ids: Option<u64>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The events, oldest first, with their numbers (from 1; the priming event is 0). A stream
    /// without ids drops each event once read; one with ids keeps them for a client that
    /// resumes, up to `KEPT`.
    events: Backlog,
    next: u64,
    /// The answer came (or will never come): nothing more follows.
    finished: bool,
    /// The reader is to be let go: the current one (or the first to come) ends after what it
    /// has, and a new one may resume.
    released: bool,
    /// The request's answer came alone (the stream's only event), so the response can be
    /// that one JSON document; until a reader takes it.
    answer_alone: bool,
    /// The answer's JSON-RPC error code, when it is an error response.
    error_code: Option<ErrorCode>,
    notified: bool,
    /// A reader read the whole stream after it finished.
    delivered: bool,
    /// A reader went away before the stream finished (without letting it go to be resumed).
    abandoned: bool,
    reader: Option<Waker>,
}

impl EventStream {
    pub(crate) fn new(ids: Option<u64>) -> Arc<EventStream> {
        Arc::new(EventStream {
            ids,
            state: Mutex::new(State {
                next: 1,
                ..State::default()
            }),
        })
    }

    /// The number of the first event (for a reader from the start).
    pub(crate) const FIRST: u64 = 1;

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A message of the request (a notification).
    pub(crate) fn send(&self, line: Vec<u8>) {
        self.push(line, false);
    }

    /// The request's answer, with its JSON-RPC error code when it is an error: nothing follows
    /// it.
    pub(crate) fn answer(&self, line: Vec<u8>, error_code: Option<ErrorCode>) {
        self.state().error_code = error_code;
        self.push(line, true);
    }

    /// The answer's JSON-RPC error code, when it is an error response.
    pub(crate) fn error_code(&self) -> Option<ErrorCode> {
        self.state().error_code
    }

    fn push(&self, line: Vec<u8>, last: bool) {
        let mut state = self.state();
        if state.finished {
            return;
        }
        let line = Bytes::from(line);
        state.answer_alone = last && !state.notified && state.events.is_empty();
        if !last {
            state.notified = true;
        }
        let n = state.next;
        state.next += 1;
        state.events.push_back((n, line));
        if state.events.len() > KEPT {
            state.events.pop_front();
        }
        state.finished |= last;
        if let Some(waker) = state.reader.take() {
            waker.wake();
        }
    }

    /// Ends the stream without an answer (a cancelled call, a shutdown).
    pub(crate) fn end(&self) {
        let mut state = self.state();
        state.finished = true;
        if let Some(waker) = state.reader.take() {
            waker.wake();
        }
    }

    /// Lets the current reader go after what it has read.
    fn release(&self) {
        let mut state = self.state();
        if self.ids.is_some() && !state.finished {
            state.released = true;
            if let Some(waker) = state.reader.take() {
                waker.wake();
            }
        }
    }

    /// Whether the stream still reaches a client: not finished, and not left by its reader.
    pub(crate) fn is_live(&self) -> bool {
        let state = self.state();
        !state.finished && !state.abandoned
    }

    /// Whether a client could still want the stream: it is not delivered whole, and either
    /// something may still be written to it or a reader holds it (`holders` counts the
    /// stream's owners besides the session), or it has events left to resume.
    pub(crate) fn is_wanted(&self, holders: usize) -> bool {
        let state = self.state();
        !(state.finished && state.delivered) && (holders > 0 || !state.events.is_empty())
    }

    /// Waits until the stream has something: `Some(answer)` when its only message is the
    /// answer (it can be sent as one JSON document; its error code is `error_code()`), `None`
    /// when it has notifications or ended without an answer (it must be a stream), or when
    /// `patience` runs out first.
    pub(crate) async fn first(self: &Arc<Self>, patience: Duration) -> Option<Bytes> {
        // A call answered at once (a quick tool) needs no timer.
        if let Poll::Ready(first) = self.first_now(None) {
            return first;
        }
        let waiting = std::future::poll_fn(|cx| self.first_now(Some(cx.waker())));
        // Boxed: a timer is most of a future's size, and every request's future would hold it.
        Box::pin(tokio::time::timeout(patience, waiting))
            .await
            .ok()
            .flatten()
    }

    /// The answer, if it came alone and is here now (see [`EventStream::first`]).
    pub(crate) fn answered(&self) -> Option<Bytes> {
        match self.first_now(None) {
            Poll::Ready(Some(answer)) => Some(answer),
            _ => None,
        }
    }

    /// What [`EventStream::first`] gives now: the answer alone, or `None` once something else
    /// came or the stream ended; pending (with `waker` kept) while nothing did.
    fn first_now(&self, waker: Option<&Waker>) -> Poll<Option<Bytes>> {
        let mut state = self.state();
        if std::mem::take(&mut state.answer_alone)
            && let Some((_, answer)) = state.events.pop_front()
        {
            state.events.clear();
            state.delivered = true;
            return Poll::Ready(Some(answer));
        }
        if state.notified || state.finished || state.released {
            return Poll::Ready(None);
        }
        if let Some(waker) = waker {
            state.reader = Some(waker.clone());
        }
        Poll::Pending
    }

    /// The event ids a stream writes: `<stream>_<n>`.
    pub(crate) fn event_id(stream: u64, n: u64) -> String {
        format!("{stream}_{n}")
    }

    /// The stream and event number of an event id.
    pub(crate) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
        let (stream, n) = id.trim().split_once('_')?;
        Some((stream.parse().ok()?, n.parse().ok()?))
    }
}

/// The sink of one request's messages: its stream, and what the transport knows of the
/// request.
/// A session's GET stream, for messages about no request (the tool list changed): held weakly,
/// so that the stream counts as read only while a client reads it.
pub(crate) struct StandaloneSink(pub(crate) std::sync::Weak<EventStream>);

impl Sink for StandaloneSink {
    fn send(&self, line: Vec<u8>) {
        if let Some(stream) = self.0.upgrade() {
            stream.send(line);
        }
    }
}

pub(crate) struct RequestSink {
    pub(crate) stream: Arc<EventStream>,
    pub(crate) extensions: Extensions,
    /// A 2026-07-28 request's headers, which mirror some tools' arguments; `None` in a
    /// session, whose requests mirror none.
    pub(crate) headers: Option<http::HeaderMap>,
}

impl Sink for RequestSink {
    fn send(&self, line: Vec<u8>) {
        self.stream.send(line);
    }

    fn finish(&self, answer: Option<Vec<u8>>, error_code: Option<ErrorCode>) {
        match answer {
            Some(line) => self.stream.answer(line, error_code),
            None => self.stream.end(),
        }
    }

    fn release(&self) {
        self.stream.release();
    }

    fn extensions(&self) -> Option<&Extensions> {
        Some(&self.extensions)
    }

    fn mirrors(
        &self,
        declared: &[ParamHeader],
        arguments: Option<&RawValue>,
    ) -> Result<(), String> {
        let Some(headers) = &self.headers else {
            return Ok(());
        };
        let arguments = arguments
            .and_then(|a| serde_json::from_str(a.get()).ok())
            .unwrap_or(serde_json::Value::Null);
        headers::params(headers, declared, &arguments).map_err(|m| m.0)
    }

    fn is_open(&self) -> bool {
        self.stream.is_live()
    }
}

/// The body of the endpoint's responses: nothing, one JSON document, or server-sent events.
pub struct ResponseBody(Kind);

enum Kind {
    Empty,
    Full(Option<Bytes>),
    Events(Box<EventBody>),
}

impl ResponseBody {
    pub(crate) fn empty() -> ResponseBody {
        ResponseBody(Kind::Empty)
    }

    pub(crate) fn full(bytes: impl Into<Bytes>) -> ResponseBody {
        ResponseBody(Kind::Full(Some(bytes.into())))
    }

    pub(crate) fn events(body: EventBody) -> ResponseBody {
        ResponseBody(Kind::Events(Box::new(body)))
    }
}

/// Server-sent events read from an [`EventStream`].
pub(crate) struct EventBody {
    stream: Arc<EventStream>,
    /// The number of the next event to send.
    cursor: u64,
    /// The priming event (an id and no data), sent first where events have ids.
    priming: Option<Bytes>,
    keep_alive: Pin<Box<tokio::time::Sleep>>,
    interval: Duration,
    /// The call to cancel if the client goes away before the stream ends (2026-07-28, where
    /// closing the stream is how a client cancels).
    cancel_on_drop: Option<Arc<CallRecord>>,
    /// When the response ends, whatever the stream still has: the token that opened it expires.
    until: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl EventBody {
    pub(crate) fn new(
        stream: Arc<EventStream>,
        from: u64,
        priming: bool,
        keep_alive: Duration,
        cancel_on_drop: Option<Arc<CallRecord>>,
    ) -> EventBody {
        // The priming event carries the id just before the first one it will send, so that a
        // client resuming from it gets everything after.
        let priming = match (priming, stream.ids) {
            (true, Some(id)) => Some(Bytes::from(format!(
                "id: {}\nretry: {RETRY_MS}\ndata: \n\n",
                EventStream::event_id(id, from.saturating_sub(1))
            ))),
            _ => None,
        };
        EventBody {
            stream,
            cursor: from,
            priming,
            keep_alive: Box::pin(tokio::time::sleep(keep_alive)),
            interval: keep_alive,
            cancel_on_drop,
            until: None,
        }
    }

    /// The response ends at `deadline`, if there is one (a stream being read is let go, to be
    /// resumed by a request with a token still valid).
    pub(crate) fn until(mut self, deadline: Option<tokio::time::Instant>) -> EventBody {
        self.until = deadline.map(|at| Box::pin(tokio::time::sleep_until(at)));
        self
    }

    fn frame(&self, n: u64, line: &[u8]) -> Bytes {
        let mut event = Vec::with_capacity(line.len() + 48);
        if let Some(stream) = self.stream.ids {
            event.extend_from_slice(b"id: ");
            event.extend_from_slice(EventStream::event_id(stream, n).as_bytes());
            event.push(b'\n');
        }
        event.extend_from_slice(b"event: message\ndata: ");
        event.extend_from_slice(line.strip_suffix(b"\n").unwrap_or(line));
        event.extend_from_slice(b"\n\n");
        Bytes::from(event)
    }
}

impl Body for EventBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Some(priming) = self.priming.take() {
            return Poll::Ready(Some(Ok(Frame::data(priming))));
        }
        if let Some(until) = self.until.as_mut()
            && until.as_mut().poll(cx).is_ready()
        {
            return Poll::Ready(None);
        }
        let next = {
            let mut state = self.stream.state();
            let cursor = self.cursor;
            let found = match self.stream.ids {
                Some(_) => {
                    let first = state.events.front().map_or(cursor, |(n, _)| *n);
                    let at = usize::try_from(cursor.saturating_sub(first)).unwrap_or(usize::MAX);
                    state.events.get(at).cloned()
                }
                None => state.events.pop_front(),
            };
            match found {
                Some(event) => Some(Ok(event)),
                None if state.finished => Some(Err(())),
                None if state.released => {
                    // This reader is let go; the next one (a resumption) reads on.
                    state.released = false;
                    Some(Err(()))
                }
                None => {
                    state.reader = Some(cx.waker().clone());
                    None
                }
            }
        };
        match next {
            Some(Ok((n, line))) => {
                self.cursor = n + 1;
                let frame = self.frame(n, &line);
                let interval = self.interval;
                self.keep_alive
                    .as_mut()
                    .reset(tokio::time::Instant::now() + interval);
                Poll::Ready(Some(Ok(Frame::data(frame))))
            }
            Some(Err(())) => {
                // The stream ended (or was let go): the client has everything; a finished
                // call is no longer cancelled by the connection closing.
                if self.stream.is_done_after(self.cursor) {
                    self.cancel_on_drop = None;
                }
                Poll::Ready(None)
            }
            None => {
                if self.keep_alive.as_mut().poll(cx).is_ready() {
                    let interval = self.interval;
                    self.keep_alive
                        .as_mut()
                        .reset(tokio::time::Instant::now() + interval);
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(
                        b": keep-alive\n\n",
                    )))));
                }
                Poll::Pending
            }
        }
    }
}

impl EventStream {
    /// Whether the stream finished and nothing after `cursor` is left to read (and if so,
    /// notes that it was delivered).
    fn is_done_after(&self, cursor: u64) -> bool {
        let mut state = self.state();
        let done = state.finished && state.next <= cursor;
        state.delivered |= done;
        done
    }
}

impl Drop for EventBody {
    fn drop(&mut self) {
        {
            let mut state = self.stream.state();
            if !state.finished && !state.released && self.stream.ids.is_none() {
                // No one can resume a stream without ids: its client is gone for good.
                state.abandoned = true;
            }
        }
        if let Some(record) = self.cancel_on_drop.take()
            && !self.stream.is_done_after(self.cursor)
        {
            record.gate.cancel();
        }
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        match &mut self.0 {
            Kind::Empty => Poll::Ready(None),
            Kind::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Kind::Events(events) => Pin::new(&mut **events).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Kind::Empty => true,
            Kind::Full(bytes) => bytes.is_none(),
            Kind::Events(_) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Kind::Empty | Kind::Full(None) => SizeHint::with_exact(0),
            Kind::Full(Some(bytes)) => SizeHint::with_exact(bytes.len() as u64),
            Kind::Events(_) => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn which_streams_a_session_keeps_for_resumption() {
        // A request answered at once never used its stream.
        let unused = EventStream::new(Some(1));
        assert!(!unused.is_wanted(0));
        // Still being written or read.
        assert!(unused.is_wanted(1));
        // Answered as one JSON document: delivered.
        let answered = EventStream::new(Some(2));
        answered.answer(b"{}".to_vec(), None);
        assert!(answered.first(Duration::from_secs(1)).await.is_some());
        assert!(!answered.is_wanted(0));
        // Events the client has not read, with nobody writing: kept for a resuming client.
        let broken = EventStream::new(Some(3));
        broken.send(b"{}".to_vec());
        broken.answer(b"{}".to_vec(), None);
        assert!(broken.is_wanted(0));
    }
}
