//! Reading the crates' sources for the tests that check rules about them (`layers`,
//! `revisions`): the files, and a file's code without its test module.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
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
    let mut files = Vec::new();
    collect(dir, &mut files);
    files.sort();
    files
}

/// `text` without its `#[cfg(test)] mod tests` block, which may name anything: the block's
/// lines are left empty, so what follows keeps its line numbers and is read as code again.
pub fn without_test_module(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let mut after = rest[at + "#[cfg(test)]".len()..].trim_start();
        // Other attributes and comments may stand between it and the module.
        loop {
            if let Some(attribute) = after.strip_prefix("#[") {
                let end = attribute.find(']').map_or(attribute.len(), |n| n + 1);
                after = attribute[end..].trim_start();
            } else if after.starts_with("//") {
                after = after.split_once('\n').map_or("", |(_, r)| r).trim_start();
            } else {
                break;
            }
        }
        let module = after
            .strip_prefix("pub(crate) ")
            .unwrap_or(after)
            .starts_with("mod tests");
        kept.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        if module && let Some(open) = rest.find('{') {
            let end = open + 1 + block_end(&rest[open + 1..]);
            kept.push_str(&"\n".repeat(rest[..end].matches('\n').count()));
            rest = &rest[end..];
        }
    }
    kept.push_str(rest);
    kept
}

/// Where the block whose `{` was just passed ends (after its `}`), braces in string and
/// character literals aside.
fn block_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0;
    let mut n = 0;
    while n < bytes.len() {
        match bytes[n] {
            b'{' => depth += 1,
            b'}' if depth == 0 => return n + 1,
            b'}' => depth -= 1,
            b'r' if matches!(bytes.get(n + 1), Some(b'"' | b'#')) => {
                let hashes = bytes[n + 1..].iter().take_while(|b| **b == b'#').count();
                let close = format!("\"{}", "#".repeat(hashes));
                let body = n + 2 + hashes;
                n = text
                    .get(body..)
                    .and_then(|rest| rest.find(&close))
                    .map_or(bytes.len(), |at| body + at + close.len());
                continue;
            }
            b'"' => {
                n += 1;
                while n < bytes.len() && bytes[n] != b'"' {
                    n += if bytes[n] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if bytes.get(n + 2) == Some(&b'\'') => n += 2,
            _ => {}
        }
        n += 1;
    }
    bytes.len()
}
