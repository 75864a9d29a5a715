//! The gate of one call: it orders the call's progress notifications, its log messages, its
//! answer and its cancellation, so that nothing is sent after the answer and no answer is sent
//! after a cancellation the server has seen; and the call's cancellation signal.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// After a progress notification, the answer waits this long, so that clients that drop
/// progress handlers as soon as the answer is read (the TypeScript SDK does) still see the
/// last notification: they must read the two in separate chunks.
const PROGRESS_SPACING: Duration = Duration::from_millis(20);

/// The gate and the cancellation signal of a call; a call starts open.
#[derive(Default)]
pub(crate) struct Gate {
    state: Mutex<Passed>,
    cancelled: AtomicBool,
    wake: tokio::sync::Notify,
}

/// What has gone through the gate.
#[derive(Default)]
struct Passed {
    finished: bool,
    cancelled: bool,
    last_progress: Option<(f64, Instant)>,
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, Passed> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `send` for a progress value if the call is still open (or, `beyond_answer`, a task
    /// whose request was answered with it) and the value is larger than the last one sent.
    pub(crate) fn progress(&self, value: f64, beyond_answer: bool, send: impl FnOnce()) -> bool {
        let mut passed = self.lock();
        let increasing = passed.last_progress.is_none_or(|(last, _)| value > last);
        // A task's progress stops when the task is cancelled (its signal fires).
        let closed = match beyond_answer {
            true => self.is_cancelled(),
            false => passed.finished,
        };
        if closed || passed.cancelled || !value.is_finite() || !increasing {
            return false;
        }
        send();
        passed.last_progress = Some((value, Instant::now()));
        true
    }

    /// Runs `send` (a message about the call) if the call is still open.
    pub(crate) fn while_open(&self, send: impl FnOnce()) -> bool {
        let passed = self.lock();
        if passed.finished || passed.cancelled {
            return false;
        }
        send();
        true
    }

    /// How long the answer should wait for the last progress notification to be read alone.
    pub(crate) fn spacing(&self) -> Option<Duration> {
        let (_, at) = self.lock().last_progress?;
        PROGRESS_SPACING.checked_sub(at.elapsed())
    }

    /// Runs `send` with the answer unless the call was cancelled or already answered (a call
    /// that became a task was answered with the task); either way, closes it.
    pub(crate) fn finish(&self, send: impl FnOnce()) -> bool {
        let mut passed = self.lock();
        let sent = !passed.cancelled && !passed.finished;
        if sent {
            send();
        }
        passed.finished = true;
        sent
    }

    /// Cancels the call: fires its signal, and suppresses its answer. A request already
    /// answered is not cancelled: nothing is left to cancel (and a call that became a task
    /// runs on, cancelled only as a task).
    pub(crate) fn cancel(&self) {
        let mut passed = self.lock();
        if passed.finished {
            return;
        }
        passed.cancelled = true;
        drop(passed);
        self.signal();
    }

    /// Fires the call's signal without suppressing its answer: the server is shutting down,
    /// and a call that still finishes in time is answered.
    pub(crate) fn signal(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.wake.notify_waiters();
    }

    /// Whether the request was answered.
    pub(crate) fn is_answered(&self) -> bool {
        self.lock().finished
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// Completes when the call is cancelled.
    pub(crate) async fn cancelled(&self) {
        loop {
            let notified = self.wake.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_only_increases_and_stops_at_the_answer() {
        let gate = Gate::default();
        let mut sent = Vec::new();
        for value in [1.0, 1.0, 0.5, f64::NAN, 2.0] {
            gate.progress(value, false, || sent.push(value));
        }
        gate.finish(|| sent.push(-1.0));
        gate.progress(3.0, false, || sent.push(3.0));
        gate.progress(4.0, true, || sent.push(4.0));
        gate.signal();
        gate.progress(5.0, true, || sent.push(5.0));
        assert_eq!(
            sent,
            [1.0, 2.0, -1.0, 4.0],
            "a task's progress goes on until it is cancelled"
        );
    }

    #[test]
    fn a_request_is_answered_once_and_then_not_cancelled() {
        let gate = Gate::default();
        let mut sent = 0;
        assert!(gate.finish(|| sent += 1));
        assert!(!gate.finish(|| sent += 1));
        gate.cancel();
        assert_eq!(sent, 1);
        assert!(!gate.is_cancelled(), "an answered request is not cancelled");
    }

    #[test]
    fn a_cancelled_call_sends_no_answer() {
        let gate = Gate::default();
        gate.cancel();
        assert!(gate.is_cancelled());
        let mut sent = false;
        assert!(!gate.finish(|| sent = true));
        assert!(!sent);
    }
}
