//! The bound on a connection that neither sends a request nor waits for an answer (a slow or
//! silent client, slowloris), kept by one watchdog per connection.
//!
//! hyper's own bound (`header_read_timeout`) registers a timer for every request a keep-alive
//! connection reads, and drops it once the head is in: about a thousand instructions and an
//! allocation per request. The watchdog wakes twice per bound instead, and a request costs two
//! atomic writes: its connection is busy from the moment its head is read until its response
//! body is dropped (sent, or the connection gone), and it counts the answers. A connection
//! that was not busy and answered nothing for a whole bound, seen at two wake-ups in a row, is
//! closed: after between one and one and a half bounds of quiet, as against exactly one.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use tokio::task::AbortHandle;

/// What one connection is doing, as its watchdog reads it.
#[derive(Default)]
pub(crate) struct Activity {
    busy: AtomicBool,
    answered: AtomicU64,
}

impl Activity {
    /// A request's head was read: the connection waits for its answer.
    pub(crate) fn started(&self) {
        self.busy.store(true, Ordering::Relaxed);
    }

    fn answered(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
        self.busy.store(false, Ordering::Relaxed);
    }

    /// `body`, which tells this connection's activity when it is dropped.
    pub(crate) fn watching<B>(self: &Arc<Self>, body: B) -> Watched<B> {
        Watched {
            body,
            activity: Arc::clone(self),
        }
    }

    /// What the watchdog compares from one wake-up to the next.
    fn seen(&self) -> (bool, u64) {
        (
            self.busy.load(Ordering::Relaxed),
            self.answered.load(Ordering::Relaxed),
        )
    }
}

/// Closes `connection` once `activity` shows it quiet for `bound` (see the module's text);
/// ends when the connection does.
pub(crate) fn watch(connection: AbortHandle, activity: Arc<Activity>, bound: Duration) {
    let tick = (bound / 2).max(Duration::from_millis(1));
    tokio::spawn(async move {
        let mut last = activity.seen();
        let mut quiet = 0;
        loop {
            tokio::time::sleep(tick).await;
            if connection.is_finished() {
                return;
            }
            let seen = activity.seen();
            match seen {
                (false, _) if seen == last => quiet += 1,
                _ => quiet = 0,
            }
            last = seen;
            if quiet >= 2 {
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
