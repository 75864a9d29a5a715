//! The frontmatter of a `SKILL.md`: the YAML between its first line, `---`, and the next line
//! that is `---` (a byte order mark before it aside), rendered as the JSON object a listing
//! carries. It is read under YAML 1.2's core schema, as hosts read it to compare it field by
//! field with the listing: `version: 2.1` is a number, `yes` and `2024-01-01` are strings.
//! What JSON cannot say the same way is refused rather than guessed: a key that is not a
//! string, a tag outside the core schema, `.inf` and `.nan`, a repeated key.

use saphyr::{LoadableYamlNode, Mapping, Scalar, Yaml};
use serde_json::{Map, Number, Value};

/// The reserved prefix of `metadata` keys; the extension defines none, so none may be served.
const RESERVED: &str = "io.modelcontextprotocol/";

/// The frontmatter of a `SKILL.md`: all its fields, and the two every skill must have.
#[derive(Debug)]
pub(crate) struct Frontmatter {
    /// The fields, in the file's order, typed as YAML types them.
    pub(crate) fields: Map<String, Value>,
    /// `name`, which the skill's folder must equal.
    pub(crate) name: String,
    /// `description`, which tells a host when to use the skill.
    pub(crate) description: String,
}

/// The frontmatter of a `SKILL.md`'s text; `Err` says what is wrong in words (the caller
/// names the file).
pub(crate) fn read(text: &str) -> Result<Frontmatter, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fields = parse(block(text)?)?;
    Ok(Frontmatter {
        name: required(&fields, "name")?,
        description: required(&fields, "description")?,
        fields: reserved_keys_refused(fields)?,
    })
}

/// The YAML between the opening `---` line and the closing one.
fn block(text: &str) -> Result<&str, String> {
    let is_fence = |line: &str| line.trim_end_matches(['\n', '\r']) == "---";
    let mut lines = text.split_inclusive('\n');
    if !lines.next().is_some_and(is_fence) {
        return Err("does not begin with frontmatter: its first line must be `---`".into());
    }
    let start = text.find('\n').map_or(text.len(), |n| n + 1);
    let mut end = start;
    for line in lines {
        if is_fence(line) {
            return Ok(&text[start..end]);
        }
        end += line.len();
    }
    Err("the frontmatter has no closing `---` line".into())
}

/// The frontmatter's YAML as a JSON object.
fn parse(yaml: &str) -> Result<Map<String, Value>, String> {
    let documents = Yaml::load_from_str(yaml).map_err(|e| {
        // The parser counts lines from the frontmatter's first; the file has `---` above it.
        let line = e.marker().line() + 1;
        format!(
            "the frontmatter is not valid YAML: {} (line {line})",
            e.info()
        )
    })?;
    match documents.as_slice() {
        [] => Err("the frontmatter is empty".into()),
        [Yaml::Mapping(mapping)] => object(mapping),
        [_] => Err("the frontmatter is not a mapping of fields".into()),
        _ => Err("the frontmatter holds more than one YAML document".into()),
    }
}

/// A YAML node as JSON.
fn json(node: &Yaml) -> Result<Value, String> {
    match node {
        Yaml::Value(scalar) => scalar_json(scalar),
        Yaml::Sequence(items) => items.iter().map(json).collect::<Result<_, _>>(),
        Yaml::Mapping(mapping) => object(mapping).map(Value::Object),
        // A core tag (`!!str 2.1`) is already applied to the value beneath it.
        Yaml::Tagged(tag, inner) if tag.is_yaml_core_schema() => json(inner),
        Yaml::Tagged(tag, _) => Err(format!(
            "the frontmatter uses the tag `{tag}`, which has no JSON form"
        )),
        Yaml::Representation(..) | Yaml::Alias(_) | Yaml::BadValue => {
            Err("the frontmatter holds a value that could not be resolved".into())
        }
    }
}

fn scalar_json(scalar: &Scalar) -> Result<Value, String> {
    Ok(match scalar {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(n) => Value::from(*n),
        Scalar::FloatingPoint(x) => Number::from_f64(x.into_inner())
            .map(Value::Number)
            .ok_or("the frontmatter holds `.inf` or `.nan`, which JSON cannot carry")?,
        Scalar::String(s) => Value::String(s.to_string()),
    })
}

/// A YAML mapping as a JSON object, in the file's order.
fn object(mapping: &Mapping) -> Result<Map<String, Value>, String> {
    mapping
        .iter()
        .map(|(key, value)| Ok((key_text(key)?, json(value)?)))
        .collect()
}

