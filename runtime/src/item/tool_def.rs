//! Items made while the program runs, by value: [`ToolDef`], a tool whose name, texts, schemas
//! and handler are values rather than a function the macros read. It becomes the same
//! [`ToolSpec`] a generated tool has, so the server checks and serves it the same way: its
//! name, its schemas, a clash with another tool, each revision's output rules.

use std::borrow::Cow;
use std::future::Future;
use std::panic::Location;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::call::context::Context;
use crate::item::defined::{self, Defined};
use crate::item::handler::{BoxFuture, Handler, Instance, Invocation};
use crate::item::tool::{TaskSupport, ToolSpec};
use crate::protocol::wire::Annotations;
use crate::tools::IntoToolOutput;
use crate::tools::error::ToolError;
use crate::tools::output::ToolOutput;
use crate::tools::schema::whole_input_schema;

/// A tool made at run time: its name, texts, JSON Schemas and annotations are values, and its
/// handler an async closure that takes the arguments as a JSON value and the call's
/// [`Context`]. Serve it with [`Server::tool_def`](crate::Server::tool_def) or add it while
/// serving with [`ServerHandle::add_tool_def`](crate::ServerHandle::add_tool_def).
///
/// It passes every check a `#[mcp_tool]` passes, when the server is built or the tool added:
/// the name rules, an input schema that describes an object, an output schema that is a JSON
/// Schema, `_meta` that is an object, a name no other tool has. Arguments are checked against
/// the input schema before the handler runs (types, required and unknown fields, and the
/// constraint keywords a generated tool's schema has enforced), so the handler sees only
/// arguments the schema admits.
///
/// ```
/// use serde_json::{Value, json};
/// use toolwright_runtime::{Context, Server, ToolDef, ToolError};
///
/// let shout = ToolDef::new("shout", |arguments: Value, _: Context| async move {
///     let text = arguments["text"].as_str().unwrap_or_default();
///     Ok::<_, ToolError>(text.to_uppercase())
/// })
/// .description("Says the text louder.")
/// .input_schema(json!({
///     "type": "object",
///     "properties": {"text": {"type": "string"}},
///     "required": ["text"]
/// }))
/// .read_only(true);
/// let server = Server::new("shout", "1").tool_def(shout);
/// # drop(server);
/// ```
pub struct ToolDef {
    pub(crate) spec: ToolSpec,
    pub(crate) handler: Instance,
}

impl ToolDef {
    defined::header_setters!(ToolDef, "tool");

