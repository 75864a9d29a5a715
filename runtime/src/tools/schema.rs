//! JSON Schema generation for tool inputs and outputs (JSON Schema 2020-12, via schemars), the
//! schema profiles, and the object wrapping that revisions before 2026-07-28 need for outputs.
//!
//! An output schema is generated once and kept in two forms: natural (2026-07-28) and
//! object-rooted (2025-06-18 and 2025-11-25), where a non-object schema is wrapped as
//! `{"result": ...}` with its `$defs` hoisted to the new root and every same-document `$ref`
//! that pointed at the old root rewritten. An internally tagged enum, whose root is `oneOf`,
//! counts as non-object. `serde_json` keeps key order (`preserve_order`), so schemas list
//! parameters in signature order, as people read them.

use std::collections::{BTreeMap, BTreeSet};

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

/// How generated schemas are shaped for clients.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// What real clients and model providers accept: no `["T", "null"]` type arrays (an
    /// optional argument is simply not required), `$ref`s inlined unless the type is
    /// recursive, and only the `format`s JSON Schema defines.
    #[default]
    Portable,
    /// schemars' JSON Schema 2020-12 output as it is, `$defs` and `$ref`s included.
    Verbatim,
}

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

/// An input schema that no longer refuses argument keys it does not list: the tool ignores
/// them, and its schema says so (no `"additionalProperties": false` at the root).
pub(crate) fn open_arguments(schema: &mut Value) {
    if let Some(root) = schema.as_object_mut()
        && root.get("additionalProperties") == Some(&Value::Bool(false))
    {
        root.remove("additionalProperties");
    }
}

/// The names of the properties an object schema lists at its root; `None` when it lists none
/// (a map, any object): then no key is unknown.
pub(crate) fn property_names(schema: &Value) -> Option<std::sync::Arc<[String]>> {
    match schema.get("properties") {
        Some(Value::Object(properties)) => Some(properties.keys().cloned().collect()),
        _ => None,
    }
}

/// `schema` with the definitions `generator` collected while making it. A hand-written
/// [`IntoToolOutput::output_schema`](crate::IntoToolOutput::output_schema) that calls
/// `generator.subschema_for::<T>()` gets back `{"$ref": "#/$defs/T"}`, and `T` itself stays in
/// the generator: without it every client rejects the schema for a `$ref` that points nowhere.
pub(crate) fn with_definitions(mut schema: Schema, generator: &mut SchemaGenerator) -> Schema {
    let collected = generator.take_definitions(true);
    if collected.is_empty() {
        return schema;
    }
    let root = schema.ensure_object();
    let defs = root
        .entry("$defs")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(defs) = defs {
        for (name, definition) in collected {
            defs.entry(name).or_insert(definition);
        }
    }
    schema
}

/// Which side of serde a schema describes: optional inputs may simply be left out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Contract {
    Input,
    Output,
}

/// A generated root schema, finished for `profile`.
pub(crate) fn finish(schema: Schema, contract: Contract, profile: SchemaProfile) -> Value {
    let mut value = schema.to_value();
    if let Value::Object(root) = &mut value {
        // The title schemars derives from a Rust type name says nothing to a client.
        root.remove("title");
    }
    if profile == SchemaProfile::Portable {
        inline_refs(&mut value);
        untype_arrays(&mut value, contract);
        drop_unknown_formats(&mut value);
    }
    value
}

