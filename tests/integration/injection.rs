//! Injected parameters: the request context, progress, cancellation, shared state and custom
//! injectable types, and the guarantee that a client can never bind one.

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use common::InProcess;
use serde_json::{Value, json};
use toolwright::context::Requirements;
use toolwright::prelude::*;
use toolwright::{Era, ProtocolVersion};

/// Makes two calls wait for each other.
struct Rendezvous(tokio::sync::Barrier);

/// Reports the capabilities of the request it serves, once another call is in flight too.
#[mcp_tool]
async fn capabilities(ctx: &Context, rendezvous: State<Rendezvous>) -> String {
    rendezvous.0.wait().await;
    let era = match ctx.era() {
        Era::Legacy => "legacy",
        Era::Modern => "modern",
    };
    format!(
        "{era} {} {} {}",
        ctx.protocol_version(),
        ctx.client_info().map_or("?", |c| c.name.as_str()),
        ctx.client_capabilities()["extensions"]
    )
}

/// Says who is asking.
#[mcp_tool]
fn whoami(ctx: Context) -> String {
    format!(
        "{} {}",
        ctx.request_id(),
        ctx.client_info().map_or("?", |c| c.name.as_str())
    )
}

fn modern_meta(client: &str, extensions: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"extensions": extensions}
    })
}

fn server() -> Server {
    Server::new("injection-test", "1")
        .tool::<capabilities>()
        .tool::<whoami>()
        .tool::<wait_for_cancel>()
        .tool::<spin_until_cancelled>()
        .tool::<was_cancelled>()
        .tool::<count>()
        .tool::<query>()
        .tool::<chatty>()
        .tool::<named_logs>()
        .tool::<session>()
        .state(Rendezvous(tokio::sync::Barrier::new(2)))
        .state(Flag::default())
        .state(Pool(AtomicU32::new(0)))
}

#[test]
fn each_request_reads_its_own_capabilities() {
    let mut server = InProcess::start(server());
    let call = |id: u32, client: &str, extension: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "capabilities", "arguments": {},
            "_meta": modern_meta(client, json!({extension: {}}))
        }})
    };
    // Both calls are inside the tool at once: neither can finish before the other arrived.
    server.client.send(&call(1, "first", "x.example/one"));
    server.client.send(&call(2, "second", "x.example/two"));
    let mut answers: Vec<Value> = (0..2).map(|_| server.client.recv()).collect();
    answers.sort_by_key(|a| a["id"].as_i64());
    assert_eq!(
        answers[0]["result"]["content"][0]["text"],
        r#"modern 2026-07-28 first {"x.example/one":{}}"#
    );
    assert_eq!(
        answers[1]["result"]["content"][0]["text"],
        r#"modern 2026-07-28 second {"x.example/two":{}}"#
    );
    server.finish().unwrap();
}

#[test]
fn legacy_requests_read_the_handshake() {
    let mut server = InProcess::start(server());
    server.client.send(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"extensions": {"x.example/legacy": {}}},
            "clientInfo": {"name": "handshaker", "version": "2"}
        }}),
    );
    server.client.recv();
    let answer = server.client.call("whoami", json!({}));
    assert_eq!(
        answer["result"]["content"][0]["text"],
        format!("{} handshaker", answer["id"])
    );
    server.finish().unwrap();
}

/// Whether the last `wait_for_cancel` saw its cancellation.
#[derive(Default)]
struct Flag(AtomicBool);

/// Waits until the client cancels the request.
#[mcp_tool]
async fn wait_for_cancel(cancel: Cancellation, flag: State<Flag>) -> String {
    cancel.cancelled().await;
    flag.0.store(true, Ordering::SeqCst);
    "this answer is never sent".into()
}

/// Spins on a blocking thread until cancelled.
#[mcp_tool]
fn spin_until_cancelled(cancel: Cancellation) -> String {
    while !cancel.is_cancelled() {
        std::thread::sleep(Duration::from_millis(5));
    }
    "cancelled".into()
}

/// Reads the flag.
#[mcp_tool]
fn was_cancelled(flag: State<Flag>) -> bool {
    flag.0.load(Ordering::SeqCst)
}

