//! Streamable HTTP over real TCP: 2026-07-28 requests standing alone, handshake-era sessions,
//! streams, cancellation, header arguments, masking and shutdown.
#![cfg(feature = "http")]

use crate::common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::TIMEOUT;
use common::http::{Endpoint, Request};
use serde_json::{Value, json};
use toolwright::Server;
use toolwright::http::Http;
use toolwright::prelude::*;

/// Whether a call saw its cancellation, and how many calls finished.
#[derive(Default)]
struct Flags {
    cancelled: AtomicBool,
    finished: AtomicUsize,
}

/// Echoes the text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Reports progress twice, then answers.
#[mcp_tool]
async fn steps(progress: Progress) -> &'static str {
    progress.report(1.0, Some(2.0), Some("one"));
    tokio::time::sleep(Duration::from_millis(20)).await;
    progress.report(2.0, Some(2.0), Some("two"));
    "done"
}

/// Waits until cancelled.
#[mcp_tool]
async fn wait_for_cancel(cancel: Cancellation, flags: State<Flags>) -> &'static str {
    cancel.cancelled().await;
    flags.cancelled.store(true, Ordering::SeqCst);
    "cancelled"
}

/// Sleeps a while, then answers.
#[mcp_tool]
async fn nap(millis: u64, flags: State<Flags>) -> &'static str {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    flags.finished.fetch_add(1, Ordering::SeqCst);
    "rested"
}

/// Runs a query in a region.
#[mcp_tool]
fn regional(
    #[arg(header = "Region")] region: String,
    #[arg(header = "Dry-Run")] dry_run: Option<bool>,
    #[arg(header = "Limit")] limit: Option<u32>,
    query: String,
) -> String {
    format!("{query} in {region}, dry run {dry_run:?}, limit {limit:?}")
}

/// Panics with a secret.
#[mcp_tool]
fn explode() -> String {
    panic!("the database password is hunter2")
}

fn server() -> Server {
    Server::new("http-test", "1")
        .tool::<echo>()
        .tool::<steps>()
        .tool::<wait_for_cancel>()
        .tool::<nap>()
        .tool::<regional>()
        .tool::<explode>()
        .tool::<was_cancelled>()
        .tool::<pause>()
        .tool::<lookup>()
        .state(Flags::default())
        .shutdown_grace(Duration::from_millis(300))
}

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {answer}"))
}

/// Waits until `condition` holds.
fn eventually(what: &str, condition: impl Fn() -> bool) {
    let start = Instant::now();
    while !condition() {
        assert!(start.elapsed() < TIMEOUT, "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_2026_request_stands_alone() {
    let endpoint = Endpoint::start(server());
    let reply = endpoint
        .modern(
            1,
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "hi"}}),
        )
        .send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("mcp-session-id"), None);
    let answer = reply.json();
    assert_eq!(answer["id"], 1);
    assert_eq!(text(&answer), "hi");

    let list = endpoint.modern(2, "tools/list", json!({})).send().json();
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"regional") && names.contains(&"steps"),
        "{names:?}"
    );
    let regional = &list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "regional")
        .unwrap()["inputSchema"];
    assert_eq!(regional["properties"]["region"]["x-mcp-header"], "Region");
}

#[test]
fn a_2026_notification_is_accepted_and_get_and_delete_are_not_allowed() {
    let endpoint = Endpoint::start(server());
    let mut meta = json!({"_meta": common::modern_meta()});
    meta["requestId"] = json!(5);
    let reply = endpoint
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": meta}))
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "notifications/cancelled")
        .send();
    assert_eq!(reply.status, 202);
    assert!(reply.body.is_empty());
    for method in ["GET", "DELETE"] {
        let reply = Request::new(method, endpoint.addr)
            .header("Accept", "text/event-stream")
            .send();
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("allow"), Some("GET, POST, DELETE"));
        assert_eq!(reply.json()["error"]["code"], -32600);
    }
}

#[test]
fn progress_streams_before_the_result() {
    let endpoint = Endpoint::start(server());
    let reply = endpoint
        .modern(
            7,
            "tools/call",
            json!({"name": "steps", "arguments": {}, "_meta": {"progressToken": "p"}}),
        )
        .send();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let messages = reply.messages();
    assert_eq!(messages.len(), 3, "{messages:?}");
    for (n, message) in messages[..2].iter().enumerate() {
        assert_eq!(message["method"], "notifications/progress");
        assert_eq!(message["params"]["progressToken"], "p");
        assert_eq!(message["params"]["progress"], (n + 1) as f64);
    }
    assert_eq!(messages[2]["id"], 7);
    assert_eq!(text(&messages[2]), "done");
}

