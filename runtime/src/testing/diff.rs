//! The changes between two manifests, each classified by what it does to a client that was
//! written against the earlier one (a model's prompt, a client's cached schema).
//!
//! Arguments are what clients send: narrowing them is breaking (an argument removed or made
//! required, a type or value range narrowed), widening them compatible. Outputs are what
//! clients read: losing a field is breaking, gaining one compatible. Hints are breaking when
//! they move toward harm (a tool no longer read-only, now destructive, no longer idempotent,
//! now open-world). Words (descriptions, titles) are compatible. A change the rules do not
//! know is counted as breaking, so nothing slips through as harmless.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

use crate::protocol::ProtocolVersion;

/// Whether a change can break the clients and models that use a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Compatibility {
    /// It can: a call that worked may now fail, or a reader may miss what it relied on.
    Breaking,
    /// It cannot: what worked still works.
    Compatible,
}

impl fmt::Display for Compatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compatibility::Breaking => "breaking",
            Compatibility::Compatible => "compatible",
        })
    }
}

/// One change to a tool, and the revisions it shows in.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// Breaking or compatible.
    pub compatibility: Compatibility,
    /// The tool's name.
    pub tool: String,
    /// What changed, in words.
    pub what: String,
    /// The revisions whose listing shows it.
    pub revisions: Vec<String>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.tool, self.what)?;
        if self.revisions.len() < ProtocolVersion::ALL.len() {
            write!(f, " ({})", self.revisions.join(", "))?;
        }
        Ok(())
    }
}

/// Every change from `earlier` to `now` (both `{revision: [entry, ...]}`), as `per_revision`
/// finds them in each revision's listing, with the revisions each shows in.
pub(crate) fn changes_with(
    earlier: &Value,
    now: &Value,
    per_revision: fn(&Value, &Value, &mut Notes),
) -> Vec<Change> {
    let mut found: BTreeMap<(Compatibility, String, String), Vec<String>> = BTreeMap::new();
    let empty = Map::new();
    let earlier = earlier.as_object().unwrap_or(&empty);
    let now = now.as_object().unwrap_or(&empty);
    let revisions: BTreeSet<&String> = earlier.keys().chain(now.keys()).collect();
    for revision in revisions {
        let mut notes = Notes::default();
        per_revision(
            earlier.get(revision).unwrap_or(&Value::Null),
            now.get(revision).unwrap_or(&Value::Null),
            &mut notes,
        );
        for (compatibility, tool, what) in notes.0 {
            found
                .entry((compatibility, tool, what))
                .or_default()
                .push(revision.clone());
        }
    }
    found
        .into_iter()
        .map(|((compatibility, tool, what), revisions)| Change {
            compatibility,
            tool,
            what,
            revisions,
        })
        .collect()
}

/// The changes found in one revision: how compatible, to what, what.
#[derive(Default)]
pub(crate) struct Notes(Vec<(Compatibility, String, String)>);

impl Notes {
    pub(crate) fn breaking(&mut self, tool: &str, what: String) {
        self.0
            .push((Compatibility::Breaking, tool.to_owned(), what));
    }

    pub(crate) fn compatible(&mut self, tool: &str, what: String) {
        self.0
            .push((Compatibility::Compatible, tool.to_owned(), what));
    }
}

fn by_name(tools: &Value) -> BTreeMap<&str, &Value> {
    tools
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| Some((tool.get("name")?.as_str()?, tool)))
        .collect()
}

/// The tools of one revision's listing.
pub(crate) fn revision_changes(earlier: &Value, now: &Value, notes: &mut Notes) {
    let (old, new) = (by_name(earlier), by_name(now));
    for name in old.keys().filter(|name| !new.contains_key(*name)) {
        notes.breaking(name, "removed (or renamed)".into());
    }
    for name in new.keys().filter(|name| !old.contains_key(*name)) {
        notes.compatible(name, "added".into());
    }
    for (name, old_tool) in &old {
        if let Some(new_tool) = new.get(name) {
            tool_changes(name, old_tool, new_tool, notes);
        }
    }
    let order = |tools: &Value| -> Vec<String> {
        tools
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("name")?.as_str().map(str::to_owned))
            .filter(|n| old.contains_key(n.as_str()) && new.contains_key(n.as_str()))
            .collect()
    };
    if order(earlier) != order(now) {
        notes.compatible("*", "the order of the tools changed".into());
    }
}

