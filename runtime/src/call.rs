//! The life of one call in flight: the lock that orders its progress notifications, its
//! response and its cancellation, so that nothing is sent after the response and no response
//! is sent after a cancellation the server has seen.

use std::collections::HashMap;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use serde_json::value::RawValue;

use crate::context::{Cancellation, Context};
use crate::output::ToolOutput;
use crate::protocol::ProtocolVersion;
use crate::render;
use crate::reply::Reply;
use crate::server::Service;
use crate::tool::{BoxFuture, Invocation};

/// After a progress notification, the response waits this long, so that clients that drop
/// progress handlers as soon as the response is read (the TypeScript SDK does) still see the
/// last notification: they must read the two in separate chunks.
const PROGRESS_SPACING: Duration = Duration::from_millis(20);

#[derive(Default)]
pub(crate) struct CallState {
    gate: Mutex<Gate>,
    pub(crate) cancellation: Cancellation,
}

#[derive(Default)]
struct Gate {
    finished: bool,
    cancelled: bool,
    last_progress: Option<(f64, Instant)>,
}

impl CallState {
    fn gate(&self) -> MutexGuard<'_, Gate> {
        self.gate.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `send` for a progress value if the call is still open and the value is larger than
    /// the last one sent.
    pub(crate) fn progress(&self, value: f64, send: impl FnOnce()) -> bool {
        let mut gate = self.gate();
        let increasing = gate.last_progress.is_none_or(|(last, _)| value > last);
        if gate.finished || gate.cancelled || !value.is_finite() || !increasing {
            return false;
        }
        send();
        gate.last_progress = Some((value, Instant::now()));
        true
    }

    /// Runs `send` (a notification about the call) if the call is still open.
    pub(crate) fn while_open(&self, send: impl FnOnce()) -> bool {
        let gate = self.gate();
        if gate.finished || gate.cancelled {
            return false;
        }
        send();
        true
    }

    /// How long the response should wait for the last progress notification to be read alone.
    pub(crate) fn spacing(&self) -> Option<Duration> {
        let (_, at) = self.gate().last_progress?;
        PROGRESS_SPACING.checked_sub(at.elapsed())
    }

    /// Runs `send` with the response unless the call was cancelled; either way, closes it.
    pub(crate) fn finish(&self, send: impl FnOnce()) {
        let mut gate = self.gate();
        if !gate.cancelled {
            send();
        }
        gate.finished = true;
    }

    /// Cancels the call: fires its signal, and suppresses its response unless already sent.
    pub(crate) fn cancel(&self) {
        let mut gate = self.gate();
        if !gate.finished {
            gate.cancelled = true;
        }
        drop(gate);
        self.cancellation.cancel();
    }
}

/// A request id as a map key: `"1"` and `1` are different ids, `"\u0041"` and `"A"` the same.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IdKey {
    Number(i64),
    String(String),
    Other(String),
}

impl IdKey {
    pub(crate) fn of(id: &RawValue) -> IdKey {
        let raw = id.get();
        // Most ids are small integers: no allocation. A string needs decoding (escapes).
        if let Ok(n) = raw.parse::<i64>() {
            return IdKey::Number(n);
        }
        if raw.starts_with('"')
            && let Ok(s) = serde_json::from_str::<String>(raw)
        {
            return IdKey::String(s);
        }
        IdKey::Other(raw.to_owned())
    }
}

/// The requests in flight that a client may cancel, by id.
#[derive(Default)]
pub(crate) struct Registry(Mutex<HashMap<IdKey, Arc<CallState>, IdHashing>>);

/// A fast hash for request ids (three lookups a call; SipHash cost more than the rest of the
/// bookkeeping). Ids are chosen by the client, but the map holds at most `max_in_flight`
/// entries, so even planned collisions cost a bounded number of comparisons, and the per-process
/// seed makes them hard to plan.
#[derive(Clone)]
pub(crate) struct IdHashing(u64);

impl Default for IdHashing {
    fn default() -> Self {
        IdHashing(std::hash::RandomState::new().hash_one(0u8))
    }
}

impl BuildHasher for IdHashing {
    type Hasher = IdHasher;

    fn build_hasher(&self) -> IdHasher {
        IdHasher(self.0)
    }
}

pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Registry {
    fn map(&self) -> MutexGuard<'_, HashMap<IdKey, Arc<CallState>, IdHashing>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new request; `None` when its id is already in flight.
    pub(crate) fn open(&self, key: IdKey) -> Option<Arc<CallState>> {
        let mut map = self.map();
        if map.contains_key(&key) {
            return None;
        }
        let state = Arc::new(CallState::default());
        map.insert(key, Arc::clone(&state));
        Some(state)
    }

    /// Whether a request with this id is in flight.
    pub(crate) fn contains(&self, key: &IdKey) -> bool {
        self.map().contains_key(key)
    }

    pub(crate) fn close(&self, key: &IdKey) {
        self.map().remove(key);
    }

    /// Cancels the request with this id, if it is in flight; unknown ids are ignored, as the
    /// specification allows (the request may just have finished).
    pub(crate) fn cancel(&self, key: &IdKey) {
        let state = self.map().remove(key);
        if let Some(state) = state {
            state.cancel();
        }
    }
}

/// A call in flight: everything needed to run the tool and answer exactly once.
pub(crate) struct Call {
    pub(crate) service: Arc<Service>,
    /// The tool's index in the service's table.
    pub(crate) tool: usize,
    pub(crate) version: ProtocolVersion,
    /// The request (its id, for the answer); shared with the tool's `Context`.
    pub(crate) request: Context,
    pub(crate) reply: Reply,
    pub(crate) state: Arc<CallState>,
    pub(crate) calls: Arc<Registry>,
    pub(crate) key: IdKey,
    pub(crate) _guard: crate::inflight::Guard,
}

impl Call {
    pub(crate) fn run_sync(self, run: fn(Invocation) -> ToolOutput, invocation: Invocation) {
        let output = catch_unwind(AssertUnwindSafe(|| run(invocation)));
        if let Some(wait) = self.state.spacing() {
            std::thread::sleep(wait);
        }
        self.finish(output.unwrap_or_else(|p| panicked(&*p)));
    }

    pub(crate) async fn run_async(self, run: fn(Invocation) -> BoxFuture, invocation: Invocation) {
        let output = CatchUnwind(run(invocation)).await;
        if let Some(wait) = self.state.spacing() {
            tokio::time::sleep(wait).await;
        }
        self.finish(output);
    }

    fn finish(self, output: ToolOutput) {
        let line = render::call_result(
            &self.service,
            self.tool,
            self.version,
            self.request.request_id(),
            output,
        );
        // The id is free again as soon as the client can read the answer: it may reuse it for
        // its very next request.
        self.calls.close(&self.key);
        let mut sent = false;
        self.state.finish(|| {
            self.reply.send(line);
            sent = true;
        });
        if !sent {
            self.reply.skip();
        }
    }
}

fn panicked(payload: &(dyn std::any::Any + Send)) -> ToolOutput {
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic with a non-string payload");
    ToolOutput::internal(format!("panicked: {message}"))
}

/// Turns a panic inside a tool's future into an internal-error result.
struct CatchUnwind(BoxFuture);

impl Future for CatchUnwind {
    type Output = ToolOutput;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<ToolOutput> {
        let future = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(panicked(&*payload)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_only_increases_and_stops_at_the_response() {
        let state = CallState::default();
        let mut sent = Vec::new();
        for value in [1.0, 1.0, 0.5, f64::NAN, 2.0] {
            state.progress(value, || sent.push(value));
        }
        state.finish(|| sent.push(-1.0));
        state.progress(3.0, || sent.push(3.0));
        assert_eq!(sent, [1.0, 2.0, -1.0]);
    }

    #[test]
    fn a_cancelled_call_sends_no_response() {
        let state = CallState::default();
        state.cancel();
        assert!(state.cancellation.is_cancelled());
        let mut sent = false;
        state.finish(|| sent = true);
        assert!(!sent);
    }

    #[test]
    fn ids_compare_by_value() {
        let raw = |s: &str| RawValue::from_string(s.into()).unwrap();
        assert_eq!(IdKey::of(&raw(r#""\u0041""#)), IdKey::of(&raw(r#""A""#)));
        assert_ne!(IdKey::of(&raw(r#""1""#)), IdKey::of(&raw("1")));
        let registry = Registry::default();
        assert!(registry.open(IdKey::of(&raw("1"))).is_some());
        assert!(registry.open(IdKey::of(&raw("1"))).is_none());
    }
}
