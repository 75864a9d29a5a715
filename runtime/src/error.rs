//! Errors: the one a tool author returns on purpose, and the ones the server reports.

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
}

impl ToolError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
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

/// An error that stops a server from starting or serving.
#[non_exhaustive]
pub enum Error {
    /// Two tools were registered under one name.
    DuplicateTool {
        /// The tool name.
        name: String,
        /// Where the first definition is (`file:line`).
        first: String,
        /// Where the second definition is (`file:line`).
        second: String,
    },
    /// A tool takes a `State<T>` that no `Server::state` call provides.
    MissingState {
        /// The tool.
        tool: &'static str,
        /// Where it is defined (`file:line`).
        location: String,
        /// The state's type.
        type_name: &'static str,
    },
    /// A tool's hand-written schema or `meta` is not what the protocol accepts.
    InvalidTool {
        /// The tool.
        tool: &'static str,
        /// Where it is defined (`file:line`).
        location: String,
        /// What is wrong.
        problem: String,
    },
    /// A type given to `Server::tools` cannot serve tools that way.
    ToolType {
        /// The type.
        type_name: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// Reading stdin or writing stdout failed, or the async runtime could not start.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::DuplicateTool {
                name,
                first,
                second,
            } => write!(
                f,
                "two tools are named `{name}`: one defined at {first}, one at {second}; \
                 give one of them another name with #[mcp_tool(name = \"...\")]"
            ),
            Error::MissingState {
                tool,
                location,
                type_name,
            } => write!(
                f,
                "tool `{tool}` (at {location}) takes a `State<{type_name}>`, but no state of that \
                 type was registered; add it with `.state(...)` on the server"
            ),
            Error::InvalidTool {
                tool,
                location,
                problem,
            } => write!(f, "tool `{tool}` (at {location}): {problem}"),
            Error::ToolType { type_name, problem } => write!(f, "`{type_name}` {problem}"),
            Error::Io(e) => write!(f, "i/o error: {e}"),
        }
    }
}

// `main` returning `Err` prints the `Debug` form: make it the readable message.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
