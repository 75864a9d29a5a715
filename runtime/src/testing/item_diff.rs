//! The changes to prompts, resources and resource templates between two manifests, classified
//! as tools' are, by what they do to a client written against the earlier one.
//!
//! A prompt's arguments are what clients send: one removed, added as required, or made
//! required is breaking; one added as optional, or made optional, compatible. A resource or a
//! template removed, a template whose variables changed, a URI or a MIME type changed are
//! breaking (a client's links and parsers rely on them); anything added, and words, are
//! compatible.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::resources::template::UriTemplate;
use crate::testing::diff::Notes;

/// Entries of one listing by a key (`name`, or `uri` for resources).
fn by(key: &str, entries: &Value) -> BTreeMap<String, Value> {
    entries
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e.get(key)?.as_str()?.to_owned(), e.clone())))
        .collect()
}

/// Entries added and removed; `changed` for those in both.
fn compare(
    kind: &str,
    key: &str,
    earlier: &Value,
    now: &Value,
    notes: &mut Notes,
    changed: impl Fn(&str, &Value, &Value, &mut Notes),
) {
    let (old, new) = (by(key, earlier), by(key, now));
    for name in old.keys().filter(|name| !new.contains_key(*name)) {
        notes.breaking(&format!("{kind} {name}"), "removed (or renamed)".into());
    }
    for name in new.keys().filter(|name| !old.contains_key(*name)) {
        notes.compatible(&format!("{kind} {name}"), "added".into());
    }
    for (name, before) in &old {
        if let Some(after) = new.get(name) {
            changed(&format!("{kind} {name}"), before, after, notes);
        }
    }
}

/// Words a client shows but does not rely on.
fn words(item: &str, before: &Value, after: &Value, notes: &mut Notes) {
    for key in ["title", "description"] {
        if before.get(key) != after.get(key) {
            notes.compatible(item, format!("its {key} changed"));
        }
    }
}

/// The prompts of one revision's listing.
pub(crate) fn prompt_changes(earlier: &Value, now: &Value, notes: &mut Notes) {
    compare(
        "prompt",
        "name",
        earlier,
        now,
        notes,
        |item, before, after, notes| {
            words(item, before, after, notes);
            let (old, new) = (
                by("name", &before["arguments"]),
                by("name", &after["arguments"]),
            );
            let required = |argument: &Value| argument["required"] == Value::Bool(true);
            for name in old.keys().filter(|name| !new.contains_key(*name)) {
                notes.breaking(item, format!("the argument `{name}` was removed"));
            }
            for (name, argument) in new.iter().filter(|(name, _)| !old.contains_key(*name)) {
                match required(argument) {
                    true => {
                        notes.breaking(item, format!("the required argument `{name}` was added"))
                    }
                    false => {
                        notes.compatible(item, format!("the optional argument `{name}` was added"))
                    }
                }
            }
            for (name, was) in &old {
                let Some(is) = new.get(name) else { continue };
                match (required(was), required(is)) {
                    (false, true) => {
                        notes.breaking(item, format!("the argument `{name}` is now required"))
                    }
                    (true, false) => {
                        notes.compatible(item, format!("the argument `{name}` is now optional"))
                    }
                    _ => {}
                }
                if was.get("description") != is.get("description") {
                    notes.compatible(item, format!("the description of `{name}` changed"));
                }
            }
        },
    );
}

/// The direct resources of one revision's listing.
pub(crate) fn resource_changes(earlier: &Value, now: &Value, notes: &mut Notes) {
    compare(
        "resource",
        "uri",
        earlier,
        now,
        notes,
        |item, before, after, notes| {
            words(item, before, after, notes);
            if before.get("name") != after.get("name") {
                notes.compatible(item, "its name changed".into());
            }
            if before.get("mimeType") != after.get("mimeType") {
                notes.breaking(item, "its MIME type changed".into());
            }
        },
    );
}

/// The resource templates of one revision's listing, by URI template (names need not be
/// unique); a template whose URI template changed is found by its name, which it keeps.
pub(crate) fn template_changes(earlier: &Value, now: &Value, notes: &mut Notes) {
    let (old, new) = (by("uriTemplate", earlier), by("uriTemplate", now));
    let named = |entry: &Value| entry["name"].as_str().unwrap_or_default().to_owned();
    let mut renamed = Vec::new();
    for (uri, before) in old.iter().filter(|(uri, _)| !new.contains_key(*uri)) {
        let moved = new
            .iter()
            .find(|(to, after)| !old.contains_key(*to) && named(after) == named(before));
        match moved {
            Some((to, after)) => {
                renamed.push(to.clone());
                template_changed(&format!("template {}", named(before)), before, after, notes);
            }
            None => notes.breaking(&format!("template {uri}"), "removed (or renamed)".into()),
        }
    }
    for uri in new
        .keys()
        .filter(|uri| !old.contains_key(*uri) && !renamed.contains(uri))
    {
        notes.compatible(&format!("template {uri}"), "added".into());
    }
    for (uri, before) in &old {
        if let Some(after) = new.get(uri) {
            template_changed(&format!("template {uri}"), before, after, notes);
        }
    }
}

