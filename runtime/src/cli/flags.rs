//! The values of command-line flags: `--flag VALUE` pairs, counts, sizes and times.

use std::time::Duration;

/// `--flag VALUE` and `--flag=VALUE`, in order; a flag among `switches` takes no value (its
/// value is empty).
pub(crate) fn pairs<'a>(
    options: &[&'a str],
    switches: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut pairs = Vec::new();
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        if !option.starts_with("--") {
            return Err(format!("unexpected argument `{option}`"));
        }
        if switches.contains(option) {
            pairs.push((*option, ""));
            continue;
        }
        match option.split_once('=') {
            Some((flag, value)) => pairs.push((flag, value)),
            None => match rest.next() {
                Some(value) => pairs.push((option, value)),
                None => return Err(format!("`{option}` needs a value")),
            },
        }
    }
    Ok(pairs)
}

pub(crate) fn count(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("`{flag}` takes a number, not `{value}`"))
}

/// Bytes: `1048576`, `512KiB`, `4MiB`, `1GiB`.
pub(crate) fn size(flag: &str, value: &str) -> Result<usize, String> {
    let units = [
        ("", 1),
        ("b", 1),
        ("kib", 1 << 10),
        ("mib", 1 << 20),
        ("gib", 1 << 30),
    ];
    scaled(value, &units)
        .and_then(|bytes| usize::try_from(bytes).ok())
        .ok_or_else(|| {
            format!("`{flag}` takes a size in bytes above 0, like 4194304 or 4MiB, not `{value}`")
        })
}

/// A time: `30` (seconds), `500ms`, `30s`, `15m`, `2h`.
pub(crate) fn duration(flag: &str, value: &str) -> Result<Duration, String> {
    let units = [
        ("ms", 1),
        ("", 1_000),
        ("s", 1_000),
        ("m", 60_000),
        ("h", 3_600_000),
    ];
    scaled(value, &units)
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!("`{flag}` takes a time above 0, like 30s, 15m or 500ms, not `{value}`")
        })
}

/// A number above 0 followed by one of `units` (`512KiB`, in any case), in the units' common
/// measure. (None of the settings means anything at 0: a keep-alive every 0 s floods a stream.)
fn scaled(value: &str, units: &[(&str, u64)]) -> Option<u64> {
    let value = value.to_ascii_lowercase();
    let digits = value
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(digits);
    let (_, scale) = units.iter().find(|(name, _)| *name == unit)?;
    number
        .parse::<u64>()
        .ok()?
        .checked_mul(*scale)
        .filter(|&n| n > 0)
}
