//! Prompts and resources over Streamable HTTP: a 2026-07-28 request checked against its
//! `Mcp-Name` header (the prompt, the URI), the cache hints of lists and reads (a resource's
//! own, where it sets them), the not-found
//! error, and a resource's update reaching its subscriber: on a 2026-07-28 listen stream, and
//! on a session's GET stream after `resources/subscribe`.

use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::{Server, ServerHandle};

use crate::common::http::Endpoint;

/// Greets someone.
///
/// # Arguments
/// * `name` - Who.
#[mcp_prompt]
fn hello(name: String) -> String {
    format!("Hello, {name}!")
}

/// A page, by number.
#[mcp_resource("pages://{page}", mime_type = "text/plain")]
fn page(page: u32) -> Option<String> {
    (page < 10).then(|| format!("page {page}"))
}

/// The index, for its reader only, and only for a few seconds.
#[mcp_resource("index://pages", ttl_ms = 5000, cache = "private")]
fn index() -> &'static str {
    "pages 0 to 9"
}

/// Rewrites a page: its subscribers hear of it.
#[mcp_tool]
fn rewrite(page: u32, server: State<ServerHandle>) -> String {
    server.resource_updated(&format!("pages://{page}")).unwrap();
    format!("rewrote page {page}")
}

fn server() -> Server {
    let mut server = Server::new("pages", "1");
    let handle = server.handle();
    server
        .state(handle)
        .prompt::<hello>()
        .resource::<page>()
        .resource::<index>()
        .tool::<rewrite>()
}

fn result(answer: &Value) -> &Value {
    &answer["result"]
}

#[test]
fn a_2026_request_names_its_prompt_or_uri_in_mcp_name() {
    let endpoint = Endpoint::start(server());
    let got = endpoint
        .modern(
            1,
            "prompts/get",
            json!({"name": "hello", "arguments": {"name": "Ada"}}),
        )
        .send();
    assert_eq!(got.status, 200, "{}", got.text());
    let got = got.json();
    assert_eq!(
        result(&got)["messages"][0]["content"]["text"],
        "Hello, Ada!"
    );
    let read = endpoint
        .modern(2, "resources/read", json!({"uri": "pages://3"}))
        .send();
    let read = read.json();
    assert_eq!(result(&read)["contents"][0]["text"], "page 3");
    assert!(result(&read)["ttlMs"].is_u64(), "{read}");
    assert_eq!(result(&read)["resultType"], "complete");
    for (method, params, wrong) in [
        (
            "prompts/get",
            json!({"name": "hello", "arguments": {"name": "Ada"}}),
            "bye",
        ),
        ("resources/read", json!({"uri": "pages://3"}), "pages://4"),
    ] {
        let refused = endpoint
            .modern(3, method, params)
            .header("Mcp-Name", wrong)
            .send();
        assert_eq!(refused.status, 400, "{method}: {}", refused.text());
        assert_eq!(refused.json()["error"]["code"], -32020, "{method}");
    }
    let missing = endpoint
        .modern(4, "resources/read", json!({"uri": "pages://12"}))
        .send();
    assert_eq!(missing.status, 200);
    let error = &missing.json()["error"];
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(error["data"]["uri"], "pages://12");
    let templates = endpoint
        .modern(5, "resources/templates/list", json!({}))
        .send()
        .json();
    assert_eq!(
        result(&templates)["resourceTemplates"][0]["uriTemplate"],
        "pages://{page}"
    );
    assert_eq!(result(&templates)["cacheScope"], "public");
}

#[test]
fn a_listen_stream_hears_of_the_resources_it_names() {
    let endpoint = Endpoint::start(server());
    let mut listen = endpoint
        .modern(
            7,
            "subscriptions/listen",
            json!({"notifications": {"resourceSubscriptions": ["pages://2"]}}),
        )
        .open();
    let ack = listen.next_message().expect("the acknowledgement");
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["pages://2"]})
    );
    for page in [1, 2] {
        let call = json!({"name": "rewrite", "arguments": {"page": page}});
        assert_eq!(endpoint.modern(8, "tools/call", call).send().status, 200);
    }
    let heard = listen.next_message().expect("the update");
    assert_eq!(heard["method"], "notifications/resources/updated");
    assert_eq!(
        heard["params"]["uri"], "pages://2",
        "only the page it named"
    );
    assert_eq!(
        heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
}

#[test]
fn a_session_hears_of_its_subscriptions_on_its_get_stream() {
    let endpoint = Endpoint::start(server());
    let session = endpoint.initialize("2025-11-25");
    let subscribe = endpoint
        .in_session(
            &session,
            "2025-11-25",
            1,
            "resources/subscribe",
            json!({"uri": "pages://5"}),
        )
        .send();
    assert_eq!(subscribe.answer()["result"], json!({}));
    let mut stream = crate::common::http::Request::new("GET", endpoint.addr)
        .header("Accept", "text/event-stream")
        .session(&session, "2025-11-25")
        .open();
    assert_eq!(stream.status, 200);
    let call = json!({"name": "rewrite", "arguments": {"page": 5}});
    let done = endpoint
        .in_session(&session, "2025-11-25", 2, "tools/call", call)
        .send();
    assert_eq!(done.status, 200);
    let heard = stream.next_message().expect("the update");
    assert_eq!(heard["method"], "notifications/resources/updated");
    assert_eq!(heard["params"], json!({"uri": "pages://5"}));
}
