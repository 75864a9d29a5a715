//! Counting the calls in flight: the cap on how many run at once, and the wait at shutdown.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The count is an atomic (two operations a call); the lock and condition variable are used
/// only by shutdown, to sleep until the count reaches zero.
#[derive(Default)]
pub(crate) struct InFlight {
    count: AtomicUsize,
    lock: Mutex<()>,
    idle: Condvar,
}

/// Held by a call until its answer is queued.
pub(crate) struct Guard(Arc<InFlight>);

impl InFlight {
    /// Counts one more call, unless `limit` calls are already running.
    pub(crate) fn try_enter(self: &Arc<Self>, limit: usize) -> Option<Guard> {
        self.count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()?;
        Some(Guard(Arc::clone(self)))
    }

    /// Waits until no call is in flight or `timeout` passes; true when none is left.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while self.count.load(Ordering::Acquire) > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            // A guard that drops the count to zero takes the lock before notifying, so the
            // wake-up cannot fall between the check above and this wait.
            guard = self
                .idle
                .wait_timeout(guard, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            let _lock = self.0.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.0.idle.notify_all();
        }
    }
}
