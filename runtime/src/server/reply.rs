//! What one message gets ([`Reply`]), and the errors requests are refused with.

use serde_json::value::RawValue;

use crate::call::outlet::Outlet;
use crate::protocol::Level;
use crate::protocol::code::ErrorCode;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::quote::quoted;
use std::sync::Arc;

use crate::call::record::CallRecord;
use crate::run::call::Call;
use crate::run::item_call::ItemCall;
use crate::server::delivery::Delivery;

/// What one message gets. Every request gets exactly one answer: now, or from its call later
/// (unless the client cancels it); notifications and the client's responses get none.
pub(crate) enum Reply {
    /// Nothing: a notification, or the client's response to a request of the server's.
    None,
    /// The response, now.
    Now(Vec<u8>),
    /// An error response, now, with its JSON-RPC code (some transports give some codes a
    /// status of their own).
    Error(ErrorCode, Vec<u8>),
    /// A request for an item the caller's verified credentials lack scopes for, which it could
    /// otherwise see: every scope the item needs, for a transport that lets a client ask for
    /// more (HTTP's 403), and what the others answer (as for an item that does not exist).
    #[allow(dead_code, reason = "the scopes are the HTTP transport's alone")]
    Forbidden(Box<[String]>, Box<Reply>),
    /// A call (of a tool, a prompt or a resource): start it. Its notifications, and then its
    /// response, come through the outlet the message was handled with.
    Later(Later),
    /// A `subscriptions/listen` stream: this acknowledgement now; the stream stays open until
    /// the client cancels the request.
    Stream(Vec<u8>),
    /// A 2025-03-26 batch whose answers wait for calls: start them. The array of answers comes
    /// through the outlet when the last one finishes.
    Batch(Vec<Later>),
}

/// A request answered once a function has run.
pub(crate) enum Later {
    /// A tool call, through the server's middleware.
    Tool(Call<Delivery>),
    /// A `prompts/get` or a `resources/read`.
    Item(ItemCall),
}

impl Later {
    /// Starts it; returns at once.
    pub(crate) fn start(self) {
        match self {
            Later::Tool(call) => call.start(),
            Later::Item(call) => call.start(),
        }
    }

    /// The record of its request: cancelling it cancels the request.
    #[allow(dead_code, reason = "the HTTP transport's alone")]
    pub(crate) fn record(&self) -> &Arc<CallRecord> {
        match self {
            Later::Tool(call) => call.tool_call.record(),
            Later::Item(call) => &call.record,
        }
    }
}

impl Reply {
    /// `self`, or for a request for an item the caller lacks `scopes` for, what HTTP answers
    /// it with instead (see [`Reply::Forbidden`]).
    pub(crate) fn unless_lacking(self, scopes: Option<&[&str]>) -> Reply {
        match scopes {
            Some(scopes) => {
                let scopes = scopes.iter().map(|s| (*s).to_owned()).collect();
                Reply::Forbidden(scopes, Box::new(self))
            }
            None => self,
        }
    }

    /// Acts on what a message got: lines go to the outlet; calls start, and send their
    /// answers through the outlet when they finish.
    pub(crate) fn deliver(self, outlet: &Outlet) {
        match self {
            Reply::None => {}
            Reply::Now(line) | Reply::Error(_, line) | Reply::Stream(line) => outlet.send(line),
            Reply::Forbidden(_, otherwise) => otherwise.deliver(outlet),
            Reply::Later(call) => call.start(),
            Reply::Batch(calls) => calls.into_iter().for_each(Later::start),
        }
    }
}

/// The error answer to a request (or to a message whose id could not be read).
pub(crate) fn refuse(id: Option<&RawValue>, error: &ProtocolError) -> Reply {
    let refused = Reply::Error(error.code(), jsonrpc::error_line(id, error));
    match error.needed_scopes() {
        Some(scopes) => Reply::Forbidden(scopes.into(), Box::new(refused)),
        None => refused,
    }
}

pub(crate) fn id_in_use(id: &RawValue) -> ProtocolError {
    ProtocolError::invalid_request(format_args!(
        "id {id} is already in use by a request in flight"
    ))
}

pub(crate) fn log_level(name: Option<&str>) -> Result<Level, ProtocolError> {
    let name = name.ok_or_else(|| ProtocolError::invalid_params("missing field `level`"))?;
    Level::parse(name).ok_or_else(|| {
        ProtocolError::invalid_params(format_args!(
            "unknown log level `{}`; expected one of debug, info, notice, warning, error, \
             critical, alert, emergency",
            quoted(name)
        ))
    })
}
