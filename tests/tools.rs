//! Tool behaviour through a real connection: return kinds, errors and their masking, panics,
//! concurrency, discovery and explicit registration.

mod common;

use std::time::{Duration, Instant};

use common::InProcess;
use serde::Serialize;
use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::tools::ToolOrder;

/// Sleeps on the calling thread, like a tool that does blocking I/O.
#[mcp_tool]
fn block_for(millis: u64) -> String {
    std::thread::sleep(Duration::from_millis(millis));
    format!("blocked {millis} ms")
}

/// Waits without blocking a thread.
#[mcp_tool]
async fn wait_for(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("waited {millis} ms")
}

/// Panics with a secret.
#[mcp_tool]
fn explode() -> String {
    panic!("secret: the database password is hunter2")
}

/// Panics inside a future.
#[mcp_tool]
async fn explode_later() -> String {
    tokio::task::yield_now().await;
    panic!("secret: async panic")
}

/// Fails with an error the author did not write for the client.
#[mcp_tool]
fn io_failure() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("secret: /etc/shadow unreadable"))
}

/// Fails with a message meant for the client.
#[mcp_tool]
fn refuse(reason: String) -> Result<(), String> {
    Err(reason)
}

/// Returns nothing.
#[mcp_tool]
fn nothing() {}

/// Reads, as the official servers describe their read-only tools: all four hints.
#[mcp_tool(read_only, destructive = false, idempotent, open_world = false)]
fn read_log() -> String {
    "log".into()
}

/// A return type that promises structured output and breaks the promise.
struct Promised;

impl IntoToolOutput for Promised {
    fn output_schema(generator: &mut schemars::SchemaGenerator) -> Option<schemars::Schema> {
        Some(generator.subschema_for::<Pair>())
    }

    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::text("forgot the structured value")
    }
}

/// Declares an output schema and returns no structured content.
#[mcp_tool]
fn broken_promise() -> Promised {
    Promised
}

#[derive(Serialize, schemars::JsonSchema)]
struct Pair {
    left: i32,
    right: i32,
}

/// Returns a structured pair.
#[mcp_tool(
    name = "make.pair",
    title = "Make a pair",
    destructive = false,
    idempotent
)]
fn make_pair(left: i32, right: Option<i32>) -> Pair {
    Pair {
        left,
        right: right.unwrap_or(left),
    }
}

/// Returns a string as structured output.
#[mcp_tool]
fn quoted() -> Json<String> {
    Json("hi".into())
}

fn all_tools() -> Server {
    Server::new("tools-test", "0.0.1").discover()
}

fn text(response: &Value) -> &str {
    response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{response}"))
}

#[test]
fn return_kinds() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    assert_eq!(
        server.client.call("nothing", json!({}))["result"],
        json!({"content": []})
    );
    assert_eq!(
        server.client.call("make.pair", json!({"left": 3}))["result"],
        json!({
            "content": [{"type": "text", "text": "{\"left\":3,\"right\":3}"}],
            "structuredContent": {"left": 3, "right": 3}
        })
    );
    // `Json<String>` is structured, but its schema is not an object: before 2026-07-28 it
    // travels wrapped.
    assert_eq!(
        server.client.call("quoted", json!({}))["result"],
        json!({"content": [{"type": "text", "text": "\"hi\""}], "structuredContent": {"result": "hi"}})
    );
    server.finish().unwrap();
}

