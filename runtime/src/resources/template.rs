//! RFC 6570 URI templates, as a resource template declares them (`file:///{+path}`): parsed
//! once, matched against the URIs clients read, compared with each other at start-up, and
//! expanded (`syntax.rs` says which levels and how expansion encodes).
//!
//! RFC 6570 defines expansion only, and MCP says nothing of matching (which level, decoding,
//! precedence), so the rules of matching are ours:
//!
//! - Matching reads the raw URI, anchored at both ends. Literal text matches exactly, case
//!   included. A value is one or more characters: `{var}` (and `{.var}`, `{/var}`) stop at
//!   `/`, `?` and `#`, `{+var}` at `?` and `#`, `{#var}` at nothing but `#`; in a list, values
//!   also stop at the list's separator (`,`, or `.` for `{.a,b}`). `{;p}` is `;p` or `;p=value`.
//!   `{?a,b}` (and `{&a}`, which a `{?...}` right before it joins) is optional, and its pairs may
//!   come in any order, each name the template's and at most once; it runs to a `#` or the end.
//! - When several splits fit, each value takes the longest text that still lets the rest match,
//!   first to last: `{+dir}/{name}` reads `a/b/c` as `a/b` and `c` (`pattern.rs`).
//! - Each value is percent-decoded exactly once, then refused if it could reach past what its
//!   variable stands for (`value.rs`). A variable that appears twice must have captured the
//!   same text both times. A URI longer than 64 KiB matches nothing.

use std::fmt;

use crate::resources::pattern::{Pattern, Step};
pub(crate) use crate::resources::syntax::TemplateError;
use crate::resources::syntax::{self, Expression, Operator, Part};
use crate::resources::value::{self, Span};

/// A URI longer than this matches no template: a bound on the work one request costs.
const MAX_URI_LENGTH: usize = 64 * 1024;

/// A parsed URI template: literals and expressions, in order.
#[derive(Clone, Debug)]
pub(crate) struct UriTemplate {
    /// Its literals and expressions.
    parts: Vec<Part>,
    /// The variables' names, in order of first appearance.
    names: Vec<String>,
    /// The shape matching and overlap use, derived once.
    pattern: Pattern,
    /// What each of the pattern's captures is, by slot.
    slots: Vec<Slot>,
}

/// What one capture of the pattern is.
#[derive(Clone, Debug)]
struct Slot {
    /// The index of its variable in `names`.
    variable: usize,
    /// How much of a path its value may be.
    span: Span,
    /// Its variable's prefix length.
    prefix: Option<usize>,
}

impl Slot {
    /// The value `raw` gives the slot's variable, or why it is refused.
    fn accept(&self, raw: &str) -> Result<String, &'static str> {
        let value = value::accept(raw, self.span)?;
        match self.prefix {
            Some(n) if value.chars().count() > n => {
                Err("it is longer than the template's prefix (`:n`) allows")
            }
            _ => Ok(value),
        }
    }
}

/// A URI that has a template's shape, with a value the template does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    /// The variable whose value is refused.
    pub(crate) variable: String,
    /// Why, as `it ...`.
    pub(crate) reason: &'static str,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the value of `{}` is refused: {}",
            self.variable, self.reason
        )
    }
}

impl std::error::Error for Refused {}

