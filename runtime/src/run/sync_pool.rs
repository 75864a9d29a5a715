//! Where sync tools run: on threads of the pool's own, at most `cap` of them, and not one
//! thread per call.
//!
//! The threads are the pool's, not tokio's blocking threads: a sync tool that blocks for good
//! then holds one of the pool's threads, never one that `tokio::fs` or `spawn_blocking` needs,
//! so async tools, pings and the transports go on however many sync tools are stuck. At the
//! cap, calls wait in the queue for the first runner that comes free (each still counted under
//! the server's `max_in_flight`; one the client cancelled meanwhile runs with its
//! `Cancellation` fired, and is not answered).
//!
//! A few runners, one per core, take queued calls one after another while they stay busy
//! (`spawn_blocking` alone starts a thread whenever none is idle at that instant: 76 to 121
//! threads for a window of 64 pipelined quick calls in `bench/`). A runner whose call has run
//! for `PATIENCE` is held up by a slow tool, and a slow tool must not hold up other calls:
//! while calls that have waited `PATIENCE` are queued, runners start until as many as there
//! are cores are moving again, up to the cap. A queue that is long only because every runner
//! is busy with quick calls (a loaded server) gets no more threads: they would only compete for
//! the same cores. A runner with nothing to do waits `KEEP_ALIVE` for the next call, so that a
//! client calling one tool after another does not pay for a new thread each time.

use std::collections::VecDeque;
use std::num::NonZero;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a call may run before its runner counts as held up, and a queued call may wait
/// before a runner starts for it.
const PATIENCE: Duration = Duration::from_millis(1);

/// How long a runner with nothing to do waits for a call before its thread ends.
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// How many threads sync tools may hold at once unless the server says: half the 512 of
/// tokio's blocking pool, and far more than the cores a quick tool could use.
pub(crate) const DEFAULT_THREADS: usize = 256;

type Job = Box<dyn FnOnce() + Send>;

pub(crate) struct SyncPool {
    /// What runners enter, so that a sync tool may use tokio (`Handle::current`) as it could
    /// on a blocking thread; and where the watcher runs.
    runtime: tokio::runtime::Handle,
    /// Runners started without waiting; more start only for calls that waited `PATIENCE`.
    steady: usize,
    /// The most runners at once.
    cap: usize,
    inner: Mutex<Inner>,
    /// Wakes a runner waiting for a call.
    queued: Condvar,
}

#[derive(Default)]
struct Inner {
    queue: VecDeque<(Job, Instant)>,
    /// What each runner is doing, by slot.
    slots: Vec<Slot>,
    runners: usize,
    /// Runners waiting for a call.
    idle: usize,
    /// A watcher task is looking at the queue.
    watching: bool,
    /// The server is shutting down: runners end once the queue is empty.
    closed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// No runner has this slot.
    Free,
    /// Its runner waits for a call.
    Idle,
    /// Its runner has been running a call since then.
    Busy(Instant),
}