fn tool_changes(name: &str, old: &Value, new: &Value, notes: &mut Notes) {
    let empty = Value::Null;
    let field = |tool: &'_ Value, key: &str| tool.get(key).cloned().unwrap_or(Value::Null);
    for key in ["title", "description"] {
        if field(old, key) != field(new, key) {
            notes.compatible(name, format!("{key} changed"));
        }
    }
    let input = Schemas {
        old_root: old.get("inputSchema").unwrap_or(&empty),
        new_root: new.get("inputSchema").unwrap_or(&empty),
        side: Side::Input,
    };
    input.compare(name, "", input.old_root, input.new_root, notes, 0);
    match (old.get("outputSchema"), new.get("outputSchema")) {
        (Some(_), None) => notes.breaking(name, "no longer has an output schema".into()),
        (None, Some(_)) => notes.compatible(name, "has an output schema now".into()),
        (Some(old_root), Some(new_root)) => {
            let output = Schemas {
                old_root,
                new_root,
                side: Side::Output,
            };
            output.compare(name, "", old_root, new_root, notes, 0);
        }
        (None, None) => {}
    }
    hints(name, old.get("annotations"), new.get("annotations"), notes);
    task_support(name, old, new, notes);
    let known = [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "execution",
    ];
    let keys: BTreeSet<&String> = old
        .as_object()
        .into_iter()
        .chain(new.as_object())
        .flat_map(Map::keys)
        .filter(|k| !known.contains(&k.as_str()))
        .collect();
    for key in keys {
        if old.get(key) != new.get(key) {
            notes.compatible(name, format!("`{key}` changed"));
        }
    }
}

/// A tool that comes to run only as a task is lost to the clients that cannot follow one; one
/// that may run as a task, or no longer must, still serves every client.
fn task_support(name: &str, old: &Value, new: &Value, notes: &mut Notes) {
    let support = |tool: &Value| {
        tool.pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_owned()
    };
    let (before, after) = (support(old), support(new));
    if before == after {
        return;
    }
    let change = format!("runs as a task: `{before}` became `{after}`");
    match after.as_str() {
        "required" => notes.breaking(name, change),
        _ => notes.compatible(name, change),
    }
}

/// Each hint with the value clients assume when it is absent, and the value that is safe.
const HINTS: [(&str, &str, bool, bool); 4] = [
    ("readOnlyHint", "read-only", false, true),
    ("destructiveHint", "destructive", true, false),
    ("idempotentHint", "idempotent", false, true),
    ("openWorldHint", "open-world", true, false),
];

fn hints(name: &str, old: Option<&Value>, new: Option<&Value>, notes: &mut Notes) {
    let hint = |annotations: Option<&Value>, key: &str, default: bool| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    for (key, word, default, safe) in HINTS {
        let (before, after) = (hint(old, key, default), hint(new, key, default));
        if before == after {
            continue;
        }
        let now = if after { "now" } else { "no longer" };
        let what = format!("{now} {word} (`{key}`)");
        if after == safe {
            notes.compatible(name, what);
        } else {
            notes.breaking(name, what);
        }
    }
    let title = |a: Option<&Value>| a.and_then(|a| a.get("title")).cloned();
    if title(old) != title(new) {
        notes.compatible(name, "annotation title changed".into());
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// What clients send: narrowing breaks them.
    Input,
    /// What clients read: losing what they read breaks them.
    Output,
}

/// The keywords that only describe: changing them changes no value's validity.
const WORDS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "$comment",
];

/// The keywords compared on their own below.
const HANDLED: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "additionalProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "format",
    "$ref",
    "$defs",
];

struct Schemas<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    side: Side,
}

