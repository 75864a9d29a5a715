//! The errors that stop a server from starting or serving.

use std::fmt;

use crate::item::header::{Header, ItemKind};

/// An error that stops a server from starting or serving.
#[non_exhaustive]
pub enum Error {
    /// Two items of one kind cannot both be served: two tools or two prompts share a name, or
    /// two resources serve some of the same URIs.
    Clash {
        /// Tools, prompts or resources.
        kind: ItemKind,
        /// What the two share.
        detail: String,
        /// Where the first definition is (`file:line`).
        first: String,
        /// Where the second definition is (`file:line`).
        second: String,
    },
    /// An item cannot be served as defined: it takes a `State<T>` that no `Server::state`
    /// call provides, its hand-written schema or `_meta` is not what the protocol accepts, its
    /// URI is no template, its cache hints contradict what it takes.
    InvalidItem {
        /// A tool, a prompt or a resource.
        kind: ItemKind,
        /// Its name.
        name: String,
        /// Where it is defined (`file:line`).
        location: String,
        /// What is wrong.
        problem: String,
    },
    /// A [`ServerHandle`](crate::ServerHandle) named an item the server does not have.
    Unknown {
        /// A tool, a prompt or a resource.
        kind: ItemKind,
        /// The name (a resource's URI).
        name: String,
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
    /// `Server::discover_in` found nothing in the module it was given.
    Discovery(String),
    /// The folder of skills given to `Server::skills` cannot be served.
    Skills(String),
    /// The `Authorization` given to the HTTP endpoint cannot
    /// be used: its resource URI, its authorization servers or its scopes.
    Authorization(String),
    /// A server cannot be mounted as asked: a namespace that cannot be one, or an item the
    /// namespace cannot be given.
    Mount(String),
    /// Reading stdin or writing stdout failed, or the async runtime could not start.
    Io(std::io::Error),
}

impl Error {
    /// Two items of `kind` that cannot both be served (`detail` says what they share): at
    /// start-up in the order of their definitions (the same on every build, whatever order
    /// they were registered in), through a handle the served one first.
    pub(crate) fn clash(
        kind: ItemKind,
        detail: String,
        served: &Header,
        added: &Header,
        start_up: bool,
    ) -> Error {
        let (first, second) = match start_up && added.site() < served.site() {
            true => (added, served),
            false => (served, added),
        };
        Error::Clash {
            kind,
            detail,
            first: first.origin(),
            second: second.origin(),
        }
    }

    /// An item of `kind` that cannot be served as `header` defines it.
    pub(crate) fn invalid(kind: ItemKind, header: &Header, problem: String) -> Error {
        Error::InvalidItem {
            kind,
            name: header.name.to_string(),
            location: header.origin(),
            problem,
        }
    }
}

impl fmt::Display for ItemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ItemKind::Tool => "tool",
            ItemKind::Prompt => "prompt",
            ItemKind::Resource => "resource",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Clash {
                kind,
                detail,
                first,
                second,
            } => {
                write!(f, "{detail}: one defined at {first}, one at {second}")?;
                match kind {
                    ItemKind::Tool => f.write_str(
                        "; give one of them another name with #[mcp_tool(name = \"...\")]",
                    ),
                    ItemKind::Prompt => f.write_str(
                        "; give one of them another name with #[mcp_prompt(name = \"...\")]",
                    ),
                    ItemKind::Resource => Ok(()),
                }
            }
            Error::InvalidItem {
                kind,
                name,
                location,
                problem,
            } => write!(f, "{kind} `{name}` (at {location}): {problem}"),
            Error::Unknown { kind, name } => write!(f, "the server has no {kind} `{name}`"),
            Error::ToolType { type_name, problem } => write!(f, "`{type_name}` {problem}"),
            Error::Setting(problem) => f.write_str(problem),
            Error::Authorization(problem) => write!(f, "the authorization: {problem}"),
            Error::NotServing => f.write_str(
                "the server is not running: a handle changes tools once its server is built",
            ),
            Error::Skills(problem) => write!(f, "the skills cannot be served: {problem}"),
            Error::Discovery(problem) => f.write_str(problem),
            Error::Mount(problem) => write!(f, "the server cannot be mounted: {problem}"),
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
