//! Arguments mirrored in HTTP headers (SEP-2243): a property of the input schema marked
//! `"x-mcp-header": "<Name>"` is sent by HTTP clients as `Mcp-Param-<Name>` too.
//!
//! Checked once, when the server starts, as the specification requires of a valid tool: the
//! name is an RFC 9110 token, unique regardless of case; the property is a string, an integer or
//! a boolean (not a number); and it is reached from the root through `properties` alone (not
//! through `items`, a `$ref` or a combinator).

use serde_json::{Map, Value};

/// One argument mirrored in a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParamHeader {
    /// `<Name>` of `Mcp-Param-<Name>`.
    pub(crate) name: String,
    /// The property's path from the arguments object.
    pub(crate) path: Vec<String>,
    pub(crate) kind: HeaderKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderKind {
    String,
    Integer,
    Boolean,
}

const MARK: &str = "x-mcp-header";

/// The arguments an input schema mirrors in headers; `Err` says why a declaration is invalid.
pub(crate) fn declared(schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    collect(schema, &mut Vec::new(), &mut found)?;
    let everywhere = count(schema);
    if everywhere != found.len() {
        return Err(format!(
            "its input schema marks `{MARK}` on a property not reached from the root through \
             `properties` alone (inside `items`, a `$ref` or a combinator); mark only such \
             properties"
        ));
    }
    for (i, header) in found.iter().enumerate() {
        if found[..i]
            .iter()
            .any(|other| other.name.eq_ignore_ascii_case(&header.name))
        {
            return Err(format!(
                "its input schema marks two properties with the header `{}` (header names \
                 ignore case)",
                header.name
            ));
        }
    }
    Ok(found)
}

fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    found: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (key, property) in properties {
        path.push(key.clone());
        if let Some(mark) = property.get(MARK) {
            found.push(header(mark, property, path)?);
        }
        collect(property, path, found)?;
        path.pop();
    }
    Ok(())
}

fn header(mark: &Value, property: &Value, path: &[String]) -> Result<ParamHeader, String> {
    let at = path.join(".");
    let name = mark.as_str().filter(|name| is_token(name)).ok_or_else(|| {
        format!(
            "`{MARK}` of argument `{at}` must be a header name: letters, digits and !#$%&'*+-.^_`|~"
        )
    })?;
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let kind = match types.iter().filter(|t| **t != "null").collect::<Vec<_>>()[..] {
        [&"string"] => HeaderKind::String,
        [&"integer"] => HeaderKind::Integer,
        [&"boolean"] => HeaderKind::Boolean,
        _ => {
            return Err(format!(
                "argument `{at}` is sent as the header `Mcp-Param-{name}`, so it must be a \
                 string, an integer or a boolean"
            ));
        }
    };
    Ok(ParamHeader {
        name: name.to_owned(),
        path: path.to_vec(),
        kind,
    })
}

/// RFC 9110 `token`: one or more of the visible characters that are not delimiters.
pub(crate) fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Every `x-mcp-header` in the schema, wherever it is.
fn count(schema: &Value) -> usize {
    match schema {
        Value::Object(map) => usize::from(map.contains_key(MARK)) + count_in(map),
        Value::Array(items) => items.iter().map(count).sum(),
        _ => 0,
    }
}

fn count_in(map: &Map<String, Value>) -> usize {
    map.values().map(count).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declarations() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"limit": {"type": ["integer", "null"], "x-mcp-header": "Limit"}}},
            "query": {"type": "string"}
        }});
        let found = declared(&schema).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[1].path, ["opts", "limit"]);
        assert_eq!(found[1].kind, HeaderKind::Integer);
    }

    #[test]
    fn invalid_declarations() {
        let bad = [
            json!({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "A B"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "A"}, "b": {"type": "string", "x-mcp-header": "a"}}}),
            json!({"properties": {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}}}),
        ];
        for schema in bad {
            assert!(declared(&schema).is_err(), "{schema}");
        }
    }
}