/// A mapping key, which JSON needs as a string: a key YAML types otherwise (`1:`, `true:`)
/// would be turned into text differently by different hosts, so it is refused.
fn key_text(key: &Yaml) -> Result<String, String> {
    match key {
        Yaml::Value(Scalar::String(s)) => Ok(s.to_string()),
        Yaml::Tagged(tag, inner) if tag.is_yaml_core_schema() => key_text(inner),
        _ => Err("the frontmatter has a key that is not a string (quote it)".into()),
    }
}

/// A field every skill must have: a string with something in it.
fn required(fields: &Map<String, Value>, key: &str) -> Result<String, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Err(format!("the frontmatter has no `{key}`")),
        Some(Value::String(s)) if s.trim().is_empty() => {
            Err(format!("the frontmatter's `{key}` is empty"))
        }
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("the frontmatter's `{key}` is not a string")),
    }
}

/// `fields`, unless a `metadata` key uses the prefix the extension reserves.
fn reserved_keys_refused(fields: Map<String, Value>) -> Result<Map<String, Value>, String> {
    let metadata = fields.get("metadata").and_then(Value::as_object);
    if let Some(key) = metadata.and_then(|m| m.keys().find(|k| k.starts_with(RESERVED))) {
        return Err(format!(
            "the `metadata` key `{key}` uses the prefix `{RESERVED}`, which the extension reserves"
        ));
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(text: &str) -> Value {
        Value::Object(read(text).expect("valid frontmatter").fields)
    }

    #[test]
    fn fields_are_typed_as_yaml_types_them_and_keep_their_order() {
        let text = "---\nname: demo\ndescription: Does things\nversion: 2.1\ncount: 3\n\
                    tags: [a, 2, true]\nmetadata:\n  author: me\n  nested: {x: null}\n\
                    yes: yes\ndate: 2024-01-01\nquoted: \"2.1\"\nexplicit: !!str 7\n---\n# Body\n";
        assert_eq!(
            fields(text),
            json!({
                "name": "demo",
                "description": "Does things",
                "version": 2.1,
                "count": 3,
                "tags": ["a", 2, true],
                "metadata": {"author": "me", "nested": {"x": null}},
                "yes": "yes",
                "date": "2024-01-01",
                "quoted": "2.1",
                "explicit": "7",
            })
        );
        let keys: Vec<String> = read(text).expect("valid").fields.keys().cloned().collect();
        assert_eq!(keys[..3], ["name", "description", "version"]);
    }

    #[test]
    fn a_byte_order_mark_and_crlf_lines_are_read_through() {
        let text = "\u{feff}---\r\nname: demo\r\ndescription: d\r\n---\r\nbody";
        let frontmatter = read(text).expect("valid frontmatter");
        assert_eq!(frontmatter.name, "demo");
        assert_eq!(frontmatter.description, "d");
        // The closing fence may end the file.
        assert!(read("---\nname: a\ndescription: b\n---").is_ok());
    }

    #[test]
    fn what_a_host_would_refuse_is_refused_with_the_reason() {
        let cases = [
            ("# no frontmatter\n", "first line must be `---`"),
            ("\n---\nname: a\n---\n", "first line must be `---`"),
            ("---\nname: a\ndescription: b\n", "no closing `---`"),
            ("---\n---\n", "is empty"),
            ("---\n- a\n---\n", "not a mapping"),
            ("---\ndescription: b\n---\n", "has no `name`"),
            ("---\nname: a\n---\n", "has no `description`"),
            (
                "---\nname: a\ndescription: \"  \"\n---\n",
                "`description` is empty",
            ),
            (
                "---\nname: 12\ndescription: b\n---\n",
                "`name` is not a string",
            ),
            ("---\nname: a\nname: b\n---\n", "not valid YAML"),
            ("---\nname: a\ndescription: [b\n---\n", "not valid YAML"),
            ("---\nname: a\ndescription: b\nx: .inf\n---\n", "`.inf`"),
            ("---\nname: a\ndescription: b\n1: x\n---\n", "not a string"),
            (
                "---\nname: a\ndescription: b\nx: !custom 3\n---\n",
                "`!custom`",
            ),
            (
                "---\nname: a\ndescription: b\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n",
                "reserves",
            ),
        ];
        for (text, expected) in cases {
            let error = read(text).expect_err(text);
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn a_yaml_error_names_the_line_of_the_file() {
        let error = read("---\nname: a\nname: b\n---\n").expect_err("a repeated key");
        assert!(error.ends_with("(line 3)"), "{error}");
    }
}
