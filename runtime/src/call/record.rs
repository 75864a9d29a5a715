//! One call in flight, in one record: the facts of its request, where its messages go, how it
//! asks its client, its span, and the gate that orders its messages.
//!
//! [`Context`](crate::Context), [`Progress`](crate::Progress), [`Log`](crate::Log) and
//! [`Cancellation`](crate::Cancellation) are views of this record: a call allocates it once.

use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::call::asking::Asking;
use crate::call::asking::error::AskError;
use crate::call::client::ClientSource;
use crate::call::gate::Gate;
use crate::call::outlet::Outlet;
use crate::call::span::CallSpan;
use crate::call::state::States;
use crate::protocol::id::IdKey;
use crate::protocol::{Level, ProtocolVersion};

pub(crate) struct CallRecord {
    /// The request's id, as the client wrote it (echoed byte for byte).
    pub(crate) id: Box<RawValue>,
    pub(crate) key: IdKey,
    pub(crate) version: ProtocolVersion,
    /// The request's `params._meta`, as sent.
    pub(crate) meta: Option<Box<RawValue>>,
    pub(crate) client: ClientSource,
    /// The name of the tool called: the logger of its log messages.
    pub(crate) name: &'static str,
    pub(crate) progress_token: Option<Box<RawValue>>,
    /// The least severe log message the client wants for this call; `None` for none.
    pub(crate) log_threshold: Option<Level>,
    /// Where the call's notifications go.
    pub(crate) outlet: Outlet,
    pub(crate) states: Arc<States>,
    /// Orders the call's messages; carries its cancellation.
    pub(crate) gate: Gate,
    /// How the call asks its client, for a tool that does.
    pub(crate) asking: Option<Box<Asking>>,
    /// The request's span: the tool runs in it, and its answer ends it.
    pub(crate) span: CallSpan,
    /// The URI a `resources/read` asked for (here, not in the invocation, which every tool
    /// call moves from thread to thread); `None` for anything else.
    pub(crate) resource_uri: Option<Box<str>>,
}

impl CallRecord {
    /// How the call asks its client. Only a tool that asks can hold an asker, and the server
    /// gives such a call one.
    pub(crate) fn asking(&self) -> &Asking {
        self.asking
            .as_deref()
            .expect("a call of a tool that asks can ask")
    }

    /// Asks the client `method` with `params`, as the entry `name` of a round's requests, and
    /// returns its result.
    pub(crate) async fn ask(
        &self,
        name: &str,
        method: &'static str,
        params: Value,
    ) -> Result<Value, AskError> {
        let asking = self.asking();
        asking
            .ask(&self.outlet, &self.gate, name, method, params)
            .await
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::call::client::DeclaredClient;

    /// A record whose messages go to `lines`.
    pub(crate) fn record(lines: std::sync::mpsc::Sender<Vec<u8>>) -> Arc<CallRecord> {
        Arc::new(CallRecord {
            id: RawValue::from_string("7".into()).unwrap(),
            key: IdKey::Number(7),
            version: ProtocolVersion::V2025_11_25,
            meta: None,
            client: ClientSource::Session(Arc::new(DeclaredClient::default())),
            name: "test",
            progress_token: Some(RawValue::from_string("\"p\"".into()).unwrap()),
            log_threshold: Some(Level::Info),
            outlet: Outlet::new("memory", lines),
            states: Arc::default(),
            gate: Gate::default(),
            asking: None,
            span: CallSpan::new(&crate::call::span::RequestSpan::none()),
            resource_uri: None,
        })
    }
}
