//! JSON Schema generation for tool inputs and outputs (JSON Schema 2020-12, via schemars).

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

/// A generator for input schemas: what serde *reads*. One per tool, so `$defs` stay per tool.
pub(crate) fn input_generator() -> SchemaGenerator {
    settings().for_deserialize().into_generator()
}

/// A generator for output schemas: what serde *writes* (the two differ for `skip_serializing_if`,
/// `default`, aliases and the like).
pub(crate) fn output_generator() -> SchemaGenerator {
    settings().for_serialize().into_generator()
}

fn settings() -> SchemaSettings {
    // 2020-12 is the default dialect from 2025-11-25 on; no `$schema` keeps older clients happy.
    SchemaSettings::draft2020_12().with(|s| s.meta_schema = None)
}

/// The input schema of a tool whose arguments deserialize into `T` (generated code calls this).
pub fn input_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.root_schema_for::<T>()
}

/// The input schema of a tool that takes its arguments as one [`Args<T>`](crate::Args): `T`'s
/// schema, closed to properties it does not list (binding rejects them too).
pub fn whole_input_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = generator.root_schema_for::<T>();
    if let Some(root) = schema.as_object_mut()
        && root.contains_key("properties")
        && !root.contains_key("additionalProperties")
    {
        root.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

/// Final touches on a root schema: the `title` schemars derives from a Rust type name says
/// nothing to a client (the tool has its own name and title).
pub(crate) fn finish_root(schema: Schema) -> Value {
    let mut value = schema.to_value();
    if let Value::Object(map) = &mut value {
        map.remove("title");
    }
    value
}

/// Whether a schema's root describes only JSON objects, as `outputSchema` must before
/// 2026-07-28.
pub(crate) fn is_object_root(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        label: Option<String>,
    }

    #[test]
    fn roots_have_no_title_or_dialect() {
        let root = finish_root(input_schema::<Point>(&mut input_generator()));
        assert!(root.get("title").is_none());
        assert!(root.get("$schema").is_none());
        assert!(is_object_root(&root));
        assert_eq!(root["required"], serde_json::json!(["x"]));
    }

    #[test]
    fn scalars_are_not_object_roots() {
        let root = finish_root(output_generator().root_schema_for::<Vec<i32>>());
        assert!(!is_object_root(&root));
    }
}
