//! The example servers over HTTP as their users run them: `serve --http ADDR` on every server
//! binary, and the endpoint mounted in an axum app behind a bearer-token middleware.
#![cfg(all(feature = "http", unix))]

use crate::common;

use common::http::{Request, Served};
use serde_json::json;

fn modern_call(addr: std::net::SocketAddr, name: &str, arguments: serde_json::Value) -> Request {
    common::http::modern(
        addr,
        1,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

#[test]
fn every_server_binary_serves_http_and_exits_cleanly_on_sigterm() {
    let served = Served::spawn("quickstart", &["serve", "--http", "127.0.0.1:0"], &[]);
    let reply = modern_call(served.addr, "add", json!({"a": 2, "b": 40})).send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["result"]["content"][0]["text"], "42");
    let status = served.terminate();
    assert!(status.success(), "{status:?}");
}

/// `serve --http` takes the endpoint's limits as flags.
#[test]
fn serve_http_takes_its_limits_from_the_command_line() {
    let served = Served::spawn(
        "quickstart",
        &["serve", "--http", "127.0.0.1:0", "--max-body", "1KiB"],
        &[],
    );
    let text = "word ".repeat(300);
    let reply = modern_call(served.addr, "text_stats", json!({"text": text})).send();
    assert_eq!(reply.status, 413, "{}", reply.text());
    assert_eq!(
        reply.json()["error"]["message"],
        "Payload Too Large: the body exceeds the 1024-byte limit"
    );
    let reply = modern_call(served.addr, "add", json!({"a": 2, "b": 40})).send();
    assert_eq!(reply.json()["result"]["content"][0]["text"], "42");
    assert!(served.terminate().success());
}

#[test]
fn a_bearer_token_layer_hands_the_caller_to_the_tool() {
    let served = Served::spawn(
        "http_auth",
        &["127.0.0.1:0"],
        &[("MCP_TOKENS", "s3cret=alice:admin,t0ken=bob")],
    );
    let whoami = |token: Option<&str>| {
        let request = modern_call(served.addr, "whoami", json!({}));
        match token {
            Some(token) => request.header("Authorization", &format!("Bearer {token}")),
            None => request,
        }
        .send()
    };
    for (token, name) in [("s3cret", "alice"), ("t0ken", "bob")] {
        let reply = whoami(Some(token));
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(
            reply.json()["result"]["content"][0]["text"],
            format!("you are {name}")
        );
    }
    for refused in [None, Some("wrong")] {
        let reply = whoami(refused);
        assert_eq!(reply.status, 401);
        assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    }
}

/// Two tokens, two lists: the administrator sees and calls the `admin` tool; for anyone else
/// it does not exist, in either era, whatever the session.
#[test]
fn each_caller_sees_the_tools_their_token_allows() {
    let served = Served::spawn(
        "http_auth",
        &["127.0.0.1:0"],
        &[("MCP_TOKENS", "s3cret=alice:admin,t0ken=bob")],
    );
    let bearer = |token: &str| format!("Bearer {token}");
    let names = |list: &serde_json::Value| -> Vec<String> {
        let tools = list["result"]["tools"].as_array().expect("a list").iter();
        tools
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    for (token, expected) in [
        ("s3cret", vec!["clear_audit_log", "whoami"]),
        ("t0ken", vec!["whoami"]),
    ] {
        // 2026-07-28: each request stands alone.
        let list = common::http::modern(served.addr, 1, "tools/list", json!({}))
            .header("Authorization", &bearer(token))
            .send();
        assert_eq!(names(&list.json()), expected, "{token}");
        assert_eq!(list.json()["result"]["cacheScope"], "private");
        let call = modern_call(served.addr, "clear_audit_log", json!({}))
            .header("Authorization", &bearer(token))
            .send();
        let call = call.json();
        match token {
            "s3cret" => assert_eq!(
                call["result"]["content"][0]["text"],
                "the audit log is empty"
            ),
            _ => {
                assert_eq!(call["error"]["code"], -32602, "{call}");
                assert_eq!(call["error"]["message"], "Unknown tool: clear_audit_log");
            }
        }

        // A 2025-11-25 session: the same list.
        let initialize = Request::new("POST", served.addr)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", &bearer(token))
            .body(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"}}})
                .to_string()
                .into_bytes(),
            )
            .send();
        let session = initialize.header("mcp-session-id").unwrap().to_owned();
        let list = Request::new("POST", served.addr)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", &bearer(token))
            .session(&session, "2025-11-25")
            .body(
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
                    .to_string()
                    .into_bytes(),
            )
            .send();
        assert_eq!(names(&list.answer()), expected, "{token} in a session");
    }
}
