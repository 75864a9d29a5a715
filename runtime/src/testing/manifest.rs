//! [`Manifest`]: every tool (and prompt, resource and resource template) as each revision
//! lists it, pinned in a file that tests compare with.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::protocol::ProtocolVersion;
use crate::server::{Result, Server};
use crate::testing::diff::{self, Change, Compatibility};
use crate::testing::item_diff;
use crate::transport::memory::Conversation;

/// The environment variable that rewrites a pinned manifest: `TOOLWRIGHT_MANIFEST=overwrite`.
const OVERWRITE: &str = "TOOLWRIGHT_MANIFEST";

/// Every tool of a server as each protocol revision lists it, and its prompts, resources and
/// resource templates: what models and clients see of the server.
///
/// Pin it in a file, and a test fails when a tool changes, with each change listed and
/// classified as *breaking* for the models and clients that call the tools (a tool removed, an
/// argument added as required, a type narrowed, an output field removed, a hint moved toward
/// destructive) or *compatible* (a new tool, a new optional argument, a new output field, new
/// wording):
///
/// ```no_run
/// use toolwright_runtime::Server;
/// use toolwright_runtime::testing::Manifest;
///
/// #[test]
/// fn tools_do_not_change_by_accident() {
///     let server = Server::new("notes", "1").discover();
///     Manifest::of(server).unwrap().assert_matches("tests/manifest.json");
/// }
/// ```
///
/// The file is written when it does not exist yet, and rewritten when the test runs with
/// `TOOLWRIGHT_MANIFEST=overwrite` (after a change that is meant).
///
/// A server with tools only is pinned as `{"2024-11-05": [tool, ...], ...}`; one with prompts
/// or resources as `{"tools": {...}, "prompts": {...}, "resources": {...},
/// "resourceTemplates": {...}}`, each section in that shape. Prompts, resources and templates
/// are classified too: a prompt or resource removed, a required argument added, a template's
/// variables changed are breaking.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// Each section (`tools`, `prompts`, `resources`, `resourceTemplates`):
    /// `{"2024-11-05": [entry, ...], ...}`.
    sections: Map<String, Value>,
}

/// The lists a manifest holds: its key, the method that lists it, the entries' key in the
/// result, and how its changes are classified.
const SECTIONS: [(&str, &str, &str, ChangesIn); 4] = [
    ("tools", "tools/list", "tools", diff::revision_changes),
    (
        "prompts",
        "prompts/list",
        "prompts",
        item_diff::prompt_changes,
    ),
    (
        "resources",
        "resources/list",
        "resources",
        item_diff::resource_changes,
    ),
    (
        "resourceTemplates",
        "resources/templates/list",
        "resourceTemplates",
        item_diff::template_changes,
    ),
];

type ChangesIn = fn(&Value, &Value, &mut diff::Notes);

impl Manifest {
    /// Builds `server` and lists its tools, prompts, resources and templates in every
    /// revision.
    pub fn of(server: Server) -> Result<Manifest> {
        let engine = server.build()?;
        let mut sections = Map::new();
        for (section, method, key, _) in SECTIONS {
            let mut revisions = Map::new();
            for revision in ProtocolVersion::ALL {
                let client = json!({"name": "toolwright-manifest", "version": "0"});
                let mut conversation = Conversation::on(engine.clone(), revision, client);
                let Some(entries) = list_all(&mut conversation, method, key) else {
                    break;
                };
                revisions.insert(revision.as_str().to_owned(), Value::Array(entries));
            }
            if !revisions.is_empty() {
                sections.insert(section.to_owned(), Value::Object(revisions));
            }
        }
        Ok(Manifest { sections })
    }

    /// A manifest from its JSON text, as [`Manifest::to_json`] writes it.
    pub fn from_json(text: &str) -> serde_json::Result<Manifest> {
        let value: Map<String, Value> = serde_json::from_str(text)?;
        let sectioned = value.keys().any(|key| SECTIONS.iter().any(|s| s.0 == key));
        let sections = match sectioned {
            true => value,
            false => Map::from_iter([("tools".to_owned(), Value::Object(value))]),
        };
        Ok(Manifest { sections })
    }

