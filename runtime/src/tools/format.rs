//! The `format`s an input schema can assert, checked the way JSON Schema 2020-12 defines them.
//!
//! Formats are plain functions of the text, written here rather than pulled in as dependencies:
//! each is a few lines, and a server pays for none it does not use. Formats not listed (`ip` of
//! schemars aside, the standard `idn-*`, `iri*`, `uri-template`, `json-pointer`, `regex`,
//! `duration`) are advertised but not enforced.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Whether `check` enforces the format called `name`.
pub(crate) fn is_enforced(name: &str) -> bool {
    matches!(
        name,
        "email"
            | "hostname"
            | "ipv4"
            | "ipv6"
            | "ip"
            | "uri"
            | "uuid"
            | "date-time"
            | "date"
            | "time"
    )
}

/// Checks `text` against the format `name`; `Err` says what was expected.
pub(crate) fn check(name: &str, text: &str) -> Result<(), String> {
    let (valid, what) = match name {
        "email" => (email(text), "an email address"),
        "hostname" => (hostname(text), "a host name"),
        "ipv4" => (text.parse::<Ipv4Addr>().is_ok(), "an IPv4 address"),
        "ipv6" => (text.parse::<Ipv6Addr>().is_ok(), "an IPv6 address"),
        "ip" => (text.parse::<std::net::IpAddr>().is_ok(), "an IP address"),
        "uri" => (uri(text), "an absolute URI, like `https://example.com/x`"),
        "uuid" => (
            uuid(text),
            "a UUID, like `123e4567-e89b-12d3-a456-426614174000`",
        ),
        "date-time" => (
            date_time(text),
            "an RFC 3339 date-time, like `2026-07-28T09:30:00Z`",
        ),
        "date" => (date(text), "an RFC 3339 date, like `2026-07-28`"),
        "time" => (time(text), "an RFC 3339 time, like `09:30:00Z`"),
        _ => return Ok(()),
    };
    if valid {
        Ok(())
    } else {
        Err(format!("must be {what}"))
    }
}

/// `local@domain` (RFC 5321 mailbox, without quoted local parts).
fn email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c));
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => {
            literal.parse::<Ipv4Addr>().is_ok()
                || literal
                    .strip_prefix("IPv6:")
                    .is_some_and(|v6| v6.parse::<Ipv6Addr>().is_ok())
        }
        None => hostname(domain),
    };
    local_ok && domain_ok
}

/// RFC 1123: dot-separated labels of letters, digits and inner hyphens, 1 to 63 characters
/// each, 253 in all.
fn hostname(text: &str) -> bool {
    let text = text.strip_suffix('.').unwrap_or(text);
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// RFC 3986 absolute URI: a scheme, `:`, and the rest without spaces or control characters.
fn uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.chars();
    scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme_chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && rest.chars().all(|c| {
            c.is_ascii_graphic()
                && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
        })
}

fn uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, len)| g.len() == len && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn date_time(text: &str) -> bool {
    match text.find(['T', 't']) {
        Some(at) => date(&text[..at]) && time(&text[at + 1..]),
        None => false,
    }
}

/// `YYYY-MM-DD`, with the day checked against the month and leap years.
fn date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&text[0..4]),
        digits(&text[5..7]),
        digits(&text[8..10]),
    ) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`; a leap second is allowed.
fn time(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => return false,
    };
    let offset_ok = match offset {
        "Z" | "z" => true,
        _ => {
            let b = offset.as_bytes();
            b.len() == 6
                && b[3] == b':'
                && digits(&offset[1..3]).is_some_and(|h| h < 24)
                && digits(&offset[4..6]).is_some_and(|m| m < 60)
        }
    };
    let (whole, fraction) = match clock.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (clock, None),
    };
    let b = whole.as_bytes();
    offset_ok
        && b.len() == 8
        && b[2] == b':'
        && b[5] == b':'
        && digits(&whole[0..2]).is_some_and(|h| h < 24)
        && digits(&whole[3..5]).is_some_and(|m| m < 60)
        && digits(&whole[6..8]).is_some_and(|s| s <= 60)
        && fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

fn digits(text: &str) -> Option<u32> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats() {
        let cases = [
            ("email", "ada@example.com", true),
            ("email", "ada@localhost", true),
            ("email", "ada.example.com", false),
            ("email", "a b@example.com", false),
            ("hostname", "example.com", true),
            ("hostname", "-bad.com", false),
            ("ipv4", "10.0.0.1", true),
            ("ipv4", "10.0.0.256", false),
            ("ipv6", "::1", true),
            ("uri", "https://example.com/a?b=c", true),
            ("uri", "example.com", false),
            ("uri", "https://example.com/a b", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid", "123e4567e89b12d3a456426614174000", false),
            ("date-time", "2026-07-28T09:30:00.5+02:00", true),
            ("date-time", "2026-02-29T09:30:00Z", false),
            ("date-time", "2028-02-29T09:30:00Z", true),
            ("date", "2026-13-01", false),
            ("time", "23:59:60Z", true),
            ("time", "24:00:00Z", false),
            ("int64", "anything", true),
        ];
        for (format, text, valid) in cases {
            assert_eq!(check(format, text).is_ok(), valid, "{format} {text}");
        }
    }
}
