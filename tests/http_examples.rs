//! The example servers over HTTP as their users run them: `serve --http ADDR` on every server
//! binary, and the endpoint mounted in an axum app behind a bearer-token middleware.
#![cfg(all(feature = "http", unix))]

mod common;

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

#[test]
fn a_bearer_token_layer_hands_the_caller_to_the_tool() {
    let served = Served::spawn(
        "http_auth",
        &["127.0.0.1:0"],
        &[("MCP_TOKENS", "s3cret=alice,t0ken=bob")],
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
