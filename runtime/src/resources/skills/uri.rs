//! Skill URIs, `skill://<skill-path>/<file-path>`: the rules the folders of a skill path keep,
//! and the names in them percent-encoded as URI segments.
//!
//! A URI is compared as this server spells it: a client's URI is decoded segment by segment and
//! encoded again ([`canonical`]), so `my%20notes.md` and `my%20n%6Ftes.md` name one file, and a
//! `%2F` or `..` stays inside its segment, where no file has that name.

/// The scheme the extension recommends, and the one this server serves skills under.
pub(crate) const SCHEME: &str = "skill://";

/// Whether `name` keeps the Agent Skills naming rules, which the folder of a skill and its
/// frontmatter `name` must: 1 to 64 lowercase letters, digits and hyphens, with no hyphen
/// first, last or next to another (conformance applies
/// `^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`).
pub(crate) fn is_skill_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Whether a folder name may be the first segment of a skill path, which sits in the URI's
/// authority: an RFC 3986 `reg-name` of the characters that need no encoding, lowercase only
/// (hosts case-fold an authority, so `Acme` and `acme` would name one place).
pub(crate) fn is_authority(segment: &str) -> bool {
    !segment.is_empty()
        && segment.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_' | b'~')
        })
}

/// The URI of a skill's folder or file: its skill path and then the path inside it, each
/// name encoded as a segment.
pub(crate) fn uri_of<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let segments: Vec<String> = names.into_iter().map(encode_segment).collect();
    format!("{SCHEME}{}", segments.join("/"))
}

/// `name` as one segment of a URI path: RFC 3986's unreserved characters as they are, every
/// other byte of its UTF-8 as `%XX`.
pub(crate) fn encode_segment(name: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// The name a URI segment stands for; `None` for a `%` without two hex digits after it, or
/// bytes that are not UTF-8.
fn decode_segment(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = segment.get(at + 1..at + 3)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

/// A `skill://` URI as this server spells it, to look it up; `None` for another scheme or a
/// segment that does not decode.
pub(crate) fn canonical(uri: &str) -> Option<String> {
    let path = uri.strip_prefix(SCHEME)?;
    let names = path
        .split('/')
        .map(decode_segment)
        .collect::<Option<Vec<String>>>()?;
    Some(uri_of(names.iter().map(String::as_str)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_names_keep_the_agent_skills_rules() {
        for good in ["a", "pdf-processing", "x1", "1-2-3", &"a".repeat(64)] {
            assert!(is_skill_name(good), "{good}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "Bad_Name",
            "PDF",
            "a_b",
            "a.b",
            "é",
            &"a".repeat(65),
        ] {
            assert!(!is_skill_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_first_segment_is_a_lowercase_reg_name() {
        assert!(is_authority("acme.example"));
        assert!(is_authority("a-b_c~d"));
        for bad in ["", "Acme", "acme corp", "a:b", "a@b", "a%20b", "é"] {
            assert!(!is_authority(bad), "{bad}");
        }
    }

    #[test]
    fn names_are_encoded_as_segments_and_found_however_a_client_encodes_them() {
        assert_eq!(encode_segment("GUIDE.md"), "GUIDE.md");
        assert_eq!(encode_segment("my notes?.md"), "my%20notes%3F.md");
        assert_eq!(encode_segment("é"), "%C3%A9");
        assert_eq!(
            uri_of(["acme", "my notes", "a b.md"]),
            "skill://acme/my%20notes/a%20b.md"
        );
        let ours = "skill://demo/my%20notes.md";
        assert_eq!(canonical(ours).as_deref(), Some(ours));
        assert_eq!(
            canonical("skill://demo/my%20n%6ftes.md").as_deref(),
            Some(ours)
        );
        assert_eq!(canonical("skill://demo/my notes.md").as_deref(), Some(ours));
        // A slash encoded in a segment stays in it.
        assert_eq!(
            canonical("skill://demo/a%2Fb").as_deref(),
            Some("skill://demo/a%2Fb")
        );
        assert_eq!(canonical("skill://demo/%zz"), None);
        assert_eq!(canonical("skill://demo/%C3"), None);
        assert_eq!(canonical("skill://demo/%4"), None);
        assert_eq!(canonical("file:///etc/passwd"), None);
    }
}
