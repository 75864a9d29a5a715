//! The bound on a connection that neither sends a request nor waits for an answer (a slow or
//! silent client, slowloris), kept by one watchdog per connection.
//!
//! hyper's own bound (`header_read_timeout`) registers a timer for every request a keep-alive
//! connection reads, and drops it once the head is in: about a thousand instructions and an
//! allocation per request. The watchdog wakes twice per bound instead, and a request costs two
//! atomic writes: its connection is busy from the moment its head is read until its response
//! body is dropped (sent, or the connection gone), and it counts the answers. A connection
//! that was not busy and answered nothing for a whole bound, seen at two wake-ups in a row, is
//! closed: after between one and one and a half bounds of quiet, as against exactly one. A
//! request whose head arrives as the watchdog closes its connection is not run.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use tokio::sync::oneshot;
use tokio::task::AbortHandle;

/// The state of a connection closed by its watchdog: nothing starts on it any more.
const CLOSED: u64 = u64::MAX;

/// What one connection is doing, as its watchdog reads it, in one word: the answers it gave,
/// times two, plus one while a request is in flight; or [`CLOSED`]. One word, so that the
/// watchdog closes a connection only if nothing started on it since it looked.
#[derive(Default)]
pub(crate) struct Activity(AtomicU64);

impl Activity {
    /// A request's head was read: the connection waits for its answer. `false` when the
    /// watchdog has closed it: the request must not run.
    pub(crate) fn started(&self) -> bool {
        // `CLOSED` has every bit set: or-ing the busy bit leaves it as it is.
        self.0.fetch_or(1, Ordering::AcqRel) != CLOSED
    }

    fn answered(&self) {
        // The busy bit and the count, in one addition: (2n + 1) + 1 = 2(n + 1).
        let _ = (self.0).fetch_update(Ordering::AcqRel, Ordering::Acquire, |state| {
            (state != CLOSED).then(|| state + 1)
        });
    }

    /// `body`, which tells this connection's activity when it is dropped.
    pub(crate) fn watching<B>(self: &Arc<Self>, body: B) -> Watched<B> {
        Watched {
            body,
            activity: Arc::clone(self),
        }
    }

    /// Closes the connection if its state is still `seen`; whether it did.
    fn close_if(&self, seen: u64) -> bool {
        (self.0)
            .compare_exchange(seen, CLOSED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

/// Closes `connection` once `activity` shows it quiet for `bound` (see the module's text);
/// ends when the connection does, which `ended` says by being dropped with the connection's
/// task.
pub(crate) fn watch(
    connection: AbortHandle,
    activity: Arc<Activity>,
    bound: Duration,
    mut ended: oneshot::Receiver<()>,
) {
    let tick = (bound / 2).max(Duration::from_millis(1));
    tokio::spawn(async move {
        let mut last = activity.0.load(Ordering::Acquire);
        let mut quiet = 0;
        loop {
            tokio::select! {
                () = tokio::time::sleep(tick) => {}
                _ = &mut ended => return,
            }
            let seen = activity.0.load(Ordering::Acquire);
            match seen & 1 == 0 && seen == last {
                true => quiet += 1,
                false => quiet = 0,
            }
            last = seen;
            if quiet >= 2 && activity.close_if(seen) {
                connection.abort();
                return;
            }
        }
    });
}

/// A response body that marks its connection's request answered when it is dropped.
pub(crate) struct Watched<B> {
    body: B,
    activity: Arc<Activity>,
}

impl<B> Drop for Watched<B> {
    fn drop(&mut self) {
        self.activity.answered();
    }
}

impl<B: Body + Unpin> Body for Watched<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_is_closed_only_as_its_watchdog_saw_it_and_nothing_starts_after() {
        let activity = Activity::default();
        let quiet = activity.0.load(Ordering::Acquire);
        assert!(activity.started());
        // A request started since the watchdog looked: it does not close.
        assert!(!activity.close_if(quiet));
        activity.answered();
        let seen = activity.0.load(Ordering::Acquire);
        assert_eq!(seen, 2, "one answer, nothing in flight");
        assert!(activity.close_if(seen));
        assert!(!activity.started(), "a head that comes now is not run");
        activity.answered();
        assert_eq!(activity.0.load(Ordering::Acquire), CLOSED);
    }
}
