//! JSON-RPC and lifecycle behaviour over the stdio transport: every malformed message gets a
//! clear error (or, for notifications, silence), and the next request is still served.

use crate::common;

use std::time::Duration;

use common::PipedServer as InProcess;
use serde_json::{Value, json};
use toolwright::prelude::*;

/// Echoes its input.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

fn server() -> InProcess {
    InProcess::start(Server::new("protocol-test", "1.2.3").tool::<echo>())
}

fn error_of(response: &Value) -> (i64, String) {
    let error = &response["error"];
    assert!(
        response.get("result").is_none(),
        "an error, not a result: {response}"
    );
    (
        error["code"].as_i64().unwrap(),
        error["message"].as_str().unwrap().to_owned(),
    )
}

/// Sends one raw line, returns the answer, and checks that the server still serves.
fn answer_to(server: &mut InProcess, line: &[u8]) -> Value {
    server.client.send_raw(line);
    let answer = server.client.recv();
    let ping = server.client.request("ping", json!({}));
    assert_eq!(ping["result"], json!({}));
    answer
}

#[test]
fn malformed_lines_get_errors_and_serving_goes_on() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    let cases: &[(&[u8], i64, Value)] = &[
        (b"not json", -32700, Value::Null),
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,", -32700, Value::Null),
        (b"\xff\xfe", -32700, Value::Null),
        (b"42", -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, -32600, Value::Null),
        (br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#, -32600, json!(7)),
        (br#"{"jsonrpc":"2.0","id":8}"#, -32600, json!(8)),
        (br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}"#, -32602, json!(9)),
        (br#"[{"jsonrpc":"2.0","id":10,"method":"ping"}]"#, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":11,"method":"nope/nope"}"#, -32601, json!(11)),
        (br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"missing"}}"#, -32602, json!(12)),
        (br#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{}}"#, -32602, json!(13)),
        (br#"{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo","arguments":[1]}}"#, -32602, json!(14)),
        (br#"{"jsonrpc":"2.0","id":15,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#, -32600, json!(15)),
    ];
    for (line, code, id) in cases {
        let answer = answer_to(&mut server, line);
        let (got, message) = error_of(&answer);
        assert_eq!(got, *code, "{}: {message}", String::from_utf8_lossy(line));
        assert_eq!(answer["id"], *id, "{}", String::from_utf8_lossy(line));
        assert!(!message.is_empty());
    }
    server.finish().unwrap();
}

#[test]
fn error_messages_say_what_is_wrong() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    let (_, message) = error_of(
        &server
            .client
            .request("tools/call", json!({"name": "missing"})),
    );
    assert_eq!(message, "Unknown tool: missing");
    let (_, message) = error_of(&server.client.request("resources/list", json!({})));
    assert_eq!(message, "Method not found: resources/list");
    let (_, message) = error_of(
        &server
            .client
            .request("initialize", json!({"protocolVersion": "2025-11-25"})),
    );
    assert_eq!(
        message,
        "Invalid Request: the session is already initialized"
    );
    let (_, message) = error_of(
        &server
            .client
            .request("tools/call", json!({"arguments": {}})),
    );
    assert_eq!(message, "Invalid params: missing field `name`");
}

#[test]
fn notifications_and_client_responses_are_never_answered() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    for line in [
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "method": "notifications/unknown", "params": {"x": 1}}),
        json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo"}}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}),
        json!({"jsonrpc": "2.0", "id": 5, "result": {}}),
        json!({"jsonrpc": "2.0", "id": 6, "error": {"code": 1, "message": "x"}}),
    ] {
        server.client.send(&line);
    }
    server.client.send_raw(b"");
    server.client.send_raw(b"   ");
    server.client.expect_silence(Duration::from_millis(200));
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    server.finish().unwrap();
}

#[test]
fn requests_before_initialize() {
    let mut server = server();
    // ping is always answered; tools wait for the handshake.
    assert_eq!(
        server.client.request("ping", json!({}))["result"],
        json!({})
    );
    let (code, message) = error_of(&server.client.request("tools/list", json!({})));
    assert_eq!(code, -32600);
    assert!(message.contains("send `initialize` first"), "{message}");
    let (code, _) = error_of(&server.client.call("echo", json!({"text": "x"})));
    assert_eq!(code, -32600);
    // A legacy-only server answers the 2026-07-28 probe with an error, so clients fall back.
    let (code, _) = error_of(&server.client.request("server/discover", json!({})));
    assert_eq!(code, -32601);
    server.client.initialize("2025-06-18");
    assert_eq!(
        server.client.call("echo", json!({"text": "x"}))["result"]["content"][0]["text"],
        "x"
    );
    server.finish().unwrap();
}

#[test]
fn ids_are_echoed_exactly() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    for id in [
        json!("a\"b\\c"),
        json!(0),
        json!(-5),
        json!("ünïcode"),
        json!(9007199254740993_u64),
    ] {
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        assert_eq!(server.client.recv()["id"], id);
    }
    server.finish().unwrap();
}

#[test]
fn an_id_is_free_again_once_answered() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    for i in 0..200 {
        server
            .client
            .send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": i.to_string()}}}));
        let answer = server.client.recv();
        assert_eq!(
            answer["result"]["content"][0]["text"],
            i.to_string(),
            "{answer}"
        );
    }
    server.finish().unwrap();
}

#[test]
fn oversized_lines_are_refused_without_being_read() {
    let mut server = InProcess::start(Server::new("t", "1").tool::<echo>().max_message_size(1024));
    server.client.initialize("2025-11-25");
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}}}}}}"#,
        "x".repeat(4096)
    );
    let answer = answer_to(&mut server, big.as_bytes());
    let (code, message) = error_of(&answer);
    assert_eq!(code, -32600);
    assert_eq!(
        message,
        "Invalid Request: message exceeds the 1024-byte limit"
    );
    server.finish().unwrap();
}

#[test]
fn eof_ends_serving() {
    let mut server = server();
    server.client.initialize("2025-11-25");
    server.client.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "last"}}}));
    // The call was read before the input closed: its answer still arrives.
    server.client.close();
    assert_eq!(server.client.recv()["result"]["content"][0]["text"], "last");
    assert!(server.client.output_ended(Duration::from_secs(5)));
    server.finish().unwrap();
}
