//! Tools as the server holds them: the static spec that `#[mcp_tool]` generates, and the
//! definition built from it when the server starts.

use std::future::Future;
use std::pin::Pin;

use schemars::{Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

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
    Sync(fn(Arguments) -> ToolOutput),
    /// An `async fn`.
    Async(fn(Arguments) -> BoxFuture),
}

/// The arguments of one call, as the client sent them.
#[derive(Debug, Default)]
pub struct Arguments {
    raw: Option<Box<RawValue>>,
}

impl Arguments {
    /// Arguments from a raw JSON object, or none.
    pub fn new(raw: Option<Box<RawValue>>) -> Arguments {
        Arguments { raw }
    }

    /// Deserializes the arguments into `T`; on failure, the result that tells the client which
    /// argument is wrong and what was expected.
    pub fn bind<T: DeserializeOwned>(&self) -> Result<T, ToolOutput> {
        let json = self.raw.as_deref().map_or("{}", RawValue::get);
        let mut de = serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(&mut de)
            .map_err(|e| ToolOutput::invalid_arguments(binding_message(&e)))
    }
}

fn binding_message(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let inner = e.inner().to_string();
    // serde_json appends a position in the arguments text, which means nothing to a model.
    let message = inner.rfind(" at line ").map_or(&*inner, |at| &inner[..at]);
    match e.path().to_string().as_str() {
        "." => format!("invalid arguments: {message}"),
        path => format!("invalid arguments: `{path}`: {message}"),
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

/// A tool as the server serves it: the spec plus schemas generated once at start-up.
pub(crate) struct ToolDef {
    pub(crate) spec: &'static ToolSpec,
    pub(crate) input_schema: Value,
    pub(crate) output_schema: Option<Value>,
}

impl ToolDef {
    pub(crate) fn new(spec: &'static ToolSpec) -> ToolDef {
        let input_schema = schema::finish_root((spec.input_schema)(&mut schema::input_generator()));
        let output_schema =
            (spec.output_schema)(&mut schema::output_generator()).map(schema::finish_root);
        ToolDef {
            spec,
            input_schema,
            output_schema,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Repr;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Args {
        a: i64,
        inner: Option<Inner>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        n: u8,
    }

    fn message(json: &str) -> String {
        let args = Arguments::new(Some(RawValue::from_string(json.into()).unwrap()));
        match args.bind::<Args>().unwrap_err().repr {
            Repr::InvalidArguments(m) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn binding_errors_name_the_path_and_the_type() {
        assert_eq!(message(r#"{}"#), "invalid arguments: missing field `a`");
        assert_eq!(
            message(r#"{"a":"x"}"#),
            "invalid arguments: `a`: invalid type: string \"x\", expected i64"
        );
        assert_eq!(
            message(r#"{"a":1,"inner":{"n":300}}"#),
            "invalid arguments: `inner.n`: invalid value: integer `300`, expected u8"
        );
        assert!(message(r#"{"a":1,"b":2}"#).contains("unknown field `b`"));
    }

    #[test]
    fn absent_arguments_are_an_empty_object() {
        #[derive(serde::Deserialize)]
        struct None_ {}
        assert!(Arguments::default().bind::<None_>().is_ok());
    }
}
