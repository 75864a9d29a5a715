//! The shape of a URI template as matching sees it: literal text, and captures of runs of
//! characters, laid out in order. A pattern finds one split of a raw URI into its steps, or
//! none, and tells whether two patterns could both match one URI.
//!
//! Matching computes, from the last step back, at which positions of the URI each step and
//! all those after it can match; the split is then read forwards, each capture taking the
//! longest run that still lets the rest match. So a URI is matched in time and memory
//! proportional to its length times the number of steps, whatever its content, and the split is
//! deterministic: in `{+dir}/{name}`, `a/b/c` gives `dir` = `a/b` and `name` = `c`.

use std::ops::Range;

/// One step of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Text matched exactly, byte for byte.
    Literal(String),
    /// One or more bytes, none of them in `stops`, captured into `slot`.
    Run {
        /// The bytes that end the run (`/` for one segment, `?` and `#` always, ...).
        stops: &'static [u8],
        /// Where the captured text goes.
        slot: usize,
    },
    /// A path parameter's value: nothing (`;name`), or `=` and a run of bytes not in `stops`,
    /// captured into `slot` (empty when absent).
    Parameter {
        /// The bytes that end the value.
        stops: &'static [u8],
        /// Where the captured text goes.
        slot: usize,
    },
    /// An optional query part: nothing, or `sigil` (`?` or `&`) and `name=value` pairs joined
    /// by `&`, up to a `#` or the end, each name one of `names` and at most once, in any order.
    Query {
        /// `?` to begin a query, `&` to continue one.
        sigil: u8,
        /// Each name and the slot its value goes to.
        names: Vec<(String, usize)>,
    },
}

/// Where one slot's text lies in the matched URI.
pub(crate) type Capture = (usize, Range<usize>);

/// A template's steps, in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Pattern {
    /// The steps, adjacent literals merged.
    steps: Vec<Step>,
}

impl Pattern {
    /// Appends literal text, joined to the literal before it if there is one.
    pub(crate) fn push_literal(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.steps.last_mut() {
            Some(Step::Literal(last)) => last.push_str(text),
            _ => self.steps.push(Step::Literal(text.to_owned())),
        }
    }

    /// Appends a step that is not a literal; a `&` query right after a query joins it, since
    /// `{?a}{&b}` is one query whose pairs may come in any order.
    pub(crate) fn push(&mut self, step: Step) {
        match (self.steps.last_mut(), step) {
            (
                Some(Step::Query { names, .. }),
                Step::Query {
                    sigil: b'&',
                    names: more,
                },
            ) => names.extend(more),
            (_, Step::Literal(text)) => self.push_literal(&text),
            (_, step) => self.steps.push(step),
        }
    }

    /// The one split of `uri` into the steps (see the module's doc), as each slot's range;
    /// `None` when there is none.
    pub(crate) fn find(&self, uri: &str) -> Option<Vec<Capture>> {
        if !self.ends_fit(uri) {
            return None;
        }
        let fits = self.fits(uri);
        if !fits[0][0] {
            return None;
        }
        let bytes = uri.as_bytes();
        let mut captures = Vec::new();
        let mut at = 0;
        for (i, step) in self.steps.iter().enumerate() {
            let next = &fits[i + 1];
            at = match step {
                Step::Literal(text) => at + text.len(),
                Step::Run { stops, slot } => {
                    let end = longest(next, at + 1, run_end(bytes, at, stops))?;
                    captures.push((*slot, at..end));
                    end
                }
                Step::Parameter { stops, slot } => {
                    let value = at + 1;
                    match (bytes.get(at) == Some(&b'='))
                        .then(|| longest(next, value, run_end(bytes, value, stops)))
                        .flatten()
                    {
                        Some(end) => {
                            captures.push((*slot, value..end));
                            end
                        }
                        None => {
                            captures.push((*slot, at..at));
                            at
                        }
                    }
                }
                Step::Query { sigil, names } => {
                    let mut pairs = Vec::new();
                    let ends = run_ends(bytes, b"&#");
                    match read_query(bytes, at, *sigil, names, &ends, &mut pairs) {
                        Some(end) if next[end] => {
                            captures.extend(pairs);
                            end
                        }
                        _ => at,
                    }
                }
            };
        }
        Some(captures)
    }