#[test]
fn a_client_that_accepts_only_json_gets_the_answer_alone() {
    let endpoint = Endpoint::start(server());
    let reply = endpoint
        .modern(
            8,
            "tools/call",
            json!({"name": "steps", "arguments": {}, "_meta": {"progressToken": "p"}}),
        )
        .header("Accept", "application/json")
        .send();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(text(&reply.json()), "done");
}

/// A client that accepts only event streams gets one, even for an answer that is ready at
/// once (a list, a quick call, an in-band error); a refusal with its own status stays JSON.
#[test]
fn a_client_that_accepts_only_events_gets_an_event_stream() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-11-25");
    let in_session = |id, method, params| {
        endpoint
            .in_session(&session, "2025-11-25", id, method, params)
            .header("Accept", "text/event-stream")
            .send()
    };
    let modern = |id, method, params| {
        endpoint
            .modern(id, method, params)
            .header("Accept", "text/event-stream")
            .send()
    };
    for reply in [
        in_session(1, "tools/list", json!({})),
        in_session(2, "ping", json!({})),
        in_session(3, "tools/call", json!({"name": "nope", "arguments": {}})),
        modern(4, "tools/list", json!({})),
    ] {
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(
            reply.header("content-type"),
            Some("text/event-stream"),
            "{}",
            reply.text()
        );
        assert!(reply.answer().get("id").is_some(), "{}", reply.text());
    }
    // The specification's own errors on 2026-07-28 have their status, and a JSON body.
    let refused = modern(5, "resources/list", json!({}));
    assert_eq!(refused.status, 404);
    assert_eq!(refused.header("content-type"), Some("application/json"));
}

/// A 2026-07-28 client that closes the response cancels the call.
#[test]
fn closing_a_2026_stream_cancels_the_call() {
    let endpoint = Endpoint::start(server());
    let open = endpoint
        .modern(
            9,
            "tools/call",
            json!({"name": "wait_for_cancel", "arguments": {}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    assert_eq!(open.status, 200);
    assert_eq!(open.header("content-type"), Some("text/event-stream"));
    drop(open);
    eventually("the call sees its cancellation", || cancelled(&endpoint));
}

/// Whether `wait_for_cancel` has seen a cancellation, asked of the server.
fn cancelled(endpoint: &Endpoint) -> bool {
    let reply = endpoint
        .modern(
            99,
            "tools/call",
            json!({"name": "was_cancelled", "arguments": {}}),
        )
        .send();
    text(&reply.json()) == "true"
}

/// Reads the cancellation flag.
#[mcp_tool]
fn was_cancelled(flags: State<Flags>) -> bool {
    flags.cancelled.load(Ordering::SeqCst)
}

/// In a session, closing the response does not cancel (the specification says so); the
/// client's `notifications/cancelled` does.
#[test]
fn closing_a_session_stream_leaves_the_call_running() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-11-25");
    let open = endpoint
        .in_session(
            &session,
            "2025-11-25",
            4,
            "tools/call",
            json!({"name": "wait_for_cancel", "arguments": {}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    assert_eq!(open.status, 200);
    drop(open);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !cancelled(&endpoint),
        "closing the stream cancelled the call"
    );
    let reply = endpoint
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}}))
        .session(&session, "2025-11-25")
        .send();
    assert_eq!(reply.status, 202);
    eventually("the call sees its cancellation", || cancelled(&endpoint));
}

#[test]
fn sessions_are_created_required_and_ended() {
    let endpoint = Endpoint::start(server());
    let first = endpoint.initialize("2025-06-18");
    let second = endpoint.initialize("2025-06-18");
    assert_ne!(first, second);
    // 128 bits or more of randomness, in visible ASCII.
    assert!(first.len() >= 32, "{first}");
    assert!(first.bytes().all(|b| (0x21..=0x7e).contains(&b)), "{first}");

    let call = |session: Option<&str>| {
        let request = endpoint.post(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "in session"}}}));
        match session {
            Some(session) => request.session(session, "2025-06-18").send(),
            None => request.header("MCP-Protocol-Version", "2025-06-18").send(),
        }
    };
    let reply = call(Some(&first));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("mcp-session-id"), Some(first.as_str()));
    assert_eq!(text(&reply.answer()), "in session");

    let missing = call(None);
    assert_eq!(missing.status, 400);
    assert_eq!(missing.json()["error"]["code"], -32600);
    assert_eq!(missing.json()["id"], 3);
    let unknown = call(Some("not-a-session"));
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json()["id"], 3);

    let ended = Request::new("DELETE", endpoint.addr)
        .header("Mcp-Session-Id", &first)
        .send();
    assert_eq!(ended.status, 200);
    assert_eq!(call(Some(&first)).status, 404);
    assert_eq!(
        call(Some(&second)).status,
        200,
        "the other session lives on"
    );
}

