//! The one boundary every function's run has: a panic inside it becomes its output, and, for a
//! request asking in 2026-07-28 rounds, waiting on asks that only the client's retry can answer
//! ends the round with them. Tools, prompts and resources each say what those outputs are.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use crate::call::completion::Completion;
use crate::call::record::CallRecord;
use crate::item::handler::BoxFuture;
use crate::prompts::output::PromptOutput;
use crate::protocol::ProtocolVersion;
use crate::resources::contents::ResourceOutput;
use crate::tools::ToolOutput;
use crate::tools::output::InputRequired;

/// What a function's run produces: the output of a panic, and of a round that ended on asks.
pub(crate) trait Output: Send + Sized + 'static {
    /// A panic, with its message: an internal error the client sees masked.
    fn panicked(message: String) -> Self;
    /// A round that ended on these asks.
    fn round(input: InputRequired) -> Self;
    /// The asks of a round it ended on (or of an error that asks the user to open URLs, where
    /// `version` makes it a round for a client that `takes_urls`); itself otherwise.
    fn into_round(self, version: ProtocolVersion, takes_urls: bool) -> Result<InputRequired, Self>;
    /// Whether it is a JSON-RPC error the author chose (which alone reads what the client
    /// declared).
    fn is_chosen(&self) -> bool;
}

impl Output for ToolOutput {
    fn panicked(message: String) -> Self {
        ToolOutput::internal(message)
    }

    fn round(input: InputRequired) -> Self {
        ToolOutput::input_required(input)
    }

    fn into_round(self, version: ProtocolVersion, takes_urls: bool) -> Result<InputRequired, Self> {
        ToolOutput::into_round(self, version, takes_urls)
    }

    fn is_chosen(&self) -> bool {
        ToolOutput::is_chosen(self)
    }
}

impl Output for PromptOutput {
    fn panicked(message: String) -> Self {
        PromptOutput::internal(message)
    }

    fn round(input: InputRequired) -> Self {
        PromptOutput::input_required(input)
    }

    fn into_round(self, version: ProtocolVersion, takes_urls: bool) -> Result<InputRequired, Self> {
        PromptOutput::into_round(self, version, takes_urls)
    }

    fn is_chosen(&self) -> bool {
        matches!(self.repr, crate::prompts::output::PromptRepr::Chosen(_))
    }
}

impl Output for ResourceOutput {
    fn panicked(message: String) -> Self {
        ResourceOutput::internal(message)
    }

    fn round(input: InputRequired) -> Self {
        ResourceOutput::input_required(input)
    }

    fn into_round(self, version: ProtocolVersion, takes_urls: bool) -> Result<InputRequired, Self> {
        ResourceOutput::into_round(self, version, takes_urls)
    }

    fn is_chosen(&self) -> bool {
        matches!(
            self.repr,
            crate::resources::contents::ResourceRepr::Chosen(_)
        )
    }
}

/// A completion function's: its completion, or the detail of its failure (it never asks:
/// `completion/complete` takes no rounds).
impl Output for Result<Completion, String> {
    fn panicked(message: String) -> Self {
        Err(message)
    }

    fn round(_: InputRequired) -> Self {
        Err("a completion function asked the client, which `completion/complete` cannot".into())
    }

    fn into_round(self, _: ProtocolVersion, _: bool) -> Result<InputRequired, Self> {
        Err(self)
    }

    fn is_chosen(&self) -> bool {
        false
    }
}

/// A panic's payload as the message of its output.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    format!("panicked: {}", crate::diagnostics::panic_message(payload))
}

/// Runs `run` with its panic caught.
pub(crate) fn caught_sync<O: Output>(run: impl FnOnce() -> O) -> O {
    catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|payload| O::panicked(panic_message(&*payload)))
}

/// `future` of the request of `record`, its panic caught and, when the request asks in rounds,
/// its round ended once it waits on asks only a retry can answer.
pub(crate) fn caught<O: Output>(future: BoxFuture<O>, record: &Arc<CallRecord>) -> Caught<O> {
    let rounds = record
        .asking
        .as_ref()
        .filter(|asking| asking.in_rounds())
        .map(|_| Arc::clone(record));
    Caught { future, rounds }
}

/// A function's future inside the boundary.
pub(crate) struct Caught<O> {
    future: BoxFuture<O>,
    /// The record of a request asking in rounds.
    rounds: Option<Arc<CallRecord>>,
}

impl<O: Output> Future for Caught<O> {
    type Output = O;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<O> {
        let future = self.future.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(Poll::Pending) => {
                // Everything the function asked at once (`join!`) is in this round.
                let unanswered = self.rounds.as_ref().and_then(|r| r.asking().unanswered());
                match unanswered {
                    Some(asks) => Poll::Ready(O::round(InputRequired {
                        requests: asks.requests,
                        answers: asks.answers,
                    })),
                    None => Poll::Pending,
                }
            }
            Ok(ready) => ready,
            Err(payload) => Poll::Ready(O::panicked(panic_message(&*payload))),
        }
    }
}