    /// A cheap refusal before any allocation: the first and last literals must be there.
    fn ends_fit(&self, uri: &str) -> bool {
        let first = match self.steps.first() {
            Some(Step::Literal(text)) => uri.starts_with(text.as_str()),
            _ => true,
        };
        let last = match self.steps.last() {
            Some(Step::Literal(text)) => uri.ends_with(text.as_str()),
            _ => true,
        };
        first && last
    }

    /// `fits[i][p]`: steps `i..` match `uri[p..]` exactly. Computed from the last step back, each
    /// row from the one after it in one pass, and only at character boundaries, so a split
    /// never cuts a character.
    fn fits(&self, uri: &str) -> Vec<Vec<bool>> {
        let bytes = uri.as_bytes();
        let len = bytes.len();
        let mut fits = vec![vec![false; len + 1]; self.steps.len() + 1];
        fits[self.steps.len()][len] = true;
        let mut pairs = Vec::new();
        for (i, step) in self.steps.iter().enumerate().rev() {
            let (here, after) = fits.split_at_mut(i + 1);
            let (here, next) = (&mut here[i], &after[0]);
            let last = last_fits(next);
            match step {
                Step::Literal(text) => {
                    for (p, fit) in here.iter_mut().enumerate() {
                        *fit = bytes[p..].starts_with(text.as_bytes()) && next[p + text.len()];
                    }
                }
                Step::Run { stops, .. } => {
                    let ends = run_ends(bytes, stops);
                    for (p, fit) in here.iter_mut().enumerate() {
                        *fit = last[ends[p]].is_some_and(|q| q > p);
                    }
                }
                Step::Parameter { stops, .. } => {
                    let ends = run_ends(bytes, stops);
                    for (p, fit) in here.iter_mut().enumerate() {
                        *fit = next[p]
                            || (bytes.get(p) == Some(&b'=')
                                && last[ends[p + 1]].is_some_and(|q| q > p));
                    }
                }
                Step::Query { sigil, names } => {
                    let ends = run_ends(bytes, b"&#");
                    for (p, fit) in here.iter_mut().enumerate() {
                        *fit = next[p]
                            || read_query(bytes, p, *sigil, names, &ends, &mut pairs)
                                .is_some_and(|end| next[end]);
                    }
                }
            }
            for (p, fit) in here.iter_mut().enumerate() {
                *fit = *fit && uri.is_char_boundary(p);
            }
        }
        fits
    }

    /// Whether some URI matches both patterns (their values' refusals aside). A query is taken
    /// as any text after its sigil, so two patterns that differ only in their queries' names
    /// are said to overlap.
    pub(crate) fn intersects(&self, other: &Pattern) -> bool {
        let (a, b) = (Automaton::of(self), Automaton::of(other));
        let width = b.edges.len();
        let mut seen = vec![false; a.edges.len() * width];
        let mut stack = vec![(0, 0)];
        while let Some((x, y)) = stack.pop() {
            if std::mem::replace(&mut seen[x * width + y], true) {
                continue;
            }
            if x == a.edges.len() - 1 && y == width - 1 {
                return true;
            }
            stack.extend(a.skips[x].iter().map(|&x2| (x2, y)));
            stack.extend(b.skips[y].iter().map(|&y2| (x, y2)));
            for (set_a, x2) in &a.edges[x] {
                for (set_b, y2) in &b.edges[y] {
                    if set_a.meets(set_b) {
                        stack.push((*x2, *y2));
                    }
                }
            }
        }
        false
    }
}

/// For each position `x`, the largest `q <= x` at which `fits` holds.
fn last_fits(fits: &[bool]) -> Vec<Option<usize>> {
    let mut last = None;
    fits.iter()
        .enumerate()
        .map(|(q, &fit)| {
            if fit {
                last = Some(q);
            }
            last
        })
        .collect()
}

/// For each position `p`, where a run starting there ends: the first stop at or after `p`.
fn run_ends(bytes: &[u8], stops: &[u8]) -> Vec<usize> {
    let mut ends = vec![bytes.len(); bytes.len() + 1];
    for p in (0..bytes.len()).rev() {
        ends[p] = if stops.contains(&bytes[p]) {
            p
        } else {
            ends[p + 1]
        };
    }
    ends
}

