//! The modules of each crate form layers, and each imports only from the layers below it: the
//! top-level modules of `src/`, and the files and folders inside every folder, so that no file
//! imports a file that imports it back. A module is a file or a folder; an import is any
//! `crate::...` path in its code (comments and `#[cfg(test)] mod tests` blocks aside, since
//! tests may reach anywhere). A folder's `mod.rs` may name its own files. A path that would
//! hide which file it imports is refused: through the crate root (`crate::Context`,
//! `crate::middleware::Chain`), through a folder the importing file is in
//! (`crate::call::Context` from `call/inject.rs`), and relative to the parent (`super::x`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod source;

/// The layers of one folder (`""` for `src/` itself), lowest first: a module may import from
/// any layer below its own, and from nothing else.
type Folders = &'static [(&'static str, &'static [&'static [&'static str]])];

const RUNTIME: Folders = &[
    (
        "",
        &[
            &["protocol", "diagnostics"],
            &["tools"],
            &["prompts", "resources", "tasks"],
            &["call"],
            &["item"],
            &["run"],
            &["server"],
            &["transport"],
            &["cli", "testing"],
            &["private"],
        ],
    ),
    (
        "protocol",
        &[
            &["meta"],
            &["code", "id", "level", "params", "quote", "version"],
            &["method"],
            &["jsonrpc", "wire"],
            &["mcp_error"],
        ],
    ),
    (
        "tools",
        &[
            &[
                "content",
                "default_value",
                "format",
                "header_argument",
                "headers",
                "schema",
            ],
            &["bind_error", "constraints"],
            &["compiled", "output"],
            &["binding", "error", "render"],
            &["ask_error", "select"],
            &["failure"],
        ],
    ),
    (
        "call",
        &[
            &[
                "auth",
                "client",
                "extensions",
                "gate",
                "state",
                "trace_context",
            ],
            &["outlet", "span"],
            &["caller", "to_client"],
            &["task"],
            &["record"],
            &["cancel", "log", "progress"],
            &["context"],
            &["inject"],
            &["ask", "task_start"],
            &["completion"],
        ],
    ),
    (
        "item",
        &[
            &["namespace"],
            &["handler", "header", "shared"],
            &["prompt", "resource", "tool"],
            &["defined", "discovery"],
            &["prompt_def", "resource_def", "tool_def"],
        ],
    ),
    (
        "tasks",
        &[
            &["store"],
            &["memory", "record", "redis"],
            &["book", "wire"],
        ],
    ),
    ("call/to_client", &[&["form", "root"], &["known_roots"]]),
    (
        "call/ask",
        &[&["client_task"], &["elicit", "roots", "sample"]],
    ),
    (
        "run",
        &[
            &["caught", "sync_pool", "pace", "inflight"],
            &["workers", "served"],
            &["once"],
            &["tool_call", "item_call"],
            &["middleware"],
            &["call"],
        ],
    ),
    (
        "server",
        &[
            &["error", "request_state", "visibility", "batch"],
            &["registry", "served_items"],
            &["toolset", "catalog"],
            &["listeners", "mounting"],
            &["hooks"],
            &["engine"],
            &["delivery", "handle"],
            &["mount"],
            &["builder", "reply"],
            &["session"],
            &["methods"],
        ],
    ),
    (
        "server/methods",
        &[
            &["task_opening"],
            &["calls", "lists"],
            &["skills"],
            &["reads"],
            &["completions", "tasks"],
            &["dispatch", "messages"],
        ],
    ),
    (
        "transport",
        &[&["framing", "stdout", "memory"], &["stdio", "http"]],
    ),
    (
        "transport/http/oauth",
        &[
            &[
                "resource",
                "claims",
                "verifier",
                "bearer",
                "challenge",
                "cache",
            ],
            &["fetch", "authorization", "breaker"],
            &["keys", "front"],
            &["jwt", "introspection", "layer"],
            &["jwt_or_introspection"],
        ],
    ),
    (
        "transport/http",
        &[
            &["backlog", "body", "headers", "quiet"],
            &["head"],
            &["stream"],
            &["oauth"],
            &["config"],
            &["reply", "sessions"],
            &["endpoint"],
            &["stateless", "sessioned"],
            &["service"],
            &["serve"],
        ],
    ),
    (
        "cli",
        &[&["flags"], &["serve_auth"], &["serve_http"], &["command"]],
    ),
    (
        "resources/skills",
        &[
            &["disk", "error", "mime", "uri"],
            &["frontmatter"],
            &["load"],
            &["answer"],
        ],
    ),
    ("prompts", &[&["message"], &["output"], &["render"]]),
    (
        "resources",
        &[
            &["pattern", "value", "skills"],
            &["syntax"],
            &["template", "contents"],
            &["render"],
        ],
    ),
    (
        "testing",
        &[
            &["answers", "diff", "result"],
            &["item_diff"],
            &["client", "manifest"],
            &["items", "tasks"],
        ],
    ),
];

const MACROS: Folders = &[
    (
        "",
        &[
            &["errors", "syntax", "doc"],
            &["attr"],
            &["model"],
            &["check"],
            &["generate"],
            &["fallback"],
            &["pipeline"],
        ],
    ),
    (
        "attr",
        &[
            &["suggest"],
            &["key"],
            &["item", "schemars"],
            &["arg", "prompt", "resource", "tool"],
        ],
    ),
    (
        "model",
        &[
            &["kind", "template"],
            &["param"],
            &["function", "impl_block"],
            &["prompt", "resource", "tool"],
        ],
    ),
    (
        "check",
        &[
            &["checked", "string_argument"],
            &["function", "impl_block", "param"],
            &["prompt", "resource", "tool"],
            &["tool_type"],
        ],
    ),
    (
        "generate",
        &[
            &["tokens"],
            &["target"],
            &["injected", "registration", "spec"],
            &["arguments", "completion", "outcome"],
            &["handler"],
            &["string_item"],
            &["prompt", "resource", "tool"],
            &["tool_type"],
        ],
    ),
];

#[test]
fn the_runtime_imports_only_from_layers_below() {
    assert_layered("src", RUNTIME);
}

#[test]
fn the_macros_import_only_from_layers_below() {
    assert_layered("../macros/src", MACROS);
}

#[test]
fn a_back_edge_anywhere_is_caught() {
    let code = |text: &str| text.to_owned();
    let sources: Sources = [
        ("tools".into(), code("")),
        // After its test module, code is code again; a `//` in a string is no comment.
        (
            "tools/output".into(),
            code(
                "#[cfg(test)]\n#[allow(dead_code)]\nmod tests { use crate::server::x; }\n\
                 const URL: &str = \"http://example\"; use crate::call::record::CallRecord;",
            ),
        ),
        // A file importing one above it in its folder.
        (
            "tools/content".into(),
            code("use crate::tools::output::ToolOutput;"),
        ),
        // A top-level module importing one above it.
        (
            "call".into(),
            code("use crate::server::{session::Session, reply};"),
        ),
        // Relative to its parent, and through a root re-export spelt in lowercase.
        (
            "call/record".into(),
            code("use super::context::Context; use crate::middleware::Chain;"),
        ),
        // Through its own folder's re-export.
        ("call/context".into(), code("use crate::call::Record;")),
        // Through the crate root's.
        ("call/inject".into(), code("let x = crate::Context::new();")),
        ("server".into(), code("// crate::tools::x is a comment")),
        (
            "server/session".into(),
            code("use crate::call::record::CallRecord;"),
        ),
    ]
    .into_iter()
    .collect();
    let folders: Folders = &[
        ("", &[&["tools"], &["call"], &["server"]]),
        ("tools", &[&["content"], &["output"]]),
        ("call", &[&["record"], &["context", "inject"]]),
        ("server", &[&["session"]]),
    ];
    let found = check(&sources, folders);
    assert_eq!(found.len(), 7, "{found:#?}");
    for expected in [
        "`tools` imports `call` (in `tools/output`)",
        "`call/record` names a module by `super::`",
        "`call/record` imports `middleware::Chain` through the crate root",
        "`call` imports `server` (in `call`)",
        "`call/context` imports `call::Record` through its folder `call`",
        "`call/inject` imports `Context::new` through the crate root",
        "`tools/content` imports `tools/output` (in `tools/content`)",
    ] {
        assert!(
            found.iter().any(|f| f.contains(expected)),
            "{expected}: {found:#?}"
        );
    }
    // A module no layer places, and a layer naming a module that is not there.
    let folders: Folders = &[
        ("", &[&["tools"], &["call"], &["server"]]),
        ("tools", &[&["content", "output", "gone"]]),
        ("call", &[&["record"], &["context", "inject"]]),
    ];
    let found = check(&sources, folders);
    assert!(
        found
            .iter()
            .any(|f| f.contains("`server/session` is in no layer"))
    );
    assert!(found.iter().any(|f| f.contains("`tools/gone`")));
}

/// Each module's code, by path (`call/record`; `call` for `call/mod.rs`; `""` for the root).
type Sources = BTreeMap<String, String>;

fn assert_layered(src: &str, folders: Folders) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let found = check(&sources(&src), folders);
    assert!(found.is_empty(), "layering:\n{}", found.join("\n"));
}

