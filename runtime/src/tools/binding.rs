//! Binding the client's arguments: deserializing them, and saying precisely what is wrong when
//! they do not fit, so that a model can correct its call.

use std::borrow::Cow;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::protocol::jsonrpc::without_position;
use crate::protocol::quote::quoted;
use crate::tools::bind_error::{BindError, expected, resolve, schema_at};
use crate::tools::constraints::Constraints;
use crate::tools::output::ToolOutput;

/// The arguments of one call, as the client sent them.
#[derive(Default)]
pub struct Arguments {
    raw: Option<Box<RawValue>>,
    /// The tool's input schema's constraints, when it has any.
    constraints: Option<Arc<Constraints>>,
    /// The tool's input schema, when arguments sent as JSON text are decoded by it.
    decoding: Option<Arc<Value>>,
    /// The argument names the tool knows, when it ignores the others.
    known: Option<Arc<[String]>>,
    /// Every value came as a string (a prompt's arguments, a URI's variables): a value that
    /// does not bind is described by what it must look like, not by JSON types.
    strings: bool,
}

impl std::fmt::Debug for Arguments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Arguments").field(&self.json()).finish()
    }
}

impl Arguments {
    /// Arguments from a raw JSON object, or none.
    pub fn new(raw: Option<Box<RawValue>>) -> Arguments {
        Arguments {
            raw,
            constraints: None,
            decoding: None,
            known: None,
            strings: false,
        }
    }

    /// The same arguments, each value of which the client sent as a string.
    pub(crate) fn sent_as_strings(mut self) -> Arguments {
        self.strings = true;
        self
    }

    /// The same arguments, checked against `constraints` once they bind.
    pub(crate) fn constrained(mut self, constraints: Option<Arc<Constraints>>) -> Arguments {
        self.constraints = constraints;
        self
    }

    /// The same arguments, where a string stands for a value of another type the input schema
    /// asks for (`"[1, 2]"` for an array, `"true"` for a boolean), decoded: models often send
    /// them so. A string stays a string where the schema allows one.
    pub(crate) fn decoding(mut self, input_schema: Option<Arc<Value>>) -> Arguments {
        self.decoding = input_schema;
        self
    }

    /// The same arguments, where keys other than `known` are dropped rather than refused.
    pub(crate) fn ignoring_unknown(mut self, known: Option<Arc<[String]>>) -> Arguments {
        self.known = known;
        self
    }

    fn json(&self) -> &str {
        self.raw.as_deref().map_or("{}", RawValue::get)
    }

    /// The arguments as JSON text (`{}` when the client sent none).
    pub(crate) fn as_json(&self) -> &str {
        self.json()
    }

    /// Deserializes the arguments into `T`, which rejects unknown fields itself (the struct
    /// `#[mcp_tool]` generates does), then checks the input schema's constraints.
    pub fn bind<T: DeserializeOwned>(&self) -> Result<T, ToolOutput> {
        self.bind_with(|json| serde_json::from_str(json).map_err(|e| locate::<T>(json, &e)))
    }

    /// Deserializes the arguments into `T` (an [`Args<T>`] struct) and rejects any field `T`
    /// ignored: a misspelt optional argument must not vanish silently.
    pub fn bind_whole<T: DeserializeOwned>(&self) -> Result<T, ToolOutput> {
        self.bind_with(|json| {
            let mut ignored = Vec::new();
            let mut record = |path: serde_ignored::Path<'_>| ignored.push(path.to_string());
            let mut de = serde_json::Deserializer::from_str(json);
            let value = serde_ignored::deserialize(&mut de, &mut record)
                .map_err(|e| locate::<T>(json, &e))?;
            match ignored.first() {
                None => Ok(value),
                Some(path) => {
                    // serde_ignored marks the inside of an `Option` with `?`.
                    let path = path.replace(".?", "").replace("?.", "");
                    let (parent, field) = path.rsplit_once('.').unwrap_or((".", &path));
                    let message = format!("unknown field `{}`", quoted(field));
                    Err(ToolOutput::invalid_arguments(BindError::new(
                        parent, &message,
                    )))
                }
            }
        })
    }

    /// The arguments as the JSON value they are (a tool made at run time, whose arguments no
    /// type shapes), without the keys the tool ignores, checked against its input schema once:
    /// the constraints are [`Constraints::shaped`] for such a tool.
    pub(crate) fn bind_value(&self) -> Result<Value, ToolOutput> {
        let json = self.json();
        let mut arguments: Value =
            serde_json::from_str(json).map_err(|e| locate::<Value>(json, &e))?;
        if let (Some(known), Value::Object(map)) = (&self.known, &mut arguments) {
            map.retain(|key, _| known.iter().any(|k| k == key));
        }
        if let Some(constraints) = &self.constraints {
            constraints
                .check(&arguments)
                .map_err(|v| ToolOutput::invalid_arguments(BindError::new(&v.path, &v.message)))?;
        }
        Ok(arguments)
    }

