//! Client arguments: renames, defaults, optional and nested values, enums, maps, `Args<T>`,
//! unknown keys, and error messages that name the path and the expected type.

use crate::common;

use std::collections::BTreeMap;

use common::InProcess;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::prelude::*;

#[derive(Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Order {
    Newest,
    Oldest,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Window {
    from: u32,
    to: u32,
}

/// Searches with every kind of argument.
///
/// # Arguments
/// * `query` - Words to look for.
#[mcp_tool]
fn search(
    query: String,
    #[arg(default = 10, description = "At most this many")] limit: u32,
    #[arg(rename = "sortOrder")] order: Option<Order>,
    window: Option<Window>,
    tags: Vec<String>,
    weights: BTreeMap<String, f64>,
) -> String {
    let order = match order {
        Some(Order::Newest) => "newest",
        Some(Order::Oldest) => "oldest",
        None => "any",
    };
    let window = window.map_or("all".into(), |w| format!("{}..{}", w.from, w.to));
    format!("{query} limit={limit} order={order} window={window} tags={tags:?} weights={weights:?}")
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Booking {
    /// Where to.
    city: String,
    nights: Option<u8>,
}

/// Takes its arguments as one struct.
#[mcp_tool]
fn book(request: Args<Booking>) -> String {
    format!(
        "{} for {} nights",
        request.city,
        request.nights.unwrap_or(1)
    )
}

const REPO: &str = "The repository to work on.";

mod texts {
    pub const STATUS: &str = "Shows the working tree status.";
}

#[mcp_tool(description = texts::STATUS, title = concat!("Git ", "status"))]
fn git_status(
    #[arg(description = REPO)] repo: String,
    #[arg(description = concat!("Show ", "untracked files."))] untracked: Option<bool>,
) -> String {
    format!("{repo} {untracked:?}")
}

fn start(version: &str) -> InProcess {
    let mut server = InProcess::start(
        Server::new("arguments-test", "1")
            .tool::<search>()
            .tool::<book>()
            .tool::<git_status>(),
    );
    server.client.initialize(version);
    server
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
}

#[test]
fn the_schema_describes_every_argument() {
    let mut server = start("2025-11-25");
    let list = server.client.request("tools/list", json!({}));
    let schema = &common::tool(&list, "search")["inputSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["query", "tags", "weights"]));
    assert_eq!(
        schema["properties"]["query"]["description"],
        "Words to look for."
    );
    assert_eq!(schema["properties"]["limit"]["default"], 10);
    assert_eq!(
        schema["properties"]["limit"]["description"],
        "At most this many"
    );
    assert!(schema["properties"].get("order").is_none());
    // A unit enum is a string enum; being optional, it is not nullable but not required.
    assert_eq!(
        schema["properties"]["sortOrder"],
        json!({"type": "string", "enum": ["newest", "oldest"]})
    );
    assert!(schema.get("$defs").is_none(), "definitions are inlined");
    assert_eq!(schema["properties"]["tags"]["type"], "array");
    assert_eq!(schema["properties"]["weights"]["type"], "object");

    let whole = &common::tool(&list, "book")["inputSchema"];
    assert_eq!(whole["required"], json!(["city"]));
    assert_eq!(whole["additionalProperties"], false);
    assert_eq!(whole["properties"]["city"]["description"], "Where to.");
    server.finish().unwrap();
}

#[test]
fn arguments_bind() {
    let mut server = start("2025-11-25");
    let answer = server.client.call(
        "search",
        json!({
            "query": "rust", "sortOrder": "oldest", "window": {"from": 1, "to": 5},
            "tags": ["a"], "weights": {"x": 0.5}
        }),
    );
    assert_eq!(
        text(&answer),
        r#"rust limit=10 order=oldest window=1..5 tags=["a"] weights={"x": 0.5}"#
    );
    let answer = server
        .client
        .call("book", json!({"city": "Porto", "nights": 3}));
    assert_eq!(text(&answer), "Porto for 3 nights");
    server.finish().unwrap();
}

#[test]
fn binding_errors_name_the_path_and_what_was_expected() {
    let mut server = start("2025-11-25");
    let base = json!({"query": "q", "tags": [], "weights": {}});
    let with = |key: &str, value: Value| {
        let mut arguments = base.clone();
        arguments[key] = value;
        arguments
    };
    let cases = [
        (
            json!({"tags": [], "weights": {}}),
            "invalid arguments: missing field `query`, expected a string",
        ),
        (
            with("limit", json!(-1)),
            "invalid arguments: `limit`: invalid value: integer `-1`, expected u32",
        ),
        (
            with("sortOrder", json!("random")),
            "invalid arguments: `sortOrder`: unknown variant `random`, expected `newest` or `oldest`",
        ),
        (
            with("order", json!("newest")),
            "invalid arguments: `order`: unknown field `order`, expected one of `query`, `limit`, `sortOrder`, `window`, `tags`, `weights`",
        ),
        (
            with("window", json!({"from": 1})),
            "invalid arguments: `window`: missing field `to`, expected an integer",
        ),
        (
            with("tags", json!(["a", 2])),
            "invalid arguments: `tags[1]`: invalid type: integer `2`, expected a string",
        ),
        (
            with("weights", json!({"x": "heavy"})),
            "invalid arguments: `weights.x`: invalid type: string \"heavy\", expected f64",
        ),
    ];
    for (arguments, expected) in cases {
        let answer = server.client.call("search", arguments);
        assert_eq!(answer["result"]["isError"], true);
        assert_eq!(text(&answer), expected);
    }
    let answer = server
        .client
        .call("book", json!({"city": "Porto", "nihgts": 2}));
    assert_eq!(text(&answer), "invalid arguments: unknown field `nihgts`");
    server.finish().unwrap();
}

#[test]
fn before_2025_11_25_binding_errors_are_protocol_errors() {
    let mut server = start("2025-06-18");
    let answer = server.client.call("book", json!({}));
    assert_eq!(
        answer["error"],
        json!({"code": -32602, "message": "invalid arguments: missing field `city`, expected a string"})
    );
    server.finish().unwrap();
}

#[test]
fn descriptions_and_titles_from_constants() {
    let mut server = start("2025-11-25");
    let list = server.client.request("tools/list", json!({}));
    let tool = common::tool(&list, "git_status");
    assert_eq!(tool["description"], "Shows the working tree status.");
    assert_eq!(tool["title"], "Git status");
    let properties = &tool["inputSchema"]["properties"];
    assert_eq!(
        properties["repo"]["description"],
        "The repository to work on."
    );
    assert_eq!(
        properties["untracked"]["description"],
        "Show untracked files."
    );
    server.finish().unwrap();
}
