//! Doc comments to text: an item's description, and the parameter descriptions of its
//! `# Arguments` section (rustdoc's convention: ``* `name` - text``).

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// What a doc comment says about an item.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Doc {
    /// The text outside the `# Arguments` section; `None` when there is none.
    pub(crate) description: Option<String>,
    /// `(parameter name, description)` from the `# Arguments` section, in order.
    pub(crate) arguments: Vec<(String, String)>,
}

/// The lines of all `#[doc = "..."]` attributes (what `///` and `/** */` become), unindented.
pub(crate) fn lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            lines.extend(s.value().split('\n').map(|l| l.trim_end().to_owned()));
        }
    }
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .into_iter()
        .map(|l| l.get(indent..).unwrap_or("").to_owned())
        .collect()
}

/// Splits doc lines into the description and the `# Arguments` entries.
pub(crate) fn parse(lines: &[String]) -> Doc {
    let mut kept: Vec<&str> = Vec::new();
    let mut arguments: Vec<(String, String)> = Vec::new();
    let mut section: Option<usize> = None; // heading level of `# Arguments` while inside it
    let mut in_fence = false;
    for line in lines {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        let heading = (!in_fence).then(|| heading(line)).flatten();
        if let Some((level, title)) = heading {
            if section.is_some_and(|open| level <= open) {
                section = None;
            }
            if section.is_none() && is_arguments_heading(title) {
                section = Some(level);
                continue;
            }
        }
        if section.is_none() {
            kept.push(line);
            continue;
        }
        if let Some((name, text)) = argument_item(trimmed) {
            arguments.push((name, text));
        } else if !trimmed.is_empty()
            && line.starts_with(char::is_whitespace)
            && let Some((_, text)) = arguments.last_mut()
        {
            // An indented line continues the item above it.
            text.push(' ');
            text.push_str(trimmed);
        }
    }
    Doc {
        description: join_paragraphs(&kept),
        arguments,
    }
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let rest = &line[level..];
    (1..=6)
        .contains(&level)
        .then_some(())
        .and_then(|()| rest.strip_prefix(' '))
        .map(|title| (level, title.trim()))
}

fn is_arguments_heading(title: &str) -> bool {
    title.eq_ignore_ascii_case("arguments") || title.eq_ignore_ascii_case("parameters")
}

/// ``* `name` - text``, also with `-` bullets and `:` or `—` separators.
fn argument_item(line: &str) -> Option<(String, String)> {
    let rest = line
        .strip_prefix("* ")
        .or_else(|| line.strip_prefix("- "))?;
    let rest = rest.trim_start().strip_prefix('`')?;
    let (name, rest) = rest.split_once('`')?;
    let rest = rest.trim_start();
    let text = ["- ", ": ", "— ", "-- "]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
        .or_else(|| rest.strip_prefix(':'))
        .unwrap_or(rest);
    let name = name.strip_prefix("r#").unwrap_or(name);
    Some((name.to_owned(), text.trim().to_owned()))
}

/// Joins lines as written, with one blank line between paragraphs and none around them.
fn join_paragraphs(lines: &[&str]) -> Option<String> {
    let mut out = String::new();
    let mut blank = false;
    for line in lines {
        if line.trim().is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Doc {
        let attrs: Vec<Attribute> = text
            .lines()
            .map(|l| syn::parse_quote!(#[doc = #l]))
            .collect();
        parse(&lines(&attrs))
    }

    #[test]
    fn paragraphs_are_kept_and_arguments_removed() {
        let d = doc(
            " Adds two integers.\n\n Returns their sum,\n wrapping never.\n\n \
             # Arguments\n\n * `a` - The first addend.\n * `b` - The second\n   addend.\n\n \
             # Errors\n\n None.",
        );
        assert_eq!(
            d.description.as_deref(),
            Some("Adds two integers.\n\nReturns their sum,\nwrapping never.\n\n# Errors\n\nNone.")
        );
        assert_eq!(
            d.arguments,
            vec![
                ("a".into(), "The first addend.".into()),
                ("b".into(), "The second addend.".into()),
            ]
        );
    }

    #[test]
    fn separators_and_levels() {
        let d = doc(
            "Intro.\n## Arguments\n- `x`: one\n* `r#type` — two\n### Detail\nstill args\n## Next\nend",
        );
        assert_eq!(d.description.as_deref(), Some("Intro.\n## Next\nend"));
        assert_eq!(
            d.arguments,
            vec![("x".into(), "one".into()), ("type".into(), "two".into())]
        );
    }

    #[test]
    fn headings_in_code_blocks_are_text() {
        let d = doc("Run:\n```sh\n# Arguments\n```");
        assert_eq!(
            d.description.as_deref(),
            Some("Run:\n```sh\n# Arguments\n```")
        );
        assert!(d.arguments.is_empty());
    }

    #[test]
    fn no_doc_is_no_description() {
        assert_eq!(doc(""), Doc::default());
        assert_eq!(doc("   \n  ").description, None);
    }
}
