//! The errors that stop a server from starting or serving.

use std::fmt;

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
    /// A setting given to the server cannot be used.
    Setting(&'static str),
    /// A [`ServerHandle`](crate::ServerHandle) was used before its server was built, or after
    /// it stopped.
    NotServing,
    /// A [`ServerHandle`](crate::ServerHandle) named a tool the server does not have.
    UnknownTool(String),
    /// Two prompts share a name, or two resources serve the same URIs.
    Clash {
        /// What the two share.
        detail: String,
        /// Where the first definition is (`file:line`).
        first: String,
        /// Where the second definition is (`file:line`).
        second: String,
    },
    /// A prompt or a resource cannot be served as defined.
    InvalidItem {
        /// `prompt` or `resource`.
        kind: &'static str,
        /// Its name.
        name: String,
        /// Where it is defined (`file:line`).
        location: String,
        /// What is wrong.
        problem: String,
    },
    /// A [`ServerHandle`](crate::ServerHandle) named a prompt or resource the server does not
    /// have.
    Unknown {
        /// `prompt` or `resource`.
        kind: &'static str,
        /// The name (a resource's URI).
        name: String,
    },
    /// The folder of skills given to `Server::skills` cannot be served.
    Skills(String),
    /// The `Authorization` given to the HTTP endpoint cannot
    /// be used: its resource URI, its authorization servers or its scopes.
    Authorization(String),
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
            Error::Setting(problem) => f.write_str(problem),
            Error::Authorization(problem) => write!(f, "the authorization: {problem}"),
            Error::NotServing => f.write_str(
                "the server is not running: a handle changes tools once its server is built",
            ),
            Error::UnknownTool(name) => write!(f, "the server has no tool named `{name}`"),
            Error::Clash {
                detail,
                first,
                second,
            } => write!(f, "{detail}: one defined at {first}, one at {second}"),
            Error::InvalidItem {
                kind,
                name,
                location,
                problem,
            } => write!(f, "{kind} `{name}` (at {location}): {problem}"),
            Error::Unknown { kind, name } => write!(f, "the server has no {kind} `{name}`"),
            Error::Skills(problem) => write!(f, "the skills cannot be served: {problem}"),
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