impl UriTemplate {
    /// Parses `text`; the error names the first mistake and its byte.
    pub(crate) fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        let parts = syntax::parse(text)?;
        let mut template = UriTemplate {
            parts: Vec::new(),
            names: Vec::new(),
            pattern: Pattern::default(),
            slots: Vec::new(),
        };
        for part in &parts {
            match part {
                Part::Literal(literal) => template.pattern.push_literal(literal),
                Part::Expression(expression) => template.add_to_pattern(expression),
            }
        }
        template.parts = parts;
        Ok(template)
    }

    /// The variable names, in order of appearance, each once.
    pub(crate) fn variables(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// No expressions: the template is one URI (a direct resource).
    pub(crate) fn is_static(&self) -> bool {
        self.slots.is_empty()
    }

    /// Matches a requested URI (see the module's doc for the rules). `Ok(None)`: it does not
    /// match. `Ok(Some(values))`: it matches, with each variable's value percent-decoded
    /// exactly once, in the order of `variables()` (a variable absent from an optional form,
    /// such as a missing `?q`, is left out). `Err`: it has the template's shape, but a value is
    /// one the template does not allow.
    pub(crate) fn matches(&self, uri: &str) -> Result<Option<Vec<(String, String)>>, Refused> {
        if uri.len() > MAX_URI_LENGTH {
            return Ok(None);
        }
        let Some(mut captures) = self.pattern.find(uri) else {
            return Ok(None);
        };
        captures.sort_by_key(|(slot, range)| (self.slots[*slot].variable, range.start));
        let mut values = Vec::new();
        let mut previous: Option<(usize, &str)> = None;
        for (slot, range) in captures {
            let slot = &self.slots[slot];
            let Some(raw) = uri.get(range) else {
                return Ok(None);
            };
            // A variable written twice (`{a}/{a}`) has one value: the URI repeats its text.
            if let Some((variable, first)) = previous
                && variable == slot.variable
            {
                if first != raw {
                    return Ok(None);
                }
                continue;
            }
            previous = Some((slot.variable, raw));
            let name = &self.names[slot.variable];
            let value = slot.accept(raw).map_err(|reason| Refused {
                variable: name.clone(),
                reason,
            })?;
            values.push((name.clone(), value));
        }
        Ok(Some(values))
    }

    /// Whether some URI could match both templates, values' refusals aside (used to refuse
    /// overlapping resources at start-up). Queries are compared loosely: two templates that
    /// differ only in their queries' names overlap.
    pub(crate) fn overlaps(&self, other: &UriTemplate) -> bool {
        self.pattern.intersects(&other.pattern)
    }

    /// Expands the template with `values` (RFC 6570 expansion with each operator's encoding;
    /// `syntax.rs` says where it encodes more); a variable without a value is undefined. Tests
    /// match what it expands to, to check that matching gives the values back.
    #[cfg(test)]
    pub(crate) fn expand(&self, values: &[(&str, &str)]) -> String {
        syntax::expand(&self.parts, values)
    }

    /// Adds an expression's steps to the pattern and its variables' slots.
    fn add_to_pattern(&mut self, expression: &Expression) {
        let operator = expression.operator;
        let list = expression.variables.len() > 1;
        let mut query = Vec::new();
        for (index, variable) in expression.variables.iter().enumerate() {
            let slot = self.slots.len();
            let index_of_name = self.name_index(&variable.name);
            self.slots.push(Slot {
                variable: index_of_name,
                span: operator.span(variable.explode),
                prefix: variable.prefix,
            });
            let stops = operator.stops(list, variable.explode);
            match operator {
                Operator::Query | Operator::Continuation => {
                    query.push((variable.name.clone(), slot));
                }
                Operator::Parameter => {
                    self.pattern.push_literal(";");
                    self.pattern.push_literal(&variable.name);
                    self.pattern.push(Step::Parameter { stops, slot });
                }
                _ => {
                    let lead = match index {
                        0 => operator.first(),
                        _ => operator.separator(),
                    };
                    self.pattern.push_literal(lead);
                    self.pattern.push(Step::Run { stops, slot });
                }
            }
        }
        if !query.is_empty() {
            let sigil = match operator {
                Operator::Query => b'?',
                _ => b'&',
            };
            self.pattern.push(Step::Query {
                sigil,
                names: query,
            });
        }
    }

    /// The index of `name` in `names`, added if it is new.
    fn name_index(&mut self, name: &str) -> usize {
        match self.names.iter().position(|known| known == name) {
            Some(index) => index,
            None => {
                self.names.push(name.to_owned());
                self.names.len() - 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UriTemplate;

    /// A template known to parse.
    fn template(text: &str) -> UriTemplate {
        UriTemplate::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Variables' values, as a test writes them.
    type Values = &'static [(&'static str, &'static str)];

    /// Owned pairs, for comparing with `matches`.
    fn pairs(values: &[(&str, &str)]) -> Vec<(String, String)> {
        values
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn variables_come_in_order_each_once() {
        let t = template("test://{b}/{a,b}{/c}{?a,d}{&e}");
        assert_eq!(t.variables(), ["b", "a", "c", "d", "e"]);
        assert!(template("test://x/y").variables().is_empty());
    }

    #[test]
    fn static_templates_have_no_expression() {
        assert!(template("test://static").is_static());
        assert!(!template("test://template/{id}/data").is_static());
        assert!(!template("test://x{?q}").is_static());
        let t = template("test://static");
        assert_eq!(t.matches("test://static"), Ok(Some(Vec::new())));
        assert_eq!(t.matches("test://static/"), Ok(None));
        assert_eq!(t.matches("test://Static"), Ok(None));
    }

    #[test]
    fn uris_match_with_their_values_decoded_once() {
        let cases: &[(&str, &str, Option<Values>)] = &[
            // The conformance suite's template.
            (
                "test://template/{id}/data",
                "test://template/123/data",
                Some(&[("id", "123")]),
            ),
            ("test://template/{id}/data", "test://template/123", None),
            ("test://template/{id}/data", "test://template//data", None),
            (
                "test://template/{id}/data",
                "test://template/1/2/data",
                None,
            ),
            ("test://template/{id}/data", "test://template/1/data/", None),
            ("test://template/{id}/data", "TEST://template/1/data", None),
            (
                "test://template/{id}/data",
                "test://template/1/data?x",
                None,
            ),
            (
                "test://template/{id}/data",
                "test://template/a%20b%2C%252e/data",
                Some(&[("id", "a b,%2e")]),
            ),
            (
                "file:///{+path}",
                "file:///a/b/c.txt",
                Some(&[("path", "a/b/c.txt")]),
            ),
            (
                "file:///{+path}",
                "file:///my%20dir/%C3%A9t%C3%A9.md",
                Some(&[("path", "my dir/été.md")]),
            ),
            ("file:///{+path}", "file:///a%2Fb", Some(&[("path", "a/b")])),
            ("file:///{+path}", "file:///", None),
            ("file:///{+path}", "file:///a?b", None),
            ("file:///{+path}", "file:///a#b", None),
            ("file:///{+path}", "file://a", None),
            (
                "file:///{+path}{?rev}",
                "file:///a/b?rev=2",
                Some(&[("path", "a/b"), ("rev", "2")]),
            ),
            (
                "file:///{+path}{?rev}",
                "file:///a/b",
                Some(&[("path", "a/b")]),
            ),
            (
                "file:///{+dir}/{name}",
                "file:///a/b/c",
                Some(&[("dir", "a/b"), ("name", "c")]),
            ),
            (
                "test://x/{name}{.ext}",
                "test://x/my.archive.gz",
                Some(&[("name", "my.archive"), ("ext", "gz")]),
            ),
            (
                "test://x{/a,b}",
                "test://x/1/2",
                Some(&[("a", "1"), ("b", "2")]),
            ),
            ("test://x{/a,b}", "test://x/1", None),
            ("test://x{/a,b}", "test://x/1/2/3", None),
            ("test://x{/a}", "test://x/", None),
            (
                "test://x{/path*}",
                "test://x/a/b/c",
                Some(&[("path", "a/b/c")]),
            ),
            ("test://x{/path*}/end", "test://x/end", None),
            (
                "test://{a,b}",
                "test://1,2",
                Some(&[("a", "1"), ("b", "2")]),
            ),
            ("test://{a,b}", "test://1,2,3", None),
            (
                "test://x{;a,b}",
                "test://x;a=1;b",
                Some(&[("a", "1"), ("b", "")]),
            ),
            (
                "test://x{#frag}",
                "test://x#a/b?c",
                Some(&[("frag", "a/b?c")]),
            ),
            ("test://{a}/{a}", "test://1/1", Some(&[("a", "1")])),
            ("test://{a}/{a}", "test://1/2", None),
            ("test://{a:3}", "test://abc", Some(&[("a", "abc")])),
        ];
        for (text, uri, expected) in cases {
            let expected = expected.map(pairs);
            assert_eq!(template(text).matches(uri), Ok(expected), "{text} {uri}");
        }
    }

    #[test]
    fn queries_are_optional_and_in_any_order() {
        let t = template("test://search{?q,lang}");
        let cases: &[(&str, Option<Values>)] = &[
            ("test://search", Some(&[])),
            ("test://search?q=rust", Some(&[("q", "rust")])),
            ("test://search?lang=en", Some(&[("lang", "en")])),
            (
                "test://search?q=rust&lang=en",
                Some(&[("q", "rust"), ("lang", "en")]),
            ),
            (
                "test://search?lang=en&q=a%20b%26c",
                Some(&[("q", "a b&c"), ("lang", "en")]),
            ),
            ("test://search?q=", Some(&[("q", "")])),
            ("test://search?", None),
            ("test://search?q", None),
            ("test://search?q=1&q=2", None),
            ("test://search?q=1&other=2", None),
            ("test://search?q=1&", None),
            ("test://search?Q=1", None),
            ("test://search/x?q=1", None),
        ];
        for (uri, expected) in cases {
            assert_eq!(t.matches(uri), Ok(expected.map(pairs)), "{uri}");
        }
        let t = template("test://search{?q}{&lang}");
        assert_eq!(
            t.matches("test://search?lang=en&q=x"),
            Ok(Some(pairs(&[("q", "x"), ("lang", "en")])))
        );
        let t = template("test://search?fixed=1{&lang}");
        assert_eq!(
            t.matches("test://search?fixed=1&lang=en"),
            Ok(Some(pairs(&[("lang", "en")])))
        );
        assert_eq!(t.matches("test://search?fixed=2&lang=en"), Ok(None));
    }

    #[test]
    fn traversals_are_refused() {
        let cases = [
            ("file:///{+path}", "file:///../etc/passwd", "path", "`..`"),
            ("file:///{+path}", "file:///a/../../etc", "path", "`..`"),
            ("file:///{+path}", "file:///%2e%2e/etc", "path", "`..`"),
            ("file:///{+path}", "file:///%2E%2e/etc", "path", "`..`"),
            ("file:///{+path}", "file:///a/%2E./b", "path", "`..`"),
            ("file:///{+path}", "file:///..%2fetc", "path", "`..`"),
            ("file:///{+path}", "file:///a%5C..%5Cb", "path", "`..`"),
            ("file:///{+path}", "file:///a/./b", "path", "`.`"),
            ("file:///{+path}", "file:////etc/passwd", "path", "absolute"),
            ("file:///{+path}", "file:///%2Fetc", "path", "absolute"),
            ("file:///{+path}", "file:///%5Cserver", "path", "absolute"),
            ("file:///{+path}", "file:///C:/Windows", "path", "drive"),
            ("file:///{+path}", "file:///a%00.txt", "path", "NUL"),
            ("file:///{+path}", "file:///a%0A", "path", "control"),
            ("file:///{+path}", "file:///%zz", "path", "percent-encoding"),
            ("file:///{+path}", "file:///a%4", "path", "percent-encoding"),
            ("file:///{+path}", "file:///%FF", "path", "UTF-8"),
            ("file:///{name}", "file:///a%2Fb", "name", "one segment"),
            ("file:///{name}", "file:///a%2fb", "name", "one segment"),
            ("file:///{name}", "file:///a%5Cb", "name", "one segment"),
            ("file:///{name}", "file:///..%2fetc", "name", "one segment"),
            ("file:///{name}", "file:///..", "name", "`..`"),
            ("file:///{name}", "file:///.", "name", "`.`"),
            ("file:///{name}", "file:///%2e%2E", "name", "`..`"),
            ("file:///{name}", "file:///a\\b", "name", "one segment"),
            ("test://x{/seg}", "test://x/%2e%2e", "seg", "`..`"),
            ("test://x{/path*}", "test://x/a/../b", "path", "`..`"),
            ("test://x{.ext}", "test://x.a%2Fb", "ext", "one segment"),
            ("test://x{;p}", "test://x;p=..", "p", "`..`"),
            ("test://s{?q}", "test://s?q=a/b", "q", "one segment"),
            ("test://s{?q}", "test://s?q=%2e%2e", "q", "`..`"),
            ("test://{a:2}", "test://abc", "a", "prefix"),
        ];
        for (text, uri, variable, reason) in cases {
            let refused = template(text).matches(uri).err();
            let refused = refused.unwrap_or_else(|| panic!("{text} {uri} was not refused"));
            assert_eq!(refused.variable, variable, "{text} {uri}");
            assert!(refused.reason.contains(reason), "{text} {uri}: {refused}");
        }
        let refused = template("file:///{+path}").matches("file:///../x").err();
        assert_eq!(
            refused.map(|r| r.to_string()).as_deref(),
            Some("the value of `path` is refused: it climbs out of its directory (`..`)")
        );
    }

    #[test]
    fn double_encoding_is_decoded_once() {
        let t = template("file:///{+path}");
        assert_eq!(
            t.matches("file:///%252e%252e/etc"),
            Ok(Some(pairs(&[("path", "%2e%2e/etc")])))
        );
        let t = template("file:///{name}");
        assert_eq!(
            t.matches("file:///%252e%252e"),
            Ok(Some(pairs(&[("name", "%2e%2e")])))
        );
        assert_eq!(
            t.matches("file:///%252F"),
            Ok(Some(pairs(&[("name", "%2F")])))
        );
    }

    #[test]
    fn a_uri_over_64_kib_matches_nothing() {
        let t = template("file:///{+path}");
        let path = "a/".repeat(32 * 1024);
        assert_eq!(t.matches(&format!("file:///{path}")), Ok(None));
        let path = "a/".repeat(30 * 1024);
        assert!(matches!(
            t.matches(&format!("file:///{path}b")),
            Ok(Some(_))
        ));
    }

    #[test]
    fn overlaps() {
        let cases = [
            ("test://a", "test://a", true),
            ("test://a", "test://b", false),
            ("test://a/{x}", "test://a/b", true),
            ("test://a/{x}", "test://a/b/c", false),
            ("test://a/{x}/data", "test://b/{y}", false),
            ("test://a/{x}/data", "test://a/{y}", false),
            ("test://a/{x}/data", "test://a/{+y}", true),
            (
                "test://template/{id}/data",
                "test://template/{x}/data",
                true,
            ),
            ("file:///{+path}", "file:///{name}", true),
            ("file:///{+path}", "file:///a/b", true),
            ("file:///{name}", "file:///a/b", false),
            ("file:///{+path}", "test://{+path}", false),
            ("test://x/{a}.json", "test://x/{b}.txt", false),
            ("test://x/{a}.json", "test://x/y.{ext}", true),
            ("test://x{/a}", "test://x/{b}", true),
            ("test://x{/a,b}", "test://x/{c}", false),
            ("test://s{?q}", "test://s", true),
            ("test://s{?q}", "test://s{?lang}", true),
            ("test://s{?q}", "test://t{?q}", false),
            ("test://s{?q}", "test://sx", false),
            ("test://x{#f}", "test://x#y", true),
            ("test://x{#f}", "test://x/y", false),
        ];
        for (a, b, overlap) in cases {
            assert_eq!(template(a).overlaps(&template(b)), overlap, "{a} {b}");
            assert_eq!(template(b).overlaps(&template(a)), overlap, "{b} {a}");
        }
    }

    #[test]
    fn expansions_match_back_to_their_values() {
        let cases: &[(&str, Values)] = &[
            ("test://template/{id}/data", &[("id", "123")]),
            ("test://template/{id}/data", &[("id", "a b,%2e é?#&")]),
            ("file:///{+path}", &[("path", "dir/a b/c%d?.txt")]),
            ("file:///{+path}", &[("path", "x/%2e%2e/y,z;w=1")]),
            ("test://x{/a,b}", &[("a", "1"), ("b", "two words")]),
            ("test://x{/path*}", &[("path", "a/b c/d")]),
            (
                "test://x/{name}{.ext}",
                &[("name", "my.archive"), ("ext", "gz")],
            ),
            ("test://x{.a,b}", &[("a", "x"), ("b", "y.z")]),
            ("test://{a,b}", &[("a", "1,2"), ("b", "3")]),
            ("test://x{;a,b}", &[("a", "1;2"), ("b", "")]),
            ("test://s{?q,lang}", &[("q", "a&b=c#d"), ("lang", "en")]),
            ("test://s{?q,lang}", &[("lang", "en")]),
            ("test://x{#frag}", &[("frag", "sec/1?x")]),
        ];
        for (text, values) in cases {
            let t = template(text);
            let uri = t.expand(values);
            assert_eq!(t.matches(&uri), Ok(Some(pairs(values))), "{text} {uri}");
        }
    }
}
