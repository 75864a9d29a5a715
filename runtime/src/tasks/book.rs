//! The server's tasks, kept in its [`TaskStore`]: created durably, read by their owner only,
//! and changed by compare and swap, so that replicas changing one task at once (the one
//! running it, another answering `tasks/cancel`) never lose a change.

use std::sync::Arc;
use std::time::Duration;

use crate::tasks::record::{TaskRecord, now_ms};
use crate::tasks::store::{StoreError, TaskStore, Watch};

/// How often a change is retried when another replica changed the task meanwhile, before the
/// store is deemed too contended to go on.
const TRIES: usize = 32;

/// The server's tasks and their settings.
pub(crate) struct TaskBook {
    pub(crate) store: Arc<dyn TaskStore>,
    /// How long a task is kept, unless its tool says.
    pub(crate) ttl: Duration,
    /// How often a client should poll.
    pub(crate) poll_interval: Duration,
    /// How long a replica's word that it runs a task lasts; it renews it at a third of that.
    pub(crate) lease: Duration,
}

/// Why a client's request about a task got nowhere.
#[derive(Debug)]
pub(crate) enum TaskError {
    /// No such task for this caller: never created, expired, or someone else's (the same
    /// answer for all three, so an id reveals nothing).
    Unknown,
    Store(StoreError),
}

impl From<StoreError> for TaskError {
    fn from(error: StoreError) -> TaskError {
        TaskError::Store(error)
    }
}

fn parse(text: &str) -> Result<TaskRecord, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::new(format!("a stored task is not one this server wrote: {e}")))
}

fn text(task: &TaskRecord) -> String {
    serde_json::to_string(task).expect("a task serializes")
}

impl TaskBook {
    pub(crate) fn new(store: Arc<dyn TaskStore>) -> TaskBook {
        TaskBook {
            store,
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_millis(500),
            lease: Duration::from_secs(30),
        }
    }

    /// Stores a new task; once this returns, every replica finds it.
    pub(crate) async fn create(&self, task: &TaskRecord) -> Result<(), StoreError> {
        let ttl = Duration::from_millis(task.ttl_ms);
        match self.store.insert(&task.id, text(task), ttl).await? {
            true => Ok(()),
            false => Err(StoreError::new("a new task's id is taken")),
        }
    }

    /// The task `id`, if `owner` owns it; one whose replica stopped vouching for it is failed
    /// first.
    pub(crate) async fn get(&self, id: &str, owner: &str) -> Result<TaskRecord, TaskError> {
        let text = self.store.get(id).await?.ok_or(TaskError::Unknown)?;
        let task = parse(&text)?;
        if task.owner != owner {
            return Err(TaskError::Unknown);
        }
        if !task.lapsed(now_ms()) {
            return Ok(task);
        }
        self.change(id, owner, |task, now| task.lapse(now)).await
    }

    /// Changes the task `id`, if `owner` owns it, with `change` (which says whether it changed
    /// anything), and wakes its watchers when it did; returns the task as it now is.
    pub(crate) async fn change(
        &self,
        id: &str,
        owner: &str,
        mut change: impl FnMut(&mut TaskRecord, u64) -> bool + Send,
    ) -> Result<TaskRecord, TaskError> {
        for _ in 0..TRIES {
            let current = self.store.get(id).await?.ok_or(TaskError::Unknown)?;
            let mut task = parse(&current)?;
            if task.owner != owner {
                return Err(TaskError::Unknown);
            }
            if !change(&mut task, now_ms()) {
                return Ok(task);
            }
            if self.store.replace(id, &current, text(&task)).await? {
                // The change is made: a wake lost here only delays the replica running the
                // task until it next reads it.
                if let Err(error) = self.store.notify(id).await {
                    crate::diagnostics::error(format_args!("task {id}: {error}"));
                }
                return Ok(task);
            }
        }
        Err(StoreError::new(format!("task {id} kept changing under {TRIES} attempts")).into())
    }

