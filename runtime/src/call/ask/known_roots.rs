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

use crate::call::ask::AskError;
use crate::call::ask::roots::Root;

#[derive(Default)]
pub(crate) struct KnownRoots {
    /// The roots and the change they were asked for after; held while a call asks.
    known: tokio::sync::Mutex<Option<(u64, Arc<[Root]>)>>,
    /// How many changes the client has announced.
    changes: AtomicU64,
}

impl KnownRoots {
    /// The roots: as known, or as `ask` gets them (and then kept). `cancelled` completes when
    /// the asking call is cancelled, which ends its wait.
    pub(crate) async fn get(
        &self,
        ask: impl Future<Output = Result<Vec<Root>, AskError>>,
        cancelled: impl Future<Output = ()>,
    ) -> Result<Vec<Root>, AskError> {
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
        if let Some((asked_after, roots)) = &*known
            && *asked_after == change
        {
            return Ok(roots.to_vec());
        }
        let roots = ask.await?;
        if self.changes.load(Ordering::Acquire) == change {
            *known = Some((change, roots.as_slice().into()));
        }
        Ok(roots)
    }

    /// The client announced that its roots changed: the next call asks again. Returns the
    /// roots known until now, if they were known and no call is asking.
    pub(crate) fn changed(&self) -> Option<Vec<Root>> {
        self.changes.fetch_add(1, Ordering::AcqRel);
        let mut known = self.known.try_lock().ok()?;
        known.take().map(|(_, roots)| roots.to_vec())
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
    fn a_failed_ask_is_not_kept_and_a_waiting_call_can_be_cancelled() {
        let known = Arc::new(KnownRoots::default());
        block_on(async {
            let failed = known
                .get(async { Err(AskError::TimedOut) }, std::future::pending())
                .await;
            assert_eq!(failed, Err(AskError::TimedOut));
            // A call is asking (and never answered); another gives up when cancelled.
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
