//! The server builder: what the server is called, which tools it serves, and how it runs.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::value::RawValue;

use crate::error::{Error, Result};
use crate::protocol::ProtocolVersion;
use crate::tool::{self, Tool, ToolDef, ToolSpec};
use crate::{cli, serve};

/// An MCP server: its identity, its tools and its limits.
///
/// Made with `toolwright::server!()`, which takes the name and version from the calling crate,
/// or with [`Server::new`].
///
/// ```no_run
/// # fn main() -> toolwright_runtime::Result<()> {
/// toolwright_runtime::Server::new("weather", "1.0.0")
///     .instructions("Ask for the weather by city name.")
///     .discover()
///     .run()
/// # }
/// ```
#[must_use = "a server does nothing until `run` is called"]
pub struct Server {
    pub(crate) info: ServerInfo,
    specs: Vec<&'static ToolSpec>,
    pub(crate) limits: Limits,
}

/// Who the server says it is in `initialize`.
#[derive(Debug, Clone)]
pub(crate) struct ServerInfo {
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) title: Option<String>,
    pub(crate) instructions: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct Limits {
    pub(crate) max_message_size: usize,
    pub(crate) shutdown_grace: Duration,
    pub(crate) expose_internal_errors: bool,
}

/// The largest message accepted by default: 8 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 << 20;

impl Server {
    /// A server with the given `serverInfo` name and version and no tools yet.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                title: None,
                instructions: None,
            },
            specs: Vec::new(),
            limits: Limits {
                max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
                shutdown_grace: Duration::from_millis(500),
                expose_internal_errors: false,
            },
        }
    }

    /// A human-readable name for the server (sent from 2025-06-18 on).
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.info.title = Some(title.into());
        self
    }

    /// Hints for the model on how to use the server's tools.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Serves every `#[mcp_tool]` function linked into the program.
    pub fn discover(mut self) -> Server {
        self.specs.extend(tool::discovered());
        self
    }

    /// Serves one tool: `server.tool::<add>()` for `#[mcp_tool] fn add`.
    pub fn tool<T: Tool>(mut self) -> Server {
        self.specs.push(T::spec());
        self
    }

    /// The largest message, in bytes, that the server reads; a longer line is answered with an
    /// error and skipped. Defaults to [`DEFAULT_MAX_MESSAGE_SIZE`].
    pub fn max_message_size(mut self, bytes: usize) -> Server {
        self.limits.max_message_size = bytes;
        self
    }

    /// How long calls still running when stdin closes may take to finish before they are
    /// abandoned and the server exits. Defaults to 500 ms.
    pub fn shutdown_grace(mut self, grace: Duration) -> Server {
        self.limits.shutdown_grace = grace;
        self
    }

    /// Shows the details of panics and unexpected errors to the client, for development.
    /// By default the client sees "internal error (ref …)" and the details go to stderr only.
    pub fn expose_internal_errors(mut self, expose: bool) -> Server {
        self.limits.expose_internal_errors = expose;
        self
    }

    /// Runs the program: with no arguments it serves MCP over stdio; `list` prints the tools,
    /// `call NAME [JSON]` calls one, `help` explains.
    pub fn run(self) -> Result<()> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        cli::run(self, &args)
    }

    /// Serves MCP over stdin and stdout until stdin closes.
    pub fn serve_stdio(self) -> Result<()> {
        let service = Arc::new(self.build()?);
        serve::serve(service, std::io::stdin().lock(), std::io::stdout())
    }

    /// Serves MCP over any byte streams until `input` ends (an in-process client, a socket).
    pub fn serve<R: BufRead, W: Write + Send + 'static>(self, input: R, output: W) -> Result<()> {
        let service = Arc::new(self.build()?);
        serve::serve(service, input, output)
    }

    /// Checks the tool set and generates every schema, once.
    pub(crate) fn build(self) -> Result<Service> {
        let mut by_name: HashMap<&'static str, &'static ToolSpec> = HashMap::new();
        for spec in self.specs {
            match by_name.get(spec.name) {
                // The same tool registered twice (say, by `discover` and by `tool`) is one tool.
                Some(seen) if std::ptr::eq(*seen, spec) => {}
                Some(seen) => {
                    let (first, second) = ordered(seen, spec);
                    return Err(Error::DuplicateTool {
                        name: spec.name.to_owned(),
                        first,
                        second,
                    });
                }
                None => {
                    by_name.insert(spec.name, spec);
                }
            }
        }
        let mut tools: Vec<ToolDef> = by_name.into_values().map(ToolDef::new).collect();
        tools.sort_by(|a, b| a.spec.name.cmp(b.spec.name));
        let index = tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.spec.name, i))
            .collect();
        Ok(Service {
            info: self.info,
            limits: self.limits,
            tools,
            index,
            lists: Default::default(),
        })
    }
}

/// The two locations of a name clash, in a stable order.
fn ordered(a: &ToolSpec, b: &ToolSpec) -> (String, String) {
    let (a, b) = if (a.file, a.line) <= (b.file, b.line) {
        (a, b)
    } else {
        (b, a)
    };
    (a.location(), b.location())
}

/// A built server: immutable, shared by every task of a connection.
pub(crate) struct Service {
    pub(crate) info: ServerInfo,
    pub(crate) limits: Limits,
    /// Sorted by name, which is the order of `tools/list`.
    pub(crate) tools: Vec<ToolDef>,
    index: HashMap<&'static str, usize>,
    /// The `tools/list` result per revision, serialized on first use.
    lists: [OnceLock<Box<RawValue>>; ProtocolVersion::HANDSHAKE.len()],
}

impl Service {
    pub(crate) fn tool(&self, name: &str) -> Option<&ToolDef> {
        self.index.get(name).map(|&i| &self.tools[i])
    }

    pub(crate) fn tool_list(&self, version: ProtocolVersion) -> &RawValue {
        self.lists[version.index()].get_or_init(|| crate::wire::tool_list(self, version))
    }
}
