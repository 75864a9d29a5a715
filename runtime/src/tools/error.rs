//! The error a tool author returns on purpose: its message is for the client.

use std::fmt;

use crate::protocol::McpError;

/// An error whose message the client, and the model behind it, should read.
///
/// Returned as `Err(ToolError)` from a tool, it becomes a result with `isError: true` and the
/// message verbatim. `String` and `&str` errors are shown verbatim too. Any other error type is
/// masked as "internal error (ref …)", with its details written to stderr under the same
/// reference, unless you implement `From<YourError> for ToolError` to show it.
///
/// Made from an [`McpError`], it answers the call with that JSON-RPC error instead of a
/// result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    /// The JSON-RPC error the call is answered with instead of an error result, if the
    /// author chose one (or the tool could not go on without a client capability).
    chosen: Option<Box<McpError>>,
}

impl ToolError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            chosen: None,
        }
    }

    /// The tool cannot go on without `capability` (a path like `elicitation.url`), which the
    /// client did not declare: `-32021` on 2026-07-28, an error result before.
    pub(crate) fn missing_capability(capability: &'static str, message: String) -> ToolError {
        McpError::missing_capability(capability, message).into()
    }

    /// The output this error makes.
    pub(crate) fn into_output(self) -> crate::tools::output::ToolOutput {
        use crate::tools::output::{Repr, ToolOutput};
        match self.chosen {
            Some(chosen) => ToolOutput {
                repr: Repr::Chosen(chosen),
            },
            None => ToolOutput::error(self.message),
        }
    }

    /// The JSON-RPC error it answers with, if it is one.
    pub(crate) fn chosen(&self) -> Option<&McpError> {
        self.chosen.as_deref()
    }

    /// The message the client will see.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<McpError> for ToolError {
    fn from(error: McpError) -> ToolError {
        ToolError {
            message: error.message().to_owned(),
            chosen: Some(Box::new(error)),
        }
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> ToolError {
        ToolError::new(message)
    }
}

/// A tool that cannot fail has an error type with no values.
impl From<std::convert::Infallible> for ToolError {
    fn from(never: std::convert::Infallible) -> ToolError {
        match never {}
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> ToolError {
        ToolError::new(message)
    }
}
