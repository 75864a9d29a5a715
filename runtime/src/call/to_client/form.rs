//! The form an [`Elicit<T>`](super::Elicit) shows: `T`'s JSON Schema, held to what elicitation
//! allows (a flat object of strings, numbers, integers, booleans and enums), made once when the
//! server starts; and the client's answer checked against it.
//!
//! schemars describes a Rust type; elicitation takes a small dialect. A field becomes:
//!
//! | Rust | form property |
//! |---|---|
//! | `String` (with `length(...)`, `email`, `url`, `format = "date"`) | `{"type": "string", minLength?, maxLength?, format?}` |
//! | integers, floats (with `range(...)`) | `{"type": "integer" \| "number", minimum?, maximum?}` |
//! | `bool` | `{"type": "boolean"}` |
//! | a unit enum | `{"type": "string", "enum": [...]}`; with a `title` on each variant, `oneOf` of `{const, title}` (2025-11-25 on; `enum` with `enumNames` for 2025-06-18) |
//! | `Vec` of a unit enum | a multi-select: `{"type": "array", "items": {"enum": [...]}}` or `items.anyOf` (2025-11-25) |
//! | `Option<_>` | the same, not required |
//!
//! A field's `default` is kept (for booleans from 2025-06-18, for every type from 2025-11-25).
//! Anything else (a nested struct, a list of strings, a `pattern`) is refused when the server
//! starts, naming the field.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde_json::{Map, Value, json};

use crate::protocol::ProtocolVersion;
use crate::tools::constraints::Constraints;
use crate::tools::schema::{self, Contract, SchemaProfile};

/// A form, ready to send.
pub(crate) struct Form {
    /// The `requestedSchema`.
    pub(crate) schema: Value,
    /// What the schema asks of values beyond their types, checked on the client's answer.
    constraints: Option<Constraints>,
    /// It has multi-selects, which only 2025-11-25 and later define.
    multi_select: bool,
}

impl std::fmt::Debug for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Form({})", self.schema)
    }
}

/// The keywords a form's field may have.
const FIELD_KEYS: [&str; 15] = [
    "type",
    "title",
    "description",
    "default",
    "enum",
    "enumNames",
    "oneOf",
    "minLength",
    "maxLength",
    "format",
    "minimum",
    "maximum",
    "items",
    "minItems",
    "maxItems",
];

/// The formats a form's string may have.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

impl Form {
    /// `T`'s form, or what keeps `T` from being one.
    pub(crate) fn of<T: JsonSchema>() -> Result<Form, String> {
        let mut generator = schema::input_generator();
        let generated = schema::input_schema::<T>(&mut generator);
        let root = schema::finish(generated, Contract::Input, SchemaProfile::Portable);
        if root.get("type").and_then(Value::as_str) != Some("object") {
            return Err("a form is a struct with named fields".into());
        }
        Form::from_root(&root, false)
    }

    /// The form a JSON Schema given as a value describes (a form built while the program
    /// runs), held to the restricted schema the specification defines for `requestedSchema`:
    /// an object of flat fields, each a string, a number, an integer, a boolean, an enum or a
    /// multi-select, with only the keywords those take.
    pub(crate) fn from_value(schema: &Value) -> Result<Form, String> {
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            return Err(
                "a form's schema is `{\"type\": \"object\", \"properties\": {...}}`".into(),
            );
        }
        if let Some(fields) = schema.get("properties").and_then(Value::as_object) {
            for (name, field) in fields {
                let field = field
                    .as_object()
                    .ok_or(format!("field `{name}` has no schema"))?;
                if let Some(key) = field.keys().find(|k| !FIELD_KEYS.contains(&k.as_str())) {
                    return Err(format!(
                        "field `{name}` has `{key}`, which forms do not define; a field takes {}",
                        FIELD_KEYS.join(", ")
                    ));
                }
            }
        }
        let mut form = Form::from_root(schema, true)?;
        // No type reads the answer: its shape is checked too (types, required fields, enums).
        form.constraints = Some(Constraints::shaped(&form.schema)?);
        let names = form.schema["properties"].as_object().map(|p| p.keys());
        let required = form.schema["required"].as_array().into_iter().flatten();
        for name in required {
            let known = name
                .as_str()
                .is_some_and(|n| names.clone().into_iter().flatten().any(|k| k == n));
            if !known {
                return Err(format!(
                    "`required` names {name}, which is not one of its fields"
                ));
            }
        }
        Ok(form)
    }

    /// The form of an object schema's fields (`strict`: `required` must be a list of names).
    fn from_root(root: &Value, strict: bool) -> Result<Form, String> {
        let mut multi_select = false;
        let mut properties = Map::new();
        if let Some(Value::Object(fields)) = root.get("properties") {
            for (name, field) in fields {
                let property = property(field, &mut multi_select)
                    .map_err(|problem| format!("field `{name}` {problem}"))?;
                properties.insert(name.clone(), property);
            }
        }
        let required = root.get("required").cloned().unwrap_or(json!([]));
        if strict
            && !required
                .as_array()
                .is_some_and(|r| r.iter().all(Value::is_string))
        {
            return Err("`required` is a list of field names".into());
        }
        let schema = json!({"type": "object", "properties": properties, "required": required});
        let constraints = Constraints::new(&schema)?;
        Ok(Form {
            schema,
            constraints,
            multi_select,
        })
    }

    /// The schema to send in `version`; `None` when the form needs a later revision.
    pub(crate) fn schema_for(&self, version: ProtocolVersion) -> Option<Value> {
        if version.has_rich_form_schemas() {
            return Some(self.schema.clone());
        }
        if self.multi_select {
            return None;
        }
        let mut schema = self.schema.clone();
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            for property in properties.values_mut().filter_map(Value::as_object_mut) {
                // 2025-06-18 has a `default` on booleans only.
                if property.get("type").and_then(Value::as_str) != Some("boolean") {
                    property.remove("default");
                }
                // Its titled choices are `enum` with `enumNames` beside it, in the same order.
                if let Some(Value::Array(choices)) = property.remove("oneOf") {
                    let field = |key: &str| -> Vec<Value> {
                        choices.iter().map(|c| c[key].clone()).collect()
                    };
                    property.insert("enum".into(), Value::Array(field("const")));
                    property.insert("enumNames".into(), Value::Array(field("title")));
                }
            }
        }
        Some(schema)
    }

    /// Checks accepted content against what the schema asks beyond types.
    pub(crate) fn check(&self, content: &Value) -> Result<(), String> {
        match &self.constraints {
            Some(constraints) => constraints.check(content).map_err(|v| {
                let at = v.path.trim_start_matches('/');
                format!("`{at}` {}", v.message)
            }),
            None => Ok(()),
        }
    }
}

