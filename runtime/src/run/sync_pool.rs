//! Where sync tools run: on tokio's blocking threads, but not one thread per call.
//!
//! `spawn_blocking` starts a new thread whenever no blocking thread is idle at that instant, so
//! a client pipelining quick calls gets about one thread per call in flight (76 to 121 threads
//! for a window of 64 in `bench/`). Here a few runners, one per core, take queued calls one
//! after another while they stay busy. A runner whose call has run for `PATIENCE` is held up by
//! a slow tool, and a slow tool must not hold up other calls: while calls that have waited
//! `PATIENCE` are queued, runners start until as many as there are cores are moving again. A
//! queue that is long only because every runner is busy with quick calls (a loaded server) gets
//! no more threads: they would only compete for the same cores.

use std::collections::VecDeque;
use std::num::NonZero;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a call may run before its runner counts as held up, and a queued call may wait
/// before a runner starts for it.
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
    /// When each runner started its current call, by runner; `None` marks a free slot.
    busy: Vec<Option<Instant>>,
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
            let slot = inner.claim();
            drop(inner);
            self.start(Box::new(job), slot);
            return;
        }
        inner.queue.push_back((Box::new(job), Instant::now()));
        if !inner.watching {
            inner.watching = true;
            drop(inner);
            self.runtime.spawn(Arc::clone(self).watch());
        }
    }

    fn start(self: &Arc<Self>, first: Job, slot: usize) {
        let pool = Arc::clone(self);
        self.runtime
            .spawn_blocking(move || pool.runner(first, slot));
    }

    /// Runs `first`, then queued calls until there are none.
    fn runner(&self, first: Job, slot: usize) {
        let mut job = first;
        loop {
            // A call catches its tool's panics; this keeps the runner counted right if the
            // runtime's own code ever panics.
            let _ = catch_unwind(AssertUnwindSafe(job));
            let mut inner = self.lock();
            match inner.queue.pop_front() {
                Some((next, _)) => {
                    inner.busy[slot] = Some(Instant::now());
                    job = next;
                }
                None => {
                    inner.busy[slot] = None;
                    inner.runners -= 1;
                    return;
                }
            }
        }
    }

    /// While calls are queued: when calls have waited `PATIENCE` and fewer runners than
    /// `steady` are moving (the others are held up by slow calls), starts runners for them.
    async fn watch(self: Arc<Self>) {
        loop {
            tokio::time::sleep(PATIENCE).await;
            let mut inner = self.lock();
            let held_up = inner
                .busy
                .iter()
                .flatten()
                .filter(|started| started.elapsed() >= PATIENCE)
                .count();
            let room = self.steady.saturating_sub(inner.runners - held_up);
            let mut started = Vec::new();
            while started.len() < room
                && inner
                    .queue
                    .front()
                    .is_some_and(|(_, queued)| queued.elapsed() >= PATIENCE)
            {
                let job = inner.queue.pop_front().map(|(job, _)| job);
                let slot = inner.claim();
                started.extend(job.map(|job| (job, slot)));
            }
            if inner.queue.is_empty() {
                inner.watching = false;
            }
            let watching = inner.watching;
            drop(inner);
            for (job, slot) in started {
                self.start(job, slot);
            }
            if !watching {
                return;
            }
        }
    }
}

impl Inner {
    /// Counts a new runner, busy from now; its slot in `busy`.
    fn claim(&mut self) -> usize {
        self.runners += 1;
        let now = Some(Instant::now());
        match self.busy.iter().position(Option::is_none) {
            Some(slot) => {
                self.busy[slot] = now;
                slot
            }
            None => {
                self.busy.push(now);
                self.busy.len() - 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Every runner held up by a call that blocks: a quick call queued behind them still runs.
    #[test]
    fn calls_held_up_do_not_hold_up_the_queue() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_time()
            .build()
            .unwrap();
        let pool = SyncPool::new(runtime.handle().clone());
        let gate = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        for _ in 0..pool.steady * 2 {
            let gate = Arc::clone(&gate);
            pool.run(move || {
                let (open, opened) = &*gate;
                let mut open = open.lock().unwrap();
                while !*open {
                    open = opened.wait(open).unwrap();
                }
            });
        }
        let (done, quick) = mpsc::channel();
        pool.run(move || done.send(()).unwrap());
        let ran = quick.recv_timeout(Duration::from_secs(20));
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        assert!(ran.is_ok(), "the quick call waited for the blocked ones");
    }

    /// Runners that keep finishing calls are not held up: a queue of quick calls is worked off
    /// by the steady runners, without a thread per call.
    #[test]
    fn a_queue_of_quick_calls_gets_no_extra_runners() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_time()
            .build()
            .unwrap();
        let pool = SyncPool::new(runtime.handle().clone());
        let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (done, finished) = mpsc::channel();
        let calls = 2000;
        for _ in 0..calls {
            let (pool_ref, most, done) = (Arc::clone(&pool), Arc::clone(&most), done.clone());
            pool.run(move || {
                let runners = pool_ref.lock().runners;
                most.fetch_max(runners, std::sync::atomic::Ordering::Relaxed);
                // A quick call, but long enough that the queue outlasts `PATIENCE`.
                let start = Instant::now();
                while start.elapsed() < Duration::from_micros(20) {}
                done.send(()).unwrap();
            });
        }
        for _ in 0..calls {
            finished.recv_timeout(Duration::from_secs(20)).unwrap();
        }
        let most = most.load(std::sync::atomic::Ordering::Relaxed);
        // A runner preempted mid-call for a millisecond looks held up, and on a machine busy
        // with other work (a shared CI runner, a build beside the tests) that happens often:
        // more runners than cores, then. What must never happen is a runner per queued call,
        // as `spawn_blocking` alone gives: hundreds here. The bound is far from both.
        assert!(most <= calls / 20, "{most} runners for {calls} quick calls");
    }
}
