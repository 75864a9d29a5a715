//! The runtime's modules form layers, and each imports only from the layers below it. A module
//! is a file or a folder directly under `src/`; an import is any `crate::module` path in its
//! code (comments and `#[cfg(test)] mod tests` blocks aside, since tests may reach anywhere).
//! A path through a root re-export (`crate::Context`) would hide an import, so it is refused.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lowest first. A module may import from any layer below its own, and from nothing else.
const LAYERS: &[&[&str]] = &[
    &["protocol", "diagnostics"],
    &["tools"],
    &["call"],
    &["server"],
    &["transport"],
    &["cli", "testing"],
    &["private"],
];

/// Imports of each module: (module, module it imports, the file that does).
type Edges = BTreeMap<(String, String), PathBuf>;

#[test]
fn modules_import_only_from_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (modules, edges, hidden) = scan(&src);
    assert!(
        hidden.is_empty(),
        "paths through root re-exports hide imports: {hidden:?}"
    );
    let unplaced: Vec<&String> = modules.iter().filter(|m| layer(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "modules in no layer (add them to LAYERS): {unplaced:?}"
    );
    let wrong = violations(&edges);
    assert!(
        wrong.is_empty(),
        "imports that do not point down:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_back_edge_or_a_cycle_is_caught() {
    let edge = |from: &str, to: &str| ((from.to_owned(), to.to_owned()), PathBuf::from("x.rs"));
    let edges: Edges = [
        edge("tools", "server"),
        edge("cli", "testing"),
        edge("server", "tools"),
    ]
    .into_iter()
    .collect();
    let found = violations(&edges);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("`cli` imports `testing`"));
    assert!(found[1].contains("`tools` imports `server`"));
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn violations(edges: &Edges) -> Vec<String> {
    edges
        .iter()
        .filter(|((from, to), _)| match (layer(from), layer(to)) {
            (Some(from), Some(to)) => to >= from,
            _ => true,
        })
        .map(|((from, to), file)| {
            format!(
                "`{from}` imports `{to}` (in {}), a layer not below it",
                file.display()
            )
        })
        .collect()
}

fn scan(src: &Path) -> (BTreeSet<String>, Edges, Vec<String>) {
    let mut files = Vec::new();
    collect(src, &mut files);
    let module_of = |path: &Path| -> Option<String> {
        let first = path.strip_prefix(src).ok()?.components().next()?;
        let name = first.as_os_str().to_str()?;
        match name {
            "lib.rs" => None,
            file if file.ends_with(".rs") => Some(file.trim_end_matches(".rs").to_owned()),
            folder => Some(folder.to_owned()),
        }
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f)).collect();
    let mut edges = Edges::new();
    let mut hidden = Vec::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let text = code_of(&std::fs::read_to_string(file).expect("a source file"));
        for path in crate_paths(&text) {
            let first = path.split("::").next().unwrap_or_default().to_owned();
            if first.starts_with(char::is_uppercase) {
                hidden.push(format!("{}: crate::{path}", file.display()));
            } else if modules.contains(&first) && first != module {
                edges
                    .entry((module.clone(), first))
                    .or_insert_with(|| file.clone());
            }
        }
    }
    (modules, edges, hidden)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code of a file: without comments, and without its `#[cfg(test)] mod tests` block.
fn code_of(text: &str) -> String {
    let text = match text
        .find("#[cfg(test)]\nmod tests")
        .or_else(|| text.find("#[cfg(test)]\npub(crate) mod tests"))
    {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path after `crate::`, including each of a `crate::{a, b::c}` group.
fn crate_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            for item in group[..end].split(',') {
                let item = item.trim();
                if !item.is_empty() {
                    paths.push(item.to_owned());
                }
            }
            rest = &group[end..];
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            paths.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
    }
    paths
}

fn matching_brace(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}
