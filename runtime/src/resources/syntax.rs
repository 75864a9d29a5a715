//! A URI template as RFC 6570 writes it: literals and expressions, parsed and expanded.
//!
//! Levels 1 to 3 are supported, and of level 4 the prefix (`{id:8}`) and the explode of the
//! operators whose values may span `/` (`{/path*}`, `{+path*}`, `{#frag*}`), whose value is
//! the segments joined by `/`; the other explodes name lists and maps, which a resource's values
//! never are. Expansion follows RFC 6570, except that it also encodes what matching would read
//! as the end of a value (`?` and `#` in `{+var}`, a list's separator) and every `%`, which
//! RFC 6570 passes through in `{+var}`: matching what `expand` built gives the values back.

use std::fmt;

use crate::resources::value::Span;

/// A literal or an expression.
#[derive(Clone, Debug)]
pub(crate) enum Part {
    /// Text kept as it is.
    Literal(String),
    /// `{...}`.
    Expression(Expression),
}

/// `{` operator variable-list `}`.
#[derive(Clone, Debug)]
pub(crate) struct Expression {
    /// The operator, `Simple` when there is none.
    pub(crate) operator: Operator,
    /// The variables, in order.
    pub(crate) variables: Vec<Variable>,
}

/// One variable of an expression.
#[derive(Clone, Debug)]
pub(crate) struct Variable {
    /// Its name.
    pub(crate) name: String,
    /// `:n`: at most `n` characters of the value.
    pub(crate) prefix: Option<usize>,
    /// `*`: the value is segments joined by `/`.
    pub(crate) explode: bool,
}

/// An expression's operator (RFC 6570 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    /// `{var}`.
    Simple,
    /// `{+var}`.
    Reserved,
    /// `{#var}`.
    Fragment,
    /// `{.var}`.
    Label,
    /// `{/var}`.
    Path,
    /// `{;var}`.
    Parameter,
    /// `{?var}`.
    Query,
    /// `{&var}`.
    Continuation,
}

impl Operator {
    /// The operator a character names, if it names one.
    fn of(c: u8) -> Option<Operator> {
        Some(match c {
            b'+' => Operator::Reserved,
            b'#' => Operator::Fragment,
            b'.' => Operator::Label,
            b'/' => Operator::Path,
            b';' => Operator::Parameter,
            b'?' => Operator::Query,
            b'&' => Operator::Continuation,
            _ => return None,
        })
    }

    /// What comes before the first defined value.
    pub(crate) fn first(self) -> &'static str {
        match self {
            Operator::Simple | Operator::Reserved => "",
            Operator::Fragment => "#",
            Operator::Label => ".",
            Operator::Path => "/",
            Operator::Parameter => ";",
            Operator::Query => "?",
            Operator::Continuation => "&",
        }
    }

    /// What comes between two defined values.
    pub(crate) fn separator(self) -> &'static str {
        match self {
            Operator::Simple | Operator::Reserved | Operator::Fragment => ",",
            Operator::Label => ".",
            Operator::Path => "/",
            Operator::Parameter => ";",
            Operator::Query | Operator::Continuation => "&",
        }
    }

    #[cfg(test)]
    /// Whether values come as `name=value`.
    fn named(self) -> bool {
        matches!(
            self,
            Operator::Parameter | Operator::Query | Operator::Continuation
        )
    }

    /// Whether a value may span `/`.
    pub(crate) fn span(self, explode: bool) -> Span {
        match self {
            Operator::Reserved | Operator::Fragment => Span::Path,
            Operator::Path if explode => Span::Path,
            _ => Span::Segment,
        }
    }

    /// The raw bytes that end a value: the delimiters its expansion encodes, and, in a list,
    /// the separator.
    pub(crate) fn stops(self, list: bool, explode: bool) -> &'static [u8] {
        match (self, list) {
            (Operator::Simple, false) | (Operator::Label, false) => b"/?#",
            (Operator::Path, _) if explode => b"?#",
            (Operator::Path, _) => b"/?#",
            (Operator::Simple, true) => b"/?#,",
            (Operator::Label, true) => b"/?#.",
            (Operator::Reserved, false) => b"?#",
            (Operator::Reserved, true) => b"?#,",
            (Operator::Fragment, false) => b"#",
            (Operator::Fragment, true) => b"#,",
            (Operator::Parameter, _) => b"/?#;",
            (Operator::Query | Operator::Continuation, _) => b"&#",
        }
    }
}

