//! Diagnostics on stderr, the one place MCP lets a stdio server talk freely.
//!
//! Written directly rather than through a logging facade: the details of a masked error must
//! reach stderr even in a program that installed no logger.

use std::hash::{BuildHasher, RandomState};
use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes one line to stderr, prefixed so it can be told apart from the tools' own output.
pub(crate) fn error(message: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "toolwright: {message}");
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