    /// Binds with `bind` (without the keys the tool ignores, if it has any), retrying once with
    /// the values the schema allows but serde does not (see [`rewritten`]), then checks the
    /// constraints.
    fn bind_with<T>(&self, bind: impl Fn(&str) -> Result<T, ToolOutput>) -> Result<T, ToolOutput> {
        match self.strings {
            true => self.bind_once(bind).map_err(|error| self.restated(error)),
            false => self.bind_once(bind),
        }
    }

    /// A value sent as a string that did not bind, said as what it must look like: "must be
    /// an integer of at least 0 (decimal digits, no leading zero), not `01`".
    #[cold]
    fn restated(&self, refused: ToolOutput) -> ToolOutput {
        let Some(schema) = self.decoding.as_deref() else {
            return refused;
        };
        let error = match refused.into_bind_error() {
            Ok(error) => error,
            Err(other) => return other,
        };
        let sent: Option<Value> = serde_json::from_str(self.json()).ok();
        let value = sent
            .as_ref()
            .and_then(|v| v.get(&error.path))
            .and_then(Value::as_str);
        let expected =
            schema_at(schema, schema, &[error.path.as_str()]).and_then(|at| expected(schema, at));
        match (value, expected) {
            (Some(value), Some(expected)) => {
                let message = format!("must be {expected}, not `{}`", quoted(value));
                ToolOutput::invalid_arguments(BindError::new(&error.path, &message))
            }
            _ => ToolOutput::invalid_arguments(error),
        }
    }

    fn bind_once<T>(&self, bind: impl Fn(&str) -> Result<T, ToolOutput>) -> Result<T, ToolOutput> {
        let mut json = Cow::Borrowed(self.json());
        let mut first = bind(&json);
        if let (Err(_), Some(known)) = (&first, &self.known)
            && let Some(known_only) = without_unknown(&json, known)
        {
            json = Cow::Owned(known_only);
            first = bind(&json);
        }
        let value = match first {
            Ok(value) => value,
            Err(error) => match rewritten(&json, self.decoding.as_deref()) {
                Some(rewritten) => {
                    let value = bind(&rewritten).map_err(|again| remaining(error, again))?;
                    json = Cow::Owned(rewritten);
                    value
                }
                None => return Err(error),
            },
        };
        if let Some(constraints) = &self.constraints {
            let arguments: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
            constraints
                .check(&arguments)
                .map_err(|v| ToolOutput::invalid_arguments(BindError::new(&v.path, &v.message)))?;
        }
        Ok(value)
    }
}

/// What to tell the client when the arguments fail as sent (`first`) and again once rewritten
/// (`again`): the first error where both name the same value, which it shows as the client sent
/// it; else the second, since the rewrite mended the value the first names and what is left is
/// what the client must fix.
fn remaining(first: ToolOutput, again: ToolOutput) -> ToolOutput {
    match (first.bind_error_path(), again.bind_error_path()) {
        (Some(a), Some(b)) if a == b => first,
        _ => again,
    }
}

/// The error of arguments that did not bind, with where it is. Binding tracks no path
/// (tracking made it 2.4 to 3.4 times slower, see `benches/hot_path.rs`), so the failed binding
/// is repeated once with tracking; deserializing is deterministic, so it fails at the same
/// place.
#[cold]
fn locate<T: DeserializeOwned>(json: &str, first: &serde_json::Error) -> ToolOutput {
    let mut de = serde_json::Deserializer::from_str(json);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Err(e) => invalid(&e),
        Ok(_) => ToolOutput::invalid_arguments(BindError::new(".", &without_position(first))),
    }
}

/// The arguments object `json` without the keys that are not `known`, or `None` when it has
/// none of those.
#[cold]
fn without_unknown(json: &str, known: &[String]) -> Option<String> {
    let mut arguments: serde_json::Map<String, Value> = serde_json::from_str(json).ok()?;
    let before = arguments.len();
    arguments.retain(|key, _| known.iter().any(|k| k == key));
    (arguments.len() < before).then(|| Value::Object(arguments).to_string())
}

