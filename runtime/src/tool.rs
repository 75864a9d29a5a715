//! Tools as the server holds them: the static spec that `#[mcp_tool]` generates, and the
//! definition built from it when the server starts.

use std::any::{Any, TypeId};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::{Schema, SchemaGenerator};
use serde_json::Value;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::binding::Arguments;
use crate::constraints::Constraints;
use crate::context::{Context, Inject, Requirements};
use crate::error::Error;
use crate::output::ToolOutput;
use crate::protocol::{Era, ProtocolVersion};
use crate::schema::{self, Contract, OutputSchema, SchemaProfile};

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

/// Boxes a tool's future. Generated code calls it at the function's name, so a future that is
/// not `Send` (it holds an `Rc` or a `MutexGuard` across an `.await`) is reported there, with
/// the value and the `.await` that cause it.
pub fn tool_future<F: Future<Output = ToolOutput> + Send + 'static>(future: F) -> BoxFuture {
    Box::pin(future)
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
    /// An input schema written by hand (JSON text), served as written instead of a generated
    /// one.
    pub raw_input_schema: Option<&'static str>,
    /// Icons for clients to show (2025-11-25 on).
    pub icons: &'static [Icon],
    /// The tool's `_meta`, as a JSON object text (2025-06-18 on).
    pub meta: Option<&'static str>,
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

/// `specs` sorted by where they are defined: source file, then line. The order of link-time
/// registration is the linker's; this one is the author's, and the same on every build.
pub(crate) fn in_definition_order(
    specs: impl Iterator<Item = &'static ToolSpec>,
) -> impl Iterator<Item = &'static ToolSpec> {
    let mut specs: Vec<_> = specs.collect();
    specs.sort_by_key(|spec| (spec.file, spec.line));
    specs.into_iter()
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

/// An icon a client may show for a tool (`Icon` of 2025-11-25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `https:` or `data:` URI.
    pub src: &'static str,
    /// Its MIME type, like `image/png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<&'static str>,
    /// The sizes it fits, like `48x48` or `any`.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub sizes: &'static [&'static str],
    /// `light` or `dark`: the background it is made for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<&'static str>,
}

/// A tool as the server serves it: the spec plus what is derived from it once, at start-up.
pub(crate) struct ToolDef {
    pub(crate) spec: &'static ToolSpec,
    /// The input schema, parsed (binding errors read it).
    pub(crate) input_schema: Value,
    /// The input schema as served: generated and serialized, or the hand-written text.
    pub(crate) input_schema_json: Box<RawValue>,
    pub(crate) output: Option<OutputSchema>,
    /// What the input schema asks of values beyond their types, when it asks anything.
    pub(crate) constraints: Option<Arc<Constraints>>,
    pub(crate) meta: Option<Box<RawValue>>,
    pub(crate) instance: Option<Arc<dyn Any + Send + Sync>>,
}

impl ToolDef {
    pub(crate) fn new(
        spec: &'static ToolSpec,
        instance: Option<Arc<dyn Any + Send + Sync>>,
        profile: SchemaProfile,
    ) -> Result<ToolDef, Error> {
        let invalid = |problem: &str| Error::InvalidTool {
            tool: spec.name,
            location: spec.location(),
            problem: problem.to_owned(),
        };
        let input_schema_json = match spec.raw_input_schema {
            Some(text) => RawValue::from_string(compact_json(text))
                .map_err(|e| invalid(&format!("its input schema is not JSON: {e}")))?,
            None => {
                let mut generator = schema::input_generator();
                let generated = (spec.input_schema)(&mut generator);
                let generated = schema::with_definitions(generated, &mut generator);
                let value = schema::finish(generated, Contract::Input, profile);
                serde_json::value::to_raw_value(&value).expect("a schema serializes")
            }
        };
        let input_schema: Value =
            serde_json::from_str(input_schema_json.get()).expect("checked JSON");
        if !schema::is_object_root(&input_schema) {
            return Err(invalid(
                "its input schema must describe an object (`\"type\": \"object\"`); \
                 `Args<T>` needs a struct `T`",
            ));
        }
        let constraints = Constraints::new(&input_schema)
            .map_err(|problem| invalid(&problem))?
            .map(Arc::new);
        let mut generator = schema::output_generator();
        let output = (spec.output_schema)(&mut generator).map(|s| {
            let s = schema::with_definitions(s, &mut generator);
            OutputSchema::new(schema::finish(s, Contract::Output, profile))
        });
        let meta = match spec.meta {
            Some(text) => {
                let raw = RawValue::from_string(compact_json(text))
                    .ok()
                    .filter(|raw| raw.get().starts_with('{'))
                    .ok_or_else(|| invalid("its `meta` must be a JSON object"))?;
                Some(raw)
            }
            None => None,
        };
        Ok(ToolDef {
            spec,
            input_schema,
            input_schema_json,
            output,
            constraints,
            meta,
            instance,
        })
    }

    /// The output schema a revision advertises: the natural one on 2026-07-28, an object-rooted
    /// one on 2025-06-18 and 2025-11-25, none before.
    pub(crate) fn output_schema(&self, version: ProtocolVersion) -> Option<&Value> {
        let output = self.output.as_ref()?;
        match version.era() {
            Era::Modern => Some(&output.natural),
            Era::Legacy if version.has_structured_output() => Some(&output.object),
            Era::Legacy => None,
        }
    }

    /// Whether a value travels as `{"result": value}` under `version`.
    pub(crate) fn wraps_output(&self, version: ProtocolVersion) -> bool {
        version.era() == Era::Legacy && self.output.as_ref().is_some_and(|o| o.wrapped)
    }
}

/// JSON text without the whitespace between tokens, and nothing else changed: hand-written
/// schemas keep their key order, numbers and escapes exactly, and fit on one line.
fn compact_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::compact_json;

    #[test]
    fn compacting_keeps_every_token() {
        let text = "{\n  \"a b\": [1.50, 2e3],\n  \"q\\\" x\": \"\\u00e9 \"\n}";
        assert_eq!(
            compact_json(text),
            "{\"a b\":[1.50,2e3],\"q\\\" x\":\"\\u00e9 \"}"
        );
    }
}
