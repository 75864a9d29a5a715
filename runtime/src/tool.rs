//! Tools as the server holds them: the static spec that `#[mcp_tool]` generates, and the
//! definition built from it when the server starts.

use std::any::{Any, TypeId};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::{Schema, SchemaGenerator};
use serde_json::Value;

use crate::binding::Arguments;
use crate::context::{Context, Inject, Requirements};
use crate::output::ToolOutput;
use crate::schema;

/// The annotation hints of a tool. `None` is a hint the author did not set: it is not sent,
/// and clients apply the specification's defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `readOnlyHint`: the tool does not modify its environment.
    pub read_only: Option<bool>,
    /// `destructiveHint`: the tool may perform destructive updates.
    pub destructive: Option<bool>,
    /// `idempotentHint`: repeated calls with the same arguments have no additional effect.
    pub idempotent: Option<bool>,
    /// `openWorldHint`: the tool interacts with an open world of external entities.
    pub open_world: Option<bool>,
}

impl Annotations {
    /// Whether the author set no hint at all.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::default()
    }
}

/// A boxed tool future.
pub type BoxFuture = Pin<Box<dyn Future<Output = ToolOutput> + Send + 'static>>;

/// How a tool runs: sync tools run on a blocking thread, async tools as tasks.
#[derive(Clone, Copy)]
pub enum Handler {
    /// A plain function.
    Sync(fn(Invocation) -> ToolOutput),
    /// An `async fn`.
    Async(fn(Invocation) -> BoxFuture),
}

/// Everything one call hands to the generated handler.
pub struct Invocation {
    /// The client's arguments.
    pub arguments: Arguments,
    /// The request.
    pub context: Context,
    pub(crate) instance: Option<Arc<dyn Any + Send + Sync>>,
}

/// How to build an injected parameter of type `T`, and what it needs: taken once per
/// parameter, so that a type that is not injectable is reported once.
pub struct Injector<T> {
    /// `T::inject`.
    pub inject: fn(&Context) -> Result<T, ToolOutput>,
    /// `T::require`.
    pub require: fn(&mut Requirements),
}

/// The injector of `T`.
pub const fn injector<T: Inject>() -> Injector<T> {
    Injector {
        inject: T::inject,
        require: T::require,
    }
}

impl Invocation {
    /// Builds an injected parameter.
    pub fn inject<T>(&self, injector: Injector<T>) -> Result<T, ToolOutput> {
        (injector.inject)(&self.context)
    }

    /// The instance a `#[mcp_tool_type]` method is called on.
    pub fn instance(&self) -> Arc<dyn Any + Send + Sync> {
        Arc::clone(
            self.instance
                .as_ref()
                .expect("method tools are registered with their instance"),
        )
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
    /// The source file of the definition.
    pub file: &'static str,
    /// The line of the definition.
    pub line: u32,
}

impl ToolSpec {
    /// `file:line` of the definition.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Implemented by the type that `#[mcp_tool]` defines beside each tool function, under the
/// function's name: `Server::tool::<add>()` registers the tool of `fn add`.
pub trait Tool {
    /// The tool's spec.
    fn spec() -> &'static ToolSpec;
}

/// A tool registered for discovery: every `#[mcp_tool]` function submits one.
pub struct Registration(pub &'static ToolSpec);

inventory::collect!(Registration);

/// Every tool linked into the program.
pub(crate) fn discovered() -> impl Iterator<Item = &'static ToolSpec> {
    inventory::iter::<Registration>.into_iter().map(|r| r.0)
}

/// A `#[mcp_tool]` method of a `#[mcp_tool_type]` impl block, registered under its type.
pub struct MethodRegistration {
    /// The type whose method it is.
    pub owner: fn() -> TypeId,
    /// The tool.
    pub spec: &'static ToolSpec,
}

inventory::collect!(MethodRegistration);

/// Every tool method of type `T`, from all of its `#[mcp_tool_type]` impl blocks.
pub(crate) fn methods_of(owner: TypeId) -> impl Iterator<Item = &'static ToolSpec> {
    inventory::iter::<MethodRegistration>
        .into_iter()
        .filter(move |r| (r.owner)() == owner)
        .map(|r| r.spec)
}

/// A tool as the server serves it: the spec plus schemas generated once at start-up.
pub(crate) struct ToolDef {
    pub(crate) spec: &'static ToolSpec,
    pub(crate) input_schema: Value,
    pub(crate) output_schema: Option<Value>,
    pub(crate) instance: Option<Arc<dyn Any + Send + Sync>>,
}

impl ToolDef {
    pub(crate) fn new(
        spec: &'static ToolSpec,
        instance: Option<Arc<dyn Any + Send + Sync>>,
    ) -> ToolDef {
        let input_schema = schema::finish_root((spec.input_schema)(&mut schema::input_generator()));
        let output_schema =
            (spec.output_schema)(&mut schema::output_generator()).map(schema::finish_root);
        ToolDef {
            spec,
            input_schema,
            output_schema,
            instance,
        }
    }

    /// The output schema advertised to clients that can only take an object root (all
    /// revisions before 2026-07-28). A non-object output is sent as text alone.
    pub(crate) fn object_output_schema(&self) -> Option<&Value> {
        self.output_schema
            .as_ref()
            .filter(|s| schema::is_object_root(s))
    }
}