#[test]
fn idle_sessions_expire() {
    let http = Http::new().session_idle(Duration::from_millis(200));
    let endpoint = Endpoint::start_with(server(), http);
    let session = endpoint.initialize("2025-11-25");
    let ping = || {
        endpoint
            .in_session(&session, "2025-11-25", 1, "ping", json!({}))
            .send()
            .status
    };
    assert_eq!(ping(), 200);
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(ping(), 200, "a request keeps the session alive");
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(ping(), 404);

    // A session with a call in flight is in use, however long ago its last request came.
    let session = endpoint.initialize("2025-11-25");
    let mut call = endpoint
        .in_session(
            &session,
            "2025-11-25",
            2,
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 700}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    std::thread::sleep(Duration::from_millis(400));
    let ping = endpoint
        .in_session(&session, "2025-11-25", 3, "ping", json!({}))
        .send();
    assert_eq!(ping.status, 200, "the session expired under its call");
    assert_eq!(text(&call.next_message().expect("the answer")), "rested");
}

#[test]
fn sessions_are_capped() {
    let endpoint = Endpoint::start_with(server(), Http::new().max_sessions(2));
    endpoint.initialize("2025-03-26");
    let last = endpoint.initialize("2025-03-26");
    let refused = endpoint
        .post(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}),
        )
        .send();
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.json()["error"]["code"], -32600);
    let ended = Request::new("DELETE", endpoint.addr)
        .header("Mcp-Session-Id", &last)
        .send();
    assert_eq!(ended.status, 200);
    endpoint.initialize("2025-03-26");
}

#[test]
fn batches_where_the_revision_allows_them() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-03-26");
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "b"}}},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "x", "progress": 1}}
    ]);
    let reply = endpoint.post(&batch).session(&session, "2025-03-26").send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    let mut answers: Vec<Value> = reply
        .messages()
        .into_iter()
        .flat_map(|m| match m {
            Value::Array(items) => items,
            one => vec![one],
        })
        .collect();
    answers.sort_by_key(|a| a["id"].as_i64());
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["result"], json!({}));
    assert_eq!(text(&answers[1]), "b");

    let session = endpoint.initialize("2025-06-18");
    let reply = endpoint.post(&batch).session(&session, "2025-06-18").send();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["error"]["code"], -32600, "{}", reply.text());
}

#[test]
fn the_get_stream_opens_once_per_session() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-11-25");
    let get = || {
        Request::new("GET", endpoint.addr)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", &session)
            .header("MCP-Protocol-Version", "2025-11-25")
    };
    let first = get().open();
    assert_eq!(first.status, 200);
    assert_eq!(first.header("content-type"), Some("text/event-stream"));
    let second = get().send();
    assert_eq!(second.status, 409, "{}", second.text());
    let json_only = get().header("Accept", "application/json").send();
    assert_eq!(json_only.status, 406);
    drop(first);
}

fn regional_request(endpoint: &Endpoint, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut request = endpoint.modern(
        11,
        "tools/call",
        json!({"name": "regional", "arguments": {
            "region": "eu-west-1", "dry_run": true, "limit": 5, "query": "SELECT 1"}}),
    );
    for (name, value) in headers {
        request = if value.is_empty() {
            request.without(name)
        } else {
            request.header(name, value)
        };
    }
    let reply = request.send();
    (reply.status, reply.json())
}