/// One field's property, in the elicitation dialect.
fn property(field: &Value, multi_select: &mut bool) -> Result<Value, String> {
    let Value::Object(field) = field else {
        return Err("has no schema a form can show".into());
    };
    let mut out = Map::new();
    for key in ["title", "description"] {
        if let Some(text @ Value::String(_)) = field.get(key) {
            out.insert(key.into(), text.clone());
        }
    }
    if let Some(choices) = field.get("oneOf") {
        out.insert("type".into(), json!("string"));
        out.insert("oneOf".into(), titled(choices)?);
    } else {
        let kind = field.get("type").and_then(Value::as_str).unwrap_or("");
        out.insert("type".into(), json!(kind));
        match kind {
            "string" => {
                copy(
                    field,
                    &mut out,
                    &["enum", "enumNames", "minLength", "maxLength"],
                );
                if let Some(format) = field.get("format").and_then(Value::as_str) {
                    if !FORMATS.contains(&format) {
                        return Err(format!(
                            "has the format `{format}`; a form's strings may be {}",
                            FORMATS.join(", ")
                        ));
                    }
                    out.insert("format".into(), json!(format));
                }
                if field.get("pattern").is_some() {
                    return Err("has a pattern, which forms do not define".into());
                }
            }
            "integer" | "number" => copy(field, &mut out, &["minimum", "maximum"]),
            "boolean" => {}
            "array" => {
                let items = field.get("items").unwrap_or(&Value::Null);
                let items = match (items.get("enum"), items.get("oneOf").or(items.get("anyOf"))) {
                    (Some(values), _) if is_strings(values) => json!({"type": "string", "enum": values}),
                    (_, Some(choices)) => json!({"anyOf": titled(choices)?}),
                    _ => return Err("is a list of something other than an enum's variants; a form's lists are multi-selects".into()),
                };
                out.insert("items".into(), items);
                copy(field, &mut out, &["minItems", "maxItems"]);
                *multi_select = true;
            }
            "object" => {
                return Err(
                    "is a struct; a form's fields are strings, numbers, booleans and enums".into(),
                );
            }
            _ => return Err("is not a string, a number, a boolean or an enum".into()),
        }
    }
    if let Some(default) = field.get("default") {
        out.insert("default".into(), default.clone());
    }
    Ok(Value::Object(out))
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = from.get(*key) {
            to.insert((*key).into(), value.clone());
        }
    }
}

fn is_strings(values: &Value) -> bool {
    values
        .as_array()
        .is_some_and(|v| v.iter().all(Value::is_string))
}

/// Choices as `{const, title}`: a variant's `title`, or its doc comment, or its value.
fn titled(choices: &Value) -> Result<Value, String> {
    let Some(choices) = choices.as_array() else {
        return Err("has choices a form cannot show".into());
    };
    choices
        .iter()
        .map(|choice| {
            let value = choice
                .get("const")
                .and_then(Value::as_str)
                .ok_or("has a choice that is not a unit variant")?;
            let title = ["title", "description"]
                .iter()
                .find_map(|k| choice.get(*k).and_then(Value::as_str))
                .unwrap_or(value);
            Ok(json!({"const": value, "title": title}))
        })
        .collect::<Result<Vec<_>, &str>>()
        .map(Value::Array)
        .map_err(str::to_owned)
}

/// The forms of a server's tools, made when it starts (and as tools are added).
#[derive(Default, Clone)]
pub(crate) struct Forms(HashMap<TypeId, Arc<Form>>);