impl Schemas<'_> {
    fn note(&self, tool: &str, narrows: bool, what: String, notes: &mut Notes) {
        // Narrowing what a client may send breaks it; narrowing what it reads does not.
        let breaking = match self.side {
            Side::Input => narrows,
            Side::Output => !narrows,
        };
        if breaking {
            notes.breaking(tool, what);
        } else {
            notes.compatible(tool, what);
        }
    }

    #[allow(clippy::too_many_lines)]
    fn compare(
        &self,
        tool: &str,
        path: &str,
        old: &Value,
        new: &Value,
        notes: &mut Notes,
        depth: usize,
    ) {
        if depth > 16 || old == new {
            return;
        }
        let old = resolve(self.old_root, old);
        let new = resolve(self.new_root, new);
        if old == new {
            return;
        }
        let subject = |kind: &str| match (path, self.side) {
            ("", Side::Input) => "the arguments".to_owned(),
            ("", Side::Output) => "the output".to_owned(),
            (path, Side::Input) => format!("argument `{path}`"),
            (path, Side::Output) => format!("output {kind}`{path}`"),
        };
        let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
            self.note(
                tool,
                true,
                format!("schema of {} changed", subject("")),
                notes,
            );
            return;
        };
        // Types: fewer accepted types narrow.
        let types = |m: &Map<String, Value>| -> Option<BTreeSet<String>> {
            match m.get("type")? {
                Value::String(t) => Some(BTreeSet::from([t.clone()])),
                Value::Array(ts) => Some(
                    ts.iter()
                        .filter_map(|t| t.as_str().map(str::to_owned))
                        .collect(),
                ),
                _ => None,
            }
        };
        if let (Some(before), Some(after)) = (types(o), types(n))
            && before != after
        {
            let widened = before
                .iter()
                .all(|t| after.contains(t) || (t == "integer" && after.contains("number")));
            let what = format!(
                "type of {} changed from {} to {}",
                subject(""),
                before.into_iter().collect::<Vec<_>>().join("|"),
                after.into_iter().collect::<Vec<_>>().join("|")
            );
            // A changed type breaks both sides unless inputs only widened.
            let breaking = !(widened && self.side == Side::Input);
            if breaking {
                notes.breaking(tool, what);
            } else {
                notes.compatible(tool, what);
            }
        }
        // Enumerations: losing values narrows.
        if let (Some(Value::Array(before)), Some(Value::Array(after))) =
            (o.get("enum"), n.get("enum"))
        {
            for lost in before.iter().filter(|v| !after.contains(v)) {
                self.note(
                    tool,
                    true,
                    format!("{} no longer takes {lost}", subject("")),
                    notes,
                );
            }
            for gained in after.iter().filter(|v| !before.contains(v)) {
                self.note(
                    tool,
                    false,
                    format!("{} takes {gained} too", subject("")),
                    notes,
                );
            }
        } else if o.get("enum") != n.get("enum") {
            self.note(
                tool,
                n.get("enum").is_some(),
                format!("values of {} changed", subject("")),
                notes,
            );
        }
        if o.get("const") != n.get("const") {
            notes.breaking(tool, format!("constant of {} changed", subject("")));
        }
        // Bounds: a higher minimum or a lower maximum narrows; a new bound narrows.
        for (key, higher_narrows) in [
            ("minimum", true),
            ("exclusiveMinimum", true),
            ("minLength", true),
            ("minItems", true),
            ("maximum", false),
            ("exclusiveMaximum", false),
            ("maxLength", false),
            ("maxItems", false),
        ] {
            let (before, after) = (
                o.get(key).and_then(Value::as_f64),
                n.get(key).and_then(Value::as_f64),
            );
            let narrows = match (before, after) {
                (Some(b), Some(a)) if a != b => (a > b) == higher_narrows,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                _ => continue,
            };
            let show = |v: Option<f64>| v.map_or("none".to_owned(), |v| v.to_string());
            self.note(
                tool,
                narrows,
                format!(
                    "`{key}` of {} changed from {} to {}",
                    subject(""),
                    show(before),
                    show(after)
                ),
                notes,
            );
        }
        for key in ["pattern", "format"] {
            if o.get(key) != n.get(key) {
                let narrows = n.get(key).is_some();
                self.note(
                    tool,
                    narrows,
                    format!("`{key}` of {} changed", subject("")),
                    notes,
                );
            }
        }
        self.properties(tool, path, o, n, notes, depth);
        if let (Some(before), Some(after)) = (o.get("items"), n.get("items")) {
            self.compare(tool, &format!("{path}[]"), before, after, notes, depth + 1);
        }
        for key in WORDS {
            if o.get(*key) != n.get(*key) && !path.is_empty() {
                notes.compatible(tool, format!("`{key}` of {} changed", subject("")));
            }
        }
        let others: BTreeSet<&String> = o
            .keys()
            .chain(n.keys())
            .filter(|k| !HANDLED.contains(&k.as_str()) && !WORDS.contains(&k.as_str()))
            .collect();
        for key in others {
            if o.get(key) != n.get(key) {
                notes.breaking(tool, format!("`{key}` of {} changed", subject("")));
            }
        }
    }

    fn properties(
        &self,
        tool: &str,
        path: &str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        notes: &mut Notes,
        depth: usize,
    ) {
        let empty = Map::new();
        let props = |m: &'_ Map<String, Value>| {
            m.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_else(|| empty.clone())
        };
        let required = |m: &Map<String, Value>| -> BTreeSet<String> {
            m.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        let (before, after) = (props(o), props(n));
        let (was_required, is_required) = (required(o), required(n));
        let join = |name: &str| match path {
            "" => name.to_owned(),
            path => format!("{path}.{name}"),
        };
        let noun = match self.side {
            Side::Input => "argument",
            Side::Output => "output field",
        };
        for name in before.keys().filter(|k| !after.contains_key(*k)) {
            let what = format!("{noun} `{}` removed", join(name));
            match self.side {
                // A client that sends it is now refused (arguments are closed); a reader loses it.
                Side::Input | Side::Output => notes.breaking(tool, what),
            }
        }
        for name in after.keys().filter(|k| !before.contains_key(*k)) {
            let field = join(name);
            match (self.side, is_required.contains(name)) {
                (Side::Input, true) => {
                    notes.breaking(tool, format!("{noun} `{field}` added as required"))
                }
                (Side::Input, false) => {
                    notes.compatible(tool, format!("optional {noun} `{field}` added"))
                }
                (Side::Output, _) => notes.compatible(tool, format!("{noun} `{field}` added")),
            }
        }
        for (name, old_schema) in &before {
            let Some(new_schema) = after.get(name) else {
                continue;
            };
            let field = join(name);
            match (
                was_required.contains(name),
                is_required.contains(name),
                self.side,
            ) {
                (false, true, Side::Input) => {
                    notes.breaking(tool, format!("{noun} `{field}` became required"))
                }
                (true, false, Side::Input) => {
                    notes.compatible(tool, format!("{noun} `{field}` became optional"))
                }
                (true, false, Side::Output) => {
                    notes.breaking(tool, format!("{noun} `{field}` may be absent now"))
                }
                (false, true, Side::Output) => {
                    notes.compatible(tool, format!("{noun} `{field}` is always present now"))
                }
                _ => {}
            }
            self.compare(tool, &field, old_schema, new_schema, notes, depth + 1);
        }
        let closed =
            |m: &Map<String, Value>| m.get("additionalProperties") == Some(&Value::Bool(false));
        if self.side == Side::Input && !closed(o) && closed(n) {
            notes.breaking(
                tool,
                format!(
                    "unknown keys in {} are refused now",
                    if path.is_empty() {
                        "the arguments".to_owned()
                    } else {
                        format!("`{path}`")
                    }
                ),
            );
        }
    }
}

