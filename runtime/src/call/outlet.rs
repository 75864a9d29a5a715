//! The way back to the client, independent of the transport that carries it.
//!
//! An [`Outlet`] is the transport's handle on one request: where its messages go (its
//! notifications, the requests the server sends the client about it, its answer) and what the
//! transport knows of it (an HTTP request's extensions). On
//! stdio every request of a connection shares the one writer; over HTTP each request has a
//! stream of its own. A [`Peer`] is the client's side of a session: it numbers the server's
//! requests and routes the client's responses back to whoever awaits them, by id.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context as TaskContext, Poll};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use crate::call::extensions::Extensions;
use crate::protocol::code::ErrorCode;
use crate::protocol::id::{IdHashing, IdKey};
use crate::tools::headers::ParamHeader;

/// Where a transport takes the lines of one request (or a whole connection). Sending to a
/// client that is gone does nothing: there is no one left to tell.
pub(crate) trait Sink: Send + Sync + 'static {
    /// A message about the request (a notification, a request to the client).
    fn send(&self, line: Vec<u8>);

    /// The request's answer, or `None` when it gets none (it was cancelled): nothing more
    /// follows for it. A transport with a stream per request ends the stream here. An answer
    /// that is an error response comes with its code (a transport may give some codes a
    /// status of their own).
    fn finish(&self, answer: Option<Vec<u8>>, _error_code: Option<ErrorCode>) {
        if let Some(line) = answer {
            self.send(line);
        }
    }

    /// Lets go of the client's connection while the request goes on, where the transport can
    /// resume it later (a 2025-11-25 HTTP stream); elsewhere nothing.
    fn release(&self) {}

    /// The values the request carries beside its message (an HTTP request's extensions,
    /// where an authentication layer puts the caller it verified).
    fn extensions(&self) -> Option<&Extensions> {
        None
    }

    /// Whether the copies the request carries outside its message of the arguments a tool
    /// mirrors there (`declared`) agree with `arguments`: a 2026-07-28 HTTP request's
    /// `Mcp-Param-*` headers; `Err` says what differs. A transport with no such copies has
    /// nothing to disagree.
    fn mirrors(
        &self,
        _declared: &[ParamHeader],
        _arguments: Option<&RawValue>,
    ) -> Result<(), String> {
        Ok(())
    }

    /// The transport's name (see [`Outlet::new`]).
    fn transport(&self) -> &'static str {
        "unnamed"
    }

    /// Whether the sink is the whole connection's, for as long as it lasts (stdio, in-process),
    /// rather than one request's (an HTTP response): then it carries messages about no
    /// request.
    fn lasting(&self) -> bool {
        false
    }

    /// Whether messages sent still reach the client (an HTTP response it has not left).
    fn is_open(&self) -> bool {
        true
    }
}

impl Sink for std::sync::mpsc::Sender<Vec<u8>> {
    fn send(&self, line: Vec<u8>) {
        let _ = std::sync::mpsc::Sender::send(self, line);
    }

    fn lasting(&self) -> bool {
        true
    }
}

impl Sink for tokio::sync::mpsc::UnboundedSender<Vec<u8>> {
    fn send(&self, line: Vec<u8>) {
        let _ = tokio::sync::mpsc::UnboundedSender::send(self, line);
    }
}

/// The lines of one request, on their way to the transport.
#[derive(Clone)]
pub(crate) struct Outlet {
    sink: Arc<dyn Sink>,
}

/// A sink with the name of its transport, as traces show it (`stdio`, `http`, `memory`): kept
/// beside the sink rather than in every outlet, which calls copy.
struct Named<S> {
    sink: S,
    transport: &'static str,
}

impl<S: Sink> Sink for Named<S> {
    fn send(&self, line: Vec<u8>) {
        self.sink.send(line);
    }

    fn finish(&self, answer: Option<Vec<u8>>, error_code: Option<ErrorCode>) {
        self.sink.finish(answer, error_code);
    }

    fn release(&self) {
        self.sink.release();
    }