impl Forms {
    pub(crate) fn insert(&mut self, id: TypeId, form: Form) {
        self.0.insert(id, Arc::new(form));
    }

    pub(crate) fn get(&self, id: TypeId) -> Option<Arc<Form>> {
        self.0.get(&id).cloned()
    }
}

/// The name of an ask's entry in a 2026-07-28 `inputRequests`: a type's name in snake case
/// (`UserName` becomes `user_name`).
pub(crate) fn key_of(type_name: &str) -> String {
    let short = type_name.split('<').next().unwrap_or(type_name);
    let short = short.rsplit("::").next().unwrap_or(short);
    let mut key = String::with_capacity(short.len() + 4);
    for (i, c) in short.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                key.push('_');
            }
            key.extend(c.to_lowercase());
        } else {
            key.push(c);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Serialize)]
    enum Level {
        Low,
        High,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    enum Titled {
        #[schemars(title = "First Option")]
        First,
        #[schemars(title = "Second Option")]
        Second,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Everything {
        /// Your name.
        #[schemars(length(min = 1, max = 20))]
        name: String,
        #[schemars(range(min = 0, max = 150))]
        age: u8,
        score: Option<f64>,
        #[serde(default = "yes")]
        verified: bool,
        #[schemars(email)]
        email: String,
        level: Level,
        titled: Titled,
        many: Vec<Level>,
    }

    fn yes() -> bool {
        true
    }

    #[test]
    fn a_struct_of_primitives_and_enums_is_a_form() {
        let form = Form::of::<Everything>().unwrap();
        let properties = &form.schema["properties"];
        assert_eq!(
            properties["name"],
            json!({"description": "Your name.", "type": "string", "minLength": 1, "maxLength": 20})
        );
        assert_eq!(
            properties["age"],
            json!({"type": "integer", "minimum": 0, "maximum": 150})
        );
        assert_eq!(properties["score"], json!({"type": "number"}));
        assert_eq!(
            properties["verified"],
            json!({"type": "boolean", "default": true})
        );
        assert_eq!(
            properties["email"],
            json!({"type": "string", "format": "email"})
        );
        assert_eq!(
            properties["level"],
            json!({"type": "string", "enum": ["Low", "High"]})
        );
        assert_eq!(
            properties["titled"]["oneOf"],
            json!([{"const": "First", "title": "First Option"}, {"const": "Second", "title": "Second Option"}])
        );
        assert_eq!(
            properties["many"]["items"],
            json!({"type": "string", "enum": ["Low", "High"]})
        );
        assert!(
            !form.schema["required"]
                .as_array()
                .unwrap()
                .contains(&json!("score"))
        );
        assert!(
            form.schema_for(ProtocolVersion::V2025_06_18).is_none(),
            "multi-selects are 2025-11-25"
        );
        assert!(
            form.check(&json!({"name": "", "age": 1})).is_err(),
            "minLength"
        );
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Choice {
        titled: Titled,
        #[serde(default = "second")]
        plain: Level,
        #[serde(default = "yes")]
        sure: bool,
    }

    fn second() -> Level {
        Level::High
    }

    #[test]
    fn titled_choices_are_enum_names_for_2025_06_18() {
        let form = Form::of::<Choice>().unwrap();
        let titled = json!({"type": "string", "oneOf": [
            {"const": "First", "title": "First Option"},
            {"const": "Second", "title": "Second Option"},
        ]});
        assert_eq!(form.schema["properties"]["titled"], titled);
        let old = form.schema_for(ProtocolVersion::V2025_06_18).unwrap();
        assert_eq!(
            old["properties"]["titled"],
            json!({"type": "string", "enum": ["First", "Second"],
                   "enumNames": ["First Option", "Second Option"]})
        );
        assert_eq!(
            old["properties"]["plain"],
            json!({"type": "string", "enum": ["Low", "High"]}),
            "no default but on booleans"
        );
        assert_eq!(old["properties"]["sure"]["default"], json!(true));
        let new = form.schema_for(ProtocolVersion::V2025_11_25).unwrap();
        assert_eq!(new["properties"]["titled"], titled);
        assert_eq!(new["properties"]["plain"]["default"], json!("High"));
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Nested {
        inner: Inner,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Inner {
        a: u8,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Listy {
        tags: Vec<String>,
    }

    #[test]
    fn what_a_form_cannot_hold_is_named() {
        assert_eq!(
            Form::of::<Nested>().unwrap_err(),
            "field `inner` is a struct; a form's fields are strings, numbers, booleans and enums"
        );
        assert!(
            Form::of::<Listy>()
                .unwrap_err()
                .starts_with("field `tags` is a list")
        );
        assert_eq!(
            Form::of::<u8>().unwrap_err(),
            "a form is a struct with named fields"
        );
    }

    #[test]
    fn keys_are_type_names_in_snake_case() {
        assert_eq!(key_of("my_crate::forms::UserName"), "user_name");
        assert_eq!(key_of("Confirm"), "confirm");
        assert_eq!(key_of("a::Step1"), "step1");
    }
}
