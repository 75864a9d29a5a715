//! Whether a sync tool is quick enough to run on the async workers.
//!
//! Handing a call to the sync pool costs two thread wake-ups, about a third of an HTTP
//! request's CPU time when the tool itself takes microseconds. So a sync tool that has shown
//! itself quick runs on the worker that received the request instead. Quick means
//! what its thread did, not only how long it took by the clock (a loaded machine preempts
//! quick code for milliseconds): under `QUICK` of CPU time, and no wait (a voluntary context
//! switch: I/O, a sleep, a lock) unless the whole run was shorter than `QUICK_WAIT` (a lock
//! briefly contended). `TRUST` quick runs in a row earn a tool the workers; a run that is not
//! quick sends it back to the pool to earn them again. A run that held up its worker (used
//! `BLOCKING` of CPU, or waited and took `BLOCKING` in all) is a strike: `STRIKES` of them keep
//! the tool on the pool for good (a busy machine can stall quick code now and then, so one is
//! not proof; `FORGIVEN` quick runs in a row clear them). The pool stays the default. Only
//! Linux reports a thread's waits; elsewhere sync tools always run on the pool.
//!
//! Reading the thread's clock and waits takes two system calls, a tenth of a quick HTTP call's
//! CPU time. So a trusted tool with a clean record runs on a worker with the wall clock only:
//! a run shorter than `QUICK` by it is quick whatever the thread did. A longer one cannot be
//! told from a preempted quick run, so it is no strike: it has the tool watched, its worker
//! runs read, until `WATCH` quick runs in a row (the next run read tells a slow tool, which
//! then goes back to the pool); one that took `BLOCKING` or more, which held up its worker
//! whatever the reason, also sends the tool back to the pool at once. A watch is short: a
//! preempted run is common on a busy machine (one in some thousands of calls on a core shared
//! with other threads), and a watch as long as `FORGIVEN`, each beginning with a return to
//! the pool, kept the clock read on a quarter of all calls. A tool that is rarely slow can
//! then run slow on a worker unread, between watches; a slow run while it is watched is a
//! strike.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// CPU time under which a run does not hold up a worker's other tasks.
const QUICK: Duration = Duration::from_micros(100);
/// A run that waited is still quick when it took no longer than this in all.
const QUICK_WAIT: Duration = Duration::from_micros(200);
/// Quick runs in a row before a tool runs on the workers.
const TRUST: u32 = 16;
/// CPU time, or time in all for a run that waited, that holds up a worker's other tasks too
/// long.
const BLOCKING: Duration = Duration::from_millis(1);
/// Runs that held up a worker before a tool stays on the pool.
const STRIKES: u32 = 3;
/// Quick runs in a row that clear a tool's strikes.
const FORGIVEN: u32 = 4096;
/// Quick runs in a row, read, that end the watch a long unread run began.
const WATCH: u32 = 256;
/// The count of a tool that stays on the pool.
const NEVER: u32 = u32::MAX;

// A run shorter than `QUICK` by the wall clock is quick, and held up nothing, whatever its
// thread's clock and waits say (`Meter::stop` relies on it).
const _: () = assert!(QUICK.as_nanos() <= QUICK_WAIT.as_nanos());
const _: () = assert!(QUICK.as_nanos() <= BLOCKING.as_nanos());
const _: () = assert!(TRUST < WATCH && WATCH < FORGIVEN);

/// One sync tool's recent runs: quick runs in a row, and strikes.
#[derive(Default)]
pub(crate) struct Pace {
    runs: AtomicU32,
    strikes: AtomicU32,
    /// A worker run went unread and took longer than `QUICK`: its worker runs are read.
    watched: AtomicBool,
}

/// What a run cost its thread, measured by [`Meter`].
#[derive(Clone, Copy)]
pub(crate) struct Cost {
    cpu: Duration,
    waited: bool,
    wall: Duration,
    /// The thread's clock was not read: only `wall` is known, and it was `QUICK` or more.
    unread: bool,
}

impl Pace {
    /// Whether the tool may run on an async worker.
    pub(crate) fn is_quick(&self) -> bool {
        cfg!(target_os = "linux") && (TRUST..NEVER).contains(&self.runs.load(Ordering::Relaxed))
    }

    /// A meter for a run; `on_worker` when it runs on an async worker, where a tool with a
    /// clean record is timed by the wall clock only.
    pub(crate) fn meter(&self, on_worker: bool) -> Meter {
        let clean =
            !self.watched.load(Ordering::Relaxed) && self.strikes.load(Ordering::Relaxed) == 0;
        Meter::start(!(on_worker && clean))
    }

