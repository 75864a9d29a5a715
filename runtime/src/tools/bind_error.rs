//! Why arguments did not bind, and how to say so: the path, serde's message, and for a missing
//! field the type the input schema asks for.

use serde_json::Value;

use crate::protocol::quote::{quoted, shortened};

/// The longest message of serde's a binding error keeps: serde quotes the value it refused,
/// which may be as long as the client made it.
const MESSAGE: usize = 300;

/// Why arguments did not bind: where, and what serde said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BindError {
    /// `.` for the arguments object itself, else a path like `items[2].name`.
    pub(crate) path: String,
    pub(crate) message: String,
}

impl BindError {
    /// The error at `path`, both it and serde's `message` within bounds.
    pub(crate) fn new(path: &str, message: &str) -> BindError {
        BindError {
            path: quoted(path).into_owned(),
            message: shortened(message, MESSAGE).into_owned(),
        }
    }

    /// The message for the client. A missing field says what type it wants, from the schema.
    pub(crate) fn describe(&self, input_schema: &Value) -> String {
        let mut message = self.message.clone();
        let missing = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'));
        if let Some(field) = missing {
            let mut path = segments(&self.path);
            path.push(field);
            if let Some(expected) = schema_at(input_schema, input_schema, &path).map(describe_type)
            {
                message.push_str(&format!(", expected {expected}"));
            }
        }
        match self.path.as_str() {
            "." => format!("invalid arguments: {message}"),
            path => format!("invalid arguments: `{path}`: {message}"),
        }
    }
}

/// `a.b[2].c` to `["a", "b", "2", "c"]`.
fn segments(path: &str) -> Vec<&str> {
    path.split(['.', '[', ']'])
        .filter(|s| !s.is_empty())
        .collect()
}

/// The subschema at a path of property names and array indices, following local `$ref`s and
/// looking into the alternatives of `anyOf`, `oneOf` and `allOf` (how `Option<T>` and enums
/// are described).
pub(crate) fn schema_at<'a>(
    root: &'a Value,
    schema: &'a Value,
    path: &[&str],
) -> Option<&'a Value> {
    let schema = resolve(root, schema);
    let Some((first, rest)) = path.split_first() else {
        return Some(schema);
    };
    let next = if first.parse::<usize>().is_ok() {
        schema.get("items")
    } else {
        schema.get("properties").and_then(|p| p.get(*first))
    };
    if let Some(found) = next.and_then(|next| schema_at(root, next, rest)) {
        return Some(found);
    }
    ["anyOf", "oneOf", "allOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .find_map(|alternative| schema_at(root, alternative, path))
}

pub(crate) fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(pointer) => pointer
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .unwrap_or(schema),
        None => schema,
    }
}

/// What a value sent as a string must look like for `schema` (at `root`) to take it, when the
/// schema says: "an integer of at least 0 (decimal digits, no leading zero)", "`true` or
/// `false`", "one of `a`, `b`".
pub(crate) fn expected(root: &Value, schema: &Value) -> Option<String> {
    let schema = resolve(root, schema);
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        let options: Vec<String> = options
            .iter()
            .map(|o| {
                format!(
                    "`{}`",
                    o.as_str().map_or_else(|| o.to_string(), str::to_owned)
                )
            })
            .collect();
        return Some(format!("one of {}", options.join(", ")));
    }
    let alternatives = ["anyOf", "oneOf"]
        .iter()
        .find_map(|key| schema.get(*key).and_then(Value::as_array));
    if let Some(alternatives) = alternatives {
        let each: Option<Vec<String>> = alternatives
            .iter()
            .map(|a| resolve(root, a))
            .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
            .map(|a| match a.get("const") {
                Some(Value::String(c)) => Some(format!("`{c}`")),
                _ => expected(root, a),
            })
            .collect();
        return each.map(|each| match each.len() {
            1 => each.into_iter().next().unwrap_or_default(),
            _ => format!("one of {}", each.join(", ")),
        });
    }
    // schemars writes a Rust integer's width as its format, and its bounds only when they
    // are not the width's own.
    let width: Option<(i64, u64)> = match schema.get("format").and_then(Value::as_str) {
        Some("uint8") => Some((0, u8::MAX.into())),
        Some("uint16") => Some((0, u16::MAX.into())),
        Some("uint32") => Some((0, u32::MAX.into())),
        Some("int8") => Some((i8::MIN.into(), 127)),
        Some("int16") => Some((i16::MIN.into(), 32767)),
        Some("int32") => Some((i32::MIN.into(), 2147483647)),
        _ => None,
    };
    let range = |noun: &str| {
        let min = schema.get("minimum").cloned().or(width.map(|w| w.0.into()));
        let max = schema.get("maximum").cloned().or(width.map(|w| w.1.into()));
        let (min, max) = (min.as_ref(), max.as_ref());
        match (min, max) {
            (Some(min), Some(max)) => format!("{noun} from {min} to {max}"),
            (Some(min), None) => format!("{noun} of at least {min}"),
            (None, Some(max)) => format!("{noun} of at most {max}"),
            (None, None) => noun.to_owned(),
        }
    };
    match schema.get("type").and_then(Value::as_str)? {
        "integer" => Some(format!(
            "{} (decimal digits, no leading zero)",
            range("an integer")
        )),
        "number" => Some(format!("{} (like `2` or `2.5`)", range("a number"))),
        "boolean" => Some("`true` or `false`".to_owned()),
        _ => None,
    }
}

fn describe_type(schema: &Value) -> String {
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        let options: Vec<String> = options.iter().map(Value::to_string).collect();
        return format!("one of {}", options.join(", "));
    }
    match schema.get("type") {
        Some(Value::String(t)) => article(t),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .map(article)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "a value that matches the input schema".to_owned(),
    }
}

fn article(json_type: &str) -> String {
    match json_type {
        "integer" | "object" | "array" => format!("an {json_type}"),
        "null" => "null".to_owned(),
        other => format!("a {other}"),
    }
}
