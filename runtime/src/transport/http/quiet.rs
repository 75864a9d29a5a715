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
//!
//! The watchdog also closes its connection when the server stops (see [`Stopping`]): at once if
//! it is idle, else by asking hyper to close it after the answer in flight. It is what hyper's
//! graceful shutdown did, whose watcher is polled with its connection (a few hundred
//! instructions a request); here the connection's task reads one flag when it is polled, and
//! the watchdog, woken by the stop, does the rest.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use hyper_util::server::graceful::GracefulConnection;
use tokio::sync::{mpsc, oneshot, watch as signal};
use tokio::task::AbortHandle;

/// The state of a connection closed by its watchdog: nothing starts on it any more.
const CLOSED: u64 = u64::MAX;

/// What one connection is doing, as its watchdog reads it, in one word: the answers it gave,
/// times two, plus one while a request is in flight; or [`CLOSED`]. One word, so that the
/// watchdog closes a connection only if nothing started on it since it looked.
#[derive(Default)]
pub(crate) struct Activity(AtomicU64, Closing);

/// The server is stopping: the connection is to close once its answer in flight is sent.
#[derive(Default)]
struct Closing(AtomicBool);

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

/// How often a stopping server's watchdog looks whether its connection became idle.
const STOP_TICK: Duration = Duration::from_millis(10);

/// The server's stop, as every connection's watchdog hears it, and the connections still open,
/// which the server waits for.
pub(crate) struct Stopping {
    signal: signal::Sender<bool>,
    /// Held by every connection's task: the last one's drop closes `closed`.
    open: mpsc::Sender<()>,
    closed: mpsc::Receiver<()>,
}

impl Stopping {
    pub(crate) fn new() -> Stopping {
        let (open, closed) = mpsc::channel(1);
        Stopping {
            signal: signal::channel(false).0,
            open,
            closed,
        }
    }

    /// Tells every connection to close: at once if it is idle, else once its answer in flight
    /// is sent (a stream's, once the stream ends).
    pub(crate) fn signal(&self) {
        let _ = self.signal.send(true);
    }

    /// Waits until every connection has closed, or `grace` has passed.
    pub(crate) async fn closed(self, grace: Duration) {
        let Stopping {
            open, mut closed, ..
        } = self;
        drop(open);
        let _ = tokio::time::timeout(grace, closed.recv()).await;
    }
}

/// Serves `connection` in a task of its own, watched (see the module's text): closed when
/// `activity` shows it quiet for `bound`, or when the server stops.
pub(crate) fn run<C>(connection: C, activity: Arc<Activity>, bound: Duration, stopping: &Stopping)
where
    C: GracefulConnection + Send + 'static,
{
    // Dropped with the connection's task, however it ends: its watchdog ends then.
    let (alive, ended) = oneshot::channel::<()>();
    let open = stopping.open.clone();
    let closing = Arc::clone(&activity);
    let task = tokio::spawn(async move {
        let _held = (alive, open);
        let mut connection = std::pin::pin!(connection);
        let mut asked = false;
        let _ = std::future::poll_fn(|cx| {
            if !asked && closing.1.0.load(Ordering::Acquire) {
                // hyper ends the connection once the answer in flight is sent.
                connection.as_mut().graceful_shutdown();
                asked = true;
            }
            connection.as_mut().poll(cx)
        })
        .await;
    });
    let stop = stopping.signal.subscribe();
    watch(task.abort_handle(), activity, bound, ended, stop);
}

/// Closes `connection` once `activity` shows it quiet for `bound` (see the module's text), or
/// once `stop` says the server stops and it is idle; ends when the connection does, which
/// `ended` says by being dropped with the connection's task.
fn watch(
    connection: AbortHandle,
    activity: Arc<Activity>,
    bound: Duration,
    mut ended: oneshot::Receiver<()>,
    mut stop: signal::Receiver<bool>,
) {
    let mut tick = (bound / 2).max(Duration::from_millis(1));
    tokio::spawn(async move {
        let mut last = activity.0.load(Ordering::Acquire);
        let mut quiet = 0;
        let mut stopping = false;
        loop {
            tokio::select! {
                () = tokio::time::sleep(tick) => {}
                _ = &mut ended => return,
                // A stop, or the server gone without one.
                _ = stop.changed(), if !stopping => {
                    stopping = true;
                    tick = STOP_TICK;
                    activity.1.0.store(true, Ordering::Release);
                }
            }
            let seen = activity.0.load(Ordering::Acquire);
            if stopping {
                // Busy: its task closes it after the answer, unless it became idle before its
                // task read the flag, which the next tick sees.
                if seen & 1 == 0 && activity.close_if(seen) {
                    connection.abort();
                    return;
                }
                continue;
            }
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
