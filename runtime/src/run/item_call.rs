//! A prompt's or a resource's function on its way to run: the same threads as tools (a sync
//! function on the sync pool, an async one as a task), its panic caught, and what it produced
//! handed to whoever opened the request, which shapes and delivers it. Prompts and resources
//! have no middleware and do not ask the client, so this is all their running needs.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use tracing::Instrument;

use crate::call::record::CallRecord;
use crate::call::spec::{BoxFuture, Handler, Invocation};
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

/// Runs `handler` with `invocation` and returns what it produced (or `panicked`'s output for
/// its panic's message).
pub(crate) async fn run<O: Send + 'static>(
    handler: Handler<O>,
    invocation: Invocation,
    threads: Arc<Threads>,
    panicked: fn(String) -> O,
) -> O {
    match handler {
        Handler::Sync(function) => {
            let (sender, receiver) = tokio::sync::oneshot::channel();
            let span = invocation.context.0.span.get();
            threads.sync_pool.run(move || {
                let output = span.span().in_scope(|| {
                    catch_unwind(AssertUnwindSafe(|| function(invocation)))
                        .unwrap_or_else(|payload| panicked(message(&*payload)))
                });
                let _ = sender.send(output);
            });
            receiver
                .await
                .unwrap_or_else(|_| panicked("its thread ended unanswered".to_owned()))
        }
        Handler::Async(function) => caught(function(invocation), panicked).await,
    }
}

/// `future`, its panic made into `panicked`'s output for the panic's message.
pub(crate) fn caught<O>(
    future: BoxFuture<O>,
    panicked: fn(String) -> O,
) -> impl Future<Output = O> {
    CatchUnwind { future, panicked }
}

fn message(payload: &(dyn std::any::Any + Send)) -> String {
    format!("panicked: {}", crate::diagnostics::panic_message(payload))
}

/// A function's future, with a panic inside it made into its output.
struct CatchUnwind<O> {
    future: BoxFuture<O>,
    panicked: fn(String) -> O,
}

impl<O> Future for CatchUnwind<O> {
    type Output = O;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<O> {
        let future = self.future.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready((self.panicked)(message(&*payload))),
        }
    }
}
