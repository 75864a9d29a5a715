//! Task ids: 128 bits from the operating system's CSPRNG, as 32 hexadecimal digits, so that an
//! id cannot be guessed from another.

/// A new task id.
pub(crate) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_128_bits_and_differ() {
        let (a, b) = (super::new_id(), super::new_id());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
