//! Counting the calls in flight, so that shutdown can wait a little for them to finish.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
pub(crate) struct InFlight {
    count: Mutex<usize>,
    idle: Condvar,
}

/// Held by a call until its answer is queued.
pub(crate) struct Guard(Arc<InFlight>);

impl InFlight {
    /// Counts one more call, unless `limit` calls are already running.
    pub(crate) fn try_enter(self: &Arc<Self>, limit: usize) -> Option<Guard> {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(Guard(Arc::clone(self)))
    }

    /// Waits until no call is in flight or `timeout` passes; true when none is left.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            count = self
                .idle
                .wait_timeout(count, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut count = self.0.count.lock().unwrap_or_else(|e| e.into_inner());
        *count -= 1;
        if *count == 0 {
            self.0.idle.notify_all();
        }
    }
}
