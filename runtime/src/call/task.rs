//! A call that became a task: the link between the running tool and its task in the store.
//!
//! A call of a tool that may run as a task, for a client that can follow one, carries a
//! `TaskSlot` (in its record): when the call becomes a task ([`Plan`]), and, once it has, its
//! [`TaskRun`]. Becoming one is the server's: it stores the task and answers the request with
//! it. From then on the tool runs on with its request answered: what it asks the client
//! becomes the task's `inputRequests`, answered by `tasks/update` (on any replica); a
//! `tasks/cancel` fires its `Cancellation`; and its output becomes the task's result. One
//! watcher per running task follows the stored task (woken by the store when someone changes
//! it, and reading it now and then anyway) and renews the replica's lease on it.

use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;

use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

use crate::call::gate::Gate;
use crate::tasks::book::{TaskBook, TaskError};
use crate::tasks::record::{Ending, millis};
use crate::tasks::store::Watch;
use crate::tools::ask_error::AskError;

/// A future the server's side of a task returns.
pub(crate) type TaskFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// When a call becomes a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Before its tool runs.
    Start,
    /// When the tool says so ([`TaskStart`](crate::TaskStart)); until then it answers (or asks)
    /// as any call.
    ByTool,
}

/// A task this replica runs.
pub(crate) struct TaskRun {
    pub(crate) id: String,
    owner: String,
    book: Arc<TaskBook>,
    /// The runtime its store changes run on (a sync tool's output arrives on a plain thread).
    runtime: tokio::runtime::Handle,
    asks: Mutex<Asks>,
    /// The watch of the stored task, made before the request was answered (so that no change
    /// after it is missed), until the watcher takes it.
    watch: Mutex<Option<Watch>>,
    /// The latest progress note not stored yet, and whether a writer is storing notes.
    note: Mutex<(Option<String>, bool)>,
    /// Held by each change this run makes to its task, which takes the note not stored yet
    /// with it: a note and the ask made after it reach the store together and in order, so
    /// that no poll sees a status beside an earlier stage's message.
    writing: tokio::sync::Mutex<()>,
    /// Stops the watcher when the task ends.
    over: Notify,
}

impl std::fmt::Debug for TaskRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskRun").field("id", &self.id).finish()
    }
}

/// What an ask of a task gets: the client's answer, or its refusal.
type Reply = Result<Value, AskError>;

/// The asks of a running task.
#[derive(Default)]
struct Asks {
    /// How many asks of each name so far (keys: `elicit`, then `elicit_2`...).
    counts: HashMap<String, u32>,
    /// Asks waiting for the client, by key.
    waiting: HashMap<String, oneshot::Sender<Reply>>,
}

impl TaskRun {
    /// The run of the stored task `id`, watched through `watch` (`None` when the store could
    /// not watch it: the watcher then reads it now and then only).
    pub(crate) fn new(
        id: String,
        owner: String,
        book: Arc<TaskBook>,
        watch: Option<Watch>,
    ) -> TaskRun {
        TaskRun {
            id,
            owner,
            book,
            runtime: tokio::runtime::Handle::current(),
            asks: Mutex::default(),
            watch: Mutex::new(watch),
            note: Mutex::default(),
            writing: tokio::sync::Mutex::new(()),
            over: Notify::new(),
        }
    }

    fn asks(&self) -> MutexGuard<'_, Asks> {
        self.asks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the client `method` with `params` as the task's input request named after `name`,
    /// and waits for the answer `tasks/update` brings (or the task's cancellation).
    pub(crate) async fn ask(
        &self,
        gate: &Gate,
        name: &str,
        method: &'static str,
        params: Value,
    ) -> Result<Value, AskError> {
        let (sender, answer) = oneshot::channel();
        let key = {
            let mut asks = self.asks();
            let count = asks.counts.entry(name.to_owned()).or_default();
            *count += 1;
            let key = match *count {
                1 => name.to_owned(),
                n => format!("{name}_{n}"),
            };
            asks.waiting.insert(key.clone(), sender);
            key
        };
        let request = json!({"method": method, "params": params});
        let asked = {
            let _writing = self.writing.lock().await;
            let note = self.take_note();
            self.book
                .change(&self.id, &self.owner, |task, now| {
                    let said = note.as_ref().is_some_and(|m| task.say(m.clone(), now));
                    task.ask(&key, request.clone(), now) || said
                })
                .await
        };
        match asked {
            Ok(task) if !task.status.is_terminal() => {}
            Ok(_) | Err(TaskError::Unknown) => return Err(AskError::Cancelled),
            Err(TaskError::Store(error)) => return Err(AskError::Invalid(error.to_string())),
        }
        match first(answer, gate.cancelled()).await {
            First::A(Ok(reply)) => reply,
            First::A(Err(_)) | First::B(()) => Err(AskError::Cancelled),
        }
    }

