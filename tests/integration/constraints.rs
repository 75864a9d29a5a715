//! Constraints on arguments: advertised in the input schema, and enforced when binding with
//! the same path-naming errors as a type error, wherever the constraint was written: on a
//! parameter (`#[arg(...)]`, `#[schemars(...)]`), on a field of an `Args<T>` struct, or on a
//! newtype. And a value the schema allows binds: `2.0` is an integer.

use crate::common;

use common::InProcess;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::prelude::*;

/// Labels notes.
#[mcp_tool]
fn label(
    #[arg(length(min = 1, max = 3))] tags: Vec<String>,
    #[arg(pattern = "^[a-z]+$", description = "Lower-case letters.")] name: String,
    #[arg(range(min = 1, max = 10))] count: u32,
    #[arg(email)] owner: Option<String>,
    #[arg(format = "uuid")] id: Option<String>,
    #[schemars(length(max = 5))] short: Option<String>,
) -> String {
    format!("{tags:?} {name} {count} {owner:?} {id:?} {short:?}")
}

/// A list that cannot be empty, as a newtype.
#[derive(Deserialize, schemars::JsonSchema)]
struct NonEmpty(#[schemars(length(min = 1))] Vec<String>);

#[derive(Deserialize, schemars::JsonSchema)]
struct Window {
    #[schemars(range(min = 0.0, max = 1.0))]
    ratio: f64,
    names: NonEmpty,
}

/// Takes a struct with constrained fields.
#[mcp_tool]
fn window(request: Args<Window>) -> String {
    format!("{} {}", request.ratio, request.names.0.len())
}

/// Takes a newtype.
#[mcp_tool]
fn names(names: NonEmpty) -> usize {
    names.0.len()
}

fn start(revision: &str) -> InProcess {
    let mut server = InProcess::start(
        Server::new("constraints", "1")
            .tool::<label>()
            .tool::<window>()
            .tool::<names>(),
    );
    server.client.open(revision);
    server
}

fn call(server: &mut InProcess, tool: &str, arguments: Value) -> Value {
    server
        .client
        .ask("tools/call", json!({"name": tool, "arguments": arguments}))
}

/// The message of a failed call: an `isError` result from 2025-11-25 on, a `-32602` before.
fn refusal(answer: &Value) -> String {
    match answer.get("error") {
        Some(error) => {
            assert_eq!(error["code"], -32602, "{answer}");
            error["message"].as_str().unwrap().to_owned()
        }
        None => {
            assert_eq!(answer["result"]["isError"], true, "{answer}");
            answer["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    }
}

fn valid() -> Value {
    json!({"tags": ["a"], "name": "ok", "count": 3})
}

fn with(key: &str, value: Value) -> Value {
    let mut arguments = valid();
    arguments[key] = value;
    arguments
}

#[test]
fn constraints_are_advertised() {
    let mut server = start("2025-11-25");
    let list = server.client.ask("tools/list", json!({}));
    let properties = &common::tool(&list, "label")["inputSchema"]["properties"];
    assert_eq!(properties["tags"]["minItems"], 1);
    assert_eq!(properties["tags"]["maxItems"], 3);
    assert_eq!(properties["name"]["pattern"], "^[a-z]+$");
    assert_eq!(properties["name"]["description"], "Lower-case letters.");
    assert_eq!(properties["count"]["minimum"], 1);
    assert_eq!(properties["count"]["maximum"], 10);
    assert_eq!(properties["owner"]["format"], "email");
    assert_eq!(properties["id"]["format"], "uuid");
    assert_eq!(properties["short"]["maxLength"], 5);
    let window = &common::tool(&list, "window")["inputSchema"]["properties"];
    assert_eq!(window["ratio"]["maximum"], 1.0);
    assert_eq!(window["names"]["minItems"], 1);
    server.finish().unwrap();
}

#[test]
fn constraints_are_enforced_with_the_path() {
    let cases = [
        (
            "label",
            with("tags", json!([])),
            "`tags`: must have at least 1 item, got 0",
        ),
        (
            "label",
            with("tags", json!(["a", "b", "c", "d"])),
            "`tags`: must have at most 3 items, got 4",
        ),
        (
            "label",
            with("name", json!("Bad")),
            "`name`: must match the pattern `^[a-z]+$`",
        ),
        (
            "label",
            with("count", json!(0)),
            "`count`: must be at least 1, got 0",
        ),
        (
            "label",
            with("count", json!(11)),
            "`count`: must be at most 10, got 11",
        ),
        (
            "label",
            with("owner", json!("nobody")),
            "`owner`: must be an email address",
        ),
        (
            "label",
            with("id", json!("42")),
            "`id`: must be a UUID, like `123e4567-e89b-12d3-a456-426614174000`",
        ),
        (
            "label",
            with("short", json!("toolong")),
            "`short`: must be at most 5 characters long, got 7",
        ),
        (
            "window",
            json!({"ratio": 1.5, "names": ["a"]}),
            "`ratio`: must be at most 1.0, got 1.5",
        ),
        (
            "window",
            json!({"ratio": 0.5, "names": []}),
            "`names`: must have at least 1 item, got 0",
        ),
        (
            "names",
            json!({"names": []}),
            "`names`: must have at least 1 item, got 0",
        ),
    ];
    for revision in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        let mut server = start(revision);
        for (tool, arguments, expected) in &cases {
            let answer = call(&mut server, tool, arguments.clone());
            assert_eq!(
                refusal(&answer),
                format!("invalid arguments: {expected}"),
                "{revision} {tool} {arguments}"
            );
        }
        server.finish().unwrap();
    }
}

#[test]
fn values_that_keep_the_constraints_bind() {
    let mut server = start("2025-11-25");
    let answer = call(
        &mut server,
        "label",
        json!({"tags": ["a", "b"], "name": "abc", "count": 10, "owner": "ada@example.com",
               "id": "123e4567-e89b-12d3-a456-426614174000", "short": "ab"}),
    );
    assert!(answer["result"].get("isError").is_none(), "{answer}");
    let answer = call(&mut server, "window", json!({"ratio": 0, "names": ["x"]}));
    assert_eq!(answer["result"]["content"][0]["text"], "0 1");
    server.finish().unwrap();
}

#[test]
fn integral_numbers_bind_to_integers() {
    let mut server = start("2025-11-25");
    let answer = call(&mut server, "label", with("count", json!(2.0)));
    assert_eq!(
        answer["result"]["content"][0]["text"],
        r#"["a"] ok 2 None None None"#
    );
    let answer = call(&mut server, "label", with("count", json!(2.5)));
    assert_eq!(
        refusal(&answer),
        "invalid arguments: `count`: invalid type: floating point `2.5`, expected u32"
    );
    server.finish().unwrap();
}