/// Whether a schema's root describes only JSON objects, as `outputSchema` must before
/// 2026-07-28.
pub(crate) fn is_object_root(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// The output schema in the forms the revisions need.
#[derive(Debug)]
pub(crate) struct OutputSchema {
    /// The schema of the value itself (2026-07-28).
    pub(crate) natural: Value,
    /// An object-rooted schema: the natural one, or `{"result": <natural>}` around it.
    pub(crate) object: Value,
    /// Whether values travel as `{"result": value}` where the object form is used.
    pub(crate) wrapped: bool,
}

impl OutputSchema {
    pub(crate) fn new(natural: Value) -> OutputSchema {
        if is_object_root(&natural) {
            return OutputSchema {
                object: natural.clone(),
                natural,
                wrapped: false,
            };
        }
        OutputSchema {
            object: wrap(&natural),
            natural,
            wrapped: true,
        }
    }
}

/// `{"type":"object","properties":{"result": <schema>},"required":["result"]}`, with the
/// schema's `$defs` hoisted to the new root and every same-document `$ref` rewritten to still
/// point where it did.
fn wrap(natural: &Value) -> Value {
    let mut inner = natural.clone();
    let defs = inner.as_object_mut().and_then(|root| root.remove("$defs"));
    let mut wrapper = json!({
        "type": "object",
        "properties": {"result": inner},
        "required": ["result"],
    });
    if let Some(mut defs) = defs {
        rewrite_root_refs(&mut defs);
        wrapper["$defs"] = defs;
    }
    rewrite_root_refs(&mut wrapper["properties"]["result"]);
    wrapper
}

/// `#` and `#/...` (other than `#/$defs/...`, which moved with the definitions) now live under
/// `#/properties/result`.
fn rewrite_root_refs(schema: &mut Value) {
    walk_mut(schema, &mut |node| {
        if let Some(Value::String(reference)) = node.get_mut("$ref")
            && let Some(rest) = reference.strip_prefix('#')
            && !rest.starts_with("/$defs/")
        {
            *reference = format!("#/properties/result{rest}");
        }
    });
}

/// Calls `visit` on every object in the schema, depth first.
fn walk_mut(value: &mut Value, visit: &mut impl FnMut(&mut Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            visit(map);
            for child in map.values_mut() {
                walk_mut(child, visit);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk_mut(v, visit)),
        _ => {}
    }
}

const DEFS_PREFIX: &str = "#/$defs/";

/// Replaces each `$ref` to a non-recursive definition with the definition itself, and drops the
/// definitions nothing refers to any more.
fn inline_refs(root: &mut Value) {
    let Some(Value::Object(defs)) = root.as_object_mut().and_then(|map| map.remove("$defs")) else {
        return;
    };
    let recursive = recursive_definitions(&defs);
    let inlinable: BTreeMap<String, Value> = defs
        .iter()
        .filter(|(name, _)| !recursive.contains(*name))
        .map(|(name, schema)| (name.clone(), schema.clone()))
        .collect();
    // The root itself may be a `$ref` (a hand-written output schema from `subschema_for`).
    inline(root, &inlinable);
    let mut kept = Map::new();
    for name in &recursive {
        let mut schema = defs[name].clone();
        inline(&mut schema, &inlinable);
        kept.insert(name.clone(), schema);
    }
    let referenced = references(root, &kept);
    kept.retain(|name, _| referenced.contains(name));
    if let Some(map) = root.as_object_mut()
        && !kept.is_empty()
    {
        map.insert("$defs".into(), Value::Object(kept));
    }
}

fn inline(schema: &mut Value, inlinable: &BTreeMap<String, Value>) {
    match schema {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(DEFS_PREFIX))
                .and_then(|name| inlinable.get(name));
            if let Some(target) = target {
                let mut replacement = target.clone();
                inline(&mut replacement, inlinable);
                map.remove("$ref");
                if let Value::Object(definition) = replacement {
                    // Keywords beside the `$ref` (a description, say) win over the definition's.
                    for (key, value) in definition {
                        map.entry(key).or_insert(value);
                    }
                }
            }
            map.values_mut().for_each(|v| inline(v, inlinable));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| inline(v, inlinable)),
        _ => {}
    }
}

/// The names of definitions that reach themselves through `$ref`s.
fn recursive_definitions(defs: &Map<String, Value>) -> BTreeSet<String> {
    let edges: BTreeMap<&String, BTreeSet<String>> = defs
        .iter()
        .map(|(name, schema)| (name, refs_in(schema)))
        .collect();
    defs.keys()
        .filter(|start| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<String> = edges[start].iter().cloned().collect();
            while let Some(next) = stack.pop() {
                if next == **start {
                    return true;
                }
                if seen.insert(next.clone())
                    && let Some(more) = edges.get(&next)
                {
                    stack.extend(more.iter().cloned());
                }
            }
            false
        })
        .cloned()
        .collect()
}

fn refs_in(schema: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    collect_refs(schema, &mut found);
    found
}

fn collect_refs(schema: &Value, found: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(DEFS_PREFIX))
            {
                found.insert(name.to_owned());
            }
            map.values().for_each(|v| collect_refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, found)),
        _ => {}
    }
}

/// Definitions referred to from the root (outside `$defs`) or from a referred definition.
fn references(root: &Value, defs: &Map<String, Value>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    if let Value::Object(map) = root {
        for (key, value) in map {
            if key != "$defs" {
                collect_refs(value, &mut found);
            }
        }
    }
    let mut stack: Vec<String> = found.iter().cloned().collect();
    while let Some(name) = stack.pop() {
        if let Some(schema) = defs.get(&name) {
            for more in refs_in(schema) {
                if found.insert(more.clone()) {
                    stack.push(more);
                }
            }
        }
    }
    found
}

