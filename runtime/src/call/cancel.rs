//! [`Cancellation`]: the client's `notifications/cancelled`, as a tool sees it.
//!
//! Cancelling does not abort the tool: the signal fires and the answer is suppressed, and the
//! tool decides how to stop (an `async` tool can `select!` on `cancelled()`), so it can clean
//! up, as the notes example does with its partial file. Unknown or finished ids are ignored, as
//! the specification allows.

use std::sync::Arc;

use crate::call::record::CallRecord;

/// Fires when the client cancels the request (`notifications/cancelled`), or when the server
/// shuts down while the call runs.
///
/// The server sends no response for a cancelled request, whatever the tool returns; a tool that
/// watches this signal can stop early and free what it holds. `Cancellation::default()` never
/// fires.
#[derive(Clone, Default)]
pub struct Cancellation(Option<Arc<CallRecord>>);

impl Cancellation {
    pub(crate) fn of(record: &Arc<CallRecord>) -> Cancellation {
        Cancellation(Some(Arc::clone(record)))
    }

    /// Whether the client has cancelled the request.
    pub fn is_cancelled(&self) -> bool {
        self.0.as_ref().is_some_and(|r| r.gate.is_cancelled())
    }

    /// Completes when the client cancels the request.
    pub async fn cancelled(&self) {
        match &self.0 {
            Some(record) => record.gate.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

impl std::fmt::Debug for Cancellation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancellation")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}