    /// The manifest as stable, pretty JSON: the entries in list order, each revision in turn
    /// (the tools alone for a server with nothing else).
    pub fn to_json(&self) -> String {
        let tools_only = self.sections.keys().all(|key| key == "tools");
        let shown = match (tools_only, self.sections.get("tools")) {
            (true, Some(tools)) => tools.clone(),
            _ => Value::Object(self.sections.clone()),
        };
        let mut text = serde_json::to_string_pretty(&shown).expect("JSON serializes");
        text.push('\n');
        text
    }

    /// What changed from `earlier` to this manifest, change by change.
    pub fn changes_since(&self, earlier: &Manifest) -> Vec<Change> {
        let null = Value::Null;
        SECTIONS
            .iter()
            .flat_map(|&(section, _, _, changes_in)| {
                let before = earlier.sections.get(section).unwrap_or(&null);
                let after = self.sections.get(section).unwrap_or(&null);
                diff::changes_with(before, after, changes_in)
            })
            .collect()
    }

    /// Compares the manifest with the one pinned in `path` (relative paths from the package's
    /// directory, as cargo runs tests) and panics with the list of changes when they differ.
    /// Writes the file when it does not exist, or when `TOOLWRIGHT_MANIFEST=overwrite`.
    ///
    /// # Panics
    /// When the pinned manifest differs, or cannot be read or written.
    #[track_caller]
    pub fn assert_matches(&self, path: impl AsRef<Path>) {
        let path = resolve(path.as_ref());
        let overwrite = std::env::var(OVERWRITE).is_ok_and(|v| v == "overwrite");
        let pinned = match std::fs::read_to_string(&path) {
            Ok(text) if !overwrite => text,
            Err(e) if e.kind() != std::io::ErrorKind::NotFound && !overwrite => {
                panic!("cannot read the pinned manifest {}: {e}", path.display())
            }
            _ => {
                if let Some(dir) = path.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                std::fs::write(&path, self.to_json()).unwrap_or_else(|e| {
                    panic!("cannot write the manifest {}: {e}", path.display())
                });
                return;
            }
        };
        let earlier = Manifest::from_json(&pinned)
            .unwrap_or_else(|e| panic!("the pinned manifest {} is not JSON: {e}", path.display()));
        if earlier == *self {
            return;
        }
        panic!("{}", report(&self.changes_since(&earlier), &path));
    }
}

/// Every entry of a paginated list (`None` when the server does not serve it).
fn list_all(conversation: &mut Conversation, method: &str, key: &str) -> Option<Vec<Value>> {
    let mut entries = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let params = match &cursor {
            Value::Null => json!({}),
            cursor => json!({"cursor": cursor}),
        };
        let id = conversation.send_request(method, params);
        let answer = conversation.answer(id, None).expect("a list is answered");
        let page = answer.get("result")?;
        entries.extend(page[key].as_array().cloned().unwrap_or_default());
        match page.get("nextCursor") {
            Some(next) if !next.is_null() => cursor = next.clone(),
            _ => return Some(entries),
        }
    }
}

fn resolve(path: &Path) -> PathBuf {
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) if path.is_relative() => Path::new(&dir).join(path),
        _ => path.to_owned(),
    }
}

fn report(changes: &[Change], path: &Path) -> String {
    let mut text = format!(
        "the server's lists differ from the manifest pinned in {}:\n",
        path.display()
    );
    for compatibility in [Compatibility::Breaking, Compatibility::Compatible] {
        let listed: Vec<&Change> = changes
            .iter()
            .filter(|c| c.compatibility == compatibility)
            .collect();
        if listed.is_empty() {
            continue;
        }
        let _ = writeln!(text, "{compatibility}:");
        for change in listed {
            let _ = writeln!(text, "  - {change}");
        }
    }
    let _ = write!(
        text,
        "if the changes are meant, run the test again with {OVERWRITE}=overwrite to pin them"
    );
    text
}
