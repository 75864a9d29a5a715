//! Request ids as keys: `"1"` and `1` are different ids, `"\u0041"` and `"A"` the same; and
//! the ids the server makes (sessions, tasks).

use std::hash::{BuildHasher, Hasher};

use serde_json::value::RawValue;

/// An id of the server's own (a session's, a task's): 128 bits from the operating system's
/// CSPRNG, as 32 hex digits (visible ASCII, as the specification asks of a session id), so that
/// one cannot be guessed from another.
pub(crate) fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `id` is one [`random_id`] could have made.
pub(crate) fn is_random_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A request id, compared by value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IdKey {
    Number(i64),
    String(String),
    Other(String),
}

impl IdKey {
    pub(crate) fn of(id: &RawValue) -> IdKey {
        let raw = id.get();
        // Most ids are small integers: no allocation. A string needs decoding (escapes).
        if let Ok(n) = raw.parse::<i64>() {
            return IdKey::Number(n);
        }
        if raw.starts_with('"')
            && let Ok(s) = serde_json::from_str::<String>(raw)
        {
            return IdKey::String(s);
        }
        IdKey::Other(raw.to_owned())
    }
}

/// A fast hash for request ids and tool names (a few lookups a call; SipHash cost more than
/// the rest of the bookkeeping). Keys are chosen by the client, but the maps they key are
/// bounded (calls in flight, the tool table), so even planned collisions cost a bounded number
/// of comparisons, and the per-process seed makes them hard to plan.
#[derive(Clone)]
pub(crate) struct IdHashing(u64);

impl Default for IdHashing {
    /// The process's seed, drawn once: a table is made for every session (one a stateless
    /// request), and drawing a seed for each cost as much as the table's whole use.
    fn default() -> Self {
        static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        IdHashing(*SEED.get_or_init(|| std::hash::RandomState::new().hash_one(0u8)))
    }
}

impl BuildHasher for IdHashing {
    type Hasher = IdHasher;

    fn build_hasher(&self) -> IdHasher {
        IdHasher(self.0)
    }
}

pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_are_128_bits_and_differ() {
        let (a, b) = (random_id(), random_id());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "visible ASCII");
        assert!(is_random_id(&a));
        assert!(!is_random_id(&a[1..]));
        assert!(!is_random_id(&"g".repeat(32)));
        assert_ne!(a, b);
    }

    #[test]
    fn ids_compare_by_value() {
        let raw = |s: &str| RawValue::from_string(s.into()).unwrap();
        assert_eq!(IdKey::of(&raw(r#""\u0041""#)), IdKey::of(&raw(r#""A""#)));
        assert_ne!(IdKey::of(&raw(r#""1""#)), IdKey::of(&raw("1")));
    }
}
