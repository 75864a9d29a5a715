//! Tools that ask the client mid-call: [`Elicit`] (a form for the user to fill, or a URL to
//! open), [`Sample`] (a completion from the client's model) and [`Roots`] (the client's roots).
//! Each is a parameter of an `async` tool; the server fills it in.
//!
//! One tool serves both eras. In a handshake session an ask is a real request to the client,
//! awaited. On 2026-07-28 the server may not send requests: the call answers `input_required`
//! with what it asks, the client retries with the answers, and the tool **runs again from the
//! start**, each ask returning its answer at once, until it finishes. So the code before an
//! ask may run once per round: it must not do what the user has not confirmed yet. Ask first,
//! act after:
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use toolwright_runtime::{Answer, Elicit, ToolError};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Confirm {
//!     confirm: bool,
//! }
//!
//! async fn delete_tagged(tag: String, ask: Elicit<Confirm>) -> Result<String, ToolError> {
//!     let n = 40; // counting is harmless: it may run once per round
//!     match ask.form(format!("Delete {n} notes tagged {tag}?")).await? {
//!         Answer::Accept(Confirm { confirm: true }) => Ok(format!("deleted {n} notes")),
//!         _ => Ok("kept them".into()),
//!     }
//! }
//! ```
//!
//! An ask the client did not declare support for fails with [`AskError::Unsupported`], which a
//! tool can handle (fall back, or explain); returned with `?`, it answers a 2026-07-28 call with
//! the protocol's `-32021` (MissingRequiredClientCapability) and is an error result before.

pub(crate) mod asking;
mod elicit;
pub(crate) mod form;
pub(crate) mod known_roots;
mod root;
pub(crate) mod roots;
mod sample;

use std::fmt;

pub use elicit::{Elicit, NoForm};
pub use root::Root;
pub use roots::{Roots, RootsChanged};
pub use sample::{Sample, SamplingMessage, SamplingRequest, SamplingResult};

use crate::call::context::Context;
use crate::call::record::CallRecord;
use crate::tools::error::ToolError;

/// What the user did with a form (or a URL).
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<T> {
    /// Submitted it, with these values.
    Accept(T),
    /// Said no.
    Decline,
    /// Dismissed it without choosing.
    Cancel,
}

/// Why an ask got no answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability the ask needs (`elicitation`,
    /// `elicitation.url`, `sampling`, `roots`), or its protocol revision has no such request.
    Unsupported {
        /// The capability, as a path in the client's capabilities.
        capability: &'static str,
    },
    /// The form uses what only a later protocol revision defines.
    NotInRevision(String),
    /// The client answered with an error.
    Client {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The client's answer is not what was asked for (a wrong shape, a value outside the
    /// form's schema).
    Invalid(String),
    /// No answer came in time ([`Server::ask_timeout`](crate::Server::ask_timeout)).
    TimedOut,
    /// The call was cancelled, or the session ended, while it waited.
    Cancelled,
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskError::Unsupported { capability } => {
                write!(f, "the client does not support `{capability}`")
            }
            AskError::NotInRevision(what) => f.write_str(what),
            AskError::Client { code, message } => {
                write!(f, "the client refused: {message} ({code})")
            }
            AskError::Invalid(why) => write!(f, "the client's answer is invalid: {why}"),
            AskError::TimedOut => f.write_str("the client did not answer in time"),
            AskError::Cancelled => f.write_str("the call was cancelled while it waited"),
        }
    }
}

impl std::error::Error for AskError {}

impl From<AskError> for ToolError {
    fn from(error: AskError) -> ToolError {
        let message = error.to_string();
        match error {
            AskError::Unsupported { capability } => {
                ToolError::missing_capability(capability, message)
            }
            _ => ToolError::new(message),
        }
    }
}

/// The call an injected asker serves.
fn record(cx: &Context) -> &CallRecord {
    &cx.0
}

/// Whether the client declared `path` (`"elicitation.url"`): every step an object.
fn declared(cx: &Context, path: &str) -> bool {
    let mut node = cx.client_capabilities();
    for step in path.split('.') {
        match node.get(step) {
            Some(next) if next.is_object() => node = next,
            _ => return false,
        }
    }
    true
}