#[test]
fn cancellation_fires_and_no_response_is_sent() {
    let mut server = InProcess::start(server());
    server.client.initialize("2025-11-25");
    for tool in ["wait_for_cancel", "spin_until_cancelled"] {
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": "c", "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}));
        std::thread::sleep(Duration::from_millis(100));
        server.client.send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "c", "reason": "the user changed their mind"}}),
        );
        server.client.expect_silence(Duration::from_millis(300));
    }
    let answer = server.client.call("was_cancelled", json!({}));
    assert_eq!(answer["result"]["content"][0]["text"], "true");
    // Cancelling an id that is unknown, or already answered, changes nothing.
    server.client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": answer["id"]}}),
    );
    server.client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 123456}}),
    );
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    // The id of a cancelled request is free again.
    server
        .client
        .send(&json!({"jsonrpc": "2.0", "id": "c", "method": "tools/call",
        "params": {"name": "was_cancelled", "arguments": {}}}));
    assert_eq!(server.client.recv()["id"], "c");
    server.finish().unwrap();
}

/// Counts to five, reporting progress with repeats and a step back.
#[mcp_tool]
async fn count(progress: Progress) -> String {
    for value in [0.0, 1.0, 1.0, 2.0, 1.5, 3.0, 4.0, 5.0] {
        progress.report(value, Some(5.0), Some(&format!("at {value}")));
    }
    "done".into()
}

/// Collects the notifications before the response to request `id`.
fn collect_until_response(server: &mut InProcess, id: i64) -> (Vec<Value>, Value) {
    let mut notifications = Vec::new();
    loop {
        let message = server.client.recv();
        if message["id"] == id {
            return (notifications, message);
        }
        notifications.push(message);
    }
}

#[test]
fn progress_is_strictly_increasing_and_precedes_the_response() {
    for (version, with_message) in [("2025-11-25", true), ("2024-11-05", false)] {
        let mut server = InProcess::start(server());
        server.client.initialize(version);
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": "count", "arguments": {}, "_meta": {"progressToken": "tok"}}}));
        let (notifications, response) = collect_until_response(&mut server, 7);
        assert_eq!(response["result"]["content"][0]["text"], "done");
        let values: Vec<f64> = notifications
            .iter()
            .map(|n| {
                assert_eq!(n["method"], "notifications/progress");
                assert_eq!(n["params"]["progressToken"], "tok");
                assert_eq!(n["params"]["total"], 5.0);
                assert_eq!(
                    n["params"].get("message").is_some(),
                    with_message,
                    "{version}"
                );
                n["params"]["progress"].as_f64().unwrap()
            })
            .collect();
        assert_eq!(values, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "{version}");

        // Without a token, no notification at all.
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
            "params": {"name": "count", "arguments": {}}}));
        let (notifications, _) = collect_until_response(&mut server, 8);
        assert!(notifications.is_empty());
        server.finish().unwrap();
    }
}

/// A pool of connections, shared state for the custom injectable below.
struct Pool(AtomicU32);

/// A connection taken from the pool for one call.
struct Conn(u32);

impl Inject for Conn {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        let pool = cx
            .state::<Pool>()
            .ok_or_else(|| ToolOutput::internal("no pool"))?;
        Ok(Conn(pool.0.fetch_add(1, Ordering::SeqCst) + 1))
    }

    fn require(requirements: &mut Requirements) {
        requirements.state::<Pool>();
    }
}

/// Uses a connection.
#[mcp_tool]
fn query(#[inject] conn: Conn, sql: String) -> String {
    format!("connection {} ran {sql}", conn.0)
}

#[test]
fn custom_injectables_and_no_spoofing() {
    let mut server = InProcess::start(server());
    server.client.initialize("2025-11-25");
    let answer = server.client.call("query", json!({"sql": "select 1"}));
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "connection 1 ran select 1"
    );
    let answer = server.client.call("query", json!({"sql": "select 2"}));
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "connection 2 ran select 2"
    );

    // Injected parameters are not arguments: naming one is an unknown field.
    let list = server.client.request("tools/list", json!({}));
    let query = common::tool(&list, "query");
    assert_eq!(
        query["inputSchema"]["properties"],
        json!({"sql": {"type": "string"}})
    );
    for (tool, arguments) in [
        ("query", json!({"sql": "x", "conn": 99})),
        ("whoami", json!({"ctx": {"request_id": 1}})),
        ("count", json!({"progress": 1})),
    ] {
        let answer = server.client.call(tool, arguments);
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("invalid arguments: ") && text.contains("unknown field"),
            "{text}"
        );
    }
    server.finish().unwrap();
}

