//! One session: what a transport connection (a stdio process, an HTTP session, one stateless
//! HTTP request) shares across its messages, and the one entry point every transport calls,
//! [`Session::handle`], which *returns* what a message gets.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::value::RawValue;

use crate::call::ask::RootsChanged;
use crate::call::ask::known_roots::KnownRoots;
use crate::call::context::Client;
use crate::call::inflight::Open;
use crate::call::outlet::{Outlet, Peer};
use crate::call::run::Call;
use crate::call::span::{Outcome, RequestSpan};
#[cfg(feature = "opentelemetry")]
use crate::call::trace_context::TraceContext;
use crate::diagnostics;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{self, INVALID_REQUEST, Message, RpcError};
use crate::protocol::{Level, ProtocolVersion};
use crate::server::batch::Batch;
use crate::server::calls::Finisher;
use crate::server::service::Service;

/// What one message gets. Every request gets exactly one answer: now, or from its call later
/// (unless the client cancels it); notifications and the client's responses get none.
pub(crate) enum Answer {
    /// Nothing: a notification, or the client's response to a request of the server's.
    None,
    /// The response, now.
    Now(Vec<u8>),
    /// An error response, now, with its JSON-RPC code (some transports give some codes a
    /// status of their own).
    Error(
        #[cfg_attr(not(feature = "http"), allow(dead_code))] i32,
        Vec<u8>,
    ),
    /// A call: start it. Its notifications, and then its response, come through the outlet the
    /// message was handled with.
    Later(ToolCall),
    /// A `subscriptions/listen` stream: this acknowledgement now; the stream stays open until
    /// the client cancels it.
    Stream(Vec<u8>),
    /// A 2025-03-26 batch whose answers wait for calls: start them. The array of answers comes
    /// through the outlet when the last one finishes.
    Batch(Vec<ToolCall>),
}

/// A call ready to start, and how its answer is delivered.
pub(crate) type ToolCall = Call<Finisher>;

/// Where a request's messages go, and the span it runs in.
#[derive(Clone, Copy)]
pub(crate) struct Via<'a> {
    pub(crate) outlet: &'a Outlet,
    pub(crate) span: &'a RequestSpan,
}

/// What `initialize` settled for a session.
pub(crate) struct Handshake {
    pub(crate) version: ProtocolVersion,
    pub(crate) client: Arc<Client>,
}

pub(crate) struct Session {
    pub(crate) service: Arc<Service>,
    pub(crate) handshake: OnceLock<Handshake>,
    /// The least severe log message the session wants (`logging/setLevel`).
    pub(crate) log_level: Mutex<Level>,
    /// The requests in flight that the client may cancel.
    pub(crate) open: Arc<Open>,
    pub(crate) peer: Arc<Peer>,
    /// The client's roots, once a call has read them (made then: most sessions never do).
    pub(crate) roots: OnceLock<Arc<KnownRoots>>,
}

impl Session {
    pub(crate) fn new(service: Arc<Service>) -> Session {
        Session {
            service,
            handshake: OnceLock::new(),
            log_level: Mutex::new(Level::Info),
            open: Arc::default(),
            peer: Arc::default(),
            roots: OnceLock::new(),
        }
    }

    /// What one line of input gets. The calls it prepares send their notifications, and their
    /// answers, through `outlet`.
    pub(crate) fn handle(&self, line: &[u8], outlet: &Outlet) -> Answer {
        match jsonrpc::classify(line) {
            Message::Batch => self.batch(line, outlet),
            message => self.message(message, outlet, None),
        }
    }