/// `json` with what a first binding refused but the input schema allows rewritten, or `None`
/// when there is nothing to rewrite: strings that hold JSON of the type the schema asks for
/// (when `decoding`), and floats with no fractional part (`2.0`, `1e3`), which are integers to
/// JSON Schema but not to serde.
#[cold]
fn rewritten(json: &str, decoding: Option<&Value>) -> Option<String> {
    let mut value: Value = serde_json::from_str(json).ok()?;
    let decoded = decoding.is_some_and(|schema| decode(schema, schema, &mut value));
    (integral(&mut value) | decoded).then(|| value.to_string())
}

/// Decodes, in `value` as described by `schema`, each string that the schema does not allow
/// and that holds JSON of a type it does allow. Whether anything changed.
fn decode(root: &Value, schema: &Value, value: &mut Value) -> bool {
    match value {
        Value::String(text) => {
            if admits(root, schema, "string") {
                return false;
            }
            let Ok(parsed) = serde_json::from_str::<Value>(text) else {
                return false;
            };
            // An integer beyond 64 bits parses as a float, which has lost its digits: it stays
            // a string, and the binding says what it should be, rather than bind another number.
            if parsed.is_f64() && !text.contains(['.', 'e', 'E']) {
                return false;
            }
            let kind = match &parsed {
                Value::Array(_) => "array",
                Value::Object(_) => "object",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_f64() => "number",
                Value::Number(_) => "integer",
                Value::Null | Value::String(_) => return false,
            };
            // Integers are numbers, and a whole number is an integer (`"3.0"` for an integer).
            let whole = parsed.as_f64().is_some_and(|f| f.fract() == 0.0);
            let fits = admits(root, schema, kind)
                || (kind == "integer" && admits(root, schema, "number"))
                || (kind == "number" && whole && admits(root, schema, "integer"));
            if fits {
                *value = parsed;
            }
            fits
        }
        Value::Object(fields) => {
            fields.iter_mut().fold(false, |any, (name, field)| {
                match schema_at(root, schema, &[name.as_str()]) {
                    Some(inner) => decode(root, inner, field) | any,
                    None => any,
                }
            })
        }
        Value::Array(items) => match schema_at(root, schema, &["0"]) {
            Some(inner) => items
                .iter_mut()
                .fold(false, |any, item| decode(root, inner, item) | any),
            None => false,
        },
        _ => false,
    }
}

