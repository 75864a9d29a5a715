//! One call in flight, in one record: the facts of its request, where its messages go, and the
//! gate that orders its progress notifications, its log messages, its answer and its
//! cancellation, so that nothing is sent after the answer and no answer is sent after a
//! cancellation the server has seen.
//!
//! [`Context`](crate::Context), [`Progress`](crate::Progress), [`Log`](crate::Log) and
//! [`Cancellation`](crate::Cancellation) are views of this record: a call allocates it once.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::call::ask::asking::Asking;
use crate::call::context::ClientSource;
use crate::call::inject::States;
use crate::call::outlet::Outlet;
use crate::call::span::CallSpan;
use crate::call::spec::ToolSpec;
use crate::protocol::id::IdKey;
use crate::protocol::{Level, ProtocolVersion};

/// After a progress notification, the answer waits this long, so that clients that drop
/// progress handlers as soon as the answer is read (the TypeScript SDK does) still see the
/// last notification: they must read the two in separate chunks.
const PROGRESS_SPACING: Duration = Duration::from_millis(20);

/// The instance a `#[mcp_tool_type]` method is called on.
pub(crate) type Instance = Arc<dyn Any + Send + Sync>;

pub(crate) struct CallRecord {
    /// The request's id, as the client wrote it (echoed byte for byte).
    pub(crate) id: Box<RawValue>,
    pub(crate) key: IdKey,
    pub(crate) version: ProtocolVersion,
    /// The request's `params._meta`, as sent.
    pub(crate) meta: Option<Box<RawValue>>,
    pub(crate) client: ClientSource,
    /// The tool (its name is the logger of its log messages).
    pub(crate) spec: &'static ToolSpec,
    pub(crate) progress_token: Option<Box<RawValue>>,
    /// The least severe log message the client wants for this call; `None` for none.
    pub(crate) log_threshold: Option<Level>,
    /// Where the call's notifications go.
    pub(crate) outlet: Outlet,
    pub(crate) states: Arc<States>,
    pub(crate) instance: Option<Instance>,
    /// Where the call is in its life; starts open.
    pub(crate) state: CallState,
    /// How the call asks its client, for a tool that does.
    pub(crate) asking: Option<Box<Asking>>,
    /// The request's span: the tool runs in it, and its answer ends it.
    pub(crate) span: CallSpan,
}

/// The gate and the cancellation signal of a call.
#[derive(Default)]
pub(crate) struct CallState {
    gate: Mutex<Gate>,
    cancelled: AtomicBool,
    wake: tokio::sync::Notify,
}

#[derive(Default)]
struct Gate {
    finished: bool,
    cancelled: bool,
    last_progress: Option<(f64, Instant)>,
}

impl CallRecord {
    /// How the call asks its client. Only a tool that asks can hold an asker, and the server
    /// gives such a call one.
    pub(crate) fn asking(&self) -> &Asking {
        self.asking
            .as_deref()
            .expect("a call of a tool that asks can ask")
    }

    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.state.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `send` for a progress value if the call is still open and the value is larger than
    /// the last one sent.
    pub(crate) fn progress(&self, value: f64, send: impl FnOnce()) -> bool {
        let mut gate = self.gate();
        let increasing = gate.last_progress.is_none_or(|(last, _)| value > last);
        if gate.finished || gate.cancelled || !value.is_finite() || !increasing {
            return false;
        }
        send();
        gate.last_progress = Some((value, Instant::now()));
        true
    }

    /// Runs `send` (a message about the call) if the call is still open.
    pub(crate) fn while_open(&self, send: impl FnOnce()) -> bool {
        let gate = self.gate();
        if gate.finished || gate.cancelled {
            return false;
        }
        send();
        true
    }

    /// How long the answer should wait for the last progress notification to be read alone.
    pub(crate) fn spacing(&self) -> Option<Duration> {
        let (_, at) = self.gate().last_progress?;
        PROGRESS_SPACING.checked_sub(at.elapsed())
    }

    /// Runs `send` with the answer unless the call was cancelled; either way, closes it.
    pub(crate) fn finish(&self, send: impl FnOnce()) -> bool {
        let mut gate = self.gate();
        let sent = !gate.cancelled;
        if sent {
            send();
        }
        gate.finished = true;
        sent
    }

    /// Cancels the call: fires its signal, and suppresses its answer unless already sent.
    pub(crate) fn cancel(&self) {
        let mut gate = self.gate();
        if !gate.finished {
            gate.cancelled = true;
        }
        drop(gate);
        self.signal();
    }

    /// Fires the call's signal without suppressing its answer: the server is shutting down,
    /// and a call that still finishes in time is answered.
    pub(crate) fn signal(&self) {
        self.state.cancelled.store(true, Ordering::Release);
        self.state.wake.notify_waiters();
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.state.cancelled.load(Ordering::Acquire)
    }

    /// Completes when the call is cancelled.
    pub(crate) async fn cancelled(&self) {
        loop {
            let notified = self.state.wake.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::call::context::Client;

    fn no_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::default()
    }

    /// The tool of test records.
    pub(crate) static TEST_SPEC: ToolSpec = ToolSpec {
        name: "test",
        title: None,
        description: None,
        annotations: crate::protocol::wire::Annotations {
            read_only: None,
            destructive: None,
            idempotent: None,
            open_world: None,
        },
        input_schema: no_schema,
        output_schema: |_| None,
        handler: crate::call::spec::Handler::Sync(|_| crate::tools::ToolOutput::text("")),
        requirements: |_| {},
        raw_input_schema: None,
        icons: &[],
        tags: &[],
        ignore_unknown_arguments: None,
        meta: None,
        file: file!(),
        line: line!(),
    };

    /// A record whose messages go to `lines`.
    pub(crate) fn record(lines: std::sync::mpsc::Sender<Vec<u8>>) -> Arc<CallRecord> {
        Arc::new(CallRecord {
            id: RawValue::from_string("7".into()).unwrap(),
            key: IdKey::Number(7),
            version: ProtocolVersion::V2025_11_25,
            meta: None,
            client: ClientSource::Session(Arc::new(Client::default())),
            spec: &TEST_SPEC,
            progress_token: Some(RawValue::from_string("\"p\"".into()).unwrap()),
            log_threshold: Some(Level::Info),
            outlet: Outlet::new("memory", lines),
            states: Arc::default(),
            instance: None,
            state: CallState::default(),
            asking: None,
            span: CallSpan::new(&crate::call::span::RequestSpan::none()),
        })
    }

    #[test]
    fn progress_only_increases_and_stops_at_the_answer() {
        let record = record(std::sync::mpsc::channel().0);
        let mut sent = Vec::new();
        for value in [1.0, 1.0, 0.5, f64::NAN, 2.0] {
            record.progress(value, || sent.push(value));
        }
        record.finish(|| sent.push(-1.0));
        record.progress(3.0, || sent.push(3.0));
        assert_eq!(sent, [1.0, 2.0, -1.0]);
    }

    #[test]
    fn a_cancelled_call_sends_no_answer() {
        let record = record(std::sync::mpsc::channel().0);
        record.cancel();
        assert!(record.is_cancelled());
        let mut sent = false;
        assert!(!record.finish(|| sent = true));
        assert!(!sent);
    }
}
