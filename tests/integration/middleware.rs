//! Middleware around tool calls: one mechanism that sees every call and its result, can answer
//! without the tool, and composes; tower's own layers apply as they are.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common;

use serde_json::json;
use toolwright::middleware::{self, Next, ToolCall};
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::tools::ToolOutput;
use toolwright::{ProtocolVersion, Server};

/// Counts tool runs, and what ran at once.
#[derive(Default)]
struct Runs {
    started: AtomicUsize,
    running: AtomicUsize,
    most_at_once: AtomicUsize,
    dropped: AtomicBool,
}

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64, runs: State<Runs>) -> i64 {
    runs.started.fetch_add(1, Ordering::SeqCst);
    a + b
}

/// Takes its time; notes when it is stopped before the end.
#[mcp_tool]
async fn slow(millis: u64, runs: State<Runs>) -> &'static str {
    struct Stopped<'a>(&'a Runs, bool);
    impl Drop for Stopped<'_> {
        fn drop(&mut self) {
            if !self.1 {
                self.0.dropped.store(true, Ordering::SeqCst);
            }
        }
    }
    runs.started.fetch_add(1, Ordering::SeqCst);
    let now = runs.running.fetch_add(1, Ordering::SeqCst) + 1;
    runs.most_at_once.fetch_max(now, Ordering::SeqCst);
    let mut guard = Stopped(&runs, false);
    tokio::time::sleep(Duration::from_millis(millis)).await;
    guard.1 = true;
    runs.running.fetch_sub(1, Ordering::SeqCst);
    "done"
}

/// Breaks.
#[mcp_tool]
fn explode() -> String {
    panic!("secret")
}

fn server() -> Server {
    Server::new("layered", "1")
        .tool::<add>()
        .tool::<slow>()
        .tool::<explode>()
        .tool::<was_stopped>()
        .tool::<most_at_once>()
        .state(Runs::default())
}

/// Whether a call of `slow` was stopped before its end.
#[mcp_tool]
fn was_stopped(runs: State<Runs>) -> bool {
    runs.dropped.load(Ordering::SeqCst)
}

/// The most calls of `slow` that ran at once.
#[mcp_tool]
fn most_at_once(runs: State<Runs>) -> usize {
    runs.most_at_once.load(Ordering::SeqCst)
}

type Log = Arc<Mutex<Vec<String>>>;

/// Notes each call before and after, under `name`.
async fn audit(name: &'static str, log: Log, call: ToolCall, next: Next) -> ToolOutput {
    let tool = call.tool().name().to_owned();
    let arguments = call.arguments();
    log.lock()
        .unwrap()
        .push(format!("{name} > {tool} {arguments}"));
    let output = next.run(call).await;
    log.lock()
        .unwrap()
        .push(format!("{name} < {tool} error={}", output.is_error()));
    output
}

#[test]
fn layers_see_every_call_and_compose_outermost_first() {
    let log = Log::default();
    for revision in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2026_07_28] {
        log.lock().unwrap().clear();
        let (outer, inner) = (Arc::clone(&log), Arc::clone(&log));
        let server = server()
            .layer(middleware::from_fn(move |call, next| {
                audit("outer", Arc::clone(&outer), call, next)
            }))
            .layer(middleware::from_fn(move |call, next| {
                audit("inner", Arc::clone(&inner), call, next)
            }));
        let mut client = Client::connect(server, revision).unwrap();
        assert_eq!(
            client.call("add", json!({"a": 1, "b": 2})).unwrap().text(),
            "3"
        );
        let failed = client.call("explode", json!({})).unwrap();
        assert!(failed.is_error() && !failed.text().contains("secret"));
        assert_eq!(
            *log.lock().unwrap(),
            [
                r#"outer > add {"a":1,"b":2}"#,
                r#"inner > add {"a":1,"b":2}"#,
                "inner < add error=false",
                "outer < add error=false",
                "outer > explode {}",
                "inner > explode {}",
                "inner < explode error=true",
                "outer < explode error=true",
            ],
            "{revision}"
        );
    }
}

#[test]
fn a_middleware_can_answer_without_the_tool() {
    let deny = middleware::from_fn(|call: ToolCall, next: Next| async move {
        let a = call.arguments()["a"].as_i64();
        match a {
            Some(a) if a < 0 => ToolOutput::error("negative numbers are not allowed here"),
            _ => next.run(call).await,
        }
    });
    let mut client = Client::new(server().layer(deny)).unwrap();
    let refused = client.call("add", json!({"a": -1, "b": 2})).unwrap();
    assert!(refused.is_error());
    assert_eq!(refused.text(), "negative numbers are not allowed here");
    assert_eq!(
        client.call("add", json!({"a": 1, "b": 2})).unwrap().text(),
        "3"
    );
}

#[test]
fn tower_timeouts_stop_the_tool() {
    let server = server().layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(50)));
    let mut client = Client::new(server).unwrap();
    let timed_out = client.call("slow", json!({"millis": 5000})).unwrap();
    assert!(timed_out.is_error());
    assert_eq!(timed_out.text(), "request timed out");
    let stopped = client.call("was_stopped", json!({})).unwrap();
    assert_eq!(stopped.text(), "true", "the tool's future was dropped");
    assert_eq!(
        client.call("slow", json!({"millis": 1})).unwrap().text(),
        "done"
    );
}

#[test]
fn a_tower_concurrency_limit_holds_calls_back() {
    let server = server().layer(tower::limit::ConcurrencyLimitLayer::new(1));
    let mut piped = common::InProcess::start(server);
    let client = &mut piped.client;
    client.open("2025-11-25");
    for id in 10..14 {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "slow", "arguments": {"millis": 20}}}));
    }
    for _ in 10..14 {
        let answer = client.recv();
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
    }
    let most = client.ask(
        "tools/call",
        json!({"name": "most_at_once", "arguments": {}}),
    );
    assert_eq!(most["result"]["content"][0]["text"], "1", "{most}");
}