/// Where a run starting at `from` ends.
fn run_end(bytes: &[u8], from: usize, stops: &[u8]) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|b| stops.contains(b)))
        .map_or(bytes.len(), |at| from + at)
}

/// The largest `q` in `from..=to` at which `fits` holds.
fn longest(fits: &[bool], from: usize, to: usize) -> Option<usize> {
    (from..=to).rev().find(|&q| fits[q])
}

/// Reads a query part at `at` into `pairs` (each name's slot and its value's range) and returns
/// where it ends, or `None` when there is none there or it holds a name twice or one not in
/// `names`. `ends` are the `&#` run ends and a key is read only up to the longest name, so each
/// pair costs the same however long its value: a query is read at every `?` of a URI.
fn read_query(
    bytes: &[u8],
    at: usize,
    sigil: u8,
    names: &[(String, usize)],
    ends: &[usize],
    pairs: &mut Vec<Capture>,
) -> Option<usize> {
    pairs.clear();
    if bytes.get(at) != Some(&sigil) {
        return None;
    }
    let longest_name = names.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let mut start = at + 1;
    loop {
        let window = &bytes[start..bytes.len().min(start + longest_name + 1)];
        let key = window.iter().position(|&b| b == b'=')?;
        let slot = names
            .iter()
            .find(|(name, _)| name.as_bytes() == &window[..key])
            .map(|(_, slot)| *slot)?;
        if pairs.iter().any(|(seen, _)| *seen == slot) {
            return None;
        }
        let value = start + key + 1;
        let end = ends[value];
        pairs.push((slot, value..end));
        match bytes.get(end) {
            Some(b'&') => start = end + 1,
            _ => return Some(end),
        }
    }
}

/// A set of bytes.
#[derive(Clone, Copy)]
struct Bytes([u64; 4]);

impl Bytes {
    /// Every byte but `stops`.
    fn except(stops: &[u8]) -> Bytes {
        let mut set = Bytes([u64::MAX; 4]);
        for &b in stops {
            set.0[usize::from(b / 64)] &= !(1 << (b % 64));
        }
        set
    }

    /// Just `b`.
    fn only(b: u8) -> Bytes {
        let mut set = Bytes([0; 4]);
        set.0[usize::from(b / 64)] = 1 << (b % 64);
        set
    }

    /// Whether the two sets share a byte.
    fn meets(&self, other: &Bytes) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }
}

/// A pattern as a nondeterministic automaton over bytes: state 0 is the start, the last state
/// the end; an edge reads one byte of its set, a skip reads nothing.
struct Automaton {
    /// Each state's edges.
    edges: Vec<Vec<(Bytes, usize)>>,
    /// Each state's skips.
    skips: Vec<Vec<usize>>,
}

impl Automaton {
    /// The automaton of `pattern`'s steps, each a few states.
    fn of(pattern: &Pattern) -> Automaton {
        let mut automaton = Automaton {
            edges: vec![Vec::new()],
            skips: vec![Vec::new()],
        };
        for step in &pattern.steps {
            match step {
                Step::Literal(text) => {
                    for &b in text.as_bytes() {
                        automaton.then(Bytes::only(b));
                    }
                }
                Step::Run { stops, .. } => {
                    let run = automaton.then(Bytes::except(stops));
                    automaton.edges[run].push((Bytes::except(stops), run));
                }
                Step::Parameter { stops, .. } => automaton.optional_run(b'=', stops),
                Step::Query { sigil, .. } => automaton.optional_run(*sigil, b"#"),
            }
        }
        automaton
    }

    /// A new last state, reached from the current one by a byte of `set`; returns it.
    fn then(&mut self, set: Bytes) -> usize {
        let from = self.edges.len() - 1;
        self.edges.push(Vec::new());
        self.skips.push(Vec::new());
        self.edges[from].push((set, from + 1));
        from + 1
    }