/// Whether `schema` says a value may be of JSON type `kind`, in one of its alternatives. A
/// schema that names no type (`{}`, a `const`) is taken to allow a string, so that nothing is
/// decoded where the author may have meant text.
fn admits(root: &Value, schema: &Value, kind: &str) -> bool {
    let schema = resolve(root, schema);
    let alternatives: Vec<&Value> = ["anyOf", "oneOf", "allOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .collect();
    let typed = match schema.get("type") {
        Some(Value::String(t)) => Some(t == kind),
        Some(Value::Array(types)) => Some(types.iter().any(|t| t == kind)),
        _ => None,
    };
    match typed {
        Some(true) => true,
        Some(false) => alternatives.iter().any(|a| admits(root, a, kind)),
        None if alternatives.is_empty() => kind == "string",
        None => alternatives.iter().any(|a| admits(root, a, kind)),
    }
}

/// Writes every float in `value` that has no fractional part as an integer. Whether any was.
fn integral(value: &mut Value) -> bool {
    fn rewrite(value: &mut Value) -> bool {
        match value {
            Value::Number(n) if n.is_f64() => {
                let f = n.as_f64().unwrap_or(f64::NAN);
                let integer = if f.fract() != 0.0 {
                    None
                // Strictly inside the 64-bit ranges: at their ends a float stands for a number
                // beyond them too, which must not bind as the end itself.
                } else if f >= 0.0 && f < u64::MAX as f64 {
                    Some(serde_json::Number::from(f as u64))
                } else if f < 0.0 && f > i64::MIN as f64 {
                    Some(serde_json::Number::from(f as i64))
                } else {
                    None
                };
                integer.map(|i| *n = i).is_some()
            }
            Value::Array(items) => items.iter_mut().fold(false, |any, v| rewrite(v) | any),
            Value::Object(map) => map.values_mut().fold(false, |any, v| rewrite(v) | any),
            _ => false,
        }
    }
    rewrite(value)
}

fn invalid(e: &serde_path_to_error::Error<serde_json::Error>) -> ToolOutput {
    let path = e.path().to_string();
    ToolOutput::invalid_arguments(BindError::new(&path, &without_position(e.inner())))
}

/// Takes the whole arguments object as one struct, for authors who prefer to describe a tool's
/// input as a type: `fn search(args: Args<SearchQuery>)`.
///
/// `T` must deserialize from, and describe, a JSON object. Fields that `T` does not know are
/// rejected with an error naming them, as for tools with one parameter per argument.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Args<T>(pub T);

impl<T> Args<T> {
    /// The arguments struct.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Args<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Args<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::output::Repr;
    use serde_json::json;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        a: i64,
        inner: Option<Inner>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Inner {
        n: u8,
        tags: Vec<String>,
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "inner": {"anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}]}
            },
            "$defs": {"Inner": {"type": "object", "properties": {
                "n": {"type": "integer"}, "tags": {"type": "array"}
            }}}
        })
    }

    fn message(result: Result<impl std::fmt::Debug, ToolOutput>) -> String {
        match result.unwrap_err().repr {
            Repr::InvalidArguments(e) => e.describe(&schema()),
            other => panic!("{other:?}"),
        }
    }

    fn args(json: &str) -> Arguments {
        Arguments::new(Some(RawValue::from_string(json.into()).unwrap()))
    }

    #[test]
    fn errors_name_the_path_and_the_expected_type() {
        assert_eq!(
            message(args("{}").bind::<Strict>()),
            "invalid arguments: missing field `a`, expected an integer"
        );
        assert_eq!(
            message(args(r#"{"a":"x"}"#).bind::<Strict>()),
            "invalid arguments: `a`: invalid type: string \"x\", expected i64"
        );
        assert_eq!(
            message(args(r#"{"a":1,"inner":{"n":300,"tags":[]}}"#).bind::<Strict>()),
            "invalid arguments: `inner.n`: invalid value: integer `300`, expected u8"
        );
        assert_eq!(
            message(args(r#"{"a":1,"inner":{"n":3}}"#).bind::<Strict>()),
            "invalid arguments: `inner`: missing field `tags`, expected an array"
        );
        assert!(message(args(r#"{"a":1,"b":2}"#).bind::<Strict>()).contains("unknown field `b`"));
    }

    #[test]
    fn whole_structs_reject_fields_they_ignore() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Lenient {
            a: i64,
            inner: Option<Inner>,
        }
        assert!(args(r#"{"a":1}"#).bind_whole::<Lenient>().is_ok());
        assert_eq!(
            message(args(r#"{"a":1,"limt":5}"#).bind_whole::<Lenient>()),
            "invalid arguments: unknown field `limt`"
        );
        assert_eq!(
            message(args(r#"{"a":1,"inner":{"n":1,"tags":[],"x":0}}"#).bind_whole::<Lenient>()),
            "invalid arguments: `inner`: unknown field `x`"
        );
    }

    #[test]
    fn integral_floats_bind_as_integers() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Counts {
            a: i64,
            b: u8,
            c: f64,
            d: Vec<u32>,
        }
        let bound = args(r#"{"a":-2.0,"b":1e2,"c":2.5,"d":[1.0,2]}"#).bind::<Counts>();
        assert_eq!(
            bound.unwrap(),
            Counts {
                a: -2,
                b: 100,
                c: 2.5,
                d: vec![1, 2]
            }
        );
        assert_eq!(
            message(args(r#"{"a":2.5,"inner":null}"#).bind::<Strict>()),
            "invalid arguments: `a`: invalid type: floating point `2.5`, expected i64"
        );
    }

    #[test]
    fn numbers_beyond_64_bits_bind_exactly_or_are_refused_never_changed() {
        #[derive(serde::Deserialize, Debug)]
        struct Big {
            n: u128,
        }
        // As JSON, serde reads the digits themselves.
        let exact = args(r#"{"n":18446744073709551617}"#).bind::<Big>().unwrap();
        assert_eq!(exact.n, 18_446_744_073_709_551_617);
        // As text, it would go through a float that has lost them.
        for json in [
            r#"{"n":"18446744073709551617"}"#,
            r#"{"n":"340282366920938463463374607431768211455"}"#,
        ] {
            let mut bound = args(json);
            bound.decoding = Some(Arc::new(serde_json::json!({
                "type": "object",
                "properties": {"n": {"type": "integer", "format": "uint128"}}
            })));
            assert!(bound.bind::<Big>().is_err(), "{json}");
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code, reason = "bound, never read")]
        struct Small {
            m: i64,
        }
        assert!(
            args(r#"{"m":-9223372036854775809}"#)
                .bind::<Small>()
                .is_err()
        );
    }

    #[test]
    fn absent_arguments_are_an_empty_object() {
        #[derive(serde::Deserialize)]
        struct Empty {}
        assert!(Arguments::default().bind::<Empty>().is_ok());
    }
}