#[test]
fn missing_state_is_reported_at_start() {
    let error = common::start_error(Server::new("no-state", "1").tool::<was_cancelled>());
    assert!(
        error.starts_with("tool `was_cancelled` (at tests/integration/injection.rs:"),
        "{error}"
    );
    assert!(
        error.ends_with("takes a `State<integration::injection::Flag>`, but no state of that type was registered; add it with `.state(...)` on the server"),
        "{error}"
    );
    let error = common::start_error(Server::new("no-pool", "1").tool::<query>());
    assert!(
        error.contains("`State<integration::injection::Pool>`"),
        "{error}"
    );
}

/// Logs at every level it can.
#[mcp_tool]
fn chatty(log: Log) -> String {
    log.debug("debug");
    log.info("info");
    log.warning("warning");
    log.error("error");
    "said it all".into()
}

fn messages_of(server: &mut InProcess, request: Value) -> Vec<String> {
    let id = request["id"].as_i64().unwrap();
    server.client.send(&request);
    let (notifications, response) = collect_until_response(server, id);
    assert_eq!(response["result"]["content"][0]["text"], "said it all");
    notifications
        .iter()
        .map(|n| {
            assert_eq!(n["method"], "notifications/message");
            assert_eq!(n["params"]["logger"], "chatty");
            assert_eq!(n["params"]["level"], n["params"]["data"]);
            n["params"]["level"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn log_messages_at_the_level_the_client_asked_for() {
    let call = |id: i64, meta: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "chatty", "arguments": {}, "_meta": meta}})
    };
    let mut server = InProcess::start(server());
    server.client.initialize("2025-11-25");
    // A handshake session gets info and above until it says otherwise.
    assert_eq!(
        messages_of(&mut server, call(1, json!({}))),
        ["info", "warning", "error"]
    );
    let set = server
        .client
        .request("logging/setLevel", json!({"level": "warning"}));
    assert_eq!(set["result"], json!({}));
    assert_eq!(
        messages_of(&mut server, call(2, json!({}))),
        ["warning", "error"]
    );
    let bad = server
        .client
        .request("logging/setLevel", json!({"level": "loud"}));
    assert_eq!(bad["error"]["code"], -32602);

    // A 2026-07-28 request gets messages only when it names a level.
    let mut meta = modern_meta("modern", json!({}));
    assert!(messages_of(&mut server, call(3, meta.clone())).is_empty());
    meta["io.modelcontextprotocol/logLevel"] = json!("debug");
    assert_eq!(
        messages_of(&mut server, call(4, meta)),
        ["debug", "info", "warning", "error"]
    );
    server.finish().unwrap();
}

/// Logs as `db`, then as no one.
#[mcp_tool]
fn named_logs(log: Log) -> &'static str {
    log.clone().logger("db").info("from db");
    log.without_logger().info("from no one");
    "logged"
}

/// The session the request came in, if any.
#[mcp_tool]
fn session(cx: Context) -> String {
    cx.session_id().unwrap_or("none").to_owned()
}

#[test]
fn a_log_names_the_logger_its_author_chose_or_none() {
    let mut server = InProcess::start(server());
    server.client.initialize("2025-11-25");
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "named_logs", "arguments": {}}});
    server.client.send(&request);
    let (notifications, _) = collect_until_response(&mut server, 1);
    assert_eq!(notifications.len(), 2, "{notifications:?}");
    assert_eq!(notifications[0]["params"]["logger"], "db");
    assert_eq!(notifications[0]["params"]["data"], "from db");
    assert!(
        notifications[1]["params"].get("logger").is_none(),
        "{}",
        notifications[1]
    );
    server.finish().unwrap();
}

#[test]
fn a_call_knows_its_session_only_where_there_is_one() {
    // In process (and over stdio) the connection is the session: no id.
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = toolwright::testing::Client::connect(server(), revision).unwrap();
        assert_eq!(client.call("session", json!({})).unwrap().text(), "none");
    }
}

#[cfg(feature = "http")]
#[test]
fn over_http_a_call_knows_its_mcp_session_id() {
    use crate::common::http::Endpoint;
    let endpoint = Endpoint::start(server());
    let id = endpoint.initialize("2025-11-25");
    let call = json!({"name": "session", "arguments": {}});
    let answer = endpoint
        .in_session(&id, "2025-11-25", 2, "tools/call", call.clone())
        .send()
        .answer();
    assert_eq!(
        answer["result"]["content"][0]["text"],
        id.as_str(),
        "{answer}"
    );
    // A 2026-07-28 request belongs to no session.
    let answer = endpoint.modern(3, "tools/call", call).send().answer();
    assert_eq!(answer["result"]["content"][0]["text"], "none", "{answer}");
}