    fn extensions(&self) -> Option<&Extensions> {
        self.sink.extensions()
    }

    fn mirrors(
        &self,
        declared: &[ParamHeader],
        arguments: Option<&RawValue>,
    ) -> Result<(), String> {
        self.sink.mirrors(declared, arguments)
    }

    fn transport(&self) -> &'static str {
        self.transport
    }

    fn lasting(&self) -> bool {
        self.sink.lasting()
    }

    fn is_open(&self) -> bool {
        self.sink.is_open()
    }
}

impl Outlet {
    pub(crate) fn new(transport: &'static str, sink: impl Sink) -> Outlet {
        Outlet {
            sink: Arc::new(Named { sink, transport }),
        }
    }

    pub(crate) fn transport(&self) -> &'static str {
        self.sink.transport()
    }

    pub(crate) fn lasting(&self) -> bool {
        self.sink.lasting()
    }

    pub(crate) fn is_open(&self) -> bool {
        self.sink.is_open()
    }

    /// The outlet, held without keeping its connection open.
    pub(crate) fn downgrade(&self) -> WeakOutlet {
        WeakOutlet(Arc::downgrade(&self.sink))
    }

    pub(crate) fn send(&self, line: Vec<u8>) {
        self.sink.send(line);
    }

    pub(crate) fn finish(&self, answer: Option<Vec<u8>>, error_code: Option<ErrorCode>) {
        self.sink.finish(answer, error_code);
    }

    pub(crate) fn release(&self) {
        self.sink.release();
    }

    pub(crate) fn extensions(&self) -> Option<&Extensions> {
        self.sink.extensions()
    }

    /// See [`Sink::mirrors`].
    pub(crate) fn mirrors(
        &self,
        declared: &[ParamHeader],
        arguments: Option<&RawValue>,
    ) -> Result<(), String> {
        self.sink.mirrors(declared, arguments)
    }
}

/// An outlet held weakly.
pub(crate) struct WeakOutlet(std::sync::Weak<dyn Sink>);

impl WeakOutlet {
    pub(crate) fn upgrade(&self) -> Option<Outlet> {
        self.0.upgrade().map(|sink| Outlet { sink })
    }
}

/// What the client answered to a request of the server's.
#[derive(Debug)]
pub(crate) enum ClientReply {
    /// Its `result`.
    Result(Box<RawValue>),
    /// Its `error`.
    Error(ClientError),
}

/// A JSON-RPC error the client answered with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct ClientError {
    pub(crate) code: i64,
    pub(crate) message: String,
    #[serde(default)]
    pub(crate) data: Option<serde_json::Value>,
}

/// Why a request to the client got no reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NoReply {
    /// The session ended first.
    Closed,
}

/// The client's side of a session: the server's requests that await a reply.
#[derive(Default)]
pub(crate) struct Peer {
    next_id: AtomicI64,
    waiting: Mutex<HashMap<IdKey, oneshot::Sender<ClientReply>, IdHashing>>,
}

#[derive(Serialize)]
struct Request<'a, P: Serialize> {
    jsonrpc: &'static str,
    id: i64,
    method: &'a str,
    params: &'a P,
}

impl Peer {
    fn waiting(&self) -> MutexGuard<'_, HashMap<IdKey, oneshot::Sender<ClientReply>, IdHashing>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `method` to the client through `outlet`, with an id of the server's own, and
    /// returns the reply to come. Dropping the reply forgets the request: a late answer is
    /// then ignored.
    pub(crate) fn request<P: Serialize>(
        self: &Arc<Self>,
        outlet: &Outlet,
        method: &str,
        params: &P,
    ) -> PendingReply {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let (sender, receiver) = oneshot::channel();
        self.waiting().insert(IdKey::Number(id), sender);
        let mut line = serde_json::to_vec(&Request {
            jsonrpc: "2.0",
            id,
            method,
            params,
        })
        .expect("a request serializes");
        line.push(b'\n');
        outlet.send(line);
        PendingReply {
            peer: Arc::clone(self),
            id: IdKey::Number(id),
            receiver,
        }
    }