    /// Notes how far the task got, for the client's next `tasks/get`. One writer stores notes,
    /// the latest each time: a tool reporting fast does not race itself for the record.
    pub(crate) fn say(self: &Arc<Self>, message: String) {
        {
            let mut note = self.note.lock().unwrap_or_else(|e| e.into_inner());
            note.0 = Some(message);
            if note.1 {
                return;
            }
            note.1 = true;
        }
        let run = Arc::clone(self);
        self.runtime.spawn(async move {
            loop {
                let _writing = run.writing.lock().await;
                // Taken under the lock: an ask made meanwhile took the note with it.
                let next = {
                    let mut note = run.note.lock().unwrap_or_else(|e| e.into_inner());
                    let next = note.0.take();
                    note.1 = next.is_some();
                    next
                };
                let Some(message) = next else {
                    return;
                };
                let _ = run
                    .book
                    .change(&run.id, &run.owner, |task, now| {
                        task.say(message.clone(), now)
                    })
                    .await;
            }
        });
    }

    /// The note not stored yet, taken to be stored.
    fn take_note(&self) -> Option<String> {
        let mut note = self.note.lock().unwrap_or_else(|e| e.into_inner());
        note.0.take()
    }

    /// Ends the task with its call's output; `done` runs once it is stored.
    pub(crate) fn end(self: &Arc<Self>, ending: Ending, done: impl FnOnce() + Send + 'static) {
        let run = Arc::clone(self);
        self.runtime.spawn(async move {
            let stored = {
                let _writing = run.writing.lock().await;
                let note = run.take_note();
                run.book
                    .change(&run.id, &run.owner, |task, now| {
                        let said = note.as_ref().is_some_and(|m| task.say(m.clone(), now));
                        task.finish(ending.clone(), now) || said
                    })
                    .await
            };
            if let Err(TaskError::Store(error)) = stored {
                crate::diagnostics::error(format_args!(
                    "task {}: its result could not be stored: {error}",
                    run.id
                ));
            }
            run.over.notify_one();
            done();
        });
    }

    /// Follows the stored task while it runs here: hands the client's answers (and refusals)
    /// to the asks waiting for them, fires the call's cancellation when the task ended
    /// otherwise (cancelled, or failed when this replica's lease lapsed) or is gone (expired),
    /// and renews this replica's lease.
    pub(crate) async fn watch(self: Arc<Self>, cancel: impl Fn() + Send) {
        let lease = millis(self.book.lease);
        let every = self.book.lease / 3;
        let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner()).take();
        loop {
            let woken = async {
                match &mut watch {
                    Some(watch) => watch.woken().await,
                    None => std::future::pending().await,
                }
            };
            let tick = first(woken, tokio::time::sleep(every));
            if let First::B(()) = first(tick, self.over.notified()).await {
                return;
            }
            let read = self
                .book
                .change(&self.id, &self.owner, |task, now| {
                    // Renewed once a third of the lease has gone by.
                    let due = task.lease_until < now.saturating_add(lease.saturating_mul(2) / 3);
                    due && task.renew(now.saturating_add(lease))
                })
                .await;
            let task = match read {
                Ok(task) => task,
                Err(TaskError::Unknown) => {
                    cancel();
                    return;
                }
                Err(TaskError::Store(_)) => continue,
            };
            if task.status.is_terminal() {
                cancel();
            }
            let mut asks = self.asks();
            let replies = task.answers.into_iter().map(|(k, v)| (k, Ok(v)));
            let refusals = task.refused.into_iter().map(|(key, error)| {
                let refusal = AskError::Client {
                    code: error["code"].as_i64().unwrap_or_default(),
                    message: error["message"].as_str().unwrap_or_default().to_owned(),
                };
                (key, Err(refusal))
            });
            for (key, reply) in replies.chain(refusals) {
                if let Some(waiting) = asks.waiting.remove(&key) {
                    let _ = waiting.send(reply);
                }
            }
        }
    }
}

/// Which of two futures completed first, and with what.
enum First<A, B> {
    A(A),
    B(B),
}

/// Awaits `a` and `b` at once, until either completes.
async fn first<A: Future, B: Future>(a: A, b: B) -> First<A::Output, B::Output> {
    let (mut a, mut b) = (pin!(a), pin!(b));
    poll_fn(|cx| {
        if let Poll::Ready(value) = a.as_mut().poll(cx) {
            return Poll::Ready(First::A(value));
        }
        if let Poll::Ready(value) = b.as_mut().poll(cx) {
            return Poll::Ready(First::B(value));
        }
        Poll::Pending
    })
    .await
}
