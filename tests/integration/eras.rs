//! The exact wire, revision by revision: structured output of each shape, the 2026-07-28
//! additions and errors, batches, content blocks, hand-written schemas, icons, `_meta`, pages.

use crate::common;
use crate::fixtures;

use std::time::Duration;

use common::{InProcess, REVISIONS};
use serde_json::{Value, json};
use toolwright::tools::SchemaProfile;

const SERVER_META: &str =
    r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fixtures","version":"3.2.1"}}"#;

fn start(revision: &str) -> InProcess {
    let mut server = InProcess::start(fixtures::server(SchemaProfile::Portable));
    server.client.open(revision);
    server
}

/// The exact answer to calling `tool` in each revision, given the JSON text of its value.
fn expected_call(revision: &str, natural: &str, wraps: bool) -> String {
    let content = format!(
        r#""content":[{{"type":"text","text":{}}}]"#,
        Value::from(natural)
    );
    let wrapped = if wraps {
        format!(r#"{{"result":{natural}}}"#)
    } else {
        natural.to_owned()
    };
    let result = match revision {
        "2024-11-05" | "2025-03-26" => format!("{{{content}}}"),
        "2026-07-28" => format!(
            r#"{{{content},"structuredContent":{natural},"resultType":"complete",{SERVER_META}}}"#
        ),
        _ => format!(r#"{{{content},"structuredContent":{wrapped}}}"#),
    };
    format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#)
}

#[test]
fn structured_output_of_every_shape_in_every_revision() {
    // (tool, the value's JSON, whether its schema root is not an object)
    let cases = [
        ("scalar", "42", true),
        ("bytes", "[1,2,3]", true),
        ("point", r#"{"x":1,"y":-2}"#, false),
        ("figure", r#"{"kind":"circle","radius":1.5}"#, true),
        ("quoted", r#""hi""#, true),
    ];
    for revision in REVISIONS {
        let mut server = start(revision);
        for (tool, natural, wraps) in cases {
            let line = server
                .client
                .ask_raw("tools/call", json!({"name": tool, "arguments": {}}));
            assert_eq!(
                line,
                expected_call(revision, natural, wraps),
                "{revision} {tool}"
            );
        }
        server.finish().unwrap();
    }
}

#[test]
fn text_of_its_own_beside_structured_content() {
    let point_json = r#"{"x":3,"y":4}"#;
    let text = |t: &str| format!(r#"{{"type":"text","text":{}}}"#, Value::from(t));
    let sentence = text("a point five from the origin");
    for revision in REVISIONS {
        let mut server = start(revision);
        let point = server.client.ask_raw(
            "tools/call",
            json!({"name": "described_point", "arguments": {}}),
        );
        let list = server.client.ask_raw(
            "tools/call",
            json!({"name": "described_list", "arguments": {}}),
        );
        let modern = format!(r#","resultType":"complete",{SERVER_META}"#);
        let (point_expected, list_expected) = match revision {
            // No structured content: the tool's own text, which says what the value is.
            "2024-11-05" | "2025-03-26" => (
                format!(r#"{{"content":[{sentence}]}}"#),
                format!(r#"{{"content":[{}]}}"#, text("two bytes")),
            ),
            "2026-07-28" => (
                format!(r#"{{"content":[{sentence}],"structuredContent":{point_json}{modern}}}"#),
                format!(
                    r#"{{"content":[{},{}],"structuredContent":[1,2]{modern}}}"#,
                    text("two bytes"),
                    text("[1,2]")
                ),
            ),
            _ => (
                format!(r#"{{"content":[{sentence}],"structuredContent":{point_json}}}"#),
                format!(
                    r#"{{"content":[{},{}],"structuredContent":{{"result":[1,2]}}}}"#,
                    text("two bytes"),
                    text("[1,2]")
                ),
            ),
        };
        let line = |result: String| format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
        assert_eq!(point, line(point_expected), "{revision}");
        assert_eq!(list, line(list_expected), "{revision}");
        server.finish().unwrap();
    }
}

#[test]
fn output_schemas_in_every_revision() {
    let figure = r#"{"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"circle"},"radius":{"type":"number"}},"required":["kind","radius"]},{"type":"object","properties":{"kind":{"type":"string","const":"square"},"side":{"type":"number"}},"required":["kind","side"]}]}"#;
    for revision in REVISIONS {
        let mut server = start(revision);
        let list = server.client.ask("tools/list", json!({}));
        let schema_of = |name: &str| common::tool(&list, name).get("outputSchema").cloned();
        let wrap = |inner: &str| -> Value {
            serde_json::from_str(&format!(
                r#"{{"type":"object","properties":{{"result":{inner}}},"required":["result"]}}"#
            ))
            .unwrap()
        };
        let point: Value = json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x", "y"]});
        let (scalar, shape, object) = match revision {
            "2024-11-05" | "2025-03-26" => (None, None, None),
            "2026-07-28" => (
                Some(json!({"type": "integer"})),
                Some(serde_json::from_str(figure).unwrap()),
                Some(point.clone()),
            ),
            _ => (
                Some(wrap(r#"{"type":"integer"}"#)),
                Some(wrap(figure)),
                Some(point.clone()),
            ),
        };
        assert_eq!(schema_of("scalar"), scalar, "{revision}");
        assert_eq!(schema_of("figure"), shape, "{revision}");
        assert_eq!(schema_of("point"), object, "{revision}");
        assert_eq!(schema_of("plain"), None, "text has no output schema");
        server.finish().unwrap();
    }
}

#[test]
fn discover_and_stateless_errors() {
    let mut server = start("2026-07-28");
    assert_eq!(
        server.client.ask_raw("server/discover", json!({})),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"supportedVersions":["2026-07-28"],"capabilities":{{"tools":{{"listChanged":false}},"logging":{{}}}},"ttlMs":3600000,"cacheScope":"public","resultType":"complete",{SERVER_META}}}}}"#
        )
    );
    let list = server.client.ask("tools/list", json!({}));
    assert_eq!(list["result"]["resultType"], "complete");
    assert_eq!(list["result"]["ttlMs"], 3_600_000);
    assert_eq!(list["result"]["cacheScope"], "public");

    let send = |server: &mut InProcess, meta: Value| {
        server.client.send(
            &json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": meta}}),
        );
        server.client.recv_raw()
    };
    assert_eq!(
        send(
            &mut server,
            json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})
        ),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params: `_meta` lacks `io.modelcontextprotocol/clientCapabilities`"}}"#
    );
    assert_eq!(
        send(
            &mut server,
            json!({"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {}})
        ),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}"#
    );
    assert_eq!(
        send(
            &mut server,
            json!({"io.modelcontextprotocol/protocolVersion": "2025-11-25", "io.modelcontextprotocol/clientCapabilities": {}})
        ),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}"#
    );
    assert_eq!(
        server
            .client
            .ask_raw("tools/call", json!({"name": "missing"})),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unknown tool: missing"}}"#
    );
    for method in ["initialize", "ping", "logging/setLevel"] {
        let answer = server.client.ask(method, json!({}));
        assert_eq!(
            answer["error"]["code"], -32601,
            "{method} is not a 2026-07-28 method"
        );
    }
    // A stateless request needs no handshake, and one does not disturb a handshake session.
    server.client.initialize("2025-06-18");
    let legacy = server.client.request("tools/list", json!({}));
    assert!(legacy["result"].get("resultType").is_none());
    server.finish().unwrap();
}

#[test]
fn subscriptions_are_acknowledged_and_close_quietly() {
    let mut server = start("2026-07-28");
    server.client.send(
        &json!({"jsonrpc": "2.0", "id": "listen:0", "method": "subscriptions/listen",
        "params": {"notifications": {"toolsListChanged": true}, "_meta": common::modern_meta()}}),
    );
    assert_eq!(
        server.client.recv_raw(),
        r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{},"_meta":{"io.modelcontextprotocol/subscriptionId":"listen:0"}}}"#
    );
    server.client.send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "listen:0"}}));
    server.client.expect_silence(Duration::from_millis(200));
    server.finish().unwrap();
}

