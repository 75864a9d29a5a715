//! One call in flight, in one record: the facts of its request, where its messages go, how it
//! asks its client, its span, and the gate that orders its messages.
//!
//! [`Context`](crate::Context), [`Progress`](crate::Progress), [`Log`](crate::Log) and
//! [`Cancellation`](crate::Cancellation) are views of this record: a call allocates it once.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::call::client::{ClientSource, DeclaredClient};
use crate::call::gate::Gate;
use crate::call::outlet::Outlet;
use crate::call::span::CallSpan;
use crate::call::state::States;
use crate::call::task::{Plan, TaskFuture, TaskRun};
use crate::call::to_client::Asking;
use crate::protocol::id::IdKey;
use crate::protocol::meta::Kept;
use crate::protocol::{Level, ProtocolVersion};
use crate::tools::ask_error::AskError;

pub(crate) struct CallRecord {
    /// The request's id, as the client wrote it (echoed byte for byte).
    pub(crate) id: Box<RawValue>,
    pub(crate) key: IdKey,
    pub(crate) version: ProtocolVersion,
    /// The request's `params._meta`, its entries as sent.
    pub(crate) meta: Option<Kept>,
    pub(crate) client: ClientSource,
    /// The name of the tool called: the logger of its log messages.
    pub(crate) name: Cow<'static, str>,
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
    /// The id of the session the request came in (an HTTP session's `Mcp-Session-Id`).
    pub(crate) session_id: Option<Arc<str>>,
    /// How the call becomes a task, for a tool that may run as one called by a client that
    /// can follow one.
    pub(crate) task: Option<Box<TaskSlot>>,
}

impl CallRecord {
    /// The client that sent the request, as it declared itself.
    pub(crate) fn client(&self) -> &DeclaredClient {
        match &self.client {
            ClientSource::Session(client) => client,
            ClientSource::Request(parsed) => {
                parsed.get_or_init(|| DeclaredClient::from_meta(self.meta.as_ref().map(Kept::text)))
            }
        }
    }

    /// Whether the client declared `path` (`"elicitation.url"`): every step an object.
    pub(crate) fn declared(&self, path: &str) -> bool {
        self.client().declares(path)
    }

    /// How the request asks its client. Only an item that asks can hold an asker, and the
    /// server gives a request of such an item one.
    pub(crate) fn asking(&self) -> &Asking {
        self.asking
            .as_deref()
            .expect("a request of an item that asks can ask")
    }

    /// Asks the client `method` with `params`, as the entry `name` of a round's requests (or,
    /// once the call is a task, of the task's), and returns its result.
    pub(crate) async fn ask(
        &self,
        name: &str,
        method: &'static str,
        params: Value,
    ) -> Result<Value, AskError> {
        if let Some(run) = self.task_run() {
            return run.ask(&self.gate, name, method, params).await;
        }
        let Some(asking) = self.asking.as_deref() else {
            return Err(AskError::Undeclared);
        };
        asking
            .ask(&self.outlet, &self.gate, name, method, params)
            .await
    }

    /// Asks the client `method` with `params` whatever becomes of the call, in a handshake
    /// session outside a task; nothing otherwise.
    pub(crate) async fn request_regardless(&self, method: &'static str, params: Value) {
        if self.task_run().is_some() {
            return;
        }
        if let Some(asking) = self.asking.as_deref() {
            let _ = asking
                .request_regardless(&self.outlet, method, params)
                .await;
        }
    }

    /// The task the call became, if it has.
    pub(crate) fn task_run(&self) -> Option<&Arc<TaskRun>> {
        self.task.as_ref()?.run.get()?.as_ref()
    }

    /// Whether the call becomes a task before its tool runs.
    pub(crate) fn starts_as_task(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|slot| slot.plan == Plan::Start)
    }

    /// Makes the call a task (once: a call that is one stays that one), answering its request
    /// with the task; `None` when it cannot be one: its client cannot follow a task (the call
    /// goes on as a call), or the task could not be stored (its request is answered with
    /// that error, and the call is cancelled).
    pub(crate) async fn escalate(self: &Arc<Self>) -> Option<Arc<TaskRun>> {
        let slot = self.task.as_ref()?;
        let made = slot.run.get_or_init(|| async {
            let run = slot.opener.escalate(self).await;
            match &run {
                Some(run) => {
                    let record = Arc::clone(self);
                    tokio::spawn(Arc::clone(run).watch(move || record.gate.signal()));
                }
                None => self.gate.signal(),
            }
            run
        });
        made.await.clone()
    }
}

/// The server's way of making a call a task: store it, then answer its request with it.
pub(crate) trait Escalate: Send + Sync {
    /// Makes the call of `record` a task and answers its request with it; or answers the
    /// request with the error that kept it from becoming one (`None`).
    fn escalate<'a>(&'a self, record: &'a Arc<CallRecord>) -> TaskFuture<'a, Option<Arc<TaskRun>>>;
}

/// What a call that may become a task carries.
pub(crate) struct TaskSlot {
    plan: Plan,
    opener: Box<dyn Escalate>,
    /// What escalating made, once: the task, or nothing (once it could not, it never will).
    run: tokio::sync::OnceCell<Option<Arc<TaskRun>>>,
}

impl TaskSlot {
    pub(crate) fn new(plan: Plan, opener: Box<dyn Escalate>) -> Box<TaskSlot> {
        Box::new(TaskSlot {
            plan,
            opener,
            run: tokio::sync::OnceCell::new(),
        })
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
            name: Cow::Borrowed("test"),
            progress_token: Some(RawValue::from_string("\"p\"".into()).unwrap()),
            log_threshold: Some(Level::Info),
            outlet: Outlet::new("memory", lines),
            states: Arc::default(),
            gate: Gate::default(),
            asking: None,
            span: CallSpan::new(&crate::call::span::RequestSpan::none()),
            resource_uri: None,
            session_id: None,
            task: None,
        })
    }
}