/// Why a template does not parse, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TemplateError {
    /// A one-line message that names the byte the mistake is at.
    message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TemplateError {}

/// A template's literals and expressions; the error names the first mistake and its byte.
pub(crate) fn parse(text: &str) -> Result<Vec<Part>, TemplateError> {
    if text.is_empty() {
        return Err(error("a URI template may not be empty".to_owned()));
    }
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let (mut at, mut literal) = (0, 0);
    while let Some(&b) = bytes.get(at) {
        match b {
            b'{' => {
                if literal < at {
                    parts.push(Part::Literal(text[literal..at].to_owned()));
                }
                let close = closing_brace(bytes, at)?;
                parts.push(Part::Expression(parse_expression(
                    &text[at + 1..close],
                    at,
                )?));
                at = close + 1;
                literal = at;
            }
            b'}' => return Err(error(format!("`}}` at byte {at} closes no expression"))),
            b' ' | 0..0x20 | 0x7F => {
                return Err(error(format!(
                    "space or control character at byte {at}: a URI template has none"
                )));
            }
            _ => at += 1,
        }
    }
    if literal < at {
        parts.push(Part::Literal(text[literal..].to_owned()));
    }
    Ok(parts)
}

/// Where the expression opened at `open` closes.
fn closing_brace(bytes: &[u8], open: usize) -> Result<usize, TemplateError> {
    for (at, &b) in bytes.iter().enumerate().skip(open + 1) {
        match b {
            b'}' => return Ok(at),
            b'{' => {
                return Err(error(format!(
                    "nested `{{` at byte {at}: an expression may not contain another"
                )));
            }
            _ => {}
        }
    }
    Err(error(format!("unclosed `{{` at byte {open}")))
}

/// The expression whose text between the braces is `body`, opened at byte `open`.
fn parse_expression(body: &str, open: usize) -> Result<Expression, TemplateError> {
    let Some(&first) = body.as_bytes().first() else {
        return Err(error(format!("empty expression `{{}}` at byte {open}")));
    };
    if b"=,!@|".contains(&first) {
        let at = open + 1;
        let op = char::from(first);
        return Err(error(format!(
            "operator `{op}` at byte {at} is reserved by RFC 6570"
        )));
    }
    let (operator, list, mut at) = match Operator::of(first) {
        Some(operator) => (operator, &body[1..], open + 2),
        None => (Operator::Simple, body, open + 1),
    };
    let expression = format!("{{{body}}}");
    let mut variables = Vec::new();
    for spec in list.split(',') {
        variables.push(parse_variable(spec, at, operator, &expression)?);
        at += spec.len() + 1;
    }
    Ok(Expression {
        operator,
        variables,
    })
}

/// One variable (`name`, `name:n`, `name*`) written at byte `at` of `expression`.
fn parse_variable(
    spec: &str,
    at: usize,
    operator: Operator,
    expression: &str,
) -> Result<Variable, TemplateError> {
    let (name, prefix, explode) = match (spec.split_once(':'), spec.strip_suffix('*')) {
        (Some((name, digits)), _) => {
            let length = prefix_length(digits).ok_or_else(|| {
                let at = at + name.len() + 1;
                error(format!(
                    "`{expression}`: a prefix length (`:n`) is a number from 1 to 9999 \
                     (byte {at})"
                ))
            })?;
            (name, Some(length), false)
        }
        (None, Some(name)) => (name, None, true),
        (None, None) => (spec, None, false),
    };
    check_name(name, at, expression)?;
    if explode && operator.span(true) == Span::Segment {
        let at = at + name.len();
        return Err(error(format!(
            "`{expression}`: explode (`*`) is supported only in `{{/var*}}`, `{{+var*}}` \
             and `{{#var*}}` (byte {at})"
        )));
    }
    Ok(Variable {
        name: name.to_owned(),
        prefix,
        explode,
    })
}

