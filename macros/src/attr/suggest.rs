//! The valid key nearest to a misspelt one, for "did you mean" hints.

/// The valid key nearest to a misspelt one, if it is near enough to be what was meant.
pub(crate) fn closest<'a>(key: &str, valid: &[&'a str]) -> Option<&'a str> {
    valid
        .iter()
        .map(|v| (edit_distance(key, v), *v))
        .filter(|(d, v)| *d <= v.len().max(3) / 3 + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j] + 1).min(row[j + 1] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}