    /// Notes what a run cost; `on_worker` when it ran on an async worker.
    pub(crate) fn record(&self, cost: Cost, on_worker: bool) {
        if cost.unread {
            self.watched.store(true, Ordering::Relaxed);
            let held_up = cost.wall >= BLOCKING;
            let _ =
                self.runs
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |runs| match runs {
                        NEVER => None,
                        // Its next runs, read, say whether it is still quick.
                        _ if held_up => Some(0),
                        _ => Some(runs.min(TRUST)),
                    });
            return;
        }
        let quick = cost.cpu < QUICK && (!cost.waited || cost.wall < QUICK_WAIT);
        let held_up = on_worker && (cost.cpu >= BLOCKING || (cost.waited && cost.wall >= BLOCKING));
        if held_up && self.strikes.fetch_add(1, Ordering::Relaxed) + 1 >= STRIKES {
            self.runs.store(NEVER, Ordering::Relaxed);
            return;
        }
        let runs =
            self.runs
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |runs| match runs {
                    NEVER => None,
                    _ if !quick => Some(0),
                    _ => Some(runs.saturating_add(1).min(FORGIVEN)),
                });
        match runs {
            Ok(runs) if runs == WATCH - 1 => self.watched.store(false, Ordering::Relaxed),
            Ok(runs) if runs == FORGIVEN - 1 => self.strikes.store(0, Ordering::Relaxed),
            _ => {}
        }
    }
}

/// Measures what the calling thread spends from `start` to `stop`.
pub(crate) struct Meter {
    start: Start,
    started: Instant,
}

/// The thread's clock and waits at a meter's start.
enum Start {
    /// Not read: the wall clock alone times the run.
    Unread,
    Read(Usage),
    /// They cannot be read here.
    Unreadable,
}

impl Meter {
    /// A meter from now; `read`: the thread's clock too, not only the wall clock.
    pub(crate) fn start(read: bool) -> Meter {
        Meter {
            start: match read.then(usage) {
                None => Start::Unread,
                Some(Some(usage)) => Start::Read(usage),
                Some(None) => Start::Unreadable,
            },
            started: Instant::now(),
        }
    }

    /// What the thread spent since `start`; a long wait when it cannot be told.
    pub(crate) fn stop(self) -> Cost {
        let wall = self.started.elapsed();
        let cost = |cpu, waited, wall| Cost {
            cpu,
            waited,
            wall,
            unread: false,
        };
        match self.start {
            // Quick whatever the thread's own clock says (it cannot exceed the wall clock, and
            // a wait that short counts as none): not worth the two system calls that read it.
            Start::Read(_) | Start::Unread if wall < QUICK => cost(wall, false, wall),
            Start::Unread => Cost {
                unread: true,
                ..cost(wall, true, wall)
            },
            Start::Read(before) => match usage() {
                Some(after) => cost(
                    after.cpu.saturating_sub(before.cpu),
                    after.waits != before.waits,
                    wall,
                ),
                None => cost(Duration::MAX, true, Duration::MAX),
            },
            Start::Unreadable => cost(Duration::MAX, true, Duration::MAX),
        }
    }
}

/// The calling thread's CPU time and voluntary context switches so far.
#[derive(Clone, Copy)]
struct Usage {
    cpu: Duration,
    waits: i64,
}

#[cfg(target_os = "linux")]
// The thread's CPU clock and context switches come from libc (`getrusage`, `clock_gettime`);
// the SAFETY comment inside says why the two calls are sound.
#[allow(unsafe_code)]
fn usage() -> Option<Usage> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    let mut cpu = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both pointers are to locals of the types the calls write, valid for the whole
    // call, and the calls ask about the calling thread only; `rusage` is plain integers, so
    // its zeroed value is initialized whether or not `getrusage` wrote it (`assume_init`).
    // The CPU time comes from the thread's CPU clock, which is exact, not from `getrusage`,
    // whose times are sampled at the scheduler's tick.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr()) != 0
            || libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut cpu) != 0
        {
            return None;
        }
        usage.assume_init()
    };
    Some(Usage {
        cpu: Duration::new(
            cpu.tv_sec.max(0) as u64,
            cpu.tv_nsec.clamp(0, 999_999_999) as u32,
        ),
        waits: usage.ru_nvcsw,
    })
}

