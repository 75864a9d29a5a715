//! A tool call on its way to the tool: the tool as served, the invocation its generated handler
//! takes (the arguments, the request's [`Context`]), and the threads it may run on; and running
//! it. It is the request middleware sees ([`ToolCall`] is public there): the layers read it and
//! hand it on, and the innermost runs it here.

use std::sync::Arc;

use serde_json::Value;

use crate::call::context::Context;
use crate::call::record::CallRecord;
use crate::call::spec::{Handler, Invocation, ToolInfo};
use crate::run::caught::{caught, caught_sync};
use crate::run::pace::{Meter, Pace};
use crate::run::served::ServedTool;
use crate::run::workers::Threads;
use crate::tools::ToolOutput;

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
                let record = Arc::clone(&invocation.context.0);
                caught(run(invocation), &record).await
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

/// Runs a sync tool, catching its panic, and notes what the run cost its thread.
pub(crate) fn metered(
    pace: &Pace,
    on_worker: bool,
    run: fn(Invocation) -> ToolOutput,
    invocation: Invocation,
) -> ToolOutput {
    let meter = Meter::start();
    let output = caught_sync(|| run(invocation));
    pace.record(meter.stop(), on_worker);
    output
}