/// Everything wrong with the layering of `sources`.
fn check(sources: &Sources, folders: Folders) -> Vec<String> {
    let mut found = Vec::new();
    let layers: BTreeMap<&str, &[&[&str]]> = folders.iter().copied().collect();
    let layer_of = |module: &str| -> Option<usize> {
        let (folder, name) = split(module);
        layers
            .get(folder)?
            .iter()
            .position(|layer| layer.contains(&name))
    };
    for module in sources.keys().filter(|m| !m.is_empty()) {
        if layer_of(module).is_none() {
            found.push(format!(
                "`{module}` is in no layer (add it to its folder's list)"
            ));
        }
    }
    for (folder, layers) in folders {
        for name in layers.iter().flat_map(|layer| layer.iter()) {
            let module = join(folder, name);
            if !sources.contains_key(&module) {
                found.push(format!("a layer names `{module}`, which is not a module"));
            }
        }
    }
    for (module, text) in sources.iter().filter(|(m, _)| !m.is_empty()) {
        let module = module.as_str();
        let code = code_of(text);
        if relative_path(&code) {
            found.push(format!(
                "`{module}` names a module by `super::`; name it from `crate::`"
            ));
        }
        for path in crate_paths(&code) {
            let segments: Vec<&str> = path.split("::").filter(|s| *s != "self").collect();
            if segments
                .first()
                .is_some_and(|s| s.starts_with(char::is_uppercase))
            {
                found.push(format!(
                    "`{module}` imports `{path}` through the crate root"
                ));
                continue;
            }
            let Some(target) = resolve(sources, &segments) else {
                found.push(format!(
                    "`{module}` imports `{path}` through the crate root"
                ));
                continue;
            };
            if target == module || is_within(module, &target) {
                if target != module {
                    found.push(format!(
                        "`{module}` imports `{path}` through its folder `{target}`; name the file"
                    ));
                }
                continue;
            }
            if is_within(&target, module) {
                continue; // a folder's `mod.rs` naming its own files
            }
            let (from, to) = siblings(module, &target);
            if let (Some(a), Some(b)) = (layer_of(&from), layer_of(&to))
                && b >= a
            {
                found.push(format!(
                    "`{from}` imports `{to}` (in `{module}`), a layer not below it"
                ));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Whether code names a module relative to its parent (`super::x`), which the rule could not
/// place. (`self::x` names the module itself or its own files, which it may.)
fn relative_path(code: &str) -> bool {
    let bytes = code.as_bytes();
    code.match_indices("super::").any(|(at, _)| {
        at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'_' | b':'))
    })
}

fn join(folder: &str, name: &str) -> String {
    match folder {
        "" => name.to_owned(),
        folder => format!("{folder}/{name}"),
    }
}

/// `("call/ask", "elicit")` for `call/ask/elicit`.
fn split(module: &str) -> (&str, &str) {
    module.rsplit_once('/').unwrap_or(("", module))
}

/// Whether `module` is inside the folder `folder`.
fn is_within(module: &str, folder: &str) -> bool {
    module
        .strip_prefix(folder)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// The deepest module a path names: `call/record` for `call::record::CallRecord`.
fn resolve(sources: &Sources, segments: &[&str]) -> Option<String> {
    (1..=segments.len())
        .rev()
        .map(|n| segments[..n].join("/"))
        .find(|module| sources.contains_key(module))
}

/// The two modules of one folder that an import between `from` and `to` is between:
/// `call/record` and `call/ask` for `call/record` importing `call/ask/form`.
fn siblings(from: &str, to: &str) -> (String, String) {
    let (a, b): (Vec<&str>, Vec<&str>) = (from.split('/').collect(), to.split('/').collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    (a[..=common].join("/"), b[..=common].join("/"))
}

fn sources(src: &Path) -> Sources {
    source::rust_files(src)
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(src).expect("a file under src");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let last = parts.pop().expect("a file name");
            match last.as_str() {
                "mod.rs" | "lib.rs" => {}
                name => parts.push(name.trim_end_matches(".rs").to_owned()),
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            (parts.join("/"), text)
        })
        .collect()
}

/// The code of a file: without its test module, comments, and string and character literals.
fn code_of(text: &str) -> String {
    without_comments_and_literals(&source::without_test_module(text))
}

/// `text` with its comments and the contents of its string and character literals blanked, so
/// that neither `"http://..."` nor `"crate::x"` in a message reads as code.
fn without_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let (c, next) = (chars[i], chars.get(i + 1).copied());
        match (c, next) {
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            ('r', Some('"' | '#'))
                if !chars[..i]
                    .last()
                    .is_some_and(|p| p.is_alphanumeric() || *p == '_') =>
            {
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                let close: String = std::iter::once('"')
                    .chain("#".repeat(hashes).chars())
                    .collect();
                let body = i + 2 + hashes;
                let rest: String = chars[body.min(chars.len())..].iter().collect();
                let end = rest.find(&close).map_or(chars.len(), |at| {
                    body + rest[..at].chars().count() + close.len()
                });
                out.push_str("\"\"");
                i = end;
            }
            ('"', _) => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            ('\'', Some(_)) if chars.get(i + 2) == Some(&'\'') || next == Some('\\') => {
                // A character literal (a lifetime has no closing quote).
                i += if next == Some('\\') { 2 } else { 1 };
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Every path after `crate::`, with each group expanded: `crate::a::{b, c::{d, e}}` is `a::b`,
/// `a::c::d` and `a::c::e`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let end = tree_end(rest);
        expand("", &rest[..end], &mut paths);
        rest = &rest[end..];
    }
    paths
}

/// Where the use tree at the start of `text` ends.
fn tree_end(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            ',' | ';' | ')' | '>' | '(' | '<' | '!' | '=' | '&' | '|' if depth == 0 => return i,
            c if c.is_whitespace() && depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

/// Adds the paths of the use tree `tree` under `prefix`.
fn expand(prefix: &str, tree: &str, paths: &mut BTreeSet<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let path = format!("{prefix}{tree}");
            let path = path.trim_end_matches("::").to_owned();
            if !path.is_empty() {
                paths.insert(path);
            }
        }
        Some(open) => {
            let head = format!("{prefix}{}", &tree[..open]);
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&head, &inner[start..i], paths);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&head, &inner[start..], paths);
        }
    }
}
