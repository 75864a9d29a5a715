//! The notes example over real pipes: a `#[mcp_tool_type]` with two impl blocks, shared state,
//! progress and cancellation.

use crate::common;

use std::time::Duration;

use common::{ChildExt, Process};
use serde_json::{Value, json};

fn text(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
}

fn notes() -> Process {
    let mut server = Process::spawn("notes");
    server.client.initialize("2025-11-25");
    server
}

#[test]
fn tools_from_both_impl_blocks() {
    let mut server = notes();
    let list = server.client.request("tools/list", json!({}));
    let names = common::tool_names(&list);
    assert_eq!(
        names,
        [
            "add_note",
            "delete_note",
            "delete_tagged",
            "export_notes",
            "list_notes",
            "lock_notes"
        ]
    );
}

#[test]
fn one_instance_serves_concurrent_calls() {
    let mut server = notes();
    for i in 0..20 {
        server.client.send(&json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "add_note", "arguments": {"text": format!("note {i}"), "tags": ["t"]}}}));
    }
    let mut ids: Vec<u64> = (0..20)
        .map(|_| {
            server.client.recv()["result"]["structuredContent"]["id"]
                .as_u64()
                .unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=20).collect::<Vec<_>>());
    let list = server.client.call("list_notes", json!({"tag": "t"}));
    assert_eq!(
        list["result"]["structuredContent"]["notes"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    assert_eq!(
        text(&server.client.call("delete_note", json!({"id": 3}))),
        "deleted note 3"
    );
    let again = server.client.call("delete_note", json!({"id": 3}));
    assert_eq!(again["result"]["isError"], true);
    assert_eq!(text(&again), "there is no note 3");
}

#[test]
fn state_limits_apply() {
    let mut server = notes();
    let answer = server
        .client
        .call("add_note", json!({"text": "x".repeat(10_001)}));
    assert_eq!(text(&answer), "a note has at most 10000 characters");
}

#[test]
fn export_reports_progress() {
    let mut server = notes();
    for i in 0..3 {
        server
            .client
            .call("add_note", json!({"text": format!("n{i}")}));
    }
    let dir = std::env::temp_dir().join(format!("toolwright-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("export.md");
    server.client.send(&json!({"jsonrpc": "2.0", "id": "export", "method": "tools/call",
        "params": {"name": "export_notes", "arguments": {"path": path}, "_meta": {"progressToken": 5}}}));
    let mut progress = Vec::new();
    let response = loop {
        let message = server.client.recv();
        if message["id"] == "export" {
            break message;
        }
        assert_eq!(message["params"]["progressToken"], 5);
        progress.push(message["params"]["progress"].as_f64().unwrap());
    };
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert_eq!(response["result"]["structuredContent"]["notes"], 3);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "- n0 ()\n- n1 ()\n- n2 ()\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn printing_in_a_tool_does_not_corrupt_the_stream() {
    let mut server = notes();
    server.client.call("add_note", json!({"text": "n"}));
    let path = std::env::temp_dir().join(format!("toolwright-print-{}.md", std::process::id()));
    // `export_notes` prints with `println!`; every line the client reads must still be JSON
    // (`recv` fails on anything else).
    let answer = server.client.call("export_notes", json!({"path": path}));
    assert_eq!(answer["result"]["structuredContent"]["notes"], 1);
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    server.client.close();
    let output = server.child.wait_with_output_after_close();
    assert!(
        output.contains(&format!("exported 1 notes to {}", path.display())),
        "the print went to stderr: {output}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn stdin_eof_signals_the_calls_in_flight_and_exits_zero_within_a_second() {
    let mut server = notes();
    server.client.call("add_note", json!({"text": "n"}));
    let path = std::env::temp_dir().join(format!("toolwright-eof-{}.md", std::process::id()));
    for id in 0..3 {
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "export_notes", "arguments": {"path": path, "pause_ms": 60_000}}}));
    }
    std::thread::sleep(Duration::from_millis(200));
    let start = std::time::Instant::now();
    server.client.close();
    let status = server.child.wait().expect("the server exits");
    let took = start.elapsed();
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(1), "took {took:?}");
    // The exports saw their `Cancellation` fire, removed their partial file, and answered in
    // the grace period; the output carries their answers.
    assert!(!path.exists(), "the partial export was removed");
    for _ in 0..3 {
        let answer = server.client.recv();
        assert_eq!(
            answer["result"]["content"][0]["text"], "export cancelled",
            "{answer}"
        );
    }
}

#[test]
fn a_cancelled_export_stops_and_sends_nothing() {
    let mut server = notes();
    for i in 0..3 {
        server
            .client
            .call("add_note", json!({"text": format!("n{i}")}));
    }
    let dir = std::env::temp_dir().join(format!("toolwright-notes-cancel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("export.md");
    server
        .client
        .send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "export_notes", "arguments": {"path": path, "pause_ms": 10_000}}}));
    std::thread::sleep(Duration::from_millis(300));
    assert!(path.exists(), "the export started");
    server.client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9}}),
    );
    server.client.expect_silence(Duration::from_millis(500));
    assert!(!path.exists(), "the partial export was removed");
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