#[cfg(not(target_os = "linux"))]
fn usage() -> Option<Usage> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUICK_RUN: Cost = Cost {
        cpu: Duration::from_micros(5),
        waited: false,
        wall: Duration::from_micros(6),
        unread: false,
    };

    #[test]
    fn trust_is_earned_lost_and_lost_for_good() {
        let pace = Pace::default();
        for _ in 0..TRUST - 1 {
            pace.record(QUICK_RUN, false);
        }
        assert!(!pace.is_quick(), "one run short of trust");
        pace.record(QUICK_RUN, false);
        assert_eq!(pace.is_quick(), cfg!(target_os = "linux"));
        let contended = Cost {
            cpu: Duration::from_micros(5),
            waited: true,
            wall: Duration::from_micros(40),
            unread: false,
        };
        pace.record(contended, true);
        assert_eq!(
            pace.is_quick(),
            cfg!(target_os = "linux"),
            "a brief wait is quick"
        );
        let slow = Cost {
            cpu: Duration::from_micros(300),
            waited: false,
            wall: Duration::from_micros(300),
            unread: false,
        };
        pace.record(slow, true);
        assert!(!pace.is_quick(), "a slower run sends it back to the pool");
        (0..TRUST).for_each(|_| pace.record(QUICK_RUN, false));
        let slept = Cost {
            cpu: Duration::from_micros(5),
            waited: true,
            wall: Duration::from_millis(3),
            unread: false,
        };
        pace.record(slept, true);
        assert!(
            !pace.is_quick(),
            "a run that held up its worker sends it back to the pool"
        );
        (0..TRUST).for_each(|_| pace.record(QUICK_RUN, false));
        assert_eq!(
            pace.is_quick(),
            cfg!(target_os = "linux"),
            "one strike is not proof"
        );
        for _ in 1..STRIKES {
            pace.record(slept, true);
            (0..TRUST).for_each(|_| pace.record(QUICK_RUN, false));
        }
        assert!(
            !pace.is_quick(),
            "{STRIKES} strikes keep it on the pool for good"
        );

        let forgiven = Pace::default();
        for _ in 0..STRIKES - 1 {
            forgiven.record(slept, true);
        }
        (0..FORGIVEN).for_each(|_| forgiven.record(QUICK_RUN, false));
        forgiven.record(slept, true);
        (0..TRUST).for_each(|_| forgiven.record(QUICK_RUN, false));
        assert_eq!(
            forgiven.is_quick(),
            cfg!(target_os = "linux"),
            "strikes are forgiven"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_meter_tells_a_wait_from_work() {
        let meter = Meter::start(true);
        std::thread::sleep(Duration::from_millis(2));
        assert!(meter.stop().waited, "a sleep is a wait");
        let meter = Meter::start(true);
        let sum: u64 = (0..1000u64).map(std::hint::black_box).sum();
        let cost = meter.stop();
        assert_eq!(sum, 499_500);
        assert!(cost.cpu < Duration::from_millis(50));
        let pace = Pace::default();
        for _ in 0..TRUST {
            pace.record(Meter::start(true).stop(), true);
        }
        assert!(pace.is_quick(), "runs of nothing are quick");
    }

    #[test]
    fn a_clean_worker_run_is_timed_by_the_wall_clock_and_a_long_one_is_watched() {
        let pace = Pace::default();
        (0..TRUST).for_each(|_| pace.record(QUICK_RUN, false));
        assert!(
            matches!(pace.meter(true).start, Start::Unread),
            "a clean record: wall clock only"
        );
        assert!(
            !matches!(pace.meter(false).start, Start::Unread),
            "the pool's runs are read"
        );
        let quick = Meter::start(false).stop();
        assert!(!quick.unread, "a run shorter than QUICK is quick");
        pace.record(quick, true);
        assert_eq!(pace.is_quick(), cfg!(target_os = "linux"));
        let meter = Meter::start(false);
        std::thread::sleep(QUICK * 2);
        let long = meter.stop();
        assert!(long.unread);
        pace.record(long, true);
        assert_eq!(
            pace.is_quick(),
            cfg!(target_os = "linux"),
            "still trusted: its next runs, read, will tell"
        );
        assert!(
            !matches!(pace.meter(true).start, Start::Unread),
            "watched: its worker runs are read"
        );
        let meter = Meter::start(false);
        std::thread::sleep(BLOCKING);
        let blocking = meter.stop();
        assert!(blocking.unread);
        pace.record(blocking, true);
        assert!(!pace.is_quick(), "it held up its worker: back to the pool");
        assert_eq!(pace.strikes.load(Ordering::Relaxed), 0, "no strike");
        (0..TRUST).for_each(|_| pace.record(QUICK_RUN, false));
        assert_eq!(
            pace.is_quick(),
            cfg!(target_os = "linux"),
            "trust earned again"
        );
        assert!(
            !matches!(pace.meter(true).start, Start::Unread),
            "watched: its worker runs are read"
        );
        (TRUST..WATCH - 1).for_each(|_| pace.record(QUICK_RUN, true));
        assert!(
            !matches!(pace.meter(true).start, Start::Unread),
            "still watched"
        );
        pace.record(QUICK_RUN, true);
        assert!(
            matches!(pace.meter(true).start, Start::Unread),
            "the watch is over: the wall clock again"
        );
    }
}
