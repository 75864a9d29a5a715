//! The description of a tool that `#[mcp_tool]` generates: its header, its schemas, its
//! annotations, how it runs, and whether it runs as a task.

use std::borrow::Cow;

use schemars::{Schema, SchemaGenerator};

use crate::item::handler::Handler;
use crate::item::header::{Header, ItemInfo, ItemKind};
use crate::protocol::wire::Annotations;
use crate::tools::compiled::Source;

/// Whether a tool runs as a task: answered at once with a handle the client polls, while it
/// runs on (`#[mcp_tool(task = "optional")]` or `"required"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never: every call is answered with its result.
    #[default]
    Forbidden,
    /// For a client that can follow a task (one that declared the tasks extension on a
    /// 2026-07-28 request, or asked for one with `params.task` on 2025-11-25); a call for the
    /// others.
    Optional,
    /// Only as a task: a client that cannot follow one is refused (`-32021` naming the
    /// extension on 2026-07-28).
    Required,
}

impl TaskSupport {
    /// Its name in 2025-11-25's `execution.taskSupport`, where it may run as a task.
    pub(crate) fn wire_name(self) -> Option<&'static str> {
        match self {
            TaskSupport::Forbidden => None,
            TaskSupport::Optional => Some("optional"),
            TaskSupport::Required => Some("required"),
        }
    }
}

/// Everything `#[mcp_tool]` knows about a tool at compile time.
#[derive(Clone)]
pub struct ToolSpec {
    /// What every item has: the tool's name (unique in a server), texts, needs, icons, tags,
    /// scopes, `_meta` and where it is defined.
    pub header: Header,
    /// Annotation hints.
    pub annotations: Annotations,
    /// The input schema.
    pub input_schema: fn(&mut SchemaGenerator) -> Schema,
    /// The output schema, `None` for text output.
    pub output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// How to run it.
    pub handler: Handler,
    /// An input schema written by hand (JSON text), served as written instead of a generated
    /// one.
    pub raw_input_schema: Option<Cow<'static, str>>,
    /// An output schema given as JSON text (a tool made at run time), used instead of a
    /// generated one and finished the same way.
    pub raw_output_schema: Option<Cow<'static, str>>,
    /// Whether the handler takes its arguments as a JSON value (a tool made at run time): no
    /// type checks their shape, so the server checks their types, required and unknown fields
    /// against the input schema, beside its constraints.
    pub untyped_arguments: bool,
    /// Whether argument keys the input schema does not list are ignored (`Some(true)`) or
    /// refused (`Some(false)`); `None` leaves it to the server
    /// ([`Server::ignore_unknown_arguments`](crate::Server::ignore_unknown_arguments)).
    pub ignore_unknown_arguments: Option<bool>,
    /// Whether it runs as a task (`#[mcp_tool(task = "...")]`).
    pub task: TaskSupport,
    /// How long its tasks are kept, in milliseconds; `None` for the server's default.
    pub task_ttl_ms: Option<u64>,
}

impl ToolSpec {
    /// The tool, as a visibility rule sees it.
    pub(crate) fn info(&self) -> ItemInfo<'_> {
        self.header.info(ItemKind::Tool, None)
    }

    /// The parts the server derives schemas from.
    pub(crate) fn source(&self) -> Source<'_> {
        Source {
            input_schema: self.input_schema,
            raw_input_schema: self.raw_input_schema.as_deref(),
            ignore_unknown_arguments: self.ignore_unknown_arguments,
            output_schema: self.output_schema,
            raw_output_schema: self.raw_output_schema.as_deref(),
            untyped_arguments: self.untyped_arguments,
        }
    }
}

/// Implemented by the type that `#[mcp_tool]` defines beside each tool function, under the
/// function's name: `Server::tool::<add>()` registers the tool of `fn add`.
pub trait Tool {
    /// The tool's spec.
    fn spec() -> &'static ToolSpec;
}
