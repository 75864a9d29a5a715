//! The client's roots as a handshake session knows them: asked for once, by the first call
//! that reads them, and kept until the client says they changed
//! (`notifications/roots/list_changed`). A server confined to its client's roots would
//! otherwise ask on every call, one more round trip each.
//!
//! One call asks at a time: calls that read the roots while it waits wait for its answer
//! rather than ask again (each still gives up when it is cancelled). An answer that arrives
//! after the client announced a change is that call's, but not kept.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;

use crate::call::to_client::root::Root;
use crate::tools::ask_error::AskError;

#[derive(Default)]
pub(crate) struct KnownRoots {
    /// Held while a call asks.
    known: tokio::sync::Mutex<Known>,
    /// How many changes the client has announced.
    changes: AtomicU64,
    /// How many asks have ended with an answer or a failure.
    ended: AtomicU64,
}

#[derive(Default)]
struct Known {
    /// The roots, and the change they were asked for after.
    roots: Option<(u64, Arc<[Root]>)>,
    /// How the last ask failed, and its number among those that ended: the calls that waited
    /// for it fail the same way, rather than ask again one after another (each for as long as
    /// the client may take). An ask given up because its own call was cancelled is not one.
    failed: Option<(u64, AskError)>,
}

impl KnownRoots {
    /// The roots: as known, or as `ask` gets them (and then kept). `cancelled` completes when
    /// the asking call is cancelled, which ends its wait.
    pub(crate) async fn get(
        &self,
        ask: impl Future<Output = Result<Vec<Root>, AskError>>,
        cancelled: impl Future<Output = ()>,
    ) -> Result<Vec<Root>, AskError> {
        let waited_from = self.ended.load(Ordering::Acquire);
        let mut known = {
            let mut lock = pin!(self.known.lock());
            let mut cancelled = pin!(cancelled);
            poll_fn(|cx| match lock.as_mut().poll(cx) {
                Poll::Ready(known) => Poll::Ready(Ok(known)),
                Poll::Pending => cancelled
                    .as_mut()
                    .poll(cx)
                    .map(|()| Err(AskError::Cancelled)),
            })
            .await?
        };
        let change = self.changes.load(Ordering::Acquire);
        if let Some((asked_after, roots)) = &known.roots
            && *asked_after == change
        {
            return Ok(roots.to_vec());
        }
        if let Some((number, error)) = &known.failed
            && *number > waited_from
        {
            return Err(error.clone());
        }
        let answer = ask.await;
        if answer == Err(AskError::Cancelled) {
            return answer;
        }
        let number = self.ended.fetch_add(1, Ordering::AcqRel) + 1;
        known.failed = answer.as_ref().err().map(|error| (number, error.clone()));
        if let Ok(roots) = &answer
            && self.changes.load(Ordering::Acquire) == change
        {
            known.roots = Some((change, roots.as_slice().into()));
        }
        answer
    }

    /// The client announced that its roots changed: the next call asks again. Returns the
    /// roots known until now, if they were known and the session could look (no call held
    /// them that moment).
    pub(crate) fn changed(&self) -> Option<Vec<Root>> {
        self.changes.fetch_add(1, Ordering::AcqRel);
        let mut known = self.known.try_lock().ok()?;
        known.roots.take().map(|(_, roots)| roots.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn asked_once_until_a_change() {
        let known = KnownRoots::default();
        let asked = AtomicUsize::new(0);
        let ask = |uri: &'static str| {
            let asked = &asked;
            async move {
                asked.fetch_add(1, Ordering::SeqCst);
                Ok(vec![Root::new(uri)])
            }
        };
        let never = std::future::pending::<()>;
        block_on(async {
            assert_eq!(
                known.get(ask("file:///a"), never()).await.unwrap()[0].uri,
                "file:///a"
            );
            assert_eq!(
                known.get(ask("file:///b"), never()).await.unwrap()[0].uri,
                "file:///a"
            );
            assert_eq!(known.changed().unwrap()[0].uri, "file:///a");
            assert_eq!(
                known.get(ask("file:///c"), never()).await.unwrap()[0].uri,
                "file:///c"
            );
        });
        assert_eq!(
            asked.load(Ordering::SeqCst),
            2,
            "the second read was answered as known"
        );
    }

    #[test]
    fn a_failure_reaches_the_calls_that_waited_for_it_only() {
        let known = Arc::new(KnownRoots::default());
        let (answer, answered) = tokio::sync::oneshot::channel::<Result<Vec<Root>, AskError>>();
        block_on(async {
            // A call asks; another waits for it; the client's answer is a failure.
            let asking = tokio::spawn({
                let known = Arc::clone(&known);
                async move {
                    let ask = async { answered.await.unwrap() };
                    known.get(ask, std::future::pending()).await
                }
            });
            tokio::task::yield_now().await;
            let waiting = tokio::spawn({
                let known = Arc::clone(&known);
                async move {
                    let ask = async { Ok(vec![Root::new("file:///never")]) };
                    known.get(ask, std::future::pending()).await
                }
            });
            tokio::task::yield_now().await;
            answer.send(Err(AskError::TimedOut)).unwrap();
            assert_eq!(asking.await.unwrap(), Err(AskError::TimedOut));
            assert_eq!(
                waiting.await.unwrap(),
                Err(AskError::TimedOut),
                "the waiter shares it"
            );
            // A call that comes later asks again.
            let later = known
                .get(
                    async { Ok(vec![Root::new("file:///a")]) },
                    std::future::pending(),
                )
                .await;
            assert_eq!(later.unwrap()[0].uri, "file:///a");
        });
    }

    #[test]
    fn a_waiting_call_can_be_cancelled_and_a_cancelled_ask_is_not_shared() {
        let known = Arc::new(KnownRoots::default());
        block_on(async {
            let asking = tokio::spawn({
                let known = Arc::clone(&known);
                async move {
                    known
                        .get(std::future::pending(), std::future::pending())
                        .await
                }
            });
            tokio::task::yield_now().await;
            let waited = known
                .get(async { Ok(vec![]) }, std::future::ready(()))
                .await;
            assert_eq!(waited, Err(AskError::Cancelled));
            asking.abort();
            let cancelled = known
                .get(async { Err(AskError::Cancelled) }, std::future::pending())
                .await;
            assert_eq!(cancelled, Err(AskError::Cancelled));
            let next = known
                .get(
                    async { Ok(vec![Root::new("file:///b")]) },
                    std::future::pending(),
                )
                .await;
            assert_eq!(next.unwrap()[0].uri, "file:///b");
        });
    }

    #[test]
    fn an_answer_to_an_ask_made_before_a_change_is_not_kept() {
        let known = KnownRoots::default();
        block_on(async {
            let roots = known
                .get(
                    async {
                        // The change arrives while the client is being asked.
                        assert_eq!(known.changed(), None);
                        Ok(vec![Root::new("file:///old")])
                    },
                    std::future::pending(),
                )
                .await;
            assert_eq!(roots.unwrap()[0].uri, "file:///old");
            let roots = known
                .get(
                    async { Ok(vec![Root::new("file:///new")]) },
                    std::future::pending(),
                )
                .await;
            assert_eq!(roots.unwrap()[0].uri, "file:///new");
        });
    }
}