    /// Nothing, or `lead` followed by any bytes not in `stops`.
    fn optional_run(&mut self, lead: u8, stops: &[u8]) {
        let from = self.edges.len() - 1;
        let run = self.then(Bytes::only(lead));
        self.edges[run].push((Bytes::except(stops), run));
        self.edges.push(Vec::new());
        self.skips.push(Vec::new());
        self.skips[from].push(run + 1);
        self.skips[run].push(run + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::{Pattern, Step};

    /// A pattern from a compact spelling: `{` a run stopping at `/?#`, `+` one stopping at
    /// `?#`, `;` a parameter, `?` a query of `q` and `lang`; anything else literal.
    fn pattern(spec: &str) -> Pattern {
        let mut pattern = Pattern::default();
        for (slot, c) in spec.chars().enumerate() {
            let step = match c {
                '{' => Step::Run {
                    stops: b"/?#",
                    slot,
                },
                '+' => Step::Run { stops: b"?#", slot },
                ';' => Step::Parameter {
                    stops: b"/?#;",
                    slot,
                },
                '?' => Step::Query {
                    sigil: b'?',
                    names: vec![("q".into(), slot), ("lang".into(), slot + 100)],
                },
                c => Step::Literal(c.to_string()),
            };
            pattern.push(step);
        }
        pattern
    }

    /// The captured texts, in slot order.
    fn found(spec: &str, uri: &str) -> Option<Vec<String>> {
        let mut captures = pattern(spec).find(uri)?;
        captures.sort_by_key(|(slot, _)| *slot);
        Some(
            captures
                .into_iter()
                .map(|(_, r)| uri[r].to_owned())
                .collect(),
        )
    }

    #[test]
    fn splits_are_the_longest_runs_first() {
        let cases: &[(&str, &str, Option<&[&str]>)] = &[
            ("a/{/x", "a/b/x", Some(&["b"])),
            ("a/{/x", "a//x", None),
            ("a/{", "a/b/c", None),
            ("+/{", "a/b/c", Some(&["a/b", "c"])),
            ("{.{", "x.y.z", Some(&["x.y", "z"])),
            ("{{", "xy", Some(&["x", "y"])),
            ("{{", "é", None),
            ("{{", "éa", Some(&["é", "a"])),
            ("+", "a/b?c", None),
            ("x;", "x;", None),
            ("x;;", "x", Some(&["", ""])),
            ("x;", "x=1", Some(&["1"])),
            ("x;", "x=", Some(&[""])),
            ("x?", "x", Some(&[])),
            ("x?", "x?lang=en&q=1", Some(&["1", "en"])),
            ("x?", "x?q=1&q=2", None),
            ("x?", "x?q=1&other=2", None),
            ("x?", "x?", None),
            ("x?", "x?q", None),
            ("x?", "x?q=", Some(&[""])),
            ("x?#{", "x?q=a#f", Some(&["a", "f"])),
            ("x?#{", "x#f", Some(&["f"])),
        ];
        for (spec, uri, expected) in cases {
            let expected = expected.map(|e| e.iter().map(|s| s.to_string()).collect());
            assert_eq!(found(spec, uri), expected, "{spec} {uri}");
        }
    }

    #[test]
    fn a_long_uri_is_matched_in_linear_steps() {
        let uri = "a/".repeat(30_000);
        assert_eq!(pattern("+/+/+/{").find(&uri), None);
        assert!(pattern("+/+/+/+").find(&format!("{uri}b")).is_some());
        let uri = format!("x{}/", "?q=".repeat(20_000));
        assert_eq!(pattern("x?/").find(&uri), None);
    }

    #[test]
    fn intersections() {
        let cases = [
            ("a/{", "a/b", true),
            ("a/{", "a/b/c", false),
            ("a/+", "a/b/c", true),
            ("a/{/d", "b/{", false),
            ("a/{.j", "a/x.{", true),
            ("a/{.j", "a/{.t", false),
            ("x?", "x", true),
            ("x?", "y?", false),
            ("x?", "x?", true),
            ("x;", "x", true),
            ("x;", "x=1", true),
            ("x;", "xy", false),
            ("ab", "ab", true),
            ("ab", "ac", false),
        ];
        for (a, b, overlap) in cases {
            assert_eq!(pattern(a).intersects(&pattern(b)), overlap, "{a} {b}");
            assert_eq!(pattern(b).intersects(&pattern(a)), overlap, "{b} {a}");
        }
    }
}
