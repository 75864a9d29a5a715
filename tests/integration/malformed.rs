//! Anything a client can send, over the real stdio binary: every malformed message gets a clear
//! error (or, where the specification says so, silence), and the next request is still served.

use crate::common;

use std::time::Duration;

use common::{Client, Process};
use serde_json::{Value, json};

/// What the server must do with one line.
enum Expect {
    /// An error with this code, and this id (`Value::Null` when it could not be read).
    Error(i64, Value),
    /// A result for this id.
    Result(Value),
    /// A tool error (`isError: true`) for this id, whose text contains the given words.
    ToolError(Value, &'static str),
    /// Nothing at all.
    Silence,
    /// Exactly this line.
    Line(&'static str),
}

use Expect::*;

fn call(id: i64, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

fn cases() -> Vec<(&'static str, Vec<u8>, Expect)> {
    let deep = |depth: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"ping","params":{{"x":{}{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    vec![
        ("not JSON", b"hello".to_vec(), Error(-32700, Value::Null)),
        ("truncated JSON", br#"{"jsonrpc":"2.0","id":1,"#.to_vec(), Error(-32700, Value::Null)),
        ("invalid UTF-8", b"\xff\xfe\xfd".to_vec(), Error(-32700, Value::Null)),
        ("invalid UTF-8 in a string", b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}".to_vec(), Error(-32700, Value::Null)),
        ("byte order mark", b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".to_vec(), Error(-32700, Value::Null)),
        ("empty object", b"{}".to_vec(), Error(-32600, Value::Null)),
        ("a number", b"42".to_vec(), Error(-32600, Value::Null)),
        ("a string", br#""ping""#.to_vec(), Error(-32600, Value::Null)),
        ("null", b"null".to_vec(), Error(-32600, Value::Null)),
        ("true", b"true".to_vec(), Error(-32600, Value::Null)),
        ("id null", br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("id a fraction", br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("id an object", br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("id an array", br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("id a boolean", br#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("id beyond i64", br#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#.to_vec(), Result(json!(123456789012345678901234567890_f64))),
        ("jsonrpc 1.0", br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#.to_vec(), Error(-32600, json!(7))),
        ("jsonrpc missing", br#"{"id":7,"method":"ping"}"#.to_vec(), Error(-32600, json!(7))),
        ("jsonrpc a number", br#"{"jsonrpc":2.0,"id":7,"method":"ping"}"#.to_vec(), Error(-32600, Value::Null)),
        ("method a number", br#"{"jsonrpc":"2.0","id":7,"method":7}"#.to_vec(), Error(-32600, Value::Null)),
        ("method missing", br#"{"jsonrpc":"2.0","id":7}"#.to_vec(), Error(-32600, json!(7))),
        ("unknown method", br#"{"jsonrpc":"2.0","id":7,"method":"nope"}"#.to_vec(), Error(-32601, json!(7))),
        ("params an array", br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":[]}"#.to_vec(), Error(-32602, json!(7))),
        ("params a string", br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}"#.to_vec(), Error(-32602, json!(7))),
        ("params null", br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":null}"#.to_vec(), Result(json!(7))),
        ("_meta not an object", br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":5}}"#.to_vec(), Error(-32602, json!(7))),
        ("arguments an array", call(8, "list_notes", "[]").into_bytes(), Error(-32602, json!(8))),
        ("arguments a string", call(8, "list_notes", r#""x""#).into_bytes(), Error(-32602, json!(8))),
        ("tool name a number", br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5}}"#.to_vec(), Error(-32602, json!(8))),
        ("tool name missing", br#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{}}"#.to_vec(), Error(-32602, json!(8))),
        ("unknown tool", call(8, "nope", "{}").into_bytes(), Error(-32602, json!(8))),
        ("unknown argument", call(8, "list_notes", r#"{"tags":"x"}"#).into_bytes(), ToolError(json!(8), "unknown field `tags`")),
        ("argument of the wrong type", call(8, "delete_note", r#"{"id":"one"}"#).into_bytes(), ToolError(json!(8), "`id`: invalid type")),
        ("number beyond u64", call(8, "delete_note", r#"{"id":123456789012345678901234567890}"#).into_bytes(), ToolError(json!(8), "`id`")),
        ("number beyond f64", call(8, "delete_note", r#"{"id":1e400}"#).into_bytes(), ToolError(json!(8), "invalid arguments")),
        ("negative number for u64", call(8, "delete_note", r#"{"id":-1}"#).into_bytes(), ToolError(json!(8), "`id`: invalid value")),
        ("string with NUL", call(8, "add_note", r#"{"text":"a\u0000b"}"#).into_bytes(), Result(json!(8))),
        ("lone surrogate in an argument", call(8, "add_note", r#"{"text":"\ud800"}"#).into_bytes(), ToolError(json!(8), "invalid arguments")),
        // Valid JSON text, if not valid Unicode: the id is echoed exactly as sent.
        ("lone surrogate in an id", br#"{"jsonrpc":"2.0","id":"\udc00","method":"ping"}"#.to_vec(), Line(r#"{"jsonrpc":"2.0","id":"\udc00","result":{}}"#)),
        // Deep nesting must not overflow the stack: skipped where it is not read, refused where
        // it is.
        ("nesting 100 000 deep, unread", deep(100_000).into_bytes(), Result(json!(9))),
        ("nesting 100 000 deep in an argument", call(8, "add_note", &format!(r#"{{"text":"t","tags":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000))).into_bytes(), ToolError(json!(8), "invalid arguments")),
        ("nesting 100 000 deep, the whole message", "[".repeat(100_000).into_bytes(), Error(-32700, Value::Null)),
        ("nesting 100 deep", deep(100).into_bytes(), Result(json!(9))),
        ("batch outside 2025-03-26", br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#.to_vec(), Error(-32600, Value::Null)),
        ("empty batch", b"[]".to_vec(), Error(-32600, Value::Null)),
        ("second initialize", br#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#.to_vec(), Error(-32600, json!(7))),
        ("2026-07-28 without capabilities", br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#.to_vec(), Error(-32602, json!(7))),
        ("2026-07-28 with an unknown revision", br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"9999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#.to_vec(), Error(-32022, json!(7))),
        ("notification of an unknown method", br#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#.to_vec(), Silence),
        ("notification with jsonrpc 1.0", br#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#.to_vec(), Silence),
        ("cancelling an unknown id", br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":424242}}"#.to_vec(), Silence),
        ("cancelling without an id", br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#.to_vec(), Silence),
        ("a response from the client", br#"{"jsonrpc":"2.0","id":3,"result":{}}"#.to_vec(), Silence),
        ("an error response from the client", br#"{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}"#.to_vec(), Silence),
        ("a blank line", b"   ".to_vec(), Silence),
        ("CRLF line ending", b"{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"}\r".to_vec(), Result(json!(11))),
    ]
}

fn check(client: &mut Client, name: &str, line: &[u8], expect: &Expect) {
    client.send_raw(line);
    match expect {
        Silence => client.expect_silence(Duration::from_millis(100)),
        Line(expected) => assert_eq!(client.recv_raw(), *expected, "{name}"),
        Error(code, id) => {
            let answer = client.recv();
            assert_eq!(answer["error"]["code"], *code, "{name}: {answer}");
            assert_eq!(answer["id"], *id, "{name}: {answer}");
            assert!(
                answer["error"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty()),
                "{name}"
            );
        }
        Result(id) => {
            let answer = client.recv();
            assert_eq!(answer["id"], *id, "{name}: {answer}");
            assert!(answer.get("result").is_some(), "{name}: {answer}");
        }
        ToolError(id, words) => {
            let answer = client.recv();
            assert_eq!(answer["id"], *id, "{name}: {answer}");
            assert_eq!(answer["result"]["isError"], true, "{name}: {answer}");
            let text = answer["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            assert!(text.contains(words), "{name}: {text}");
        }
    }
    // Whatever came before, the next request is served.
    let ping = client.request("ping", json!({}));
    assert_eq!(
        ping["result"],
        json!({}),
        "{name}: the server stopped serving"
    );
}

#[test]
fn every_malformed_message_is_answered_and_serving_goes_on() {
    let cases = cases();
    assert!(cases.len() >= 40);
    let mut server = Process::spawn("notes");
    server.client.initialize("2025-11-25");
    for (name, line, expect) in &cases {
        check(&mut server.client, name, line, expect);
    }
}

#[test]
fn an_oversized_line_is_refused_without_being_kept() {
    let mut server = Process::spawn("notes");
    server.client.initialize("2025-11-25");
    // 20 MiB against the default limit of 8 MiB.
    let line = call(
        1,
        "add_note",
        &format!(r#"{{"text":"{}"}}"#, "x".repeat(20 << 20)),
    );
    check(
        &mut server.client,
        "20 MiB line",
        line.as_bytes(),
        &Error(-32600, Value::Null),
    );
}

#[test]
fn requests_in_flight_and_before_the_handshake() {
    let mut server = Process::spawn("notes");
    // Before `initialize`: a clear error, then the handshake still works.
    check(
        &mut server.client,
        "tools/call before initialize",
        call(1, "list_notes", "{}").as_bytes(),
        &Error(-32600, json!(1)),
    );
    check(
        &mut server.client,
        "initialize without a version",
        br#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}"#,
        &Error(-32602, json!(2)),
    );
    server.client.initialize("2025-11-25");
    server.client.call("add_note", json!({"text": "n"}));
    let path = std::env::temp_dir().join(format!("toolwright-malformed-{}.md", std::process::id()));
    let slow = format!(
        r#"{{"jsonrpc":"2.0","id":"dup","method":"tools/call","params":{{"name":"export_notes","arguments":{{"path":{},"pause_ms":10000}}}}}}"#,
        Value::from(path.display().to_string())
    );
    server.client.send_raw(slow.as_bytes());
    std::thread::sleep(Duration::from_millis(200));
    // The same id while the first is in flight: refused, and the first is untouched.
    check(
        &mut server.client,
        "duplicate in-flight id",
        br#"{"jsonrpc":"2.0","id":"dup","method":"ping"}"#,
        &Error(-32600, json!("dup")),
    );
    check(
        &mut server.client,
        "cancelling it",
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"dup"}}"#,
        &Silence,
    );
    check(
        &mut server.client,
        "cancelling it again",
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"dup"}}"#,
        &Silence,
    );
    let _ = std::fs::remove_file(&path);
}
