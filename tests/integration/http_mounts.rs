//! A mounted server over Streamable HTTP: a 2026-07-28 request names the namespaced tool,
//! prompt or URI in `Mcp-Name` (the child's own name is refused as any other mismatch), a
//! mounted tool's `Mcp-Param-*` headers are checked against its arguments, and a mounted
//! resource's update reaches a listen stream and a session's GET stream by its namespaced URI.

use serde_json::{Value, json};
use toolwright::Server;
use toolwright::prelude::*;
use toolwright::resources::ResourceUpdates;

use crate::common::http::{Endpoint, Request};

/// Finds issues in a region.
#[mcp_tool]
fn find(#[arg(header = "Region")] region: String, query: String) -> String {
    format!("{query} in {region}")
}

/// Greets someone.
///
/// # Arguments
/// * `name` - Who.
#[mcp_prompt]
fn hello(name: String) -> String {
    format!("Hello, {name}!")
}

/// An issue.
#[mcp_resource("issues://{n}")]
fn issue(n: u32) -> String {
    format!("issue {n}")
}

fn server() -> (Server, ResourceUpdates) {
    let mut child = Server::new("tracker", "1")
        .tool::<find>()
        .prompt::<hello>()
        .resource::<issue>();
    let updates = child.resource_updates();
    (Server::new("team", "1").mount("gh", child), updates)
}

fn call(endpoint: &Endpoint, name: &str, region: &str) -> Request {
    let arguments = json!({"region": "eu", "query": "bugs"});
    endpoint
        .modern(
            1,
            "tools/call",
            json!({"name": "gh_find", "arguments": arguments}),
        )
        .header("Mcp-Name", name)
        .header("Mcp-Param-Region", region)
}

#[test]
fn a_2026_request_names_what_the_parent_serves() {
    let (server, _) = server();
    let endpoint = Endpoint::start(server);
    let found = call(&endpoint, "gh_find", "eu").send();
    assert_eq!(found.status, 200, "{}", found.text());
    assert_eq!(found.json()["result"]["content"][0]["text"], "bugs in eu");
    for (name, region) in [("find", "eu"), ("gh_find", "us")] {
        let refused = call(&endpoint, name, region).send();
        assert_eq!(refused.status, 400, "{name} {region}: {}", refused.text());
    }
    let prompt = json!({"name": "gh_hello", "arguments": {"name": "Ada"}});
    let got = endpoint.modern(2, "prompts/get", prompt.clone()).send();
    assert_eq!(
        got.json()["result"]["messages"][0]["content"]["text"],
        "Hello, Ada!"
    );
    let refused = endpoint
        .modern(3, "prompts/get", prompt)
        .header("Mcp-Name", "hello")
        .send();
    assert_eq!(refused.status, 400);
    let read = endpoint
        .modern(4, "resources/read", json!({"uri": "issues://gh/2"}))
        .send();
    let read: Value = read.json();
    assert_eq!(
        read["result"]["contents"][0]["uri"], "issues://gh/2",
        "{read}"
    );
    let refused = endpoint
        .modern(5, "resources/read", json!({"uri": "issues://gh/2"}))
        .header("Mcp-Name", "issues://2")
        .send();
    assert_eq!(refused.status, 400);
}

#[test]
fn updates_reach_listen_streams_and_sessions_by_the_namespaced_uri() {
    let (server, updates) = server();
    let endpoint = Endpoint::start(server);
    let mut listen = endpoint
        .modern(
            7,
            "subscriptions/listen",
            json!({"notifications": {"resourceSubscriptions": ["issues://gh/5"]}}),
        )
        .open();
    listen.next_message().expect("the acknowledgement");
    let session = endpoint.initialize("2025-11-25");
    let subscribe = endpoint
        .in_session(
            &session,
            "2025-11-25",
            1,
            "resources/subscribe",
            json!({"uri": "issues://gh/5"}),
        )
        .send();
    assert_eq!(subscribe.answer()["result"], json!({}));
    let mut stream = Request::new("GET", endpoint.addr)
        .header("Accept", "text/event-stream")
        .session(&session, "2025-11-25")
        .open();
    assert_eq!(stream.status, 200);
    updates.updated("issues://5").unwrap();
    for heard in [listen.next_message(), stream.next_message()] {
        let heard = heard.expect("the update");
        assert_eq!(heard["method"], "notifications/resources/updated");
        assert_eq!(heard["params"]["uri"], "issues://gh/5", "{heard}");
    }
}
