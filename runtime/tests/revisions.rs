//! Every difference between protocol revisions is a named predicate of `ProtocolVersion`, in
//! `protocol/version.rs`, so the rules live in one place and read like the changelog. Anywhere
//! else a revision constant (`ProtocolVersion::V2025_11_25`) may be named, passed or listed, but
//! not compared: not with `==`, `!=`, `<`, `<=`, `>`, `>=` or a comparing method, not as a
//! pattern (`match`, `matches!`, `if let`), not as the end of a range, not in an assertion,
//! and not hidden from this scan: no constant of type `ProtocolVersion`, no list of revisions
//! searched with `contains`, no revision spelt as a string of its own (`"2025-03-26"`).
//! Comments and `#[cfg(test)] mod tests` blocks are not read, since tests name revisions freely.

use std::ops::Range;
use std::path::Path;

mod source;

/// The one file that may compare revisions.
const HOME: &str = "protocol/version.rs";

#[test]
fn revisions_are_compared_only_in_version_rs() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = source::rust_files(&src);
    let mut found = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("a file under src");
        if relative == Path::new(HOME) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file");
        let lines: Vec<&str> = text.lines().collect();
        let code = code_of(&text);
        let mut flagged = comparisons(&code);
        flagged.extend(hidden_revisions(&code));
        flagged.sort();
        flagged.dedup();
        for line in flagged {
            found.push(format!(
                "src/{}:{line}: {}",
                relative.display(),
                lines[line - 1].trim()
            ));
        }
    }
    assert!(
        found.is_empty(),
        "revisions compared outside {HOME} (name the rule as a predicate there):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_planted_comparison_is_caught() {
    let code = r#"
fn rules(version: ProtocolVersion, session: Option<ProtocolVersion>) {
    let a = version >= ProtocolVersion::V2025_11_25;
    let b = ProtocolVersion::V2025_06_18 < version;
    let c = session != Some(ProtocolVersion::V2025_03_26);
    let d = matches!(version, ProtocolVersion::V2025_03_26 | ProtocolVersion::V2025_06_18);
    match version {
        ProtocolVersion::V2024_11_05 => {}
        _ => {}
    }
    if let Some(crate::protocol::ProtocolVersion::V2026_07_28) = session {}
    let e = version.cmp(&ProtocolVersion::V2025_06_18);
    let f = (ProtocolVersion::V2025_03_26..).contains(&version);
    assert_eq!(version, V2025_11_25);
    let g = version == V2025_11_25;
}
"#;
    assert_eq!(comparisons(code), [3, 4, 5, 6, 8, 11, 12, 13, 14, 15]);
}

#[test]
fn naming_a_revision_is_not_comparing_it() {
    let code = r#"
fn uses(version: ProtocolVersion) -> Client {
    let revisions = [ProtocolVersion::V2025_06_18, ProtocolVersion::V2026_07_28];
    let fallback = version.max_known().unwrap_or(ProtocolVersion::V2025_11_25);
    let record = Record { version: ProtocolVersion::V2025_11_25, ..Record::default() };
    let chosen = match era { Era::Legacy => ProtocolVersion::V2025_11_25, Era::Modern => LATEST };
    let later = revisions.iter().map(|_| ProtocolVersion::V2026_07_28);
    if version.has_batches() && version >= minimum {}
    Client::connect(server, ProtocolVersion::V2026_07_28)
}
// version >= ProtocolVersion::V2025_11_25 in a comment
#[cfg(test)]
mod tests {
    fn t() { assert!(ProtocolVersion::V2025_06_18 < ProtocolVersion::V2025_11_25); }
}
"#;
    assert_eq!(comparisons(&code_of(code)), [] as [usize; 0]);
    assert_eq!(hidden_revisions(&code_of(code)), [] as [usize; 0]);
}

#[test]
fn a_revision_hidden_from_the_scan_is_caught() {
    let code = r#"
const FIRST: ProtocolVersion = ProtocolVersion::V2025_11_25;
static LAST: crate::protocol::ProtocolVersion = ProtocolVersion::V2026_07_28;
let batches = [ProtocolVersion::V2025_03_26].contains(&version);
let old = [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_03_26].contains(&version);
let named = version.as_str() == "2025-03-26";
let fine = format!("needs protocol 2025-11-25, not {version}");
"#;
    assert_eq!(hidden_revisions(code), [2, 3, 4, 5, 6]);
}

/// The lines (from 1) of `code` that hide a revision from the comparison scan: a constant or
/// static of type `ProtocolVersion` (an alias compared later would not be seen), a list of
/// revision constants searched with `contains`, and a revision spelt as a string of its own.
fn hidden_revisions(code: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let line = line.trim();
        let declared = ["const ", "static ", "pub const ", "pub(crate) const "]
            .iter()
            .any(|start| line.starts_with(start));
        let alias = declared
            && line.split_once(':').is_some_and(|(_, ty)| {
                ty.trim_start()
                    .split('=')
                    .next()
                    .is_some_and(|t| t.trim().ends_with("ProtocolVersion"))
            });
        let listed = line.contains("].contains(") && !constants(line).is_empty();
        let spelt = line
            .match_indices('"')
            .collect::<Vec<_>>()
            .chunks(2)
            .any(|pair| {
                let [(open, _), (close, _)] = pair else {
                    return false;
                };
                is_date(&line[open + 1..*close])
            });
        if alias || listed || spelt {
            lines.push(n + 1);
        }
    }
    lines
}

/// `yyyy-mm-dd`.
fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && [0, 1, 2, 3, 5, 6, 8, 9]
            .iter()
            .all(|&i| b[i].is_ascii_digit())
}

