//! The calls in flight: how many run across the server (the cap, and the wait at shutdown),
//! which ids a session has open (for cancellation, and to refuse an id already in use), and
//! which calls run on as tasks after their request was answered (for shutdown, and for the end
//! of the session that owns them).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use crate::call::record::CallRecord;
use crate::protocol::id::{IdHashing, IdKey};

/// The count of running calls. An atomic (two operations a call); the lock and condition
/// variable are used only at shutdown, to sleep until the count reaches zero.
#[derive(Default)]
pub(crate) struct InFlight {
    count: AtomicUsize,
    /// How many threads wait for the count to reach zero: a call that brings it there notifies
    /// only when one does (a notification is a system call, and on a lightly loaded server
    /// nearly every call is the last one in flight).
    waiting: Mutex<usize>,
    idle: Condvar,
}

/// Held by a call until its answer is delivered.
pub(crate) struct Admitted(Arc<InFlight>);

impl InFlight {
    /// Counts one more call, unless `limit` calls are already running.
    pub(crate) fn try_enter(self: &Arc<Self>, limit: usize) -> Option<Admitted> {
        self.count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()?;
        Some(Admitted(Arc::clone(self)))
    }

    /// Waits until no call is in flight or `timeout` passes; true when none is left.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        *waiting += 1;
        let idle = loop {
            if self.count.load(Ordering::Acquire) == 0 {
                break true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break false;
            }
            // A guard that drops the count to zero takes the lock before it looks for waiters,
            // so the wake-up cannot fall between the check above and this wait.
            waiting = self
                .idle
                .wait_timeout(waiting, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        };
        *waiting -= 1;
        idle
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            let waiting = self.0.waiting.lock().unwrap_or_else(|e| e.into_inner());
            if *waiting > 0 {
                self.0.idle.notify_all();
            }
        }
    }
}

/// The requests of one session that a client may cancel, by id.
#[derive(Default)]
pub(crate) struct OpenRequests(Mutex<Table>);

/// A request that stays open after it is handled.
enum Opened {
    /// A tool call.
    Call(Arc<CallRecord>),
    /// A `subscriptions/listen` stream.
    Stream,
}

/// The open requests by id: the first in a slot of its own, so that a session that has one at
/// a time (every 2026-07-28 request's, made for it alone) never allocates a table.
#[derive(Default)]
struct Table {
    first: Option<(IdKey, Opened)>,
    rest: HashMap<IdKey, Opened, IdHashing>,
}

impl Table {
    fn get(&self, key: &IdKey) -> Option<&Opened> {
        match &self.first {
            Some((first, opened)) if first == key => Some(opened),
            _ => self.rest.get(key),
        }
    }

    /// Adds an id not in the table.
    fn insert(&mut self, key: IdKey, opened: Opened) {
        match self.first {
            None => self.first = Some((key, opened)),
            Some(_) => {
                self.rest.insert(key, opened);
            }
        }
    }

    fn remove(&mut self, key: &IdKey) -> Option<Opened> {
        match &self.first {
            Some((first, _)) if first == key => self.first.take().map(|(_, opened)| opened),
            _ => self.rest.remove(key),
        }
    }

    fn values(&self) -> impl Iterator<Item = &Opened> {
        self.first
            .iter()
            .map(|(_, opened)| opened)
            .chain(self.rest.values())
    }
}

impl OpenRequests {
    fn table(&self) -> MutexGuard<'_, Table> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a call; `false` when its id is already in flight.
    pub(crate) fn insert(&self, record: &Arc<CallRecord>) -> bool {
        self.open(record.key.clone(), Opened::Call(Arc::clone(record)))
    }

    /// Registers a stream; `false` when its id is already in flight.
    pub(crate) fn insert_stream(&self, key: IdKey) -> bool {
        self.open(key, Opened::Stream)
    }

    fn open(&self, key: IdKey, opened: Opened) -> bool {
        let mut table = self.table();
        if table.get(&key).is_some() {
            return false;
        }
        table.insert(key, opened);
        true
    }

    /// Whether a request with this id is in flight.
    pub(crate) fn contains(&self, key: &IdKey) -> bool {
        self.table().get(key).is_some()
    }

    /// Frees the id of `record`'s call, answered; an id a cancelled call freed already, and
    /// a newer request took since, stays that request's.
    pub(crate) fn remove(&self, record: &CallRecord) {
        let mut table = self.table();
        if let Some(Opened::Call(open)) = table.get(&record.key)
            && std::ptr::eq(Arc::as_ptr(open), record)
        {
            table.remove(&record.key);
        }
    }

