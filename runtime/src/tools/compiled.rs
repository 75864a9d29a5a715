//! What is derived from a tool's description once, when the server starts: its schemas as
//! served, the constraints its input schema asks for, the arguments it mirrors in headers.

use std::sync::Arc;

use schemars::{Schema, SchemaGenerator};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::ProtocolVersion;
use crate::tools::constraints::Constraints;
use crate::tools::headers::{self, ParamHeader};
use crate::tools::schema::{self, Contract, OutputSchema, SchemaProfile};

/// The parts of a tool's description its schemas come from.
pub(crate) struct Source<'a> {
    pub(crate) input_schema: fn(&mut SchemaGenerator) -> Schema,
    /// A hand-written input schema (JSON text), served as written instead of a generated one.
    pub(crate) raw_input_schema: Option<&'a str>,
    /// The tool's own choice on argument keys its schema does not list.
    pub(crate) ignore_unknown_arguments: Option<bool>,
    pub(crate) output_schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// An output schema given as JSON text, finished as a generated one is.
    pub(crate) raw_output_schema: Option<&'a str>,
    /// The arguments bind to no type: the input schema checks their shape.
    pub(crate) untyped_arguments: bool,
}

/// The server's choices that shape every tool's schemas.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Options {
    pub(crate) profile: SchemaProfile,
    /// Ignore argument keys a tool's schema does not list, unless the tool says otherwise.
    pub(crate) ignore_unknown_arguments: bool,
}

/// A tool's schemas and constraints, ready to serve.
pub(crate) struct Compiled {
    /// The input schema, parsed (binding errors read it, and binding decodes arguments sent
    /// as JSON text by it).
    pub(crate) input_schema: Arc<Value>,
    /// The input schema as served: generated and serialized, or the hand-written text.
    pub(crate) input_schema_json: Box<RawValue>,
    pub(crate) output: Option<OutputSchema>,
    /// What the input schema asks of values beyond their types, when it asks anything.
    pub(crate) constraints: Option<Arc<Constraints>>,
    /// The arguments HTTP clients also send as `Mcp-Param-*` headers (checked whatever the
    /// transport: a tool with an invalid declaration is invalid).
    pub(crate) headers: Vec<ParamHeader>,
    /// The argument names the input schema lists, when keys beside them are ignored rather
    /// than refused.
    pub(crate) known_arguments: Option<Arc<[String]>>,
}

impl Compiled {
    /// Generates and checks everything once; `Err` says what is wrong, for the server to report
    /// with the tool's name and location.
    pub(crate) fn new(source: &Source, options: Options) -> Result<Compiled, String> {
        let profile = options.profile;
        let ignore_unknown = source
            .ignore_unknown_arguments
            .unwrap_or(options.ignore_unknown_arguments);
        let input_schema_json = match source.raw_input_schema {
            Some(text) => RawValue::from_string(compact_json(text))
                .map_err(|e| format!("its input schema is not JSON: {e}"))?,
            None => {
                let mut generator = schema::input_generator();
                let generated = (source.input_schema)(&mut generator);
                let generated = schema::with_definitions(generated, &mut generator);
                let mut value = schema::finish(generated, Contract::Input, profile);
                if ignore_unknown {
                    schema::open_arguments(&mut value);
                }
                serde_json::value::to_raw_value(&value).expect("a schema serializes")
            }
        };
        let input_schema: Value =
            serde_json::from_str(input_schema_json.get()).expect("checked JSON");
        if !schema::is_object_root(&input_schema) {
            return Err(
                "its input schema must describe an object (`\"type\": \"object\"`); \
                        `Args<T>` needs a struct `T`"
                    .to_owned(),
            );
        }
        let constraints = match source.untyped_arguments {
            true => Some(Constraints::shaped(&input_schema)?),
            false => Constraints::new(&input_schema)?,
        };
        let constraints = constraints.map(Arc::new);
        let headers = headers::declared(&input_schema)?;
        let mut generator = schema::output_generator();
        let output = match source.raw_output_schema {
            Some(text) => Some(
                serde_json::from_str::<Schema>(text)
                    .map_err(|e| format!("its output schema is not a JSON Schema: {e}"))?,
            ),
            None => (source.output_schema)(&mut generator)
                .map(|s| schema::with_definitions(s, &mut generator)),
        };
        let output =
            output.map(|s| OutputSchema::new(schema::finish(s, Contract::Output, profile)));
        let known_arguments = ignore_unknown
            .then(|| schema::property_names(&input_schema))
            .flatten();
        Ok(Compiled {
            known_arguments,
            input_schema: Arc::new(input_schema),
            input_schema_json,
            output,
            constraints,
            headers,
        })
    }

    /// The output schema a revision advertises: the natural one on 2026-07-28, an object-rooted
    /// one on 2025-06-18 and 2025-11-25, none before.
    pub(crate) fn output_schema(&self, version: ProtocolVersion) -> Option<&Value> {
        if !version.has_structured_output() {
            return None;
        }
        let output = self.output.as_ref()?;
        match version.output_may_be_any_value() {
            true => Some(&output.natural),
            false => Some(&output.object),
        }
    }

    /// Whether a value travels as `{"result": value}` under `version`.
    pub(crate) fn wraps_output(&self, version: ProtocolVersion) -> bool {
        !version.output_may_be_any_value() && self.output.as_ref().is_some_and(|o| o.wrapped)
    }
}

/// An item's `_meta`, written by hand as JSON text: compacted onto one line (a response is one
/// line), and refused unless it is an object.
pub(crate) fn meta_object(text: &str) -> Result<Box<RawValue>, &'static str> {
    RawValue::from_string(compact_json(text))
        .ok()
        .filter(|raw| raw.get().starts_with('{'))
        .ok_or("its `meta` must be a JSON object")
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
