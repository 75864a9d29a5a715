//! A tool call on its way to the tool: the tool as served, the invocation its generated handler
//! takes (the arguments, the request's [`Context`]), and the threads it may run on; and running
//! it. It is the request middleware sees ([`ToolCall`] is public there): the layers read it and
//! hand it on, and the innermost runs it here.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use serde_json::Value;

use crate::call::context::Context;
use crate::call::record::CallRecord;
use crate::call::spec::{BoxFuture, Handler, Invocation, ToolInfo};
use crate::run::pace::{Meter, Pace};
use crate::run::served::ServedTool;
use crate::run::workers::Threads;
use crate::tools::ToolOutput;
use crate::tools::output::InputRequired;

/// One tool call on its way to the tool.
pub struct ToolCall {
    pub(crate) tool: Arc<ServedTool>,
    pub(crate) invocation: Invocation,
    pub(crate) threads: Arc<Threads>,
}

impl ToolCall {
    /// The tool called.
    pub fn tool(&self) -> ToolInfo {
        ToolInfo::new(self.tool.spec)
    }

    /// The request: revision, client, `_meta`, what an HTTP layer put into it.
    pub fn context(&self) -> &Context {
        &self.invocation.context
    }

    /// The arguments as the client sent them (an empty object when it sent none).
    pub fn arguments(&self) -> Value {
        serde_json::from_str(self.invocation.arguments.as_json()).unwrap_or(Value::Null)
    }

    /// The call's record.
    pub(crate) fn record(&self) -> &Arc<CallRecord> {
        &self.invocation.context.0
    }

    /// Runs the tool, in the caller's span: a sync one here when it is quick, else on the sync
    /// pool (in the span there too); an async one here.
    pub(crate) async fn execute(self) -> ToolOutput {
        let ToolCall {
            tool,
            invocation,
            threads,
        } = self;
        match tool.spec.handler {
            // A quick tool runs right here, on the worker.
            Handler::Sync(run) if tool.pace.is_quick() => {
                metered(&tool.pace, true, run, invocation)
            }
            Handler::Sync(run) => {
                let (sender, receiver) = tokio::sync::oneshot::channel();
                let span = invocation.context.0.span.get();
                threads.sync_pool.run(move || {
                    let output = span
                        .span()
                        .in_scope(|| metered(&tool.pace, false, run, invocation));
                    let _ = sender.send(output);
                });
                receiver
                    .await
                    .unwrap_or_else(|_| ToolOutput::internal("the tool's thread ended unanswered"))
            }
            Handler::Async(run) => {
                let rounds = in_rounds(&invocation.context.0);
                CatchUnwind {
                    future: run(invocation),
                    rounds,
                }
                .await
            }
        }
    }
}

impl std::fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCall")
            .field("tool", &self.tool.spec.name)
            .field("arguments", &self.invocation.arguments)
            .finish()
    }
}

/// The record of a call that asks in 2026-07-28 rounds, for its future to end a round with.
fn in_rounds(record: &Arc<CallRecord>) -> Option<Arc<CallRecord>> {
    let asking = record.asking.as_ref()?;
    asking.in_rounds().then(|| Arc::clone(record))
}

/// Runs a sync tool, catching its panic, and notes what the run cost its thread.
pub(crate) fn metered(
    pace: &Pace,
    on_worker: bool,
    run: fn(Invocation) -> ToolOutput,
    invocation: Invocation,
) -> ToolOutput {
    let meter = Meter::start();
    let output = catch_unwind(AssertUnwindSafe(|| run(invocation)));
    pace.record(meter.stop(), on_worker);
    output.unwrap_or_else(|p| panicked(&*p))
}

fn panicked(payload: &(dyn std::any::Any + Send)) -> ToolOutput {
    let message = crate::diagnostics::panic_message(payload);
    ToolOutput::internal(format!("panicked: {message}"))
}

/// A tool's future: a panic inside it becomes an internal-error result, and, for a call
/// asking in 2026-07-28 rounds, waiting on asks that only a retry can answer ends the round.
struct CatchUnwind {
    future: BoxFuture,
    rounds: Option<Arc<CallRecord>>,
}

impl Future for CatchUnwind {
    type Output = ToolOutput;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<ToolOutput> {
        let future = self.future.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Pending) => {
                // Everything the tool asked at once (`join!`) is in this round.
                let unanswered = self.rounds.as_ref().and_then(|r| r.asking().unanswered());
                match unanswered {
                    Some(asks) => Poll::Ready(ToolOutput::input_required(InputRequired {
                        requests: asks.requests,
                        answers: asks.answers,
                    })),
                    None => Poll::Pending,
                }
            }
            Ok(ready) => ready,
            Err(payload) => Poll::Ready(panicked(&*payload)),
        }
    }
}