#[test]
fn header_arguments_are_checked_against_the_body() {
    let endpoint = Endpoint::start(server());
    let good = [
        ("Mcp-Param-Region", "eu-west-1"),
        ("Mcp-Param-Dry-Run", "true"),
        ("Mcp-Param-Limit", "5"),
    ];
    let (status, answer) = regional_request(&endpoint, &good);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        text(&answer),
        "SELECT 1 in eu-west-1, dry run Some(true), limit Some(5)"
    );
    // The base64 form carries any value ("eu-west-1").
    let encoded = [
        ("Mcp-Param-Region", "=?base64?ZXUtd2VzdC0x?="),
        ("Mcp-Param-Dry-Run", "true"),
        ("Mcp-Param-Limit", "5"),
    ];
    assert_eq!(regional_request(&endpoint, &encoded).0, 200);

    let refused = [
        ("a missing header", ("Mcp-Param-Region", "")),
        ("another value", ("Mcp-Param-Region", "us-east-1")),
        ("another number", ("Mcp-Param-Limit", "6")),
        ("another boolean", ("Mcp-Param-Dry-Run", "false")),
        (
            "invalid base64",
            ("Mcp-Param-Region", "=?base64?not base64!?="),
        ),
        ("another tool name", ("Mcp-Name", "echo")),
        ("another method", ("Mcp-Method", "tools/list")),
        ("no method", ("Mcp-Method", "")),
    ];
    for (what, header) in refused {
        let mut headers = good.to_vec();
        headers.retain(|(n, _)| *n != header.0);
        headers.push(header);
        let (status, answer) = regional_request(&endpoint, &headers);
        assert_eq!(status, 400, "{what}: {answer}");
        assert_eq!(answer["error"]["code"], -32020, "{what}: {answer}");
        assert_eq!(answer["id"], 11, "{what}");
    }
}

#[test]
fn panics_are_masked_as_on_stdio() {
    let endpoint = Endpoint::start(server());
    let answer = endpoint
        .modern(1, "tools/call", json!({"name": "explode", "arguments": {}}))
        .send()
        .json();
    assert_eq!(answer["result"]["isError"], true);
    let message = text(&answer);
    assert!(message.starts_with("internal error (ref "), "{message}");
    assert!(!message.contains("hunter2"));
    let session = endpoint.initialize("2025-06-18");
    let answer = endpoint
        .in_session(
            &session,
            "2025-06-18",
            2,
            "tools/call",
            json!({"name": "explode", "arguments": {}}),
        )
        .send()
        .answer();
    assert!(
        text(&answer).starts_with("internal error (ref "),
        "{answer}"
    );
}

#[test]
fn other_paths_are_not_found() {
    let endpoint = Endpoint::start(server());
    let reply = endpoint
        .modern(1, "tools/list", json!({}))
        .target("/other")
        .send();
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json()["error"]["message"],
        "Not Found: the MCP endpoint is /mcp"
    );
}