#[test]
fn invalid_arguments_by_revision() {
    for revision in REVISIONS {
        let mut server = start(revision);
        let answer = server.client.ask(
            "tools/call",
            json!({"name": "maybe_contact", "arguments": {"found": "yes"}}),
        );
        let message =
            "invalid arguments: `found`: invalid type: string \"yes\", expected a boolean";
        if revision >= "2025-11-25" {
            assert_eq!(answer["result"]["isError"], true, "{revision}");
            assert_eq!(answer["result"]["content"][0]["text"], message);
        } else {
            assert_eq!(
                answer["error"],
                json!({"code": -32602, "message": message}),
                "{revision}"
            );
        }
        server.finish().unwrap();
    }
}

#[test]
fn batches_only_in_2025_03_26() {
    let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"scalar"}},{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}},7]"#;
    let mut server = start("2025-03-26");
    server.client.send_raw(batch);
    let answers: Vec<Value> = serde_json::from_str(&server.client.recv_raw()).unwrap();
    let by_id = |id: Value| {
        answers
            .iter()
            .find(|a| a["id"] == id)
            .unwrap_or_else(|| panic!("{answers:?}"))
    };
    assert_eq!(answers.len(), 4);
    assert_eq!(by_id(json!(1))["result"], json!({}));
    assert_eq!(by_id(json!(2))["result"]["content"][0]["text"], "42");
    assert_eq!(
        by_id(json!(3))["error"]["message"],
        "Invalid Request: `initialize` must not be part of a batch"
    );
    assert_eq!(by_id(Value::Null)["error"]["code"], -32600);
    // Only notifications: nothing to answer. Empty: one error.
    server
        .client
        .send_raw(br#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#);
    server.client.expect_silence(Duration::from_millis(200));
    server.client.send_raw(b"[]");
    assert_eq!(
        server.client.recv()["error"]["message"],
        "Invalid Request: a batch must not be empty"
    );
    server.finish().unwrap();

    for revision in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut server = start(revision);
        server.client.send_raw(batch);
        let answer = server.client.recv();
        assert_eq!(answer["error"]["code"], -32600, "{revision}");
        assert_eq!(
            answer["error"]["message"],
            "Invalid Request: batches are accepted only in a session of protocol 2025-03-26"
        );
        server.finish().unwrap();
    }
}

