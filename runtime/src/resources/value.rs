//! A value captured from a requested URI, made into what a handler receives: percent-decoded
//! exactly once, then refused when it could reach past what its variable stands for (another
//! directory, the directory itself, an absolute path, a drive) or holds a control character.
//! A handler that maps values onto files still resolves the path and checks that it stays
//! under its base; these refusals make the usual traversals fail before any handler runs.

/// How much of a path a value may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Span {
    /// One segment, with no `/` or `\` once decoded: `{name}`, `{/name}`, `{.ext}`, `{;p}`,
    /// `{?q}`.
    Segment,
    /// Segments joined by `/` (or `\`), relative and never going up: `{+path}`, `{#frag}`,
    /// `{/path*}`.
    Path,
}

/// Why a value whose `%` is not followed by two hex digits is refused.
const INVALID_ENCODING: &str = "it is not valid percent-encoding (`%` and two hex digits)";

/// The value of `raw`, decoded once and checked for `span`; `Err` says why it is refused.
pub(crate) fn accept(raw: &str, span: Span) -> Result<String, &'static str> {
    let value = decode_once(raw)?;
    match refusal(&value, span) {
        Some(reason) => Err(reason),
        None => Ok(value),
    }
}

/// `raw` with each `%XX` decoded, once: `%252e` is `%2e`, never `.`.
fn decode_once(raw: &str) -> Result<String, &'static str> {
    let mut bytes = Vec::with_capacity(raw.len());
    let mut rest = raw.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        rest = after;
        if b == b'%' {
            let (pair, after) = rest.split_at_checked(2).ok_or(INVALID_ENCODING)?;
            bytes.push(hex_pair(pair).ok_or(INVALID_ENCODING)?);
            rest = after;
        } else {
            bytes.push(b);
        }
    }
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 once percent-decoded")
}

/// The byte two hex digits spell.
fn hex_pair(pair: &[u8]) -> Option<u8> {
    let digit = |b: u8| char::from(b).to_digit(16);
    let (high, low) = (digit(*pair.first()?)?, digit(*pair.get(1)?)?);
    u8::try_from(high * 16 + low).ok()
}

/// Why a decoded value is refused, if it is: the first rule it breaks.
fn refusal(value: &str, span: Span) -> Option<&'static str> {
    if value.contains('\0') {
        return Some("it contains a NUL character");
    }
    if value.chars().any(char::is_control) {
        return Some("it contains a control character");
    }
    if span == Span::Segment && value.contains(['/', '\\']) {
        return Some("it contains `/` or `\\`, but the template gives it one segment");
    }
    if value.starts_with(['/', '\\']) {
        return Some("it is an absolute path");
    }
    // Joined to a base, `C:x` replaces it on Windows, whether or not a separator follows.
    let mut chars = value.chars();
    if chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.next() == Some(':') {
        return Some("it names a Windows drive (`C:`)");
    }
    let mut segments = value.split(['/', '\\']);
    if segments.clone().any(|segment| segment == "..") {
        return Some("it climbs out of its directory (`..`)");
    }
    if segments.any(|segment| segment == ".") {
        return Some("it names its directory itself (`.`)");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Span, accept};

    #[test]
    fn values_are_decoded_once_and_refused_when_they_escape() {
        use Span::{Path, Segment};
        let cases: &[(&str, Span, Result<&str, &str>)] = &[
            ("123", Segment, Ok("123")),
            ("a%20b", Segment, Ok("a b")),
            ("caf%C3%A9", Segment, Ok("café")),
            ("%252e%252e", Segment, Ok("%2e%2e")),
            ("%252e%252e/x", Path, Ok("%2e%2e/x")),
            ("a/b/c.txt", Path, Ok("a/b/c.txt")),
            ("a..b/...", Path, Ok("a..b/...")),
            ("a//b", Path, Ok("a//b")),
            ("12:30", Segment, Ok("12:30")),
            ("%zz", Segment, Err("valid percent-encoding")),
            ("%4", Segment, Err("valid percent-encoding")),
            ("a%", Segment, Err("valid percent-encoding")),
            ("%C3", Segment, Err("UTF-8")),
            ("%FF", Path, Err("UTF-8")),
            ("a%00", Path, Err("NUL")),
            ("a%0Ab", Segment, Err("control")),
            ("%7F", Segment, Err("control")),
            ("%C2%85", Segment, Err("control")),
            ("a%2Fb", Segment, Err("one segment")),
            ("a%5Cb", Segment, Err("one segment")),
            ("..%2f", Segment, Err("one segment")),
            ("..", Segment, Err("`..`")),
            (".", Segment, Err("`.`")),
            ("%2e%2e", Segment, Err("`..`")),
            ("%2E%2e", Segment, Err("`..`")),
            ("%2E.", Segment, Err("`..`")),
            ("../etc/passwd", Path, Err("`..`")),
            ("a/../../b", Path, Err("`..`")),
            ("a/%2e%2e/b", Path, Err("`..`")),
            ("a/..", Path, Err("`..`")),
            ("..%2fx", Path, Err("`..`")),
            ("a\\..\\b", Path, Err("`..`")),
            ("a/./b", Path, Err("`.`")),
            ("/etc/passwd", Path, Err("absolute")),
            ("%2Fetc", Path, Err("absolute")),
            ("\\\\server\\share", Path, Err("absolute")),
            ("C:", Segment, Err("drive")),
            ("c:/Windows", Path, Err("drive")),
            ("C%3A%5Cx", Path, Err("drive")),
        ];
        for (raw, span, expected) in cases {
            match (accept(raw, *span), expected) {
                (Ok(value), Ok(expected)) => assert_eq!(value, *expected, "{raw}"),
                (Err(reason), Err(part)) => assert!(reason.contains(part), "{raw}: {reason}"),
                (got, expected) => panic!("{raw}: {got:?}, expected {expected:?}"),
            }
        }
    }
}