impl SyncPool {
    /// A pool of at most `cap` threads (at least one).
    pub(crate) fn new(runtime: tokio::runtime::Handle, cap: usize) -> Arc<SyncPool> {
        let cap = cap.max(1);
        let cores = std::thread::available_parallelism().map_or(2, NonZero::get);
        Arc::new(SyncPool {
            runtime,
            steady: cores.min(cap),
            cap,
            inner: Mutex::default(),
            queued: Condvar::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `job` for a runner: one waiting for a call, else a new one while fewer than
    /// `steady` run, else the first that comes free (or one the watcher starts).
    pub(crate) fn run(self: &Arc<Self>, job: impl FnOnce() + Send + 'static) {
        let mut inner = self.lock();
        inner.queue.push_back((Box::new(job), Instant::now()));
        if inner.idle >= inner.queue.len() {
            drop(inner);
            self.queued.notify_one();
            return;
        }
        if inner.runners < self.steady {
            let slot = inner.claim();
            drop(inner);
            self.start(slot);
            return;
        }
        if !inner.watching && inner.runners < self.cap {
            inner.watching = true;
            drop(inner);
            self.runtime.spawn(Arc::clone(self).watch());
        }
    }

    /// Ends the runners once the queue is empty, rather than after `KEEP_ALIVE`.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.queued.notify_all();
    }

    /// Starts a runner in `slot` on a thread of its own.
    fn start(self: &Arc<Self>, slot: usize) {
        let pool = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("toolwright-sync".to_owned())
            .spawn(move || pool.runner(slot));
        if let Err(error) = spawned {
            // The system refused a thread (a limit on processes, say): the runner goes to
            // tokio's blocking pool rather than leave queued calls without one.
            crate::diagnostics::error(format_args!(
                "no thread for a sync tool ({error}); running it on tokio's blocking pool"
            ));
            let pool = Arc::clone(self);
            self.runtime.spawn_blocking(move || pool.runner(slot));
        }
    }

    /// Runs queued calls until none comes for `KEEP_ALIVE`.
    fn runner(&self, slot: usize) {
        let _runtime = self.runtime.enter();
        let mut inner = self.lock();
        loop {
            if let Some((job, _)) = inner.queue.pop_front() {
                inner.slots[slot] = Slot::Busy(Instant::now());
                drop(inner);
                // A call catches its tool's panics; this keeps the runner counted right if
                // the runtime's own code ever panics.
                let _ = catch_unwind(AssertUnwindSafe(job));
                inner = self.lock();
                continue;
            }
            if inner.closed {
                break;
            }
            inner.slots[slot] = Slot::Idle;
            inner.idle += 1;
            let (guard, waited) = self
                .queued
                .wait_timeout_while(inner, KEEP_ALIVE, |i| i.queue.is_empty() && !i.closed)
                .unwrap_or_else(|e| e.into_inner());
            inner = guard;
            inner.idle -= 1;
            if waited.timed_out() {
                break;
            }
        }
        inner.slots[slot] = Slot::Free;
        inner.runners -= 1;
    }

    /// While calls are queued: when calls have waited `PATIENCE` and fewer runners than
    /// `steady` are moving (the others are held up by slow calls), starts runners for them,
    /// up to the cap. At the cap it stops: runners then take the queue as they come free.
    async fn watch(self: Arc<Self>) {
        loop {
            tokio::time::sleep(PATIENCE).await;
            let mut inner = self.lock();
            let held_up = inner
                .slots
                .iter()
                .filter(|slot| matches!(slot, Slot::Busy(started) if started.elapsed() >= PATIENCE))
                .count();
            let room = self
                .steady
                .saturating_sub(inner.runners - held_up)
                .min(self.cap - inner.runners);
            let waited = inner
                .queue
                .iter()
                .take_while(|(_, queued)| queued.elapsed() >= PATIENCE)
                .count();
            let wanted = room.min(waited.saturating_sub(inner.idle));
            let slots: Vec<usize> = (0..wanted).map(|_| inner.claim()).collect();
            if inner.queue.is_empty() || inner.runners >= self.cap || inner.closed {
                inner.watching = false;
            }
            let watching = inner.watching;
            drop(inner);
            for slot in slots {
                self.start(slot);
            }
            if !watching {
                return;
            }
        }
    }
}

impl Inner {
    /// Counts a new runner, busy from now; its slot.
    fn claim(&mut self) -> usize {
        self.runners += 1;
        let now = Slot::Busy(Instant::now());
        match self.slots.iter().position(|slot| *slot == Slot::Free) {
            Some(slot) => {
                self.slots[slot] = now;
                slot
            }
            None => {
                self.slots.push(now);
                self.slots.len() - 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_time()
            .build()
            .unwrap()
    }

    /// A gate jobs block on until the test opens it.
    #[derive(Clone, Default)]
    struct Gate(Arc<(Mutex<bool>, Condvar)>);

    impl Gate {
        fn wait(&self) {
            let (open, opened) = &*self.0;
            let mut open = open.lock().unwrap();
            while !*open {
                open = opened.wait(open).unwrap();
            }
        }

        fn open(&self) {
            *self.0.0.lock().unwrap() = true;
            self.0.1.notify_all();
        }
    }

    /// Every runner held up by a call that blocks: a quick call queued behind them still runs.
    #[test]
    fn calls_held_up_do_not_hold_up_the_queue() {
        let runtime = runtime();
        let pool = SyncPool::new(runtime.handle().clone(), DEFAULT_THREADS);
        let gate = Gate::default();
        for _ in 0..pool.steady * 2 {
            let gate = gate.clone();
            pool.run(move || gate.wait());
        }
        let (done, quick) = mpsc::channel();
        pool.run(move || done.send(()).unwrap());
        let ran = quick.recv_timeout(Duration::from_secs(20));
        gate.open();
        assert!(ran.is_ok(), "the quick call waited for the blocked ones");
    }

    /// Calls stuck on every runner the cap allows: the next ones wait for a runner rather than
    /// start a thread, tokio's blocking pool is untouched, and the queue runs once they end.
    #[test]
    fn stuck_calls_hold_no_more_threads_than_the_cap_and_none_of_tokios() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .max_blocking_threads(1)
            .enable_time()
            .build()
            .unwrap();
        let cap = 3;
        let pool = SyncPool::new(runtime.handle().clone(), cap);
        let gate = Gate::default();
        let (running, started) = mpsc::channel();
        let (done, finished) = mpsc::channel();
        for _ in 0..cap * 3 {
            let (gate, running, done) = (gate.clone(), running.clone(), done.clone());
            pool.run(move || {
                running.send(()).unwrap();
                gate.wait();
                done.send(()).unwrap();
            });
        }
        for _ in 0..cap {
            started.recv_timeout(Duration::from_secs(20)).unwrap();
        }
        // Long enough for the watcher to start runners, if it were to.
        std::thread::sleep(Duration::from_millis(50));
        assert!(started.try_recv().is_err(), "a call ran beyond the cap");
        assert_eq!(pool.lock().runners, cap);
        // The one blocking thread of this runtime is free for `spawn_blocking`.
        let blocking = runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(20), tokio::task::spawn_blocking(|| 42)).await
        });
        assert_eq!(blocking.ok().and_then(Result::ok), Some(42));
        gate.open();
        for _ in 0..cap * 3 {
            finished.recv_timeout(Duration::from_secs(20)).unwrap();
        }
        assert!(pool.lock().runners <= cap);
    }