/// `1` to `9999`, without leading zeros.
fn prefix_length(digits: &str) -> Option<usize> {
    let well_formed = (1..=4).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0');
    well_formed.then(|| digits.parse().ok()).flatten()
}

/// RFC 6570 `varname`: letters, digits, `_` and `%XX`, with single dots between them.
fn check_name(name: &str, at: usize, expression: &str) -> Result<(), TemplateError> {
    if name.is_empty() {
        return Err(error(format!(
            "`{expression}`: a variable name is missing (byte {at})"
        )));
    }
    let bytes = name.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let width = match b {
            b'%' if bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) =>
            {
                3
            }
            b'.' if i > 0 && i + 1 < bytes.len() && bytes[i - 1] != b'.' => 1,
            b if b.is_ascii_alphanumeric() || b == b'_' => 1,
            _ => {
                let at = at + i;
                return Err(error(format!(
                    "`{expression}`: a variable name may contain only letters, digits, `_`, \
                     `.` and `%XX` (byte {at})"
                )));
            }
        };
        i += width;
    }
    Ok(())
}

/// A parse error; its message names the byte it is at.
fn error(message: String) -> TemplateError {
    TemplateError { message }
}

#[cfg(test)]
/// Expands `parts` with `values`; a variable without a value is undefined.
pub(crate) fn expand(parts: &[Part], values: &[(&str, &str)]) -> String {
    let mut uri = String::new();
    for part in parts {
        match part {
            Part::Literal(literal) => uri.push_str(literal),
            Part::Expression(expression) => expression.expand(values, &mut uri),
        }
    }
    uri
}

#[cfg(test)]
impl Expression {
    /// Appends the expansion to `uri`.
    fn expand(&self, values: &[(&str, &str)], uri: &mut String) {
        let operator = self.operator;
        let list = self.variables.len() > 1;
        let mut lead = operator.first();
        for variable in &self.variables {
            let Some(&(_, value)) = values.iter().find(|(name, _)| *name == variable.name) else {
                continue;
            };
            let value = variable.prefix.map_or(value, |n| prefix(value, n));
            uri.push_str(lead);
            lead = operator.separator();
            if operator.named() {
                uri.push_str(&variable.name);
                if value.is_empty() {
                    if operator != Operator::Parameter {
                        uri.push('=');
                    }
                    continue;
                }
                uri.push('=');
            }
            let stops = operator.stops(list, variable.explode);
            let reserved = matches!(operator, Operator::Reserved | Operator::Fragment);
            if variable.explode && operator == Operator::Path {
                for (index, segment) in value.split('/').enumerate() {
                    if index > 0 {
                        uri.push('/');
                    }
                    encode(segment, false, stops, uri);
                }
            } else {
                encode(value, reserved, stops, uri);
            }
        }
    }
}

#[cfg(test)]
/// Appends `value` to `uri`, percent-encoding every byte but the unreserved ones (and, if
/// `reserved`, the reserved ones), and always `%` and the `stops`.
fn encode(value: &str, reserved: bool, stops: &[u8], uri: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in value.as_bytes() {
        let unreserved = b.is_ascii_alphanumeric() || b"-._~".contains(&b);
        let kept = unreserved || (reserved && b":/?#[]@!$&'()*+,;=".contains(&b));
        if kept && !stops.contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push('%');
            uri.push(char::from(HEX[usize::from(b >> 4)]));
            uri.push(char::from(HEX[usize::from(b & 0xF)]));
        }
    }
}

/// The first `n` characters of `value`.
#[cfg(test)]
fn prefix(value: &str, n: usize) -> &str {
    value
        .char_indices()
        .nth(n)
        .map_or(value, |(at, _)| &value[..at])
}

