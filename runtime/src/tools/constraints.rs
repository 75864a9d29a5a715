//! Enforcing what a tool's input schema promises beyond types: lengths, item counts, ranges,
//! patterns and formats.
//!
//! serde checks the shape of the arguments (types, required and unknown fields); this module
//! checks the constraint keywords of the very schema the tool advertises, wherever they came
//! from: `#[arg(length(min = 1))]`, a `#[schemars(range(..))]` on a field of an `Args<T>` struct
//! or of a newtype, or a hand-written schema. A tool whose schema has none of these keywords
//! pays nothing; the others parse their arguments once more, after they bound.
//!
//! A tool made at run time takes its arguments as a JSON value, which no type shapes: its
//! checks are [`Constraints::shaped`], which also enforce `type`, `required` and
//! `additionalProperties: false` (a `false` schema anywhere), as serde would for a struct.
//!
//! Enforced: `minLength`, `maxLength`, `pattern`, `format` (below), `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems`,
//! `minProperties`, `maxProperties`, and `const`, `enum` and `required` to tell the branches of
//! an `anyOf`/`oneOf` apart; reached through `properties`, `additionalProperties`, `items`,
//! `prefixItems`, local `$ref`s, `allOf`, `anyOf` and `oneOf`. As in JSON Schema, a keyword
//! applies only to values of its type. Not enforced: `if`/`then`/`else`, `not`, `contains`,
//! `patternProperties`, `dependent*`, `unevaluated*`.

use std::collections::HashMap;

use regex_lite::Regex;
use serde_json::{Map, Number, Value};

use crate::tools::format;

/// The checks of one input schema.
pub(crate) struct Constraints {
    schema: Value,
    /// Every `pattern` of the schema, compiled once.
    patterns: HashMap<String, Regex>,
    /// Whether the value's shape is checked too (`type`, `false` schemas): no type did.
    shape: bool,
}

/// A value that breaks a constraint: where, and what it should have been.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    pub(crate) path: String,
    pub(crate) message: String,
}

const KEYWORDS: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// `$ref`s followed in a row without descending into the value: more is a reference cycle.
const MAX_HOPS: usize = 32;

impl Constraints {
    /// The checks of `schema`; `None` when it has no constraint keyword to enforce. An `Err`
    /// names a pattern this server cannot check.
    pub(crate) fn new(schema: &Value) -> Result<Option<Constraints>, String> {
        let (found, patterns) = Self::scan(schema)?;
        Ok(found.then(|| Constraints {
            schema: schema.clone(),
            patterns,
            shape: false,
        }))
    }

    /// The checks of `schema` for arguments that no type shaped: its constraint keywords and
    /// the value's shape. An `Err` names a pattern this server cannot check.
    pub(crate) fn shaped(schema: &Value) -> Result<Constraints, String> {
        let (_, patterns) = Self::scan(schema)?;
        Ok(Constraints {
            schema: schema.clone(),
            patterns,
            shape: true,
        })
    }

    /// Whether `schema` has a constraint keyword to enforce, and its patterns compiled.
    fn scan(schema: &Value) -> Result<(bool, HashMap<String, Regex>), String> {
        let mut found = false;
        let mut patterns = HashMap::new();
        let mut bad = None;
        walk(schema, &mut |node| {
            found |= KEYWORDS.iter().any(|k| match (*k, node.get(*k)) {
                ("format", Some(Value::String(f))) => format::is_enforced(f),
                (_, Some(_)) => true,
                _ => false,
            });
            if let Some(Value::String(pattern)) = node.get("pattern")
                && !patterns.contains_key(pattern)
            {
                match Regex::new(pattern) {
                    Ok(regex) => {
                        patterns.insert(pattern.clone(), regex);
                    }
                    Err(e) => {
                        bad = Some(format!(
                            "its schema's pattern `{pattern}` is not a regular expression this server can check: {e}"
                        ))
                    }
                }
            }
        });
        match bad {
            Some(problem) => Err(problem),
            None => Ok((found, patterns)),
        }
    }