    /// A sync tool may reach tokio from its runner, as it could from a blocking thread.
    #[test]
    fn a_runner_is_inside_the_runtime() {
        let runtime = runtime();
        let pool = SyncPool::new(runtime.handle().clone(), DEFAULT_THREADS);
        let (done, inside) = mpsc::channel();
        pool.run(move || {
            let handle = tokio::runtime::Handle::try_current();
            done.send(handle.is_ok()).unwrap();
        });
        assert_eq!(inside.recv_timeout(Duration::from_secs(20)), Ok(true));
    }

    /// One call after another reuses the runner that waits for it.
    #[test]
    fn calls_one_after_another_reuse_a_runner() {
        let runtime = runtime();
        let pool = SyncPool::new(runtime.handle().clone(), DEFAULT_THREADS);
        let (done, ran) = mpsc::channel();
        let mut threads = Vec::new();
        for _ in 0..20 {
            let done = done.clone();
            pool.run(move || done.send(std::thread::current().id()).unwrap());
            threads.push(ran.recv_timeout(Duration::from_secs(20)).unwrap());
            // The runner is waiting for a call again before the next one comes.
            while pool.lock().idle == 0 {
                std::thread::yield_now();
            }
        }
        threads.dedup();
        assert_eq!(threads.len(), 1, "{threads:?}");
        pool.close();
        while pool.lock().runners > 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Runners that keep finishing calls are not held up: a queue of quick calls is worked off
    /// by the steady runners, without a thread per call.
    #[test]
    fn a_queue_of_quick_calls_gets_no_extra_runners() {
        let runtime = runtime();
        let pool = SyncPool::new(runtime.handle().clone(), DEFAULT_THREADS);
        let most = Arc::new(AtomicUsize::new(0));
        let (done, finished) = mpsc::channel();
        let calls = 2000;
        for _ in 0..calls {
            let (pool_ref, most, done) = (Arc::clone(&pool), Arc::clone(&most), done.clone());
            pool.run(move || {
                let runners = pool_ref.lock().runners;
                most.fetch_max(runners, Ordering::Relaxed);
                // A quick call, but long enough that the queue outlasts `PATIENCE`.
                let start = Instant::now();
                while start.elapsed() < Duration::from_micros(20) {}
                done.send(()).unwrap();
            });
        }
        for _ in 0..calls {
            finished.recv_timeout(Duration::from_secs(20)).unwrap();
        }
        let most = most.load(Ordering::Relaxed);
        // A runner preempted mid-call for a millisecond looks held up, and on a machine busy
        // with other work (a shared CI runner, a build beside the tests) that happens often:
        // more runners than cores, then. What must never happen is a runner per queued call,
        // as `spawn_blocking` alone gives: hundreds here. The bound is far from both.
        assert!(most <= calls / 20, "{most} runners for {calls} quick calls");
    }
}
