//! The error a tool author returns on purpose: its message is for the client.

use std::fmt;

/// An error whose message the client, and the model behind it, should read.
///
/// Returned as `Err(ToolError)` from a tool, it becomes a result with `isError: true` and the
/// message verbatim. `String` and `&str` errors are shown verbatim too. Any other error type is
/// masked as "internal error (ref …)", with its details written to stderr under the same
/// reference, unless you implement `From<YourError> for ToolError` to show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    /// The client capability the tool could not go on without (from an `AskError`).
    missing: Option<&'static str>,
}

impl ToolError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            missing: None,
        }
    }

    /// The tool cannot go on without `capability` (a path like `elicitation.url`), which the
    /// client did not declare: `-32021` on 2026-07-28, an error result before.
    pub(crate) fn missing_capability(capability: &'static str, message: String) -> ToolError {
        ToolError {
            message,
            missing: Some(capability),
        }
    }

    /// The output this error makes.
    pub(crate) fn into_output(self) -> crate::tools::output::ToolOutput {
        use crate::tools::output::Repr;
        match self.missing {
            Some(capability) => crate::tools::output::ToolOutput {
                repr: Repr::MissingCapability {
                    capability,
                    message: self.message,
                },
            },
            None => crate::tools::output::ToolOutput::error(self.message),
        }
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