    /// Checks the arguments (a JSON object that already bound to the tool's types).
    pub(crate) fn check(&self, arguments: &Value) -> Result<(), Violation> {
        let mut path = Vec::new();
        self.node(&self.schema, arguments, &mut path, 0)
    }

    fn node<'v>(
        &self,
        schema: &Value,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        hops: usize,
    ) -> Result<(), Violation> {
        let Value::Object(object) = schema else {
            return match self.shape && *schema == Value::Bool(false) {
                true => Err(Violation {
                    path: render(path),
                    message: "is not allowed here".to_owned(),
                }),
                false => Ok(()),
            };
        };
        let keys = Keys::of(object);
        if self.shape && !self.admits(&keys, value, hops) {
            return Err(Violation {
                path: render(path),
                message: format!("must be {}, got {}", expected_type(keys.ty), kind(value)),
            });
        }
        if let Some(Value::String(reference)) = keys.reference {
            match self.resolve(reference) {
                Some(target) if hops < MAX_HOPS => self.node(target, value, path, hops + 1)?,
                _ => {}
            }
        }
        self.keywords(&keys, value, path)?;
        if let Some(Value::Array(all)) = keys.all_of {
            for branch in all {
                self.node(branch, value, path, hops + 1)?;
            }
        }
        for branches in [keys.any_of, keys.one_of] {
            if let Some(Value::Array(branches)) = branches {
                self.any(branches, value, path, hops)?;
            }
        }
        self.children(&keys, value, path)
    }

    /// Passes when one branch meant for this type of value passes: the value is of one of them.
    fn any<'v>(
        &self,
        branches: &[Value],
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
        hops: usize,
    ) -> Result<(), Violation> {
        let mut first = None;
        for branch in branches {
            if !self.admits_type(branch, value, hops) {
                continue;
            }
            match self.node(branch, value, path, hops + 1) {
                Ok(()) => return Ok(()),
                Err(violation) => {
                    first.get_or_insert(violation);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// Whether `schema`'s `type` (through `$ref`s) allows the value's JSON type.
    fn admits_type(&self, schema: &Value, value: &Value, hops: usize) -> bool {
        match schema {
            Value::Object(object) => self.admits(&Keys::of(object), value, hops),
            _ => true,
        }
    }

    /// Whether the `type` of a schema with these keywords (through `$ref`s) allows the
    /// value's JSON type.
    fn admits(&self, keys: &Keys<'_>, value: &Value, hops: usize) -> bool {
        if let Some(reference) = keys.reference.and_then(Value::as_str)
            && hops < MAX_HOPS
            && let Some(target) = self.resolve(reference)
        {
            return self.admits_type(target, value, hops + 1);
        }
        match keys.ty {
            Some(Value::String(t)) => is_type(t, value),
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(Value::as_str)
                .any(|t| is_type(t, value)),
            _ => true,
        }
    }

    fn resolve(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        self.schema.pointer(pointer)
    }

    fn keywords(
        &self,
        schema: &Keys<'_>,
        value: &Value,
        path: &[Step<'_>],
    ) -> Result<(), Violation> {
        let fail = |message: String| {
            Err(Violation {
                path: render(path),
                message,
            })
        };
        if let Some(expected) = schema.constant
            && !same(expected, value)
        {
            return fail(format!("must be {expected}"));
        }
        if let Some(Value::Array(options)) = schema.options
            && !options.iter().any(|o| same(o, value))
        {
            let options: Vec<String> = options.iter().map(Value::to_string).collect();
            return fail(format!("must be one of {}", options.join(", ")));
        }
        match value {
            Value::String(s) => {
                let length = s.chars().count();
                if let Some(min) = limit(schema.min_length)
                    && length < min
                {
                    return fail(format!(
                        "must be at least {} long, got {length}",
                        count(min, "character")
                    ));
                }
                if let Some(max) = limit(schema.max_length)
                    && length > max
                {
                    return fail(format!(
                        "must be at most {} long, got {length}",
                        count(max, "character")
                    ));
                }
                if let Some(Value::String(pattern)) = schema.pattern
                    && let Some(regex) = self.patterns.get(pattern)
                    && !regex.is_match(s)
                {
                    return fail(format!("must match the pattern `{pattern}`"));
                }
                if let Some(Value::String(name)) = schema.format
                    && let Err(problem) = format::check(name, s)
                {
                    return fail(problem);
                }
            }
            Value::Number(n) => numbers(schema, n).or_else(fail)?,
            Value::Array(items) => {
                if let Some(min) = limit(schema.min_items)
                    && items.len() < min
                {
                    return fail(format!(
                        "must have at least {}, got {}",
                        count(min, "item"),
                        items.len()
                    ));
                }
                if let Some(max) = limit(schema.max_items)
                    && items.len() > max
                {
                    return fail(format!(
                        "must have at most {}, got {}",
                        count(max, "item"),
                        items.len()
                    ));
                }
                if schema.unique_items == Some(&Value::Bool(true)) {
                    for (i, a) in items.iter().enumerate() {
                        if let Some(j) = items[i + 1..].iter().position(|b| same(a, b)) {
                            return fail(format!(
                                "must not repeat an item: items {i} and {} are equal",
                                i + 1 + j
                            ));
                        }
                    }
                }
            }
            Value::Object(map) => {
                if let Some(Value::Array(required)) = schema.required
                    && let Some(missing) = required
                        .iter()
                        .filter_map(Value::as_str)
                        .find(|k| !map.contains_key(*k))
                {
                    return fail(format!("missing field `{missing}`"));
                }
                if let Some(min) = limit(schema.min_properties)
                    && map.len() < min
                {
                    return fail(format!("must have at least {}", count(min, "entry")));
                }
                if let Some(max) = limit(schema.max_properties)
                    && map.len() > max
                {
                    return fail(format!("must have at most {}", count(max, "entry")));
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
        Ok(())
    }

    /// Descends into the value's items and properties, with the schemas that describe them.
    fn children<'v>(
        &self,
        schema: &Keys<'_>,
        value: &'v Value,
        path: &mut Vec<Step<'v>>,
    ) -> Result<(), Violation> {
        match value {
            Value::Array(items) => {
                let prefix = schema.prefix_items.and_then(Value::as_array);
                let prefix_len = prefix.map_or(0, Vec::len);
                for (i, item) in items.iter().enumerate() {
                    let item_schema = match prefix.and_then(|p| p.get(i)) {
                        Some(s) => Some(s),
                        None if i >= prefix_len => schema.items,
                        None => None,
                    };
                    if let Some(item_schema) = item_schema {
                        path.push(Step::Index(i));
                        let result = self.node(item_schema, item, path, 0);
                        path.pop();
                        result?;
                    }
                }
            }
            Value::Object(map) => {
                let properties = schema.properties.and_then(Value::as_object);
                for (key, field) in map {
                    let field_schema = match properties.and_then(|p| p.get(key)) {
                        Some(s) => Some(s),
                        None => schema.additional_properties,
                    };
                    if self.shape && field_schema == Some(&Value::Bool(false)) {
                        return Err(Violation {
                            path: render(path),
                            message: format!("has an unknown field `{key}`"),
                        });
                    }
                    if let Some(field_schema) = field_schema {
                        path.push(Step::Key(key));
                        let result = self.node(field_schema, field, path, 0);
                        path.pop();
                        result?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The keywords of one schema object that the checks read, found in one pass over its
/// entries: a lookup by name hashes the name, and a node is asked for some twenty.
#[derive(Default)]
struct Keys<'s> {
    reference: Option<&'s Value>,
    all_of: Option<&'s Value>,
    any_of: Option<&'s Value>,
    one_of: Option<&'s Value>,
    ty: Option<&'s Value>,
    constant: Option<&'s Value>,
    options: Option<&'s Value>,
    min_length: Option<&'s Value>,
    max_length: Option<&'s Value>,
    pattern: Option<&'s Value>,
    format: Option<&'s Value>,
    minimum: Option<&'s Value>,
    maximum: Option<&'s Value>,
    exclusive_minimum: Option<&'s Value>,
    exclusive_maximum: Option<&'s Value>,
    multiple_of: Option<&'s Value>,
    min_items: Option<&'s Value>,
    max_items: Option<&'s Value>,
    unique_items: Option<&'s Value>,
    required: Option<&'s Value>,
    min_properties: Option<&'s Value>,
    max_properties: Option<&'s Value>,
    properties: Option<&'s Value>,
    additional_properties: Option<&'s Value>,
    items: Option<&'s Value>,
    prefix_items: Option<&'s Value>,
}

impl<'s> Keys<'s> {
    fn of(schema: &'s Map<String, Value>) -> Keys<'s> {
        let mut keys = Keys::default();
        for (name, value) in schema {
            let slot = match name.as_str() {
                "$ref" => &mut keys.reference,
                "allOf" => &mut keys.all_of,
                "anyOf" => &mut keys.any_of,
                "oneOf" => &mut keys.one_of,
                "type" => &mut keys.ty,
                "const" => &mut keys.constant,
                "enum" => &mut keys.options,
                "minLength" => &mut keys.min_length,
                "maxLength" => &mut keys.max_length,
                "pattern" => &mut keys.pattern,
                "format" => &mut keys.format,
                "minimum" => &mut keys.minimum,
                "maximum" => &mut keys.maximum,
                "exclusiveMinimum" => &mut keys.exclusive_minimum,
                "exclusiveMaximum" => &mut keys.exclusive_maximum,
                "multipleOf" => &mut keys.multiple_of,
                "minItems" => &mut keys.min_items,
                "maxItems" => &mut keys.max_items,
                "uniqueItems" => &mut keys.unique_items,
                "required" => &mut keys.required,
                "minProperties" => &mut keys.min_properties,
                "maxProperties" => &mut keys.max_properties,
                "properties" => &mut keys.properties,
                "additionalProperties" => &mut keys.additional_properties,
                "items" => &mut keys.items,
                "prefixItems" => &mut keys.prefix_items,
                _ => continue,
            };
            *slot = Some(value);
        }
        keys
    }
}

/// The `type` a schema asks for, said as an error says it: `a string`, `a string or null`.
fn expected_type(ty: Option<&Value>) -> String {
    let names: Vec<&str> = match ty {
        Some(Value::String(t)) => vec![t],
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let named: Vec<String> = names.iter().map(|t| article(t)).collect();
    named.join(" or ")
}

/// A JSON type's name with its article: `an integer`, `a string`, `null`.
fn article(name: &str) -> String {
    match name {
        "null" => "null".to_owned(),
        "integer" | "object" | "array" => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

/// The JSON type of a value, with its article.
fn kind(value: &Value) -> String {
    article(match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

fn numbers(schema: &Keys<'_>, n: &Number) -> Result<(), String> {
    if let Some(min) = schema.minimum.and_then(Value::as_number)
        && compare(n, min).is_lt()
    {
        return Err(format!("must be at least {min}, got {n}"));
    }
    if let Some(max) = schema.maximum.and_then(Value::as_number)
        && compare(n, max).is_gt()
    {
        return Err(format!("must be at most {max}, got {n}"));
    }
    if let Some(min) = schema.exclusive_minimum.and_then(Value::as_number)
        && compare(n, min).is_le()
    {
        return Err(format!("must be greater than {min}, got {n}"));
    }
    if let Some(max) = schema.exclusive_maximum.and_then(Value::as_number)
        && compare(n, max).is_ge()
    {
        return Err(format!("must be less than {max}, got {n}"));
    }
    if let Some(step) = schema.multiple_of.and_then(Value::as_number)
        && !is_multiple(n, step)
    {
        return Err(format!("must be a multiple of {step}, got {n}"));
    }
    Ok(())
}

/// Numbers compare by value: exactly when both are integers, as floats otherwise.
fn compare(a: &Number, b: &Number) -> std::cmp::Ordering {
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => a.cmp(&b),
        _ => {
            let (a, b) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
        }
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn is_multiple(n: &Number, step: &Number) -> bool {
    match (integer(n), integer(step)) {
        (Some(_), Some(0)) => true,
        (Some(n), Some(step)) => n % step == 0,
        _ => match (n.as_f64(), step.as_f64()) {
            (Some(n), Some(step)) if step > 0.0 => {
                let quotient = n / step;
                (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
            }
            _ => true,
        },
    }
}

/// JSON equality, with numbers equal by value (`1` and `1.0` are the same number).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => compare(a, b).is_eq(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match (name, value) {
        ("integer", Value::Number(n)) => {
            integer(n).is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("boolean", Value::Bool(_))
        | ("null", Value::Null)
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        _ => false,
    }
}

fn limit(keyword: Option<&Value>) -> Option<usize> {
    let n = keyword?.as_number()?;
    n.as_u64()
        .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

fn count(n: usize, noun: &str) -> String {
    match (n, noun) {
        (1, _) => format!("1 {noun}"),
        (_, "entry") => format!("{n} entries"),
        _ => format!("{n} {noun}s"),
    }
}

/// One step of the path to a value, written as serde_path_to_error writes them.
enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

fn render(path: &[Step<'_>]) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Calls `visit` on every object in a schema.
fn walk(value: &Value, visit: &mut impl FnMut(&Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            visit(map);
            map.values().for_each(|v| walk(v, visit));
        }
        Value::Array(items) => items.iter().for_each(|v| walk(v, visit)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value, value: Value) -> Result<(), (String, String)> {
        let constraints = Constraints::new(&schema)
            .unwrap()
            .expect("the schema has constraints");
        constraints.check(&value).map_err(|v| (v.path, v.message))
    }

    fn fails(schema: Value, value: Value) -> (String, String) {
        check(schema, value).expect_err("a violation")
    }

    #[test]
    fn schemas_without_constraints_cost_nothing() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string", "format": "int64"}}, "required": ["a"]});
        assert!(Constraints::new(&schema).unwrap().is_none());
    }

    #[test]
    fn strings_numbers_and_arrays() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[a-z]+$"},
            "n": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
            "x": {"type": "number", "exclusiveMinimum": 0.5},
            "tags": {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": "string", "minLength": 1}}
        }});
        assert!(
            check(
                schema.clone(),
                json!({"name": "ab", "n": 2.0, "x": 0.6, "tags": ["a"]})
            )
            .is_ok()
        );
        assert_eq!(
            fails(schema.clone(), json!({"name": "a"})),
            (
                "name".into(),
                "must be at least 2 characters long, got 1".into()
            )
        );
        assert_eq!(
            fails(schema.clone(), json!({"name": "éééé"})).1,
            "must match the pattern `^[a-z]+$`"
        );
        assert_eq!(
            fails(schema.clone(), json!({"name": "abcde"})).1,
            "must be at most 4 characters long, got 5"
        );
        assert_eq!(
            fails(schema.clone(), json!({"n": 12})).1,
            "must be at most 10, got 12"
        );
        assert_eq!(
            fails(schema.clone(), json!({"n": 3})).1,
            "must be a multiple of 2, got 3"
        );
        assert_eq!(
            fails(schema.clone(), json!({"x": 0.5})).1,
            "must be greater than 0.5, got 0.5"
        );
        assert_eq!(
            fails(schema.clone(), json!({"tags": []})),
            ("tags".into(), "must have at least 1 item, got 0".into())
        );
        assert_eq!(
            fails(schema.clone(), json!({"tags": ["a", ""]})),
            (
                "tags[1]".into(),
                "must be at least 1 character long, got 0".into()
            )
        );
        assert_eq!(
            fails(schema, json!({"tags": ["a", "b", "a"]})).1,
            "must not repeat an item: items 0 and 2 are equal"
        );
    }

    #[test]
    fn references_and_branches() {
        let schema = json!({
            "type": "object",
            "properties": {
                "shape": {"oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "minimum": 0}}, "required": ["kind"]},
                    {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number", "minimum": 0}}, "required": ["kind"]}
                ]},
                "node": {"$ref": "#/$defs/Node"},
                "maybe": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]}
            },
            "$defs": {"Node": {"type": "object", "properties": {
                "label": {"type": "string", "minLength": 1},
                "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
            }}}
        });
        assert!(
            check(
                schema.clone(),
                json!({"shape": {"kind": "square", "side": 1}, "maybe": null})
            )
            .is_ok()
        );
        assert_eq!(
            fails(
                schema.clone(),
                json!({"shape": {"kind": "circle", "radius": -1}})
            ),
            ("shape.radius".into(), "must be at least 0, got -1".into())
        );
        assert_eq!(
            fails(
                schema.clone(),
                json!({"node": {"label": "a", "next": {"label": ""}}})
            )
            .0,
            "node.next.label"
        );
        assert_eq!(
            fails(schema, json!({"maybe": "ab"})).1,
            "must be at least 3 characters long, got 2"
        );
    }

    #[test]
    fn unknown_patterns_stop_the_server_at_start() {
        let schema = json!({"type": "string", "pattern": "(?<=a)b"});
        assert!(Constraints::new(&schema).is_err());
    }

    #[test]
    fn reference_cycles_end() {
        let schema =
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A", "minLength": 1}}});
        let constraints = Constraints::new(&schema).unwrap().unwrap();
        assert!(constraints.check(&json!("")).is_err());
    }

    fn shaped(schema: Value, value: Value) -> Result<(), (String, String)> {
        let constraints = Constraints::shaped(&schema).unwrap();
        constraints.check(&value).map_err(|v| (v.path, v.message))
    }

    #[test]
    fn shaped_checks_what_serde_would() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "note": {"type": ["string", "null"]}
            },
            "required": ["a"],
            "additionalProperties": false
        });
        assert_eq!(
            shaped(schema.clone(), json!({"a": 1, "tags": ["x"], "note": null})),
            Ok(())
        );
        assert_eq!(shaped(schema.clone(), json!({"a": 2.0})), Ok(()));
        let wrong = |value| shaped(schema.clone(), value).expect_err("a violation");
        assert_eq!(
            wrong(json!({"a": "1"})),
            ("a".into(), "must be an integer, got a string".into())
        );
        assert_eq!(wrong(json!({})), (".".into(), "missing field `a`".into()));
        assert_eq!(
            wrong(json!({"a": 1, "b": 2})),
            (".".into(), "has an unknown field `b`".into())
        );
        assert_eq!(
            wrong(json!({"a": 1, "tags": [1]})),
            ("tags[0]".into(), "must be a string, got an integer".into())
        );
        assert_eq!(
            wrong(json!({"a": 1, "note": 3})),
            (
                "note".into(),
                "must be a string or null, got an integer".into()
            )
        );
        assert_eq!(wrong(json!([1])).1, "must be an object, got an array");
    }

    #[test]
    fn unshaped_leaves_types_to_serde() {
        let schema =
            json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}});
        assert_eq!(check(schema, json!({"a": 7})), Ok(()));
    }
}