    /// A tool named `name` whose calls `handler` answers: with what a `#[mcp_tool]` function
    /// may return on success (text, content blocks, [`Json`](crate::tools::Json),
    /// [`ToolOutput`]), or an error the client reads (`ToolError`, `String`, `&str`, or a
    /// type with `From<E> for ToolError`). Until [`input_schema`](Self::input_schema) says
    /// otherwise it takes no arguments, as a function without parameters: its schema is the
    /// one such a `#[mcp_tool]` lists.
    #[track_caller]
    pub fn new<F, Fut, O, E>(name: impl Into<Cow<'static, str>>, handler: F) -> ToolDef
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: IntoToolOutput,
        E: Into<ToolError>,
    {
        let handler = Arc::new(Defined::new(handler, finish::<O, E>));
        ToolDef::made(name.into(), Location::caller(), handler, Arguments::Value)
    }

    /// A tool named `name` whose arguments bind to `A`, as those of a `#[mcp_tool]` function
    /// that takes one [`Args<A>`](crate::tools::Args) do: its input schema is `A`'s, closed to
    /// properties `A` does not list (until [`input_schema`](Self::input_schema) gives another),
    /// a field `A` would ignore is refused by name, and `handler` gets the value. For a tool
    /// whose name, texts or schema are decided at run time but whose arguments have a Rust
    /// type; it costs a call what the generated tool costs, where one that takes a JSON value
    /// pays for the value and for checking it against the schema. A type with
    /// `#[serde(deny_unknown_fields)]` refuses unknown fields itself, and is bound by serde
    /// alone, as the parameters of a `#[mcp_tool]` function are; any other is watched for
    /// fields it would ignore, as an `Args<A>` is.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::Deserialize;
    /// use toolwright_runtime::{Context, Server, ToolDef, ToolError};
    ///
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Query {
    ///     /// What to look for.
    ///     text: String,
    /// }
    ///
    /// let table = "orders";
    /// let search = ToolDef::typed(format!("search_{table}"), move |query: Query, _: Context| {
    ///     async move { Ok::<_, ToolError>(format!("{table}: {}", query.text)) }
    /// })
    /// .description(format!("Searches the {table} table."));
    /// let server = Server::new("tables", "1").tool_def(search);
    /// # drop(server);
    /// ```
    #[track_caller]
    pub fn typed<A, F, Fut, O, E>(name: impl Into<Cow<'static, str>>, handler: F) -> ToolDef
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        F: Fn(A, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: IntoToolOutput,
        E: Into<ToolError>,
    {
        let handler = Arc::new(Defined::<ToolOutput, A>::new(handler, finish::<O, E>));
        // A type that refuses unknown fields itself (`#[serde(deny_unknown_fields)]`, which
        // schemars says as `additionalProperties: false`) is bound by serde alone, as the
        // struct a `#[mcp_tool]` derives is; any other is watched for fields it would ignore.
        let closed = schemars::schema_for!(A).get("additionalProperties") == Some(&false.into());
        let call = match closed {
            true => call_typed::<A, true> as Call,
            false => call_typed::<A, false>,
        };
        let arguments = Arguments::Typed(whole_input_schema::<A>, call);
        ToolDef::made(name.into(), Location::caller(), handler, arguments)
    }

    /// The tool of a closure, its arguments taken as `arguments` says.
    fn made(
        name: Cow<'static, str>,
        site: &'static Location<'static>,
        handler: Instance,
        arguments: Arguments,
    ) -> ToolDef {
        let (input_schema, call, untyped_arguments) = match arguments {
            Arguments::Value => (no_arguments as SchemaOf, call as Call, true),
            Arguments::Typed(schema, call) => (schema, call, false),
        };
        ToolDef {
            spec: ToolSpec {
                header: defined::header(name, site),
                annotations: Annotations::default(),
                input_schema,
                output_schema: no_output_schema,
                handler: Handler::Async(call),
                raw_input_schema: None,
                raw_output_schema: None,
                untyped_arguments,
                ignore_unknown_arguments: None,
                task: TaskSupport::Forbidden,
                task_ttl_ms: None,
            },
            handler,
        }
    }

    /// Whether it runs as a task ([`TaskSupport`]), as `#[mcp_tool(task = "optional")]` says:
    /// a client that can follow one gets a task at once and polls it while the closure runs.
    pub fn task(mut self, support: TaskSupport) -> ToolDef {
        self.spec.task = support;
        self
    }

    /// How long its tasks are kept, from their creation (the server's choice otherwise).
    pub fn task_ttl_ms(mut self, ttl_ms: u64) -> ToolDef {
        self.spec.task_ttl_ms = Some(ttl_ms);
        self
    }

    /// The JSON Schema of its arguments: an object schema, served as given.
    pub fn input_schema(mut self, schema: Value) -> ToolDef {
        self.spec.raw_input_schema = Some(Cow::Owned(schema.to_string()));
        self
    }

    /// The JSON Schema of its structured result. Served as a generated one is: wrapped as
    /// `{"result": ...}` for the revisions that need an object, when it is not one.
    pub fn output_schema(mut self, schema: Value) -> ToolDef {
        self.spec.raw_output_schema = Some(Cow::Owned(schema.to_string()));
        self
    }

    /// `readOnlyHint`: it does not change its environment.
    pub fn read_only(mut self, hint: bool) -> ToolDef {
        self.spec.annotations.read_only = Some(hint);
        self
    }

    /// `destructiveHint`: it may change its environment destructively.
    pub fn destructive(mut self, hint: bool) -> ToolDef {
        self.spec.annotations.destructive = Some(hint);
        self
    }

    /// `idempotentHint`: calling it again with the same arguments changes nothing more.
    pub fn idempotent(mut self, hint: bool) -> ToolDef {
        self.spec.annotations.idempotent = Some(hint);
        self
    }

    /// `openWorldHint`: it reaches an open world of entities (the web, say).
    pub fn open_world(mut self, hint: bool) -> ToolDef {
        self.spec.annotations.open_world = Some(hint);
        self
    }
}

type SchemaOf = fn(&mut schemars::SchemaGenerator) -> schemars::Schema;
type Call = fn(Invocation) -> BoxFuture<ToolOutput>;

/// How a run-time tool takes its arguments.
enum Arguments {
    /// As the JSON value its input schema admits (no arguments until a schema is given).
    Value,
    /// Bound to a type: its schema, and the handler that binds them.
    Typed(SchemaOf, Call),
}

/// What a run-time tool's closure returned, as the tool's output.
fn finish<O: IntoToolOutput, E: Into<ToolError>>(result: Result<O, E>) -> ToolOutput {
    match result {
        Ok(output) => output.into_tool_output(),
        Err(error) => error.into().into_output(),
    }
}

/// The input schema of a tool without arguments, finished by the server as a generated one's
/// (so that `Server::ignore_unknown_arguments` opens it as it opens theirs).
fn no_arguments(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object", "additionalProperties": false})
}

/// A run-time tool has no output schema until one is given as a value.
fn no_output_schema(_: &mut schemars::SchemaGenerator) -> Option<schemars::Schema> {
    None
}

/// The handler every run-time tool shares: its arguments bound as the JSON value its input
/// schema admits, then its own closure.
fn call(invocation: Invocation) -> BoxFuture<ToolOutput> {
    let arguments = match invocation.arguments.bind_value() {
        Ok(arguments) => arguments,
        Err(refused) => return Box::pin(std::future::ready(refused)),
    };
    run::<Value>(invocation, arguments)
}

/// The handler of a tool whose arguments bind to `A` ([`ToolDef::typed`]): by serde alone for
/// a type that refuses unknown fields itself (`CLOSED`), watched for ignored fields otherwise.
fn call_typed<A: DeserializeOwned + Send + 'static, const CLOSED: bool>(
    invocation: Invocation,
) -> BoxFuture<ToolOutput> {
    let bound = match CLOSED {
        true => invocation.arguments.bind::<A>(),
        false => invocation.arguments.bind_whole::<A>(),
    };
    match bound {
        Ok(arguments) => run::<A>(invocation, arguments),
        Err(refused) => Box::pin(std::future::ready(refused)),
    }
}

/// The tool's closure on its bound `arguments`, given the request's context (moved, not
/// cloned: the invocation ends here).
fn run<A: 'static>(invocation: Invocation, arguments: A) -> BoxFuture<ToolOutput> {
    let Invocation {
        context, instance, ..
    } = invocation;
    let defined = instance
        .as_ref()
        .and_then(|instance| instance.downcast_ref::<Defined<ToolOutput, A>>())
        .expect("a run-time tool is registered with its closure");
    defined.call(arguments, context)
}