/// The lines (from 1) of `code` that compare a revision constant.
fn comparisons(code: &str) -> Vec<usize> {
    let tested = macro_spans(code);
    let mut lines: Vec<usize> = constants(code)
        .into_iter()
        .filter(|span| {
            tested.iter().any(|m| m.contains(&span.start))
                || compared_before(&code[..span.start])
                || compared_after(&code[span.end..])
        })
        .map(|span| code[..span.start].matches('\n').count() + 1)
        .collect();
    lines.dedup();
    lines
}

/// Every revision constant (`V2025_11_25`), with the path before it (`ProtocolVersion::`).
fn constants(code: &str) -> Vec<Range<usize>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = code[at..].find('V') {
        let start = at + offset;
        let end = code[start..]
            .find(|c: char| !ident(c))
            .map_or(code.len(), |n| start + n);
        at = end.max(start + 1);
        if code[..start].ends_with(ident) || !is_revision(&code[start..end]) {
            continue;
        }
        // The path before it: `ProtocolVersion::`, `crate::protocol::ProtocolVersion::`.
        let mut from = start;
        while code[..from].ends_with("::") {
            let head = &code[..from - 2];
            let name = head.len() - head.trim_end_matches(ident).len();
            if name == 0 {
                break;
            }
            from -= 2 + name;
        }
        found.push(from..end);
    }
    found
}

/// `V` and a date as `yyyy_mm_dd`.
fn is_revision(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 11
        && b[0] == b'V'
        && [5, 8].iter().all(|&i| b[i] == b'_')
        && [1, 2, 3, 4, 6, 7, 9, 10]
            .iter()
            .all(|&i| b[i].is_ascii_digit())
}

/// Methods that compare their receiver with their argument.
const COMPARING: &[&str] = &[
    "cmp",
    "partial_cmp",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "max",
    "min",
    "clamp",
];

/// Whether the code just before a constant compares it: an operator, a range, `let` (a pattern)
/// or a comparing method, through `&`, `Some(` and parentheses.
fn compared_before(before: &str) -> bool {
    let mut rest = before.trim_end();
    loop {
        if let Some(r) = rest.strip_suffix('&') {
            rest = r.trim_end();
        } else if let Some(r) = rest.strip_suffix("Some(") {
            rest = r.trim_end();
        } else if let Some(r) = rest.strip_suffix('(')
            && !COMPARING.iter().any(|m| r.ends_with(&format!(".{m}")))
        {
            rest = r.trim_end();
        } else {
            break;
        }
    }
    let word = |w: &str| {
        rest.strip_suffix(w)
            .is_some_and(|r| !r.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    };
    ["==", "!=", "<=", ">=", ".."]
        .iter()
        .any(|op| rest.ends_with(op))
        || (rest.ends_with('<') && !rest.ends_with("<<"))
        || (rest.ends_with('>') && !rest.ends_with("=>") && !rest.ends_with("->"))
        || word("let")
        || COMPARING.iter().any(|m| rest.ends_with(&format!(".{m}(")))
}

/// Whether the code just after a constant compares it: an operator, a range, a pattern's `|`,
/// `=>` or guard, or a comparing method.
fn compared_after(after: &str) -> bool {
    let rest = after.trim_start();
    ["==", "!=", "<=", ">=", "..", "=>", "<", ">"]
        .iter()
        .any(|op| rest.starts_with(op))
        || (rest.starts_with('|') && !rest.starts_with("||"))
        || rest
            .strip_prefix("if")
            .is_some_and(|r| r.starts_with(char::is_whitespace))
        || COMPARING
            .iter()
            .any(|m| rest.starts_with(&format!(".{m}(")))
}

/// What `matches!` tests against (after its first comma) and what an assertion compares (all
/// of its arguments).
fn macro_spans(code: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    for name in [
        "matches!(",
        "assert_eq!(",
        "assert_ne!(",
        "debug_assert_eq!(",
        "debug_assert_ne!(",
    ] {
        let mut at = 0;
        while let Some(offset) = code[at..].find(name) {
            let open = at + offset + name.len();
            at = open;
            let close = open + closing(&code[open..]);
            let from = match name {
                "matches!(" => open + first_comma(&code[open..close]),
                _ => open,
            };
            spans.push(from..close);
        }
    }
    spans
}

/// The offset of the `)` that closes an already opened parenthesis.
fn closing(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return i,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

/// The offset of the first comma outside brackets.
fn first_comma(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return i,
            _ => {}
        }
    }
    text.len()
}

/// The code of a file: without its test module and comments.
fn code_of(text: &str) -> String {
    source::without_test_module(text)
        .lines()
        .map(|line| &line[..comment_start(line)])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where a line's `//` comment starts (its length when it has none), outside string literals.
fn comment_start(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut n = 0;
    while n < bytes.len() {
        match bytes[n] {
            b'\\' if in_string => n += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(n + 1) == Some(&b'/') => return n,
            _ => {}
        }
        n += 1;
    }
    bytes.len()
}

#[test]
fn code_after_a_test_module_and_beyond_a_url_is_read() {
    let code = r#"fn a() {}
#[cfg(test)]
// The towers are the point.
#[allow(clippy::needless_borrow)]
mod tests {
    fn t() { assert!(ProtocolVersion::V2025_06_18 < ProtocolVersion::V2025_11_25); }
}
fn b(v: ProtocolVersion) -> bool { let _ = "http://x"; v == ProtocolVersion::V2025_03_26 }
"#;
    assert_eq!(comparisons(&code_of(code)), [8]);
}