/// What changed in one template.
fn template_changed(item: &str, before: &Value, after: &Value, notes: &mut Notes) {
    words(item, before, after, notes);
    let variables = |entry: &Value| -> Option<Vec<String>> {
        let template = UriTemplate::parse(entry["uriTemplate"].as_str()?).ok()?;
        let mut names: Vec<String> = template
            .variables()
            .into_iter()
            .map(str::to_owned)
            .collect();
        names.sort();
        Some(names)
    };
    if variables(before) != variables(after) {
        notes.breaking(item, "its template's variables changed".into());
    } else if before["uriTemplate"] != after["uriTemplate"] {
        notes.breaking(item, "its URI template changed".into());
    }
    if before.get("mimeType") != after.get("mimeType") {
        notes.breaking(item, "its MIME type changed".into());
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::testing::diff::{Change, Compatibility, changes_with};

    use super::*;

    fn found(
        earlier: Value,
        now: Value,
        per_revision: fn(&Value, &Value, &mut Notes),
    ) -> Vec<(Compatibility, String, String)> {
        let listed = |entries: Value| json!({"2025-11-25": entries});
        changes_with(&listed(earlier), &listed(now), per_revision)
            .into_iter()
            .map(
                |Change {
                     compatibility,
                     tool,
                     what,
                     ..
                 }| (compatibility, tool, what),
            )
            .collect()
    }

    use Compatibility::{Breaking, Compatible};

    #[test]
    fn prompt_arguments_narrowed_are_breaking_and_widened_compatible() {
        let before = json!([{"name": "review", "arguments": [
            {"name": "code", "required": true},
            {"name": "style", "required": false},
            {"name": "gone", "required": false}
        ]}]);
        let after = json!([{"name": "review", "arguments": [
            {"name": "code", "required": false},
            {"name": "style", "required": true},
            {"name": "lang", "required": true},
            {"name": "tone", "required": false}
        ]}, {"name": "summary"}]);
        let changes = found(before, after, prompt_changes);
        let item = |what: &str| ("prompt review".to_owned(), what.to_owned());
        for (compatibility, (tool, what)) in [
            (Breaking, item("the argument `gone` was removed")),
            (Breaking, item("the required argument `lang` was added")),
            (Breaking, item("the argument `style` is now required")),
            (Compatible, item("the optional argument `tone` was added")),
            (Compatible, item("the argument `code` is now optional")),
            (Compatible, ("prompt summary".into(), "added".into())),
        ] {
            assert!(
                changes.contains(&(compatibility, tool.clone(), what.clone())),
                "{compatibility} {tool}: {what} not in {changes:?}"
            );
        }
        assert_eq!(changes.len(), 6, "{changes:?}");
    }

    #[test]
    fn resources_removed_or_retyped_and_templates_revarried_are_breaking() {
        let resources = found(
            json!([{"uri": "a://1", "name": "one", "mimeType": "text/plain"}, {"uri": "a://2", "name": "two"}]),
            json!([{"uri": "a://1", "name": "one", "mimeType": "application/json", "description": "now"}]),
            resource_changes,
        );
        assert!(resources.contains(&(
            Breaking,
            "resource a://2".into(),
            "removed (or renamed)".into()
        )));
        assert!(resources.contains(&(
            Breaking,
            "resource a://1".into(),
            "its MIME type changed".into()
        )));
        assert!(resources.contains(&(
            Compatible,
            "resource a://1".into(),
            "its description changed".into()
        )));
        let templates = found(
            json!([{"name": "note", "uriTemplate": "notes://{id}"}, {"name": "file", "uriTemplate": "file:///{+path}"}]),
            json!([{"name": "note", "uriTemplate": "notes://{folder}/{id}"}, {"name": "file", "uriTemplate": "files:///{+path}"}]),
            template_changes,
        );
        assert_eq!(
            templates,
            [
                (
                    Breaking,
                    "template file".into(),
                    "its URI template changed".into()
                ),
                (
                    Breaking,
                    "template note".into(),
                    "its template's variables changed".into()
                ),
            ]
        );
    }

    #[test]
    fn templates_that_share_a_name_are_told_apart_by_their_uri() {
        let before = json!([
            {"name": "page", "uriTemplate": "a://{x}"},
            {"name": "page", "uriTemplate": "b://{x}", "mimeType": "text/plain"}
        ]);
        let after = json!([
            {"name": "page", "uriTemplate": "a://{x}"},
            {"name": "page", "uriTemplate": "b://{x}", "mimeType": "text/html"},
            {"name": "other", "uriTemplate": "c://{y}"}
        ]);
        assert_eq!(
            found(before, after, template_changes),
            [
                (
                    Breaking,
                    "template b://{x}".into(),
                    "its MIME type changed".into()
                ),
                (Compatible, "template c://{y}".into(), "added".into()),
            ]
        );
    }
}