/// A local `$ref`, followed (one hop).
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) => root.pointer(pointer).unwrap_or(schema),
        None => schema,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(input: Value, output: Option<Value>, annotations: Value) -> Value {
        let mut tool = json!({"name": "t", "description": "d", "inputSchema": input, "annotations": annotations});
        if let Some(output) = output {
            tool["outputSchema"] = output;
        }
        tool
    }

    fn listed(tools: Vec<Value>) -> Value {
        json!({"2025-11-25": tools})
    }

    fn summary(earlier: Vec<Value>, now: Vec<Value>) -> Vec<(Compatibility, String)> {
        changes_with(&listed(earlier), &listed(now), revision_changes)
            .into_iter()
            .map(|c| (c.compatibility, format!("{}: {}", c.tool, c.what)))
            .collect()
    }

    fn input(properties: Value, required: Value) -> Value {
        json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
    }

    #[test]
    fn arguments() {
        use Compatibility::*;
        let before = tool(
            input(
                json!({"a": {"type": "integer", "minimum": 0}, "b": {"type": "string"}}),
                json!(["a"]),
            ),
            None,
            json!({}),
        );
        let after = tool(
            input(
                json!({"a": {"type": "number", "minimum": 1}, "c": {"type": "string"}, "d": {"type": "boolean"}}),
                json!(["a", "d"]),
            ),
            None,
            json!({}),
        );
        let mut found = summary(vec![before], vec![after]);
        found.sort();
        assert_eq!(
            found,
            vec![
                (
                    Breaking,
                    "t: `minimum` of argument `a` changed from 0 to 1".to_owned()
                ),
                (Breaking, "t: argument `b` removed".to_owned()),
                (Breaking, "t: argument `d` added as required".to_owned()),
                (Compatible, "t: optional argument `c` added".to_owned()),
                (
                    Compatible,
                    "t: type of argument `a` changed from integer to number".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn outputs_hints_and_words() {
        use Compatibility::*;
        let output = |properties: Value, required: Value| json!({"type": "object", "properties": properties, "required": required});
        let before = tool(
            input(json!({}), json!([])),
            Some(output(
                json!({"x": {"type": "integer"}, "y": {"type": "integer"}}),
                json!(["x", "y"]),
            )),
            json!({"readOnlyHint": true}),
        );
        let mut after = tool(
            input(json!({}), json!([])),
            Some(output(
                json!({"x": {"type": "integer"}, "z": {"type": "string"}}),
                json!(["x", "z"]),
            )),
            json!({}),
        );
        after["description"] = json!("new words");
        let mut found = summary(vec![before.clone()], vec![after]);
        found.sort();
        assert_eq!(
            found,
            vec![
                (
                    Breaking,
                    "t: no longer read-only (`readOnlyHint`)".to_owned()
                ),
                (Breaking, "t: output field `y` removed".to_owned()),
                (Compatible, "t: description changed".to_owned()),
                (Compatible, "t: output field `z` added".to_owned()),
            ]
        );
        assert_eq!(
            summary(vec![before.clone()], vec![]),
            vec![(Breaking, "t: removed (or renamed)".to_owned())]
        );
        assert_eq!(
            summary(vec![], vec![before]),
            vec![(Compatible, "t: added".to_owned())]
        );
    }

    #[test]
    fn a_tool_that_comes_to_need_a_task_breaks_its_other_clients() {
        use Compatibility::*;
        let plain = tool(input(json!({}), json!([])), None, json!({}));
        let with = |support: &str| {
            let mut t = plain.clone();
            t["execution"] = json!({"taskSupport": support});
            t
        };
        assert_eq!(
            summary(vec![plain.clone()], vec![with("optional")]),
            vec![(
                Compatible,
                "t: runs as a task: `forbidden` became `optional`".to_owned()
            )]
        );
        assert_eq!(
            summary(vec![with("optional")], vec![with("required")]),
            vec![(
                Breaking,
                "t: runs as a task: `optional` became `required`".to_owned()
            )]
        );
        assert_eq!(
            summary(vec![with("required")], vec![plain]),
            vec![(
                Compatible,
                "t: runs as a task: `required` became `forbidden`".to_owned()
            )]
        );
    }
}