#[test]
fn tool_metadata() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    let list = server.client.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "tools/list is sorted by name");
    let pair = tools.iter().find(|t| t["name"] == "make.pair").unwrap();
    assert_eq!(pair["title"], "Make a pair");
    assert_eq!(
        pair["annotations"],
        json!({"destructiveHint": false, "idempotentHint": true})
    );
    assert_eq!(pair["inputSchema"]["required"], json!(["left"]));
    assert_eq!(pair["outputSchema"]["required"], json!(["left", "right"]));
    let quoted = tools.iter().find(|t| t["name"] == "quoted").unwrap();
    assert_eq!(
        quoted["outputSchema"],
        json!({"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]})
    );
    assert!(quoted.get("annotations").is_none());
    server.finish().unwrap();
}

#[test]
fn panics_and_internal_errors_are_masked() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    for tool in ["explode", "explode_later", "io_failure"] {
        let response = server.client.call(tool, json!({}));
        assert_eq!(response["result"]["isError"], true, "{response}");
        let message = text(&response);
        assert!(message.starts_with("internal error (ref "), "{message}");
        assert!(!message.contains("secret"), "{message}");
    }
    // The server is still serving.
    assert_eq!(
        text(&server.client.call("refuse", json!({"reason": "no"}))),
        "no"
    );
    server.finish().unwrap();
}

#[test]
fn internal_errors_can_be_shown_during_development() {
    let mut server = InProcess::start(all_tools().expose_internal_errors(true));
    server.client.initialize("2025-11-25");
    let message = text(&server.client.call("io_failure", json!({}))).to_owned();
    assert!(
        message.ends_with("secret: /etc/shadow unreadable"),
        "{message}"
    );
    let message = text(&server.client.call("explode", json!({}))).to_owned();
    assert!(
        message.ends_with("panicked: secret: the database password is hunter2"),
        "{message}"
    );
    server.finish().unwrap();
}

#[test]
fn hints_that_agree_are_all_sent() {
    for revision in ["2025-03-26", "2025-11-25", "2026-07-28"] {
        let mut server = InProcess::start(all_tools());
        server.client.open(revision);
        let list = server.client.ask("tools/list", json!({}));
        assert_eq!(
            common::tool(&list, "read_log")["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            "{revision}"
        );
        server.finish().unwrap();
    }
}

#[test]
fn a_declared_output_schema_without_structured_content_is_caught() {
    for revision in ["2025-03-26", "2025-11-25", "2026-07-28"] {
        let mut server = InProcess::start(all_tools().expose_internal_errors(true));
        server.client.open(revision);
        let answer = server.client.ask(
            "tools/call",
            json!({"name": "broken_promise", "arguments": {}}),
        );
        assert_eq!(answer["result"]["isError"], true, "{revision}: {answer}");
        assert!(answer["result"].get("structuredContent").is_none());
        let message = text(&answer);
        assert!(
            message.contains("declares an output schema but returned no structured content"),
            "{revision}: {message}"
        );
        server.finish().unwrap();
    }
}

#[test]
fn chosen_error_messages_are_verbatim() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-06-18");
    let response = server
        .client
        .call("refuse", json!({"reason": "the city is unknown"}));
    assert_eq!(
        response["result"],
        json!({"content": [{"type": "text", "text": "the city is unknown"}], "isError": true})
    );
    server.finish().unwrap();
}

#[test]
fn a_blocking_tool_stalls_nothing_else() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    server.client.send(
        &json!({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
        "params": {"name": "block_for", "arguments": {"millis": 1500}}}),
    );
    let start = Instant::now();
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    assert_eq!(
        text(&server.client.call("wait_for", json!({"millis": 1}))),
        "waited 1 ms"
    );
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "answers waited for the blocking tool"
    );
    let slow = server.client.recv();
    assert_eq!(slow["id"], "slow");
    assert_eq!(text(&slow), "blocked 1500 ms");
    server.finish().unwrap();
}

/// Sends `count` calls of `tool` taking 400 ms each, with ids 0 to `count - 1`.
fn start_calls(client: &mut common::Client, tool: &str, count: i64) {
    for id in 0..count {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {"millis": 400}}}));
    }
}

