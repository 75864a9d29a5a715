//! Where sync tools run: on tokio's blocking threads, but not one thread per call.
//!
//! `spawn_blocking` starts a new thread whenever no blocking thread is idle at that instant, so
//! a client pipelining quick calls gets about one thread per call in flight (76 to 121 threads
//! for a window of 64 in `bench/`). Here a few runners, one per core, take queued calls one
//! after another while they stay busy. A call that has waited `PATIENCE` for a runner gets one of
//! its own: the runners are held up by slow tools, and a slow tool must not hold up other calls.

use std::collections::VecDeque;
use std::num::NonZero;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a queued call waits for a busy runner before it gets a thread of its own.
const PATIENCE: Duration = Duration::from_millis(1);

type Job = Box<dyn FnOnce() + Send>;

pub(crate) struct SyncPool {
    runtime: tokio::runtime::Handle,
    /// Runners started without waiting; more start only for calls that waited `PATIENCE`.
    steady: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    queue: VecDeque<(Job, Instant)>,
    runners: usize,
    /// A watcher task is looking at the queue.
    watching: bool,
}

impl SyncPool {
    pub(crate) fn new(runtime: tokio::runtime::Handle) -> Arc<SyncPool> {
        Arc::new(SyncPool {
            runtime,
            steady: std::thread::available_parallelism().map_or(2, NonZero::get),
            inner: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `job` on a runner now, or queues it for the next free one.
    pub(crate) fn run(self: &Arc<Self>, job: impl FnOnce() + Send + 'static) {
        let mut inner = self.lock();
        if inner.runners < self.steady {
            inner.runners += 1;
            drop(inner);
            self.start(Box::new(job));
            return;
        }
        inner.queue.push_back((Box::new(job), Instant::now()));
        if !inner.watching {
            inner.watching = true;
            drop(inner);
            self.runtime.spawn(Arc::clone(self).watch());
        }
    }

    fn start(self: &Arc<Self>, first: Job) {
        let pool = Arc::clone(self);
        self.runtime.spawn_blocking(move || pool.runner(first));
    }

    /// Runs `first`, then queued calls until there are none.
    fn runner(&self, first: Job) {
        let mut job = first;
        loop {
            // A call catches its tool's panics; this keeps the runner counted right if the
            // runtime's own code ever panics.
            let _ = catch_unwind(AssertUnwindSafe(job));
            let mut inner = self.lock();
            match inner.queue.pop_front() {
                Some((next, _)) => job = next,
                None => {
                    inner.runners -= 1;
                    return;
                }
            }
        }
    }

    /// While calls are queued, starts a runner for each call that has waited `PATIENCE`.
    async fn watch(self: Arc<Self>) {
        loop {
            tokio::time::sleep(PATIENCE).await;
            let mut inner = self.lock();
            let mut overdue = Vec::new();
            while inner
                .queue
                .front()
                .is_some_and(|(_, queued)| queued.elapsed() >= PATIENCE)
            {
                overdue.extend(inner.queue.pop_front().map(|(job, _)| job));
            }
            inner.runners += overdue.len();
            if inner.queue.is_empty() {
                inner.watching = false;
            }
            let watching = inner.watching;
            drop(inner);
            for job in overdue {
                self.start(job);
            }
            if !watching {
                return;
            }
        }
    }
}