#[test]
fn content_blocks_each_revision_can_carry() {
    for revision in REVISIONS {
        let mut server = start(revision);
        let answer = server
            .client
            .ask("tools/call", json!({"name": "media", "arguments": {}}));
        let kinds: Vec<&str> = answer["result"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        let expected: &[&str] = match revision {
            "2024-11-05" => &["text", "image", "text", "text", "resource"],
            "2025-03-26" => &["text", "image", "audio", "text", "resource"],
            _ => &["text", "image", "audio", "resource_link", "resource"],
        };
        assert_eq!(kinds, expected, "{revision}");
        if revision < "2025-06-18" {
            assert_eq!(
                answer["result"]["content"][3]["text"],
                "notes.md: file:///notes.md"
            );
        }
        server.finish().unwrap();
    }
}

#[test]
fn hand_written_input_schemas_pass_through() {
    for revision in REVISIONS {
        let mut server = start(revision);
        let line = server.client.ask_raw("tools/list", json!({}));
        // The schema text has no whitespace inside strings, so removing it all compacts it.
        let compact: String = fixtures::RAW_SCHEMA
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        assert!(
            line.contains(&format!(r#""inputSchema":{compact}"#)),
            "{revision}: {line}"
        );
        assert!(
            compact.contains(r#""minimum":1.0"#),
            "numbers are kept as written"
        );
        server.finish().unwrap();
    }
}

#[test]
fn icons_and_meta_where_defined() {
    for revision in REVISIONS {
        let mut server = start(revision);
        let list = server.client.ask("tools/list", json!({}));
        let tool = common::tool(&list, "decorated").clone();
        assert_eq!(
            tool.get("icons").is_some(),
            revision >= "2025-11-25",
            "{revision}"
        );
        assert_eq!(
            tool.get("_meta").is_some(),
            revision >= "2025-06-18",
            "{revision}"
        );
        if revision >= "2025-11-25" {
            assert_eq!(
                tool["icons"],
                json!([{"src": "https://example.com/a.png"}, {"src": "data:image/png;base64,AA==", "mimeType": "image/png", "sizes": ["48x48", "any"], "theme": "dark"}])
            );
        }
        server.finish().unwrap();
    }
}

#[test]
fn pages_follow_opaque_cursors() {
    for revision in ["2025-11-25", "2026-07-28"] {
        let mut server = InProcess::start(fixtures::server(SchemaProfile::Portable).page_size(5));
        server.client.open(revision);
        let mut names = Vec::new();
        let mut cursor: Option<Value> = None;
        let mut pages = 0;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let page = server.client.ask("tools/list", params);
            names.extend(common::tool_names(&page).into_iter().map(str::to_owned));
            pages += 1;
            match page["result"].get("nextCursor") {
                Some(next) => cursor = Some(next.clone()),
                None => break,
            }
        }
        assert_eq!(pages, 4, "20 tools in pages of 5");
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "deterministic order across pages");
        assert_eq!(names.len(), 20);
        let bad = server
            .client
            .ask("tools/list", json!({"cursor": "nonsense"}));
        assert_eq!(bad["error"]["code"], -32602);
        server.finish().unwrap();
    }
}