/// Waits for the answers to the calls `start_calls` sent, in any order.
fn expect_answers(client: &mut common::Client, count: i64) {
    let mut ids: Vec<i64> = (0..count)
        .map(|_| client.recv()["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..count).collect::<Vec<_>>());
}

#[test]
fn blocking_calls_overlap() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    let start = Instant::now();
    start_calls(&mut server.client, "block_for", 20);
    // Sync calls share a few threads while they are quick; these are not, so each gets its own
    // and a quick call behind them is not held up.
    assert_eq!(
        text(&server.client.call("block_for", json!({"millis": 0}))),
        "blocked 0 ms"
    );
    assert!(
        start.elapsed() < Duration::from_millis(400),
        "a quick call waited {:?} behind slow ones",
        start.elapsed()
    );
    expect_answers(&mut server.client, 20);
    // On one thread per core, twenty calls would take 4 s on two cores.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
    server.finish().unwrap();
}

#[test]
fn async_calls_overlap() {
    let mut server = InProcess::start(all_tools());
    server.client.initialize("2025-11-25");
    let start = Instant::now();
    start_calls(&mut server.client, "wait_for", 20);
    expect_answers(&mut server.client, 20);
    // Run one after another, twenty calls would take 8 s.
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "took {:?}",
        start.elapsed()
    );
    server.finish().unwrap();
}

#[test]
fn explicit_registration_serves_only_the_chosen_tools() {
    let server = Server::new("subset", "1")
        .tool::<nothing>()
        .tool::<make_pair>();
    let mut server = InProcess::start(server);
    server.client.initialize("2025-11-25");
    let list = server.client.request("tools/list", json!({}));
    let names = common::tool_names(&list);
    assert_eq!(names, ["make.pair", "nothing"]);
    server.finish().unwrap();
}

#[test]
fn the_list_is_alphabetical_unless_the_author_asks_for_registration_order() {
    let list_of = |server: Server| {
        let mut server = InProcess::start(server);
        server.client.initialize("2025-11-25");
        let list = server.client.request("tools/list", json!({}));
        let names: Vec<String> = common::tool_names(&list)
            .into_iter()
            .map(str::to_owned)
            .collect();
        server.finish().unwrap();
        names
    };
    let chosen = || {
        Server::new("order", "1")
            .tool::<refuse>()
            .tool::<block_for>()
    };
    assert_eq!(list_of(chosen()), ["block_for", "refuse"]);
    assert_eq!(
        list_of(chosen().tool_order(ToolOrder::Registration)),
        ["refuse", "block_for"]
    );
    // `discover` contributes its tools in the order they are defined in the source.
    let discovered = list_of(all_tools().tool_order(ToolOrder::Registration));
    assert_eq!(
        discovered[..4],
        ["block_for", "wait_for", "explode", "explode_later"]
    );
    let mut sorted = discovered.clone();
    sorted.sort();
    assert_eq!(list_of(all_tools()), sorted);
}

#[test]
fn registering_a_tool_twice_is_not_a_clash() {
    let server = Server::new("twice", "1").discover().tool::<nothing>();
    let mut server = InProcess::start(server);
    server.client.initialize("2025-11-25");
    assert_eq!(
        server.client.call("nothing", json!({}))["result"],
        json!({"content": []})
    );
    server.finish().unwrap();
}

#[test]
fn calls_beyond_the_cap_are_refused_not_queued() {
    let mut server = InProcess::start(all_tools().max_in_flight(2));
    server.client.initialize("2025-11-25");
    for id in 0..3 {
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "wait_for", "arguments": {"millis": 500}}}));
    }
    // The third is refused at once, before the first two finish.
    let refused = server.client.recv();
    assert_eq!(refused["id"], 2);
    assert_eq!(refused["error"]["code"], -32603);
    assert_eq!(
        refused["error"]["message"],
        "Internal error: 2 calls are already running, the most this server runs at once; retry when one has finished"
    );
    let mut done: Vec<i64> = (0..2)
        .map(|_| server.client.recv()["id"].as_i64().unwrap())
        .collect();
    done.sort_unstable();
    assert_eq!(done, [0, 1]);
    // Room again.
    assert_eq!(
        text(&server.client.call("wait_for", json!({"millis": 1}))),
        "waited 1 ms"
    );
    server.finish().unwrap();
}
