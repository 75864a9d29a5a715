//! One call, from the moment it is opened to its answer: the [`ToolCall`] that runs, and how
//! its output is finished. A sync tool runs on the sync pool (or, once it has shown itself
//! quick, on the async worker that received it: `pace`; right where its request is handled
//! when that worker is the tools' runtime's, as over HTTP), an async one as a task, and any
//! call through the server's middleware as a task; the output goes to whoever opened the call,
//! which shapes and delivers it.

use std::sync::Arc;

use tracing::Instrument;

use crate::call::record::CallRecord;
use crate::item::handler::{Handler, Invocation};
use crate::run::middleware::Chain;
use crate::run::once::metered;
use crate::run::served::ServedTool;
use crate::run::tool_call::ToolCall;
use crate::tools::ToolOutput;

/// What becomes of a call's output: chosen by the layer that opened the call (it knows where
/// the answer goes).
pub(crate) trait Finish: Send + 'static {
    fn finish(self, tool: &ServedTool, record: &CallRecord, output: ToolOutput);
}

/// A call ready to run.
pub(crate) struct Call<F> {
    /// What runs: the tool, its arguments, its context.
    pub(crate) tool_call: ToolCall,
    /// How its output ends the request.
    pub(crate) finish: F,
    /// The server's middleware, when it has any.
    pub(crate) middleware: Option<Arc<Chain>>,
}

impl<F: Finish> Call<F> {
    /// Starts the call on its threads; returns at once.
    pub(crate) fn start(self) {
        let threads = Arc::clone(&self.tool_call.threads);
        let tool = &self.tool_call.tool;
        let plain = self.middleware.is_none() && !self.tool_call.record().starts_as_task();
        let current = tokio::runtime::Handle::try_current().ok();
        match tool.spec.handler {
            // A quick sync tool already on a worker of the tools' runtime (HTTP's) runs right
            // here: a task of its own would cost a spawn, a wake-up and the response's timer
            // (the answer would not be there when the response first looks).
            Handler::Sync(run)
                if plain
                    && tool.pace.is_quick()
                    && current
                        .as_ref()
                        .is_some_and(|h| h.id() == threads.runtime().id()) =>
            {
                self.run_here(run);
            }
            // A sync tool runs on the pool, unless the call is a task anyway (middleware), or
            // it is quick and already on a worker of a runtime, where it runs as a task; a
            // transport's own thread (stdio's reader) never runs tool code.
            Handler::Sync(run) if plain && !(tool.pace.is_quick() && current.is_some()) => {
                threads.sync_pool.run(move || self.run_sync(run));
            }
            _ => {
                threads.runtime().spawn(self.run_in_task());
            }
        }
    }

    /// A quick sync tool, on the worker that received its request; an answer that must wait
    /// for its last progress notification to be read waits in a task, not on the worker.
    fn run_here(self, run: fn(Invocation) -> ToolOutput) {
        let (tool, record, finish, output) = self.run_metered(run, true);
        match record.gate.spacing() {
            None => finish.finish(&tool, &record, output),
            Some(wait) => {
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    finish.finish(&tool, &record, output);
                });
            }
        }
    }

    fn run_sync(self, run: fn(Invocation) -> ToolOutput) {
        let (tool, record, finish, output) = self.run_metered(run, false);
        if let Some(wait) = record.gate.spacing() {
            std::thread::sleep(wait);
        }
        finish.finish(&tool, &record, output);
    }

    /// Runs a sync tool here, in the call's span, metered (`on_worker`: this thread is an
    /// async worker); what finishing it takes.
    fn run_metered(
        self,
        run: fn(Invocation) -> ToolOutput,
        on_worker: bool,
    ) -> (Arc<ServedTool>, Arc<CallRecord>, F, ToolOutput) {
        let Call {
            tool_call: ToolCall {
                tool, invocation, ..
            },
            finish,
            ..
        } = self;
        let record = Arc::clone(&invocation.context.0);
        let output = record
            .span
            .get()
            .span()
            .in_scope(|| metered(Some(&tool.pace), on_worker, run, invocation));
        (tool, record, finish, output)
    }

    /// As a task of the runtime, in the call's span: through the server's middleware, which
    /// runs the tool (`ToolCall::execute`) or not, or straight to the tool; a call that is an
    /// MCP task from the start becomes one first.
    async fn run_in_task(self) {
        let Call {
            tool_call,
            finish,
            middleware,
        } = self;
        let tool = Arc::clone(&tool_call.tool);
        let record = Arc::clone(tool_call.record());
        let span = record.span.get().span().clone();
        // A call that is a task from the start is answered with its task first; one that
        // could not become a task was answered with why, and does not run.
        if record.starts_as_task() && record.escalate().await.is_none() {
            return;
        }
        let output = match middleware {
            Some(chain) => chain.call(tool_call).instrument(span).await,
            None => tool_call.execute().instrument(span).await,
        };
        if let Some(wait) = record.gate.spacing() {
            tokio::time::sleep(wait).await;
        }
        finish.finish(&tool, &record, output);
    }
}