/// `"type": ["T", "null"]` is rejected by some clients. An optional input property loses the
/// `null` (leaving it out is how a client says "none"); anywhere else the alternatives become an
/// `anyOf`, which says the same.
fn untype_arrays(schema: &mut Value, contract: Contract) {
    let Value::Object(map) = schema else {
        if let Value::Array(items) = schema {
            items.iter_mut().for_each(|v| untype_arrays(v, contract));
        }
        return;
    };
    if contract == Contract::Input {
        let required: BTreeSet<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    drop_null(property);
                }
            }
        }
    }
    if let Some(Value::Array(types)) = map.get_mut("type") {
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".into(), only);
        } else {
            let alternatives = types.drain(..).map(|t| json!({"type": t})).collect();
            map.remove("type");
            map.insert("anyOf".into(), Value::Array(alternatives));
        }
    }
    map.values_mut().for_each(|v| untype_arrays(v, contract));
}

/// Removes `null` from an optional property's type or `anyOf`.
fn drop_null(property: &mut Value) {
    let Value::Object(map) = property else { return };
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
    }
    if let Some(Value::Array(alternatives)) = map.get_mut("anyOf") {
        alternatives.retain(|a| a != &json!({"type": "null"}));
        if alternatives.len() == 1 {
            let only = alternatives.remove(0);
            map.remove("anyOf");
            if let Value::Object(only) = only {
                for (key, value) in only {
                    map.entry(key).or_insert(value);
                }
            }
        }
    }
}

/// The formats JSON Schema 2020-12 defines. Others (schemars' `int64`, `uint`, `double`, ...)
/// are only annotations, but some validators warn about every one they meet.
const KNOWN_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn drop_unknown_formats(schema: &mut Value) {
    walk_mut(schema, &mut |node| {
        if node
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| !KNOWN_FORMATS.contains(&f))
        {
            node.remove("format");
        }
    });
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

    #[derive(JsonSchema, serde::Serialize)]
    struct Tree {
        name: String,
        children: Vec<Tree>,
        leaf: Leaf,
    }

    #[derive(JsonSchema, serde::Serialize)]
    struct Leaf {
        weight: Option<f64>,
    }

    fn input<T: JsonSchema>(profile: SchemaProfile) -> Value {
        finish(
            input_schema::<T>(&mut input_generator()),
            Contract::Input,
            profile,
        )
    }

    fn output<T: JsonSchema>(profile: SchemaProfile) -> Value {
        finish(
            output_generator().root_schema_for::<T>(),
            Contract::Output,
            profile,
        )
    }

    #[test]
    fn portable_inputs_are_plain() {
        assert_eq!(
            input::<Point>(SchemaProfile::Portable),
            json!({
                "type": "object",
                "properties": {"x": {"type": "integer"}, "label": {"type": "string"}},
                "required": ["x"]
            })
        );
        let verbatim = input::<Point>(SchemaProfile::Verbatim);
        assert_eq!(
            verbatim["properties"]["label"]["type"],
            json!(["string", "null"])
        );
        assert_eq!(verbatim["properties"]["x"]["format"], "int32");
        assert!(verbatim.get("title").is_none() && verbatim.get("$schema").is_none());
    }

    #[test]
    fn portable_outputs_keep_null_as_an_alternative() {
        let schema = output::<Leaf>(SchemaProfile::Portable);
        assert_eq!(
            schema["properties"]["weight"],
            json!({"anyOf": [{"type": "number"}, {"type": "null"}]})
        );
    }

    #[test]
    fn recursive_definitions_stay_others_are_inlined() {
        let schema = output::<Vec<Tree>>(SchemaProfile::Portable);
        assert_eq!(schema["items"], json!({"$ref": "#/$defs/Tree"}));
        let tree = &schema["$defs"]["Tree"];
        assert_eq!(
            tree["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert_eq!(
            tree["properties"]["leaf"]["type"], "object",
            "Leaf is inlined"
        );
        assert_eq!(schema["$defs"].as_object().unwrap().len(), 1);
    }

    #[test]
    fn wrapping_hoists_definitions_and_rewrites_root_refs() {
        let natural = json!({
            "type": "array",
            "items": {"$ref": "#/$defs/A"},
            "$defs": {"A": {"type": "object", "properties": {"up": {"$ref": "#"}, "b": {"$ref": "#/items"}}}}
        });
        let schema = OutputSchema::new(natural);
        assert!(schema.wrapped);
        assert_eq!(
            schema.object,
            json!({
                "type": "object",
                "properties": {"result": {"type": "array", "items": {"$ref": "#/$defs/A"}}},
                "required": ["result"],
                "$defs": {"A": {"type": "object", "properties": {
                    "up": {"$ref": "#/properties/result"},
                    "b": {"$ref": "#/properties/result/items"}
                }}}
            })
        );
        let object = OutputSchema::new(json!({"type": "object"}));
        assert!(!object.wrapped);
        assert_eq!(object.object, object.natural);
    }
}