#[cfg(test)]
mod tests {
    use super::{Part, expand, parse};

    /// The parts of a template known to parse.
    fn parts(text: &str) -> Vec<Part> {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn parse_errors_name_the_mistake_and_its_byte() {
        let cases = [
            ("", 0, "may not be empty"),
            ("test://{id", 7, "unclosed `{` at byte 7"),
            ("test://{}", 7, "empty expression `{}` at byte 7"),
            ("test://{a{b}}", 9, "nested `{` at byte 9"),
            ("test://a}", 8, "`}` at byte 8 closes no expression"),
            (
                "test://{a b}",
                9,
                "`{a b}`: a variable name may contain only",
            ),
            ("test://{a-b}", 9, "letters, digits"),
            ("test://{.a..b}", 11, "letters, digits"),
            ("test://{a.}", 9, "letters, digits"),
            ("test://{%zz}", 8, "letters, digits"),
            (
                "test://{a,}",
                10,
                "`{a,}`: a variable name is missing (byte 10)",
            ),
            ("test://{+}", 9, "a variable name is missing"),
            (
                "test://{=a}",
                8,
                "operator `=` at byte 8 is reserved by RFC 6570",
            ),
            ("test://{,a}", 8, "operator `,`"),
            ("test://{!a}", 8, "operator `!`"),
            ("test://{@a}", 8, "operator `@`"),
            ("test://{|a}", 8, "operator `|`"),
            (
                "test://{a:0}",
                10,
                "a prefix length (`:n`) is a number from 1 to 9999",
            ),
            ("test://{a:10000}", 10, "prefix length"),
            ("test://{a:}", 10, "prefix length"),
            ("test://{a:3*}", 10, "prefix length"),
            ("test://{a*}", 9, "explode (`*`) is supported only in"),
            ("test://{?a*}", 10, "explode"),
            ("test://a b", 8, "space or control character at byte 8"),
            ("test://a\tb", 8, "control character"),
        ];
        for (text, at, message) in cases {
            let error = parse(text).err();
            let error = error.unwrap_or_else(|| panic!("{text:?} parsed"));
            assert!(error.to_string().contains(message), "{text:?}: {error}");
            if !text.is_empty() {
                assert!(error.to_string().contains(&format!("byte {at}")), "{error}");
            }
        }
    }

    #[test]
    fn every_level_parses() {
        for text in [
            "test://static",
            "file:///{+path}",
            "test://{a}{+b}{#c}{.d}{/e}{;f}{?g}{&h}",
            "test://x{/path*}{?q,lang}",
            "test://{var:3}/{a.b}/{a%20b}/{_1}",
            "test://{+path*}#{#frag*}",
        ] {
            assert!(!parts(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn expansion_follows_rfc_6570() {
        let values = [
            ("var", "value"),
            ("hello", "Hello World!"),
            ("path", "/foo/bar"),
            ("x", "1024"),
            ("y", "768"),
            ("empty", ""),
            ("segments", "a/b c"),
        ];
        let cases = [
            ("{var}", "value"),
            ("{hello}", "Hello%20World%21"),
            ("{+hello}", "Hello%20World!"),
            ("{+path}/here", "/foo/bar/here"),
            ("{#hello}", "#Hello%20World!"),
            ("X{.var}", "X.value"),
            ("{/var,x}/here", "/value/1024/here"),
            ("{;x,y}", ";x=1024;y=768"),
            ("{;x,y,empty}", ";x=1024;y=768;empty"),
            ("{?x,y}", "?x=1024&y=768"),
            ("{?x,y,empty}", "?x=1024&y=768&empty="),
            ("{?x,undefined}", "?x=1024"),
            ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
            ("{x,y}", "1024,768"),
            ("{var:3}", "val"),
            ("{undefined}", ""),
            ("{/segments*}", "/a/b%20c"),
            ("{+x,hello}", "1024,Hello%20World!"),
        ];
        for (text, expected) in cases {
            assert_eq!(expand(&parts(text), &values), expected, "{text}");
        }
    }
}