/// Shutting down lets calls in flight finish within the grace period, cancels the rest, and
/// returns.
#[test]
fn graceful_shutdown() {
    let endpoint = Endpoint::start(server());
    let short = endpoint
        .modern(
            1,
            "tools/call",
            json!({"name": "nap", "arguments": {"millis": 100}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    let long = endpoint
        .modern(
            2,
            "tools/call",
            json!({"name": "wait_for_cancel", "arguments": {}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    let addr = endpoint.addr;
    let stopped = std::thread::spawn(move || endpoint.stop());
    let mut short = short;
    let answer = short.next_message().expect("the short call's answer");
    assert_eq!(text(&answer), "rested");
    let mut long = long;
    // The long call is cancelled: its stream ends without an answer.
    assert_eq!(long.next_message(), None);
    stopped.join().unwrap().expect("serve returns Ok");
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "the listener is closed"
    );
}

/// `subscriptions/listen` is a stream: acknowledged at once, open until the server ends it
/// (here, by shutting down) with its result.
#[test]
fn a_listen_stream_stays_open_until_shutdown() {
    let endpoint = Endpoint::start(server());
    let mut listen = endpoint
        .modern(
            21,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
        .open();
    assert_eq!(listen.status, 200);
    assert_eq!(listen.header("content-type"), Some("text/event-stream"));
    let ack = listen.next_message().expect("the acknowledgement");
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        21
    );
    // Other requests are served meanwhile.
    let list = endpoint.modern(22, "tools/list", json!({})).send();
    assert_eq!(list.status, 200);
    let stopped = std::thread::spawn(move || endpoint.stop());
    let result = listen.next_message().expect("the listen's result");
    assert_eq!(result["id"], 21);
    assert_eq!(result["result"]["resultType"], "complete");
    assert_eq!(listen.next_message(), None, "the stream ends");
    stopped.join().unwrap().unwrap();
}

/// Lets go of the client's connection, then answers.
#[mcp_tool]
async fn pause(ctx: &Context) -> &'static str {
    ctx.close_stream();
    tokio::time::sleep(Duration::from_millis(100)).await;
    "resumed"
}

/// From 2025-11-25 on, a stream's events have ids: a client whose stream was closed resumes it
/// with `Last-Event-ID` and gets the rest.
#[test]
fn a_closed_stream_is_resumed() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-11-25");
    let mut first = endpoint
        .in_session(
            &session,
            "2025-11-25",
            5,
            "tools/call",
            json!({"name": "pause", "arguments": {}}),
        )
        .header("Accept", "text/event-stream")
        .open();
    assert_eq!(first.status, 200);
    assert_eq!(first.next_message(), None, "the server closes the stream");
    let last = first.last_id.clone().expect("the priming event has an id");
    let mut resumed = Request::new("GET", endpoint.addr)
        .header("Accept", "text/event-stream")
        .session(&session, "2025-11-25")
        .header("Last-Event-ID", &last)
        .open();
    assert_eq!(resumed.status, 200);
    let answer = resumed
        .next_message()
        .expect("the answer, on the resumed stream");
    assert_eq!(answer["id"], 5);
    assert_eq!(text(&answer), "resumed");
}

/// Extra headers of a request.
type Headers = &'static [(&'static str, &'static str)];

/// Two instances of one server, one client's 2026-07-28 requests sent to each in turn: every
/// answer is the one a single instance gives (nothing depends on an earlier request).
#[test]
fn two_instances_serve_one_client() {
    let replicas = [Endpoint::start(server()), Endpoint::start(server())];
    let single = Endpoint::start(server());
    let requests: Vec<(&str, Value, Headers)> = vec![
        ("server/discover", json!({}), &[]),
        ("tools/list", json!({}), &[]),
        (
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "one"}}),
            &[],
        ),
        (
            "tools/call",
            json!({"name": "regional", "arguments": {"region": "eu", "query": "q"}}),
            &[("Mcp-Param-Region", "eu")],
        ),
        (
            "tools/call",
            json!({"name": "steps", "arguments": {}, "_meta": {"progressToken": 1}}),
            &[],
        ),
        (
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "two"}}),
            &[],
        ),
        ("tools/call", json!({"name": "echo", "arguments": {}}), &[]),
        (
            "tools/call",
            json!({"name": "missing", "arguments": {}}),
            &[],
        ),
    ];
    for round in 0..2 {
        for (n, (method, params, headers)) in requests.iter().enumerate() {
            let ask = |endpoint: &Endpoint| {
                let mut request = endpoint.modern(n as i64, method, params.clone());
                for (name, value) in *headers {
                    request = request.header(name, value);
                }
                let reply = request.send();
                (reply.status, reply.messages())
            };
            let replica = &replicas[(n + round) % 2];
            assert_eq!(ask(replica), ask(&single), "{method} {params}");
        }
    }
}

/// Sleeps when asked to, like a tool whose I/O is usually cached.
#[mcp_tool]
fn lookup(block: bool) -> &'static str {
    if block {
        std::thread::sleep(Duration::from_millis(600));
    }
    "found"
}

/// A sync tool that has been quick runs on the async workers; when it blocks after all, the
/// server goes on serving other requests, and the tool goes back to the blocking pool.
#[test]
fn a_quick_sync_tool_that_blocks_stalls_nothing_else() {
    let endpoint = Endpoint::start(server());
    let lookup = |block: bool| {
        endpoint.modern(
            1,
            "tools/call",
            json!({"name": "lookup", "arguments": {"block": block}}),
        )
    };
    for _ in 0..64 {
        assert_eq!(text(&lookup(false).send().json()), "found");
    }
    for round in 0..3 {
        let blocking = lookup(true).open();
        let start = Instant::now();
        for _ in 0..8 {
            let reply = endpoint
                .modern(
                    2,
                    "tools/call",
                    json!({"name": "echo", "arguments": {"text": "x"}}),
                )
                .send();
            assert_eq!(text(&reply.json()), "x");
        }
        assert!(
            start.elapsed() < Duration::from_millis(600),
            "round {round}: requests waited for the blocking call"
        );
        assert_eq!(text(&blocking.finish().answer()), "found");
    }
}
