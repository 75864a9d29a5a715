//! A `Result` is decided by its type, not by how it is written: aliases, paths, `anyhow` and
//! `io` all fail as `isError` results (verbatim or masked as their error type says), and never
//! become structured output; their output schema is the success type's.

use crate::common;

use std::io;

use common::{InProcess, REVISIONS};
use serde_json::{Value, json};
use toolwright::prelude::*;

type Fallible<T> = Result<T, String>;
type Again<T> = Fallible<T>;
type Checked<T> = Result<T, ToolError>;

/// Always fails, through an alias with a `String` error.
#[mcp_tool]
fn alias(fail: bool) -> Fallible<u32> {
    if fail { Err("boom".into()) } else { Ok(7) }
}

/// Always fails, through an alias of an alias.
#[mcp_tool]
fn alias_of_alias(fail: bool) -> Again<u32> {
    if fail {
        Err("boom again".into())
    } else {
        Ok(8)
    }
}

/// Fails through an alias with a `ToolError`.
#[mcp_tool]
fn checked(fail: bool) -> Checked<String> {
    if fail {
        Err(ToolError::new("checked failure"))
    } else {
        Ok("fine".into())
    }
}

/// Fails through the full path.
#[mcp_tool]
fn full_path(fail: bool) -> std::result::Result<u8, String> {
    if fail {
        Err("full path failure".into())
    } else {
        Ok(9)
    }
}

/// Fails through anyhow's alias: masked.
#[mcp_tool]
fn with_anyhow(fail: bool) -> anyhow::Result<u8> {
    if fail {
        anyhow::bail!("secret anyhow detail")
    } else {
        Ok(10)
    }
}

/// Fails through io's alias: masked.
#[mcp_tool]
fn with_io(fail: bool) -> io::Result<u8> {
    if fail {
        Err(io::Error::other("secret io detail"))
    } else {
        Ok(11)
    }
}

fn server() -> Server {
    Server::new("results", "1.0.0")
        .tool::<alias>()
        .tool::<alias_of_alias>()
        .tool::<checked>()
        .tool::<full_path>()
        .tool::<with_anyhow>()
        .tool::<with_io>()
}

/// (tool, the text a failure shows, or `None` when it is masked, the success value)
const CASES: [(&str, Option<&str>, u64); 6] = [
    ("alias", Some("boom"), 7),
    ("alias_of_alias", Some("boom again"), 8),
    ("checked", Some("checked failure"), 9),
    ("full_path", Some("full path failure"), 9),
    ("with_anyhow", None, 10),
    ("with_io", None, 11),
];

#[test]
fn every_spelling_fails_as_an_error_result_in_every_revision() {
    for revision in REVISIONS {
        let mut server = InProcess::start(server());
        server.client.open(revision);
        for (tool, shown, _) in CASES {
            let answer = server.client.ask(
                "tools/call",
                json!({"name": tool, "arguments": {"fail": true}}),
            );
            let result = &answer["result"];
            assert_eq!(result["isError"], true, "{revision} {tool}: {answer}");
            assert!(
                result.get("structuredContent").is_none(),
                "{revision} {tool}: {answer}"
            );
            let text = result["content"][0]["text"].as_str().unwrap();
            match shown {
                Some(message) => assert_eq!(text, message, "{revision} {tool}"),
                None => {
                    assert!(
                        text.starts_with("internal error (ref "),
                        "{revision} {tool}: {text}"
                    );
                    assert!(!text.contains("secret"), "{revision} {tool}: {text}");
                }
            }
        }
        server.finish().unwrap();
    }
}

#[test]
fn successes_are_the_success_type_with_its_schema() {
    let mut server = InProcess::start(server());
    server.client.open("2026-07-28");
    let list = server.client.ask("tools/list", json!({}));
    for (tool, _, value) in CASES {
        let listed = common::tool(&list, tool);
        let expected = match tool {
            "checked" => None,
            "full_path" | "with_anyhow" | "with_io" => {
                Some(json!({"type": "integer", "minimum": 0, "maximum": 255}))
            }
            _ => Some(json!({"type": "integer", "minimum": 0})),
        };
        assert_eq!(listed.get("outputSchema").cloned(), expected, "{tool}");
        let answer = server.client.ask(
            "tools/call",
            json!({"name": tool, "arguments": {"fail": false}}),
        );
        let result = &answer["result"];
        assert!(result.get("isError").is_none(), "{tool}: {answer}");
        match tool {
            "checked" => assert_eq!(result["content"][0]["text"], "fine"),
            _ => assert_eq!(result["structuredContent"], Value::from(value), "{tool}"),
        }
    }
    server.finish().unwrap();
}
