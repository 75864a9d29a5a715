//! One run of a function an item is made of, the same for every kind: an async function as a
//! future, inside the one boundary (`caught`); a sync one on the pool's threads, or, when its
//! pace says its runs are quick, on the async worker that asked, metered either way.

use std::sync::Arc;

use crate::item::handler::{Handler, Invocation};
use crate::run::caught::{Output, caught, caught_sync};
use crate::run::pace::Pace;
use crate::run::workers::Threads;

/// Runs `handler` once with `invocation`. `pace` is how quick the item's sync runs have been,
/// for an item that keeps count (a tool); without one a sync function always runs on the pool.
pub(crate) async fn run<O: Output>(
    handler: Handler<O>,
    invocation: Invocation,
    threads: &Threads,
    pace: Option<Arc<dyn AsRef<Pace> + Send + Sync>>,
) -> O {
    match handler {
        Handler::Sync(function) if pace.as_ref().is_some_and(|p| (**p).as_ref().is_quick()) => {
            metered(
                pace.as_deref().map(AsRef::as_ref),
                true,
                function,
                invocation,
            )
        }
        Handler::Sync(function) => {
            let (sender, receiver) = tokio::sync::oneshot::channel();
            let span = invocation.context.0.span.get();
            threads.sync_pool.run(move || {
                let pace = pace.as_deref().map(AsRef::as_ref);
                let output = span
                    .span()
                    .in_scope(|| metered(pace, false, function, invocation));
                let _ = sender.send(output);
            });
            receiver
                .await
                .unwrap_or_else(|_| O::panicked("its thread ended unanswered".to_owned()))
        }
        Handler::Async(function) => {
            let record = Arc::clone(&invocation.context.0);
            caught(function(invocation), &record).await
        }
    }
}

/// A sync function's run, inside the boundary, its time counted in `pace` (if it keeps one);
/// `on_worker` says where it ran.
pub(crate) fn metered<O: Output>(
    pace: Option<&Pace>,
    on_worker: bool,
    function: fn(Invocation) -> O,
    invocation: Invocation,
) -> O {
    let Some(pace) = pace else {
        return caught_sync(|| function(invocation));
    };
    let meter = pace.meter(on_worker);
    let output = caught_sync(|| function(invocation));
    pace.record(meter.stop(), on_worker);
    output
}