    /// Hands a response from the client to the request it answers. `false` when no request of
    /// the server's waits for that id (a duplicate, a late answer, a made-up id).
    pub(crate) fn resolve(&self, id: &RawValue, outcome: Result<&RawValue, &RawValue>) -> bool {
        let Some(waiter) = self.waiting().remove(&IdKey::of(id)) else {
            return false;
        };
        let reply = match outcome {
            Ok(result) => ClientReply::Result(result.to_owned()),
            Err(error) => {
                ClientReply::Error(serde_json::from_str(error.get()).unwrap_or(ClientError {
                    code: ErrorCode::InternalError.as_i64(),
                    message: format!("the client answered with a malformed error: {error}"),
                    data: None,
                }))
            }
        };
        // The waiter may have given up (cancelled) a moment ago; then nobody needs the reply.
        let _ = waiter.send(reply);
        true
    }

    /// Ends every wait: the session is over.
    pub(crate) fn close(&self) {
        self.waiting().clear();
    }
}

/// A reply to come from the client.
pub(crate) struct PendingReply {
    peer: Arc<Peer>,
    id: IdKey,
    receiver: oneshot::Receiver<ClientReply>,
}

impl PendingReply {
    /// The request's id, to cancel it at the client.
    pub(crate) fn id(&self) -> i64 {
        match self.id {
            IdKey::Number(id) => id,
            _ => unreachable!("the server numbers its requests"),
        }
    }
}

impl Future for PendingReply {
    type Output = Result<ClientReply, NoReply>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.receiver)
            .poll(cx)
            .map(|reply| reply.map_err(|_| NoReply::Closed))
    }
}

impl Drop for PendingReply {
    fn drop(&mut self) {
        self.peer.waiting().remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer() -> (Arc<Peer>, Outlet, std::sync::mpsc::Receiver<Vec<u8>>) {
        let (lines, sent) = std::sync::mpsc::channel();
        (Arc::default(), Outlet::new("memory", lines), sent)
    }

    fn raw(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.into()).unwrap()
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn replies_are_routed_by_id() {
        let (peer, outlet, sent) = peer();
        let first = peer.request(&outlet, "roots/list", &serde_json::json!({}));
        let second = peer.request(&outlet, "ping", &serde_json::json!({}));
        assert_eq!(
            sent.try_recv().unwrap(),
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\",\"params\":{}}\n"
        );
        assert!(sent.try_recv().is_ok());
        // Answered out of order, each reaches its own request.
        assert!(peer.resolve(&raw("2"), Ok(&raw("{\"b\":2}"))));
        assert!(peer.resolve(&raw("1"), Err(&raw(r#"{"code":-1,"message":"no"}"#))));
        match block_on(second).unwrap() {
            ClientReply::Result(result) => assert_eq!(result.get(), "{\"b\":2}"),
            other => panic!("{other:?}"),
        }
        match block_on(first).unwrap() {
            ClientReply::Error(error) => {
                assert_eq!((error.code, error.message.as_str()), (-1, "no"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_duplicate_and_late_replies_are_refused() {
        let (peer, outlet, _sent) = peer();
        assert!(!peer.resolve(&raw("9"), Ok(&raw("{}"))), "an id never sent");
        let pending = peer.request(&outlet, "ping", &serde_json::json!({}));
        assert!(peer.resolve(&raw("1"), Ok(&raw("{}"))));
        assert!(!peer.resolve(&raw("1"), Ok(&raw("{}"))), "a duplicate");
        drop(pending);
        let abandoned = peer.request(&outlet, "ping", &serde_json::json!({}));
        drop(abandoned);
        assert!(
            !peer.resolve(&raw("2"), Ok(&raw("{}"))),
            "after the waiter gave up"
        );
    }

    #[test]
    fn a_closed_session_ends_every_wait() {
        let (peer, outlet, _sent) = peer();
        let pending = peer.request(&outlet, "ping", &serde_json::json!({}));
        peer.close();
        assert!(matches!(block_on(pending), Err(NoReply::Closed)));
    }
}
