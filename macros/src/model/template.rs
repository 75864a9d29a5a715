//! A resource's URI, read at compile time as an RFC 6570 template: literal text and `{...}`
//! expressions (an optional operator, then variables separated by commas, each with an
//! optional `*` or `:length`). What the macro needs of it is its variables, and a clear error
//! for what is not a template, rather than a server that fails when it starts.

/// A URI template that parsed.
pub(crate) struct Template {
    /// Each variable's name, in order, once.
    pub(crate) variables: Vec<String>,
    /// The variables of query expressions (`{?q}`, `{&q}`): a URI may leave them out.
    pub(crate) optional: Vec<String>,
}

/// The operators RFC 6570 defines (level 2 and 3).
const OPERATORS: &[char] = &['+', '#', '.', '/', ';', '?', '&'];
/// The operators RFC 6570 reserves for future extensions.
const RESERVED: &[char] = &['=', ',', '!', '@', '|'];

impl Template {
    /// Parses `text`; the error names what is wrong, and where, in a sentence that names the
    /// template.
    pub(crate) fn parse(text: &str) -> Result<Template, String> {
        let invalid = |problem: String| format!("invalid URI template `{text}`: {problem}");
        if !has_scheme(text) {
            return Err(invalid(
                "a URI starts with its scheme, like `file:` or `notes:`".to_owned(),
            ));
        }
        let mut variables: Vec<String> = Vec::new();
        let mut optional: Vec<String> = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find(['{', '}']) {
            check_literal(&rest[..at]).map_err(invalid)?;
            if rest[at..].starts_with('}') {
                return Err(invalid("a `}` closes no `{`".to_owned()));
            }
            let inside = &rest[at + 1..];
            let end = inside
                .find(['{', '}'])
                .filter(|&end| inside[end..].starts_with('}'))
                .ok_or_else(|| {
                    invalid(match inside.find('{') {
                        Some(_) => "a `{` opens inside an expression".to_owned(),
                        None => "a `{` is never closed".to_owned(),
                    })
                })?;
            let query = inside[..end].starts_with(['?', '&']);
            for name in expression(&inside[..end]).map_err(invalid)? {
                if query && !optional.contains(&name) {
                    optional.push(name.clone());
                }
                if !variables.contains(&name) {
                    variables.push(name);
                }
            }
            rest = &inside[end + 1..];
        }
        check_literal(rest).map_err(invalid)?;
        Ok(Template {
            variables,
            optional,
        })
    }

    /// A URI without variables: one resource, not a template of many.
    pub(crate) fn is_direct(&self) -> bool {
        self.variables.is_empty()
    }
}

/// RFC 3986: a letter, then letters, digits, `+`, `-` and `.`, then `:`.
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn check_literal(literal: &str) -> Result<(), String> {
    match literal
        .chars()
        .find(|c| c.is_whitespace() || c.is_control())
    {
        Some(c) => Err(format!(
            "{c:?} cannot appear in a URI; percent-encode it (`%{:02X}`)",
            u32::from(c)
        )),
        None => Ok(()),
    }
}

/// The variables of one expression, written without its braces.
fn expression(expression: &str) -> Result<Vec<String>, String> {
    let braced = format!("{{{expression}}}");
    let mut list = expression;
    let mut operator = None;
    if let Some(first) = list.chars().next() {
        if RESERVED.contains(&first) {
            return Err(format!(
                "the operator `{first}` of `{braced}` is reserved by RFC 6570; an expression \
                 starts with one of `+ # . / ; ? &`, or with its variable"
            ));
        }
        if OPERATORS.contains(&first) {
            operator = Some(first);
            list = &list[first.len_utf8()..];
        }
    }
    if list.is_empty() {
        return Err(format!(
            "`{braced}` names no variable; write one inside, like `{{id}}`"
        ));
    }
    // An exploded value (`*`) is segments joined by `/`: only where a value may span `/`, as
    // the server matches URIs.
    let explodes = matches!(operator, Some('/' | '+' | '#'));
    list.split(',')
        .map(|spec| variable(spec, &braced, explodes))
        .collect()
}

