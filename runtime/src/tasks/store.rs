//! [`TaskStore`]: where tasks are kept, as a small key-value contract any shared store can
//! meet, so that every replica of a server answers for every task.
//!
//! A store keeps opaque JSON texts under task ids, each for its time to live; it replaces one
//! only if it still is what the replacer read (compare and swap), which is all the server needs
//! to change a task safely from several replicas at once; and it tells the replica running a
//! task when someone else changed it (an answer, a cancellation), so that the replica need not
//! poll. What a task is, and how it changes, is the server's: a store never reads the texts.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// The future of one store operation.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where tasks are kept: in this process ([`MemoryTaskStore`](crate::MemoryTaskStore), the
/// default), or in a store replicas share (`RedisTaskStore`, feature `redis`).
///
/// Values are JSON texts the server writes and reads; keys are task ids (128 random bits).
/// An operation that completes has happened: a task inserted is found by the next `get` on any
/// replica, which is what lets the server answer `tools/call` with a task only once the task
/// exists.
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps `value` under `id` for `ttl`; `false` (and nothing written) if `id` is taken.
    fn insert(&self, id: &str, value: String, ttl: Duration) -> StoreFuture<'_, bool>;

    /// The value under `id`, unless there is none or it expired.
    fn get(&self, id: &str) -> StoreFuture<'_, Option<String>>;

    /// Replaces the value under `id` with `value` if it still is `current`, keeping its
    /// expiry; `false` if it changed meanwhile, expired or was never there.
    fn replace(&self, id: &str, current: &str, value: String) -> StoreFuture<'_, bool>;

    /// Wakes every [`Watch`] of `id`, on any replica.
    fn notify(&self, id: &str) -> StoreFuture<'_, ()>;

    /// A [`Watch`] of `id`: it wakes after each [`notify`](TaskStore::notify) of `id` made once
    /// this future has completed.
    fn watch(&self, id: &str) -> StoreFuture<'_, Watch>;
}

/// Wakes when a task was changed by someone else: the replica running it learns of an answer
/// or a cancellation. A wake says only "read it again"; a watcher also reads the task now and
/// then, so a wake lost on the way delays, and loses, nothing.
pub struct Watch(tokio::sync::watch::Receiver<()>);

/// The other end of a [`Watch`]: what a store keeps to wake it.
#[derive(Clone)]
pub struct Waker(tokio::sync::watch::Sender<()>);

impl Watch {
    /// A watch and its waker.
    pub fn new() -> (Waker, Watch) {
        let (sender, receiver) = tokio::sync::watch::channel(());
        (Waker(sender), Watch(receiver))
    }

    /// Completes at the next wake since the last one this watch saw (at once if one came
    /// meanwhile); never, once its waker is gone.
    pub async fn woken(&mut self) {
        if self.0.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

impl Waker {
    /// Wakes the watch.
    pub fn wake(&self) {
        self.0.send_replace(());
    }

    /// Whether its watch is gone (the task it watched finished on this replica), so that a
    /// store can forget the waker.
    pub fn is_unwatched(&self) -> bool {
        self.0.is_closed()
    }
}

/// A store operation that failed: the store is unreachable, or refused the operation.
#[derive(Debug)]
pub struct StoreError(Box<dyn std::error::Error + Send + Sync>);

impl StoreError {
    /// An error of a store, for the client (its text is not shown: it is logged under a
    /// reference) and the server's log.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> StoreError {
        StoreError(error.into())
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the task store failed: {}", self.0)
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}
