//! Requests for prompts and resources as the protocol treats every request: an id in flight is
//! refused, a cancelled request's id can be reused at once (and the late end of the cancelled
//! one does not free the new one's), a URI whose values the parameters cannot take is not
//! found, and a malformed listen filter or too many subscriptions are refused.

use std::time::Duration;

use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::{Error, ProtocolVersion, Server};

/// Takes its time.
///
/// # Arguments
/// * `ms` - How long.
#[mcp_prompt]
async fn slow(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// An item, by number.
#[mcp_resource("item://{id}")]
fn item(id: u32) -> String {
    format!("item {id}")
}

/// Fixed text.
#[mcp_resource("fixed://text")]
fn fixed() -> &'static str {
    "fixed"
}

fn server() -> Server {
    Server::new("items", "1")
        .prompt::<slow>()
        .resource::<item>()
}

fn request(client: &mut Client, id: i64, method: &str, params: Value) {
    let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    client.send_line(&line.to_string());
}

fn answer(client: &mut Client) -> Value {
    loop {
        let message: Value = serde_json::from_str(&client.next_line()).unwrap();
        if message.get("method").is_none() {
            return message;
        }
    }
}

#[test]
fn an_id_in_flight_is_refused_whatever_the_request() {
    let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    request(
        &mut client,
        7,
        "prompts/get",
        json!({"name": "slow", "arguments": {"ms": "300"}}),
    );
    std::thread::sleep(Duration::from_millis(50));
    for (method, params) in [
        ("resources/read", json!({"uri": "item://1"})),
        ("prompts/get", json!({"name": "nope"})),
    ] {
        request(&mut client, 7, method, params);
        let refused = answer(&mut client);
        assert_eq!(refused["error"]["code"], -32600, "{method}: {refused}");
    }
    let done = answer(&mut client);
    assert_eq!(done["id"], 7);
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"],
        "slept 300 ms"
    );
}

#[test]
fn a_cancelled_requests_id_is_free_and_stays_with_its_next_request() {
    let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    request(
        &mut client,
        8,
        "prompts/get",
        json!({"name": "slow", "arguments": {"ms": "200"}}),
    );
    client.notify("notifications/cancelled", json!({"requestId": 8}));
    request(
        &mut client,
        8,
        "prompts/get",
        json!({"name": "slow", "arguments": {"ms": "800"}}),
    );
    // The cancelled one ends meanwhile; the id is still the second request's.
    std::thread::sleep(Duration::from_millis(400));
    request(
        &mut client,
        8,
        "prompts/get",
        json!({"name": "slow", "arguments": {"ms": "1"}}),
    );
    let refused = answer(&mut client);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let done = answer(&mut client);
    assert_eq!(
        done["result"]["messages"][0]["content"]["text"],
        "slept 800 ms"
    );
    client.expect_silence(Duration::from_millis(100));
}

#[test]
fn a_uri_whose_values_do_not_fit_is_not_found() {
    for (revision, code) in [
        (ProtocolVersion::V2025_11_25, -32002),
        (ProtocolVersion::V2026_07_28, -32602),
    ] {
        let mut client = Client::connect(server(), revision).unwrap();
        let missing = client.read_resource("item://abc").unwrap_err();
        assert_eq!(missing.code, code, "{revision}");
        assert_eq!(missing.data, Some(json!({"uri": "item://abc"})));
        assert!(
            missing
                .message
                .contains("the variable `{id}` must be an integer"),
            "{}",
            missing.message
        );
    }
}

#[test]
fn a_malformed_listen_filter_and_too_many_subscriptions_are_refused() {
    let mut modern = Client::connect(server(), ProtocolVersion::V2026_07_28).unwrap();
    let refused = modern
        .listen(json!({"toolsListChanged": true, "resourceSubscriptions": [1]}))
        .unwrap_err();
    assert_eq!(refused.code, -32602, "{refused}");
    assert!(
        refused
            .message
            .starts_with("Invalid params: `notifications`"),
        "{refused}"
    );
    let mut announcing = server();
    let _updates = announcing.resource_updates();
    let mut legacy = Client::connect(announcing, ProtocolVersion::V2025_11_25).unwrap();
    for n in 0..4096 {
        legacy.subscribe(&format!("item://{n}")).unwrap();
    }
    let full = legacy.subscribe("item://4096").unwrap_err();
    assert_eq!(full.code, -32602, "{full}");
    legacy.subscribe("item://1").unwrap();
    legacy.unsubscribe("item://1").unwrap();
    legacy.subscribe("item://4096").unwrap();
}

#[test]
fn a_template_cannot_be_added_to_a_server_that_offered_no_completion() {
    let mut server = Server::new("fixed", "1").resource::<fixed>();
    let handle = server.handle();
    let _client = Client::new(server).unwrap();
    assert!(matches!(
        handle.add_resource::<item>(),
        Err(Error::Setting(_))
    ));
}
