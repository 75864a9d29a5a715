//! The one entry point every transport calls, [`Session::handle`]: what one line of input
//! gets, as a [`Reply`] the transport sends or starts. A line is a request (dispatched by method
//! and era), a notification, the client's response to a request of the server's, or a
//! 2025-03-26 batch of them.

use std::sync::Arc;

use serde_json::value::RawValue;

use crate::call::outlet::Outlet;
use crate::call::span::{Outcome, RequestSpan};
#[cfg(feature = "opentelemetry")]
use crate::call::trace_context::TraceContext;
use crate::protocol::ProtocolVersion;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{self, Message, ProtocolError};
use crate::protocol::method::Method;
use crate::server::batch::Batch;
use crate::server::reply::{Reply, id_in_use, refuse};
use crate::server::session::{RequestScope, Session};

impl Session {
    /// What one line of input gets. The calls it prepares send their notifications, and their
    /// answers, through `outlet`.
    pub(crate) fn handle(&self, line: &[u8], outlet: &Outlet) -> Reply {
        match jsonrpc::classify(line) {
            Message::Batch => self.batch(line, outlet),
            message => self.message(message, outlet, None),
        }
    }

    /// The answer to a line longer than the transport accepts (it was skipped, not read).
    pub(crate) fn too_long(&self) -> Reply {
        let limit = self.engine.limits.max_message_size;
        let error =
            ProtocolError::invalid_request(format_args!("message exceeds the {limit}-byte limit"));
        refuse(None, &error)
    }

    pub(crate) fn message(
        &self,
        message: Message<'_>,
        outlet: &Outlet,
        batch: Option<&Arc<Batch>>,
    ) -> Reply {
        match message {
            Message::Request { id, method, params } => {
                let target = method.target(&params);
                let span = RequestSpan::start(method.name(), target, id, outlet.transport());
                #[cfg(feature = "opentelemetry")]
                if let Some(context) = trace_context(&params, outlet) {
                    span.parent(&context);
                }
                let _in_span = span.span().enter();
                // An id in flight cannot be reused: the client could not tell the answers apart.
                // (`tools/call` checks as it registers the call; every other request here, since
                // some answer before they would register.)
                let answer = if method != Method::ToolsCall && self.is_open(&IdKey::of(id)) {
                    refuse(Some(id), &id_in_use(id))
                } else {
                    let scope = RequestScope {
                        outlet,
                        span: &span,
                        client: None,
                    };
                    self.request(id, &method, &params, scope, batch)
                        .unwrap_or_else(|error| refuse(Some(id), &error))
                };
                let ended = match &answer {
                    Reply::Forbidden(_, otherwise) => otherwise,
                    answer => answer,
                };
                match ended {
                    Reply::Now(_) | Reply::Stream(_) => span.end(Outcome::Ok),
                    Reply::Error(code, _) => span.end(Outcome::Error(*code)),
                    Reply::Forbidden(..) => unreachable!("a refusal holds no other"),
                    // A call ends its span with its answer.
                    Reply::Later(_) | Reply::Batch(_) | Reply::None => {}
                }
                answer
            }
            Message::Notification { method, params } => {
                // Notifications are never answered; malformed ones are ignored, as the
                // specification asks.
                match method {
                    Method::Cancelled => {
                        if let Some(id) = params.rare().request_id {
                            self.cancel(&IdKey::of(id));
                        }
                    }
                    Method::RootsListChanged => self.roots_changed(),
                    Method::Initialized => self.initialized(),
                    _ => {}
                }
                Reply::None
            }
            Message::Response { id, outcome } => {
                // Routed to the request of the server's that awaits it; any other is dropped.
                if let Some(id) = id {
                    self.peer().resolve(id, outcome);
                }
                Reply::None
            }
            Message::Unanswerable => Reply::None,
            Message::Batch => {
                let error = ProtocolError::invalid_request("batches do not nest");
                refuse(None, &error)
            }
            Message::Invalid { id, error } => refuse(id, &error),
        }
    }

    /// A JSON array of messages: accepted only in a 2025-03-26 session, the one revision that
    /// has batches. Each element is handled as if it came alone, and the answers leave together.
    fn batch(&self, line: &[u8], outlet: &Outlet) -> Reply {
        let reject = |message: &str| {
            let error = ProtocolError::invalid_request(message);
            refuse(None, &error)
        };
        let version = self.handshake.get().map(|h| h.version);
        if !version.is_some_and(ProtocolVersion::has_batches) {
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
                Reply::Now(line) | Reply::Stream(line) | Reply::Error(_, line) => batch.add(line),
                // A batch element is answered in the batch, as by transports without a 403.
                Reply::Forbidden(_, otherwise) => match *otherwise {
                    Reply::Now(line) | Reply::Error(_, line) => batch.add(line),
                    _ => unreachable!("a refusal is an answer now"),
                },
                Reply::Later(call) => {
                    batch.expect();
                    calls.push(call);
                }
                Reply::Batch(nested) => calls.extend(nested),
                Reply::None => {}
            }
        }
        match batch.close() {
            Some(Some(array)) => Reply::Now(array),
            Some(None) => Reply::None,
            None => Reply::Batch(calls),
        }
    }
}

/// The client's trace context: from the request's `_meta`, or else its HTTP headers.
#[cfg(feature = "opentelemetry")]
fn trace_context(
    params: &crate::protocol::params::Params<'_>,
    outlet: &Outlet,
) -> Option<TraceContext> {
    let from_meta = params
        .read_meta()
        .flatten()
        .and_then(TraceContext::from_meta);
    from_meta.or_else(|| outlet.extensions()?.get::<TraceContext>().cloned())
}
