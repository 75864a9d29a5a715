//! The description of a tool that `#[mcp_tool]` generates: what it is called, its schemas, its
//! annotations, and how it runs; and how the server finds the tools linked into the program.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::{Schema, SchemaGenerator};

use crate::call::context::Context;
use crate::call::inject::{Injector, Requirements};
use crate::protocol::wire::{Annotations, Icon};
use crate::tools::ToolOutput;
use crate::tools::binding::Arguments;
use crate::tools::compiled::Source;

/// A boxed future of a tool (or of a prompt or a resource: `O` is what it produces).
pub type BoxFuture<O = ToolOutput> = Pin<Box<dyn Future<Output = O> + Send + 'static>>;

/// How a tool (or a prompt, or a resource) runs: sync functions run on a blocking thread,
/// async ones as tasks.
pub enum Handler<O = ToolOutput> {
    /// A plain function.
    Sync(fn(Invocation) -> O),
    /// An `async fn`.
    Async(fn(Invocation) -> BoxFuture<O>),
}

impl<O> Clone for Handler<O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for Handler<O> {}

/// The instance a `#[mcp_tool_type]` method is called on.
pub(crate) type Instance = Arc<dyn Any + Send + Sync>;

/// Everything one call hands to the generated handler.
pub struct Invocation {
    /// The client's arguments.
    pub arguments: Arguments,
    /// The request.
    pub context: Context,
    /// What a method tool is called on.
    pub(crate) instance: Option<Instance>,
}

/// Boxes a tool's future. Generated code calls it at the function's name, so a future that is
/// not `Send` (it holds an `Rc` or a `MutexGuard` across an `.await`) is reported there, with
/// the value and the `.await` that cause it.
pub fn tool_future<O, F: Future<Output = O> + Send + 'static>(future: F) -> BoxFuture<O> {
    Box::pin(future)
}

impl Invocation {
    /// Builds an injected parameter.
    pub fn inject<T>(&self, injector: Injector<T>) -> Result<T, ToolOutput> {
        (injector.inject)(&self.context)
    }

    /// The URI a `resources/read` asked for, which a resource's contents carry; empty for a
    /// tool call or a prompt.
    pub fn resource_uri(&self) -> &str {
        self.context.0.resource_uri.as_deref().unwrap_or_default()
    }

    /// The instance a `#[mcp_tool_type]` method is called on.
    pub fn instance<T: Send + Sync + 'static>(&self) -> &T {
        self.instance
            .as_ref()
            .and_then(|instance| instance.downcast_ref::<T>())
            .expect("a method tool is registered with an instance of its type")
    }
}

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
pub struct ToolSpec {
    /// The tool's name, unique in a server.
    pub name: &'static str,
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The description: the doc comment, without its `# Arguments` section.
    pub description: Option<&'static str>,
    /// Annotation hints.
    pub annotations: Annotations,
    /// The input schema.
    pub input_schema: fn(&mut SchemaGenerator) -> Schema,
    /// The output schema, `None` for text output.
    pub output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// How to run it.
    pub handler: Handler,
    /// What its injected parameters need from the server.
    pub requirements: fn(&mut Requirements),
    /// An input schema written by hand (JSON text), served as written instead of a generated
    /// one.
    pub raw_input_schema: Option<&'static str>,
    /// Icons for clients to show (2025-11-25 on).
    pub icons: &'static [Icon],
    /// Labels the server chooses tools by (`tags("admin")`); not sent to clients.
    pub tags: &'static [&'static str],
    /// What a caller must have been granted to see and call it (`scopes("notes:write")`).
    pub scopes: &'static [&'static str],
    /// Whether argument keys the input schema does not list are ignored (`Some(true)`) or
    /// refused (`Some(false)`); `None` leaves it to the server
    /// ([`Server::ignore_unknown_arguments`](crate::Server::ignore_unknown_arguments)).
    pub ignore_unknown_arguments: Option<bool>,
    /// The tool's `_meta`, as a JSON object text (2025-06-18 on).
    pub meta: Option<&'static str>,
    /// Whether it runs as a task (`#[mcp_tool(task = "...")]`).
    pub task: TaskSupport,
    /// How long its tasks are kept, in milliseconds; `None` for the server's default.
    pub task_ttl_ms: Option<u64>,
    /// The source file of the definition.
    pub file: &'static str,
    /// The line of the definition.
    pub line: u32,
}

impl ToolSpec {
    /// `file:line` of the definition.
    pub(crate) fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// The parts the server derives schemas from.
    pub(crate) fn source(&self) -> Source {
        Source {
            input_schema: self.input_schema,
            raw_input_schema: self.raw_input_schema,
            ignore_unknown_arguments: self.ignore_unknown_arguments,
            output_schema: self.output_schema,
            meta: self.meta,
        }
    }
}

/// What kind of item a [`ItemInfo`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A tool.
    Tool,
    /// A prompt.
    Prompt,
    /// A resource or a resource template.
    Resource,
}

/// A tool, a prompt or a resource, as a visibility rule or a middleware sees it.
#[derive(Debug, Clone, Copy)]
pub struct ItemInfo {
    kind: ItemKind,
    name: &'static str,
    uri: Option<&'static str>,
    tags: &'static [&'static str],
    scopes: &'static [&'static str],
}

/// A tool, as a visibility rule or a middleware sees it.
pub type ToolInfo = ItemInfo;

impl ItemInfo {
    pub(crate) const fn new(spec: &'static ToolSpec) -> ItemInfo {
        ItemInfo::of(ItemKind::Tool, spec.name, None, spec.tags, spec.scopes)
    }

    pub(crate) const fn of(
        kind: ItemKind,
        name: &'static str,
        uri: Option<&'static str>,
        tags: &'static [&'static str],
        scopes: &'static [&'static str],
    ) -> ItemInfo {
        ItemInfo {
            kind,
            name,
            uri,
            tags,
            scopes,
        }
    }

    /// A tool, a prompt or a resource.
    pub fn kind(&self) -> ItemKind {
        self.kind
    }

    /// The item's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A resource's URI or URI template; `None` for tools and prompts.
    pub fn uri(&self) -> Option<&'static str> {
        self.uri
    }

    /// Its tags (`#[mcp_tool(tags("admin"))]`).
    pub fn tags(&self) -> &'static [&'static str] {
        self.tags
    }

    /// Whether it has the tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(&tag)
    }

    /// What a caller must have been granted to see and use it (`scopes("notes:write")`).
    pub fn scopes(&self) -> &'static [&'static str] {
        self.scopes
    }
}

/// Implemented by the type that `#[mcp_tool]` defines beside each tool function, under the
/// function's name: `Server::tool::<add>()` registers the tool of `fn add`.
pub trait Tool {
    /// The tool's spec.
    fn spec() -> &'static ToolSpec;
}