/// One `name`, `name*` or `name:length`.
fn variable(spec: &str, braced: &str, explodes: bool) -> Result<String, String> {
    let name = match (spec.split_once(':'), spec.strip_suffix('*')) {
        (Some((name, length)), _) => {
            let valid = !length.is_empty()
                && length.len() <= 4
                && !length.starts_with('0')
                && length.chars().all(|c| c.is_ascii_digit());
            if !valid {
                return Err(format!(
                    "the prefix length `:{length}` in `{braced}` is not a number from 1 to 9999"
                ));
            }
            name
        }
        (None, Some(name)) if !explodes => {
            return Err(format!(
                "`{name}*` in `{braced}`: explode (`*`) is supported only in `{{/var*}}`, \
                 `{{+var*}}` and `{{#var*}}`"
            ));
        }
        (None, Some(name)) => name,
        (None, None) => spec,
    };
    if name.is_empty() {
        return Err(format!("`{braced}` has an empty variable name"));
    }
    if !valid_name(name) {
        return Err(format!(
            "`{name}` in `{braced}` is not a variable name; a name has letters, digits, `_` \
             and `%XX` escapes, with single dots between them"
        ));
    }
    Ok(name.to_owned())
}

/// RFC 6570 `varname`: letters, digits, `_` and `%XX`, with single dots between them.
fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += match b {
            b'%' if bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) =>
            {
                3
            }
            b'.' if i > 0 && i + 1 < bytes.len() && bytes[i - 1] != b'.' => 1,
            b if b.is_ascii_alphanumeric() || b == b'_' => 1,
            _ => return false,
        };
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variables(text: &str) -> Vec<String> {
        Template::parse(text)
            .unwrap_or_else(|e| panic!("{e}"))
            .variables
    }

    fn error(text: &str) -> String {
        match Template::parse(text) {
            Ok(_) => panic!("`{text}` parsed"),
            Err(e) => e,
        }
    }

    #[test]
    fn variables_of_every_operator_and_modifier() {
        assert!(variables("file:///README.md").is_empty());
        assert_eq!(variables("notes://{id}"), ["id"]);
        assert_eq!(
            variables("test://{+base*}/x{/path*}{?q,lang:2}{&page}{#frag}{.ext}{;p}/{id}/{id}"),
            [
                "base", "path", "q", "lang", "page", "frag", "ext", "p", "id"
            ]
        );
        assert_eq!(variables("a:{caf%C3%A9,a.b}"), ["caf%C3%A9", "a.b"]);
    }

    #[test]
    fn what_is_not_a_template() {
        let cases = [
            ("test://{id", "a `{` is never closed"),
            ("test://{a{b}}", "a `{` opens inside an expression"),
            ("test://x}", "a `}` closes no `{`"),
            ("test://{}", "`{}` names no variable"),
            ("test://{?}", "`{?}` names no variable"),
            (
                "test://{=x}",
                "the operator `=` of `{=x}` is reserved by RFC 6570",
            ),
            ("test://{|x}", "the operator `|` of `{|x}` is reserved"),
            ("test://{a,}", "`{a,}` has an empty variable name"),
            ("test://{a-b}", "`a-b` in `{a-b}` is not a variable name"),
            ("test://{a..b}", "`a..b` in `{a..b}` is not a variable name"),
            (
                "test://{a*}",
                "`a*` in `{a*}`: explode (`*`) is supported only in",
            ),
            ("test://{?a*}", "`a*` in `{?a*}`: explode"),
            ("test://{a:0}", "the prefix length `:0` in `{a:0}`"),
            ("test://{a:10000}", "the prefix length `:10000`"),
            (
                "test://a b",
                "' ' cannot appear in a URI; percent-encode it (`%20`)",
            ),
            ("{+base}/x", "a URI starts with its scheme"),
            ("notes/x", "a URI starts with its scheme"),
        ];
        for (text, expected) in cases {
            let error = error(text);
            assert!(
                error.starts_with(&format!("invalid URI template `{text}`: ")),
                "{error}"
            );
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