    /// Whether any request is in flight.
    #[allow(dead_code, reason = "asked by the HTTP transport alone")]
    pub(crate) fn is_empty(&self) -> bool {
        self.table().values().next().is_none()
    }

    /// Cancels the request with this id, if it is in flight; unknown ids are ignored, as the
    /// specification allows (the request may just have finished).
    pub(crate) fn cancel(&self, key: &IdKey) {
        let opened = self.table().remove(key);
        if let Some(Opened::Call(record)) = opened {
            record.gate.cancel();
        }
    }

    /// Fires the cancellation signal of every call in flight, without suppressing the answers
    /// of those that still finish: the session is ending.
    pub(crate) fn signal_all(&self) {
        for opened in self.table().values() {
            if let Opened::Call(record) = opened {
                record.gate.signal();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::record::tests::record;

    #[test]
    fn waiting_for_idle_wakes_when_the_last_call_ends() {
        let in_flight = Arc::new(InFlight::default());
        assert!(in_flight.wait_idle(Duration::ZERO), "nothing in flight");
        let (first, second) = (in_flight.try_enter(2), in_flight.try_enter(2));
        assert!(in_flight.try_enter(2).is_none(), "the cap");
        assert!(
            !in_flight.wait_idle(Duration::from_millis(10)),
            "two in flight"
        );
        drop(first);
        let waiter = std::thread::spawn({
            let in_flight = Arc::clone(&in_flight);
            move || in_flight.wait_idle(Duration::from_secs(30))
        });
        std::thread::sleep(Duration::from_millis(50));
        let started = Instant::now();
        drop(second);
        assert!(waiter.join().unwrap(), "woken by the last call's end");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(*in_flight.waiting.lock().unwrap(), 0);
    }

    #[test]
    fn an_id_is_in_flight_once() {
        let open = OpenRequests::default();
        let first = record(std::sync::mpsc::channel().0);
        assert!(open.insert(&first));
        assert!(!open.insert(&record(std::sync::mpsc::channel().0)));
        open.signal_all();
        assert!(first.gate.is_cancelled());
        let mut answered = false;
        assert!(
            first.gate.finish(|| answered = true),
            "a signalled call still answers"
        );
        assert!(answered);
    }

    #[test]
    fn ids_beyond_the_first_slot_are_kept_freed_and_cancelled_alike() {
        let open = OpenRequests::default();
        let records: Vec<_> = (0..3)
            .map(|n| {
                let mut record = record(std::sync::mpsc::channel().0);
                Arc::get_mut(&mut record).expect("only here").key = IdKey::Number(n);
                record
            })
            .collect();
        assert!(records.iter().all(|r| open.insert(r)));
        assert!(
            !open.insert(&records[2]),
            "an id beyond the first is in flight once"
        );
        open.remove(&records[0]);
        assert!(!open.contains(&IdKey::Number(0)));
        assert!(open.contains(&IdKey::Number(1)) && open.contains(&IdKey::Number(2)));
        assert!(open.insert(&records[0]), "the first slot is free again");
        open.cancel(&IdKey::Number(2));
        assert!(records[2].gate.is_cancelled());
        open.signal_all();
        assert!(records[1].gate.is_cancelled() && records[0].gate.is_cancelled());
        (0..2).for_each(|n| open.cancel(&IdKey::Number(n)));
        assert!(open.is_empty());
    }
}

/// The calls that became tasks and run in this process, by task id, with their owners: their
/// requests were answered, so no session holds them open, but the server's shutdown (and the
/// end of the session that owns one) must still reach their `Cancellation`.
#[derive(Default)]
pub(crate) struct RunningTasks(Mutex<HashMap<String, (String, Weak<CallRecord>)>>);

impl RunningTasks {
    fn map(&self) -> MutexGuard<'_, HashMap<String, (String, Weak<CallRecord>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The call of `record` runs as the task `id` of `owner`.
    pub(crate) fn insert(&self, id: &str, owner: &str, record: &Arc<CallRecord>) {
        let entry = (owner.to_owned(), Arc::downgrade(record));
        self.map().insert(id.to_owned(), entry);
    }

    /// The task `id` ended.
    pub(crate) fn remove(&self, id: &str) {
        self.map().remove(id);
    }

    /// Fires the cancellation of every task running here (`None`), or of `owner`'s.
    pub(crate) fn signal(&self, owner: Option<&str>) {
        let records: Vec<Arc<CallRecord>> = self
            .map()
            .values()
            .filter(|(of, _)| owner.is_none_or(|owner| owner == of))
            .filter_map(|(_, record)| record.upgrade())
            .collect();
        records.iter().for_each(|record| record.gate.signal());
    }
}
