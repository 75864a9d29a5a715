//! Running one call: a sync tool on the sync pool (or, once it has shown itself quick, as a
//! task on the async worker that received it: `pace`), an async one as a task, and any call
//! through the server's middleware as a task; a panic becomes an internal error; the output
//! goes to whoever prepared the call, which shapes and delivers it.

use crate::call::pace::{Meter, Pace};
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use tracing::Instrument;

use crate::call::middleware::{Chain, ToolCall};
use crate::call::record::CallRecord;
use crate::call::spec::{BoxFuture, Handler, Invocation};
use crate::call::workers::Started;
use crate::tools::ToolOutput;
use crate::tools::output::InputRequired;

/// What becomes of a call's output: chosen by the layer that prepared the call (it knows the
/// tool's schemas and where the answer goes).
pub(crate) trait Finish: Send + 'static {
    fn finish(self, record: &CallRecord, output: ToolOutput);
}

/// A call ready to run.
pub(crate) struct Call<F> {
    pub(crate) record: Arc<CallRecord>,
    pub(crate) handler: Handler,
    pub(crate) invocation: Invocation,
    pub(crate) finish: F,
    pub(crate) workers: Arc<Started>,
    /// The tool's recent run times (sync tools).
    pub(crate) pace: Arc<Pace>,
    /// The server's middleware, when it has any.
    pub(crate) middleware: Option<Arc<Chain>>,
}

impl<F: Finish> Call<F> {
    /// Starts the call on its workers; returns at once.
    pub(crate) fn start(self) {
        let workers = Arc::clone(&self.workers);
        match self.handler {
            // A sync tool runs on the pool, unless the call is a task anyway (middleware), or
            // it is quick and already on a worker of the runtime (HTTP), where it runs right
            // there; a transport's own thread (stdio's reader) never runs tool code.
            Handler::Sync(run)
                if self.middleware.is_none()
                    && !(self.pace.is_quick() && tokio::runtime::Handle::try_current().is_ok()) =>
            {
                workers.sync_pool.run(move || self.run_sync(run));
            }
            _ => {
                workers.runtime().spawn(self.run_in_task());
            }
        }
    }

    fn run_sync(self, run: fn(Invocation) -> ToolOutput) {
        let Call {
            record,
            invocation,
            finish,
            pace,
            ..
        } = self;
        let output = record
            .span
            .get()
            .span()
            .in_scope(|| metered(&pace, false, run, invocation));
        if let Some(wait) = record.spacing() {
            std::thread::sleep(wait);
        }
        finish.finish(&record, output);
    }

    /// As a task, in the call's span: through the server's middleware, which runs the tool
    /// (`ToolCall::execute`) or not, or straight to the tool.
    async fn run_in_task(self) {
        let Call {
            record,
            handler,
            invocation,
            finish,
            workers,
            pace,
            middleware,
        } = self;
        let call = ToolCall {
            record: Arc::clone(&record),
            invocation,
            handler,
            workers,
            pace,
        };
        let span = record.span.get().span().clone();
        let output = match middleware {
            Some(chain) => chain.call(call).instrument(span).await,
            None => call.execute().instrument(span).await,
        };
        if let Some(wait) = record.spacing() {
            tokio::time::sleep(wait).await;
        }
        finish.finish(&record, output);
    }
}

impl ToolCall {
    /// Runs the tool, in the caller's span: a sync one here when it is quick, else on the sync
    /// pool (in the span there too); an async one here.
    pub(crate) async fn execute(self) -> ToolOutput {
        let ToolCall {
            record,
            invocation,
            handler,
            workers,
            pace,
            ..
        } = self;
        match handler {
            // A quick tool runs right here, on the worker.
            Handler::Sync(run) if pace.is_quick() => metered(&pace, true, run, invocation),
            Handler::Sync(run) => {
                let (sender, receiver) = tokio::sync::oneshot::channel();
                let span = record.span.get();
                workers.sync_pool.run(move || {
                    let output = span
                        .span()
                        .in_scope(|| metered(&pace, false, run, invocation));
                    let _ = sender.send(output);
                });
                receiver
                    .await
                    .unwrap_or_else(|_| ToolOutput::internal("the tool's thread ended unanswered"))
            }
            Handler::Async(run) => {
                CatchUnwind {
                    future: run(invocation),
                    rounds: in_rounds(&record),
                }
                .await
            }
        }
    }
}

/// The record of a call that asks in 2026-07-28 rounds, for its future to end a round with.
fn in_rounds(record: &Arc<CallRecord>) -> Option<Arc<CallRecord>> {
    let asking = record.asking.as_ref()?;
    asking.in_rounds().then(|| Arc::clone(record))
}

/// Runs a sync tool, catching its panic, and notes what the run cost its thread.
fn metered(
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