    /// Watches the task `id` for changes made elsewhere.
    pub(crate) async fn watch(&self, id: &str) -> Result<Watch, StoreError> {
        self.store.watch(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::memory::MemoryTaskStore;
    use crate::tasks::record::Status;
    use crate::tasks::record::tests::task;
    use crate::tasks::store::StoreFuture;

    fn book() -> TaskBook {
        TaskBook::new(Arc::new(MemoryTaskStore::new()))
    }

    fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn a_task_is_its_owners_alone() {
        block_on(async {
            let book = book();
            let t = task(now_ms());
            book.create(&t).await.unwrap();
            assert_eq!(book.get("t", "o").await.unwrap(), t);
            assert!(matches!(book.get("t", "x").await, Err(TaskError::Unknown)));
            assert!(matches!(book.get("u", "o").await, Err(TaskError::Unknown)));
            let cancel = book.change("t", "x", |t, now| t.cancel(now)).await;
            assert!(matches!(cancel, Err(TaskError::Unknown)));
            assert_eq!(book.get("t", "o").await.unwrap().status, Status::Working);
            assert!(book.create(&t).await.is_err(), "an id is never reused");
        });
    }

    #[test]
    fn a_task_whose_lease_lapsed_is_failed_when_read() {
        block_on(async {
            let book = book();
            let mut t = task(now_ms());
            t.lease_until = 1;
            book.create(&t).await.unwrap();
            let read = book.get("t", "o").await.unwrap();
            assert_eq!(read.status, Status::Failed);
            assert_eq!(book.get("t", "o").await.unwrap(), read, "and stays failed");
        });
    }

    #[test]
    fn concurrent_changes_are_all_kept() {
        block_on(async {
            let book = Arc::new(book());
            let t = task(now_ms());
            book.create(&t).await.unwrap();
            let asks = (0..20).map(|i| {
                let book = Arc::clone(&book);
                tokio::spawn(async move {
                    let key = format!("k{i}");
                    book.change("t", "o", |t, now| t.ask(&key, serde_json::json!({}), now))
                        .await
                        .unwrap();
                })
            });
            for ask in asks.collect::<Vec<_>>() {
                ask.await.unwrap();
            }
            assert_eq!(book.get("t", "o").await.unwrap().input_requests.len(), 20);
        });
    }

    /// A store whose first swap loses, as when another replica changed the task meanwhile.
    struct Contended {
        inner: MemoryTaskStore,
        lost: std::sync::atomic::AtomicBool,
    }

    impl TaskStore for Contended {
        fn insert(&self, id: &str, value: String, ttl: Duration) -> StoreFuture<'_, bool> {
            self.inner.insert(id, value, ttl)
        }
        fn get(&self, id: &str) -> StoreFuture<'_, Option<String>> {
            self.inner.get(id)
        }
        fn replace(&self, id: &str, current: &str, value: String) -> StoreFuture<'_, bool> {
            match self.lost.swap(true, std::sync::atomic::Ordering::SeqCst) {
                false => Box::pin(std::future::ready(Ok(false))),
                true => self.inner.replace(id, current, value),
            }
        }
        fn notify(&self, id: &str) -> StoreFuture<'_, ()> {
            self.inner.notify(id)
        }
        fn watch(&self, id: &str) -> StoreFuture<'_, crate::tasks::store::Watch> {
            self.inner.watch(id)
        }
    }

    #[test]
    fn a_change_that_lost_the_swap_is_made_again() {
        block_on(async {
            let store = Contended {
                inner: MemoryTaskStore::new(),
                lost: Default::default(),
            };
            let book = TaskBook::new(Arc::new(store));
            book.create(&task(now_ms())).await.unwrap();
            let ending =
                crate::tasks::record::Ending::Completed(serde_json::json!({"content": []}));
            let mut tries = 0;
            let done = book
                .change("t", "o", |task, now| {
                    tries += 1;
                    task.finish(ending.clone(), now)
                })
                .await
                .unwrap();
            assert_eq!((tries, done.status), (2, Status::Completed));
            assert_eq!(book.get("t", "o").await.unwrap().status, Status::Completed);
        });
    }
}
