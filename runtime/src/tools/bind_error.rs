//! Why arguments did not bind, and how to say so: the path, serde's message, and for a missing
//! field the type the input schema asks for.

use serde_json::Value;

/// Why arguments did not bind: where, and what serde said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BindError {
    /// `.` for the arguments object itself, else a path like `items[2].name`.
    pub(crate) path: String,
    pub(crate) message: String,
}

impl BindError {
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