    /// The answer to a line longer than the transport accepts (it was skipped, not read).
    pub(crate) fn too_long(&self) -> Answer {
        let limit = self.service.limits.max_message_size;
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("Invalid Request: message exceeds the {limit}-byte limit"),
        );
        refuse(None, &error)
    }

    /// Ends the session: the calls in flight see their `Cancellation` fire at once (those that
    /// still finish are answered), and requests to the client get no reply.
    pub(crate) fn close(&self) {
        self.open.signal_all();
        self.peer.close();
    }

    pub(crate) fn message(
        &self,
        message: Message<'_>,
        outlet: &Outlet,
        batch: Option<&Arc<Batch>>,
    ) -> Answer {
        match message {
            Message::Request { id, method, params } => {
                let tool = params.name.as_deref().filter(|_| method == "tools/call");
                let span = RequestSpan::start(&method, tool, id, outlet.transport());
                #[cfg(feature = "opentelemetry")]
                if let Some(context) = trace_context(&params, outlet) {
                    span.parent(&context);
                }
                let _in_span = span.span().enter();
                // An id in flight cannot be reused: the client could not tell the answers apart.
                // (`tools/call` checks as it registers the call.)
                let answer = if method != "tools/call" && self.open.contains(&IdKey::of(id)) {
                    refuse(Some(id), &id_in_use(id))
                } else {
                    let via = Via {
                        outlet,
                        span: &span,
                    };
                    self.request(id, &method, &params, via, batch)
                        .unwrap_or_else(|error| refuse(Some(id), &error))
                };
                match &answer {
                    Answer::Now(_) | Answer::Stream(_) => span.end(Outcome::Ok),
                    Answer::Error(code, _) => span.end(Outcome::Error(*code)),
                    // A call ends its span with its answer.
                    Answer::Later(_) | Answer::Batch(_) | Answer::None => {}
                }
                answer
            }
            Message::Notification { method, params } => {
                // Notifications are never answered; malformed ones are ignored, as the
                // specification asks.
                match &*method {
                    "notifications/cancelled" => {
                        if let Some(id) = params.request_id {
                            self.open.cancel(&IdKey::of(id));
                        }
                    }
                    "notifications/roots/list_changed" => self.roots_changed(),
                    _ => {}
                }
                Answer::None
            }
            Message::Response { id, outcome } => {
                // Routed to the request of the server's that awaits it; any other is dropped.
                if let Some(id) = id {
                    self.peer.resolve(id, outcome);
                }
                Answer::None
            }
            Message::Unanswerable => Answer::None,
            Message::Batch => {
                let error = RpcError::new(INVALID_REQUEST, "Invalid Request: batches do not nest");
                refuse(None, &error)
            }
            Message::Invalid { id, error } => refuse(id, &error),
        }
    }

    /// The client's roots changed: the next call that reads them asks again, and the server's
    /// hook hears of it. (2026-07-28 has no such notification: it keeps nothing to refresh.)
    fn roots_changed(&self) {
        let Some(handshake) = self.handshake.get() else {
            return;
        };
        let before = self.roots.get().and_then(|roots| roots.changed());
        if let Some(hook) = &self.service.on_roots_changed {
            let change = RootsChanged {
                client: handshake.client.info.clone(),
                before,
            };
            // The author's code on the path that reads the client's messages: a panic in it
            // must not end the session.
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| hook(change))) {
                let message = diagnostics::panic_message(&*panic);
                diagnostics::error(format_args!("the roots-changed hook panicked: {message}"));
            }
        }
    }

    /// A JSON array of messages: accepted only in a 2025-03-26 session, the one revision that
    /// has batches. Each element is handled as if it came alone, and the answers leave together.
    fn batch(&self, line: &[u8], outlet: &Outlet) -> Answer {
        let reject = |message: &str| {
            let error = RpcError::new(INVALID_REQUEST, format!("Invalid Request: {message}"));
            refuse(None, &error)
        };
        if self.handshake.get().map(|h| h.version) != Some(ProtocolVersion::V2025_03_26) {
            return reject("batches are accepted only in a session of protocol 2025-03-26");
        }
        let elements: Vec<&RawValue> = match serde_json::from_slice(line) {
            Ok(elements) => elements,
            Err(_) => return reject("a batch must be an array of messages"),
        };
        if elements.is_empty() {
            return reject("a batch must not be empty");
        }
        let batch = Arc::new(Batch::new(outlet.clone()));
        let mut calls = Vec::new();
        for element in elements {
            let message = jsonrpc::classify(element.get().as_bytes());
            match self.message(message, outlet, Some(&batch)) {
                Answer::Now(line) | Answer::Stream(line) | Answer::Error(_, line) => {
                    batch.add(line)
                }
                Answer::Later(call) => {
                    batch.expect();
                    calls.push(call);
                }
                Answer::Batch(nested) => calls.extend(nested),
                Answer::None => {}
            }
        }
        match batch.close() {
            Some(Some(array)) => Answer::Now(array),
            Some(None) => Answer::None,
            None => Answer::Batch(calls),
        }
    }
}

/// The client's trace context: from the request's `_meta`, or else its HTTP headers.
#[cfg(feature = "opentelemetry")]
fn trace_context(
    params: &crate::protocol::params::Params<'_>,
    outlet: &Outlet,
) -> Option<TraceContext> {
    let from_meta = params.meta.and_then(TraceContext::from_meta);
    #[cfg(feature = "http")]
    let from_meta = from_meta.or_else(|| outlet.extensions()?.get::<TraceContext>().cloned());
    #[cfg(not(feature = "http"))]
    let _ = outlet;
    from_meta
}

/// The error answer to a request (or to a message whose id could not be read).
pub(crate) fn refuse(id: Option<&RawValue>, error: &RpcError) -> Answer {
    Answer::Error(error.code, jsonrpc::error_line(id, error))
}

pub(crate) fn id_in_use(id: &RawValue) -> RpcError {
    RpcError::new(
        INVALID_REQUEST,
        format!("Invalid Request: id {id} is already in use by a request in flight"),
    )
}
