//! Transports: thin edges that carry lines to a [`Session`](crate::server::session::Session)
//! and send what it returns: stdio (one session per process), in-memory (tests, the command
//! line), and Streamable HTTP (feature `http`).

mod framing;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod memory;
mod stdio;
mod stdout;

use crate::call::outlet::Outlet;
use crate::server::session::Answer;

/// Acts on what a message got: the one place a transport's answers leave from. Lines go to the
/// outlet; calls start, and send their answers through the outlet when they finish.
fn deliver(answer: Answer, outlet: &Outlet) {
    match answer {
        Answer::None => {}
        Answer::Now(line) | Answer::Error(_, line) | Answer::Stream(line) => outlet.send(line),
        Answer::Later(call) => call.start(),
        Answer::Batch(calls) => calls.into_iter().for_each(|call| call.start()),
    }
}
