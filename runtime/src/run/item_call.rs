//! A prompt's or a resource's function on its way to run: the same threads as tools (a sync
//! function on the sync pool, an async one as a task), inside the same boundary (its panic
//! caught, a round ended on the asks it waits on), and what it produced handed to whoever
//! opened the request, which shapes and delivers it. Prompts and resources have no
//! middleware, so this is all their running needs.

use std::sync::Arc;

use tracing::Instrument;

use crate::call::record::CallRecord;
use crate::item::handler::{BoxFuture, Handler, Invocation};
use crate::run::caught::Output;
use crate::run::once;
use crate::run::workers::Threads;

/// A prompt's or a resource's request, ready to run.
pub(crate) struct ItemCall {
    /// The request's record: cancelling it cancels the request.
    pub(crate) record: Arc<CallRecord>,
    pub(crate) threads: Arc<Threads>,
    /// Runs the function and delivers its answer.
    pub(crate) job: BoxFuture<()>,
}

impl ItemCall {
    /// Starts it on its threads; returns at once.
    pub(crate) fn start(self) {
        let span = self.record.span.get().span().clone();
        self.threads.runtime().spawn(self.job.instrument(span));
    }
}

/// Runs a prompt's or a resource's function once, as a tool's runs (see `once`); it keeps no
/// pace, so a sync one runs on the pool.
pub(crate) async fn run<O: Output>(
    handler: Handler<O>,
    invocation: Invocation,
    threads: Arc<Threads>,
) -> O {
    once::run(handler, invocation, &threads, None).await
}
