//! Diagnostics on stderr, the one place MCP lets a stdio server talk freely, or as `tracing`
//! events.
//!
//! The details of a masked error are a `tracing` event when a subscriber takes it, and a line
//! on stderr otherwise: they must never be lost, whatever the program installed.

use std::hash::{BuildHasher, RandomState};
use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes one line to stderr, prefixed so it can be told apart from the tools' own output.
pub(crate) fn error(message: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "toolwright: {message}");
}

/// The details of an error the client saw masked, under the reference it saw: an `ERROR`
/// event of target `toolwright` (fields `tool`, `reference`) when a subscriber takes one, or
/// else a line on stderr.
pub(crate) fn masked(tool: &str, reference: &str, detail: &str) {
    masked_item("tool", tool, reference, detail);
}

/// As [`masked`], for an item of any kind (`tool`, `prompt`, `resource`), which the event
/// names by its kind.
pub(crate) fn masked_item(kind: &str, name: &str, reference: &str, detail: &str) {
    if tracing::enabled!(target: "toolwright", tracing::Level::ERROR) {
        match kind {
            "tool" => {
                tracing::error!(target: "toolwright", tool = name, reference, "tool `{name}` failed (ref {reference}): {detail}")
            }
            _ => {
                tracing::error!(target: "toolwright", item = name, kind, reference, "{kind} `{name}` failed (ref {reference}): {detail}")
            }
        }
    } else {
        error(format_args!(
            "{kind} `{name}` failed (ref {reference}): {detail}"
        ));
    }
}

/// The message of a panic, as far as its payload tells it.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic with a non-string payload")
}

/// A short reference that ties the masked message a client sees to the details on stderr.
/// Hashed, so references do not reveal how many failures came before.
pub(crate) fn next_reference() -> String {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let hash = KEYS.get_or_init(RandomState::new).hash_one(n);
    format!("{:08x}", hash as u32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn references_differ() {
        let a = super::next_reference();
        let b = super::next_reference();
        assert_eq!(a.len(), 8);
        assert_ne!(a, b);
    }
}
