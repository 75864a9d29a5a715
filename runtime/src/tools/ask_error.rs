//! What an ask can end with: the user's answer to a form, or why there was none. Here, below
//! the asking itself, so that every kind of item's result can tell an ask's error from
//! another.

use std::fmt;

use crate::protocol::McpError;
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
    /// The form given as a value is not one the specification allows (a nested object, a
    /// keyword forms do not define): what is wrong with it.
    Form(String),
    /// The item did not declare that it asks, so its calls are not readied to (a
    /// [`ToolDef`](crate::ToolDef) without [`asks`](crate::ToolDef::asks)).
    Undeclared,
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
            AskError::Form(why) => write!(f, "the form cannot be shown: {why}"),
            AskError::Undeclared => f.write_str(
                "this item asks the client but did not declare it (`.asks()` on its definition)",
            ),
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

impl From<AskError> for McpError {
    fn from(error: AskError) -> McpError {
        let message = error.to_string();
        match error {
            AskError::Unsupported { capability } => {
                McpError::missing_capability(capability, message)
            }
            _ => McpError::internal(message),
        }
    }
}
