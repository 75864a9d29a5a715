//! [`MemoryTaskStore`]: tasks kept in this process, the default. They last as long as the
//! process (or their time to live); replicas of a server do not share them.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::tasks::store::{StoreError, StoreFuture, TaskStore, Waker, Watch};

/// Expired tasks are swept out after this many insertions, so memory follows the tasks alive.
const SWEEP_EVERY: usize = 256;

/// Tasks kept in this process: the store a server uses unless it is given another.
#[derive(Default)]
pub struct MemoryTaskStore {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    tasks: HashMap<String, Entry>,
    wakers: HashMap<String, Vec<Waker>>,
    inserted: usize,
}

struct Entry {
    value: String,
    expires: Instant,
}

impl MemoryTaskStore {
    /// An empty store.
    pub fn new() -> MemoryTaskStore {
        MemoryTaskStore::default()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many tasks it holds, expired ones not yet swept included.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.state().tasks.len()
    }
}

impl State {
    fn live(&self, id: &str, now: Instant) -> Option<&Entry> {
        self.tasks.get(id).filter(|entry| entry.expires > now)
    }

    /// Forgets the wakers whose watch is gone, and the ids nobody watches any more.
    fn forget_unwatched(&mut self) {
        self.wakers.retain(|_, wakers| {
            wakers.retain(|waker| !waker.is_unwatched());
            !wakers.is_empty()
        });
    }
}

fn ready<T: Send + 'static>(value: T) -> StoreFuture<'static, T> {
    Box::pin(std::future::ready(Ok::<T, StoreError>(value)))
}

impl TaskStore for MemoryTaskStore {
    fn insert(&self, id: &str, value: String, ttl: Duration) -> StoreFuture<'_, bool> {
        let now = Instant::now();
        let mut state = self.state();
        if state.live(id, now).is_some() {
            return ready(false);
        }
        state.inserted += 1;
        if state.inserted.is_multiple_of(SWEEP_EVERY) {
            state.tasks.retain(|_, entry| entry.expires > now);
            state.forget_unwatched();
        }
        let expires = now
            .checked_add(ttl)
            .unwrap_or(now + Duration::from_secs(1 << 40));
        state.tasks.insert(id.to_owned(), Entry { value, expires });
        ready(true)
    }

    fn get(&self, id: &str) -> StoreFuture<'_, Option<String>> {
        let state = self.state();
        ready(state.live(id, Instant::now()).map(|e| e.value.clone()))
    }

    fn replace(&self, id: &str, current: &str, value: String) -> StoreFuture<'_, bool> {
        let now = Instant::now();
        let mut state = self.state();
        let replaced = match state.tasks.get_mut(id) {
            Some(entry) if entry.expires > now && entry.value == current => {
                entry.value = value;
                true
            }
            _ => false,
        };
        ready(replaced)
    }

    fn notify(&self, id: &str) -> StoreFuture<'_, ()> {
        let mut state = self.state();
        if let Some(wakers) = state.wakers.get_mut(id) {
            wakers.retain(|waker| !waker.is_unwatched());
            wakers.iter().for_each(Waker::wake);
            if wakers.is_empty() {
                state.wakers.remove(id);
            }
        }
        ready(())
    }

    fn watch(&self, id: &str) -> StoreFuture<'_, Watch> {
        let (waker, watch) = Watch::new();
        let mut state = self.state();
        // Watches of tasks that ended here are forgotten as others come.
        if state.wakers.len() >= SWEEP_EVERY {
            state.forget_unwatched();
        }
        let wakers = state.wakers.entry(id.to_owned()).or_default();
        wakers.retain(|waker| !waker.is_unwatched());
        wakers.push(waker);
        ready(watch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now<T>(future: StoreFuture<'_, T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
            .unwrap()
    }

    #[test]
    fn values_are_replaced_only_from_what_was_read() {
        let store = MemoryTaskStore::new();
        let hour = Duration::from_secs(3600);
        assert!(now(store.insert("a", "1".into(), hour)));
        assert!(
            !now(store.insert("a", "2".into(), hour)),
            "an id is taken once"
        );
        assert!(
            !now(store.replace("a", "0", "3".into())),
            "a stale read loses"
        );
        assert!(now(store.replace("a", "1", "3".into())));
        assert_eq!(now(store.get("a")).as_deref(), Some("3"));
        assert!(
            !now(store.replace("b", "", "x".into())),
            "nothing to replace"
        );
    }

    #[test]
    fn expired_values_are_gone_and_swept() {
        let store = MemoryTaskStore::new();
        assert!(now(store.insert("old", "1".into(), Duration::ZERO)));
        assert_eq!(now(store.get("old")), None);
        assert!(!now(store.replace("old", "1", "2".into())));
        assert!(now(store.insert(
            "old",
            "again".into(),
            Duration::from_secs(60)
        )));
        for i in 0..SWEEP_EVERY {
            now(store.insert(&format!("t{i}"), String::new(), Duration::ZERO));
        }
        assert!(store.len() < SWEEP_EVERY, "expired tasks are swept out");
        assert_eq!(now(store.get("old")).as_deref(), Some("again"));
    }

    #[test]
    fn a_watch_wakes_after_a_notify_of_its_id() {
        let store = MemoryTaskStore::new();
        let mut watch = now(store.watch("a"));
        now(store.notify("b"));
        now(store.notify("a"));
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(async {
                tokio::time::timeout(Duration::from_secs(5), watch.woken())
                    .await
                    .expect("woken");
            });
    }
}
