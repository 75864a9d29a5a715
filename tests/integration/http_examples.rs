//! The example servers over HTTP as their users run them: `serve --http ADDR` on every server
//! binary, and the endpoint mounted in an axum app behind toolwright's OAuth layer.
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

/// The `http_auth` example against an authorization server: its metadata, its keys.
#[cfg(feature = "oauth")]
fn http_auth(authority: &common::oauth::FakeAs) -> Served {
    let env = [
        ("MCP_ISSUER", authority.issuer.as_str()),
        ("MCP_RESOURCE", common::oauth::RESOURCE),
    ];
    Served::spawn("http_auth", &["127.0.0.1:0"], &env)
}

/// The example's layer serves the metadata, challenges a request without a token, and hands
/// the caller of a valid one to the tool.
#[test]
#[cfg(feature = "oauth")]
fn the_oauth_layer_hands_the_caller_to_the_tool() {
    let authority = common::oauth::FakeAs::start();
    let served = http_auth(&authority);
    let metadata = Request::new("GET", served.addr)
        .target("/.well-known/oauth-protected-resource/mcp")
        .send();
    assert_eq!(metadata.status, 200, "{}", metadata.text());
    assert_eq!(
        metadata.json()["authorization_servers"],
        json!([authority.issuer])
    );
    let whoami = |token: Option<&str>| {
        let request = modern_call(served.addr, "whoami", json!({}));
        match token {
            Some(token) => request.header("Authorization", &format!("Bearer {token}")),
            None => request,
        }
        .send()
    };
    let ada = authority.token("ada", "mcp:tools");
    let reply = whoami(Some(&ada));
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["result"]["content"][0]["text"], "you are ada");
    let refused = whoami(None);
    assert_eq!(refused.status, 401);
    assert_eq!(
        refused.header("www-authenticate"),
        Some(
            "Bearer scope=\"mcp:tools\", resource_metadata=\"http://mcp.test/.well-known/oauth-protected-resource/mcp\""
        )
    );
    assert_eq!(whoami(Some("forged")).status, 401);
}

/// Two tokens, two lists: the administrator sees and calls the tool that needs `mcp:admin`;
/// anyone else does not see it, and gets 403 naming the scopes when calling it by name, in
/// either era.
#[test]
#[cfg(feature = "oauth")]
fn each_caller_sees_the_tools_their_token_allows() {
    let authority = common::oauth::FakeAs::start();
    let served = http_auth(&authority);
    let bearer = |token: &str| format!("Bearer {token}");
    let names = |list: &serde_json::Value| -> Vec<String> {
        let tools = list["result"]["tools"].as_array().expect("a list").iter();
        tools
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let admin = authority.token("root", "mcp:tools mcp:admin");
    let user = authority.token("ada", "mcp:tools");
    for (token, expected) in [
        (&admin, vec!["clear_audit_log", "whoami"]),
        (&user, vec!["whoami"]),
    ] {
        // 2026-07-28: each request stands alone.
        let list = common::http::modern(served.addr, 1, "tools/list", json!({}))
            .header("Authorization", &bearer(token))
            .send();
        assert_eq!(names(&list.json()), expected);
        assert_eq!(list.json()["result"]["cacheScope"], "private");
        let call = modern_call(served.addr, "clear_audit_log", json!({}))
            .header("Authorization", &bearer(token))
            .send();
        if token == &admin {
            assert_eq!(
                call.json()["result"]["content"][0]["text"],
                "the audit log is empty (root emptied it)"
            );
        } else {
            assert_eq!(call.status, 403, "{}", call.text());
            let challenge = call.header("www-authenticate").unwrap();
            assert!(
                challenge.contains("scope=\"mcp:tools mcp:admin\""),
                "{challenge}"
            );
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
        assert_eq!(names(&list.answer()), expected, "in a session");
    }
}
