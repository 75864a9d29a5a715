//! Tools that change while the server runs: a handle adds, removes, enables and disables them;
//! handshake sessions hear `notifications/tools/list_changed`, 2026-07-28 `subscriptions/listen`
//! streams that asked for it hear it tagged with their subscription; calls in flight keep
//! their tool.

use crate::common;

use std::time::Duration;

use common::PipedServer;
use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::visibility::ItemKind;
use toolwright::{Error, ProtocolVersion, Server, ServerHandle};

/// Says a.
#[mcp_tool]
fn alpha() -> &'static str {
    "a"
}

/// Says b.
#[mcp_tool]
fn beta() -> &'static str {
    "b"
}

/// A module of its own: two tools of one name in one module are a compile error.
mod again {
    use toolwright::prelude::*;

    /// Named as `gamma`, and defined before it.
    #[mcp_tool(name = "gamma")]
    pub(super) fn gamma_again() -> &'static str {
        "g again"
    }
}
use again::gamma_again;

/// Says g, once added.
#[mcp_tool]
fn gamma() -> &'static str {
    "g"
}

/// Takes its time.
#[mcp_tool]
async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "slept"
}

fn server() -> (Server, ServerHandle) {
    let mut server = Server::new("changing", "1")
        .tool::<alpha>()
        .tool::<beta>()
        .tool::<slow>();
    let handle = server.handle();
    (server, handle)
}

fn names(list: &Value) -> Vec<&str> {
    let tools = list["result"]["tools"].as_array().expect("a list");
    tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
}

fn is_list_changed(message: &Value) -> bool {
    message["method"] == "notifications/tools/list_changed"
}

#[test]
fn handshake_sessions_hear_of_each_change() {
    let (server, handle) = server();
    assert!(matches!(
        handle.disable_tool("beta"),
        Err(Error::NotServing)
    ));
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    let init = client.initialize("2025-11-25");
    assert_eq!(
        init["result"]["capabilities"]["tools"]["listChanged"], true,
        "{init}"
    );

    handle.disable_tool("beta").unwrap();
    assert!(is_list_changed(&client.recv()));
    let list = client.ask("tools/list", json!({}));
    assert_eq!(names(&list), ["alpha", "slow"]);
    let call = client.ask("tools/call", json!({"name": "beta", "arguments": {}}));
    assert_eq!(call["error"]["message"], "Unknown tool: beta", "{call}");

    // Nothing changed, nothing said.
    handle.disable_tool("beta").unwrap();
    client.expect_silence(Duration::from_millis(100));

    handle.enable_tool("beta").unwrap();
    assert!(is_list_changed(&client.recv()));
    handle.add_tool::<gamma>().unwrap();
    assert!(is_list_changed(&client.recv()));
    handle.remove_tool("alpha").unwrap();
    assert!(is_list_changed(&client.recv()));
    let list = client.ask("tools/list", json!({}));
    assert_eq!(names(&list), ["beta", "gamma", "slow"]);
    let call = client.ask("tools/call", json!({"name": "gamma", "arguments": {}}));
    assert_eq!(call["result"]["content"][0]["text"], "g");

    assert!(matches!(
        handle.add_tool::<gamma>(),
        Err(Error::Clash {
            kind: ItemKind::Tool,
            ..
        })
    ));
    assert!(
        matches!(handle.remove_tool("alpha"), Err(Error::Unknown { kind: ItemKind::Tool, name }) if name == "alpha")
    );
    client.expect_silence(Duration::from_millis(100));
    piped.finish().unwrap();
}

#[test]
fn a_call_in_flight_keeps_its_tool() {
    let (server, handle) = server();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.initialize("2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}}));
    std::thread::sleep(Duration::from_millis(50));
    handle.remove_tool("slow").unwrap();
    assert!(is_list_changed(&client.recv()));
    let answer = client.recv();
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["result"]["content"][0]["text"], "slept", "{answer}");
    piped.finish().unwrap();
}

/// A 2026-07-28 request's `_meta`.
fn modern(mut params: Value) -> Value {
    params["_meta"] = common::modern_meta();
    params
}

#[test]
fn listen_streams_that_asked_hear_of_changes() {
    let (server, handle) = server();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
        "params": modern(json!({}))}),
    );
    let discover = client.recv();
    assert_eq!(
        discover["result"]["capabilities"]["tools"]["listChanged"],
        true
    );
    assert_eq!(
        discover["result"]["ttlMs"], 0,
        "a list that can change is not cached"
    );

    client.send(
        &json!({"jsonrpc": "2.0", "id": "tools", "method": "subscriptions/listen",
        "params": modern(json!({"notifications": {"toolsListChanged": true}}))}),
    );
    let ack = client.recv();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    client.send(
        &json!({"jsonrpc": "2.0", "id": "other", "method": "subscriptions/listen",
        "params": modern(json!({"notifications": {}}))}),
    );
    let ack = client.recv();
    assert_eq!(ack["params"]["notifications"], json!({}));

    handle.disable_tool("alpha").unwrap();
    let changed = client.recv();
    assert!(is_list_changed(&changed), "{changed}");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "tools"
    );
    // Only the stream that asked.
    client.expect_silence(Duration::from_millis(100));

    client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "tools"}}),
    );
    std::thread::sleep(Duration::from_millis(50));
    handle.enable_tool("alpha").unwrap();
    client.expect_silence(Duration::from_millis(100));
    piped.finish().unwrap();
}

#[test]
fn a_server_without_a_handle_says_its_list_never_changes() {
    let mut piped = PipedServer::start(Server::new("fixed", "1").tool::<alpha>());
    let init = piped.client.initialize("2025-11-25");
    assert_eq!(
        init["result"]["capabilities"]["tools"]["listChanged"],
        false
    );
    piped.finish().unwrap();
}

/// Over HTTP, a handshake session hears of changes on its GET stream, and the stream can be
/// opened again after a client let it go.
#[cfg(feature = "http")]
#[test]
fn http_sessions_hear_of_changes_on_their_get_stream() {
    use common::http::{Endpoint, Request};
    let (server, handle) = server();
    let endpoint = Endpoint::start(server);
    let session = endpoint.initialize("2025-11-25");
    let get = || {
        Request::new("GET", endpoint.addr)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", &session)
            .header("MCP-Protocol-Version", "2025-11-25")
    };
    let mut stream = get().open();
    assert_eq!(stream.status, 200);
    handle.disable_tool("beta").unwrap();
    let changed = stream.next_message().expect("a notification");
    assert!(is_list_changed(&changed), "{changed}");
    drop(stream);
    // A client that reconnects hears of the next change.
    let mut stream = (0..50)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(10));
            get().open()
        })
        .find(|s| s.status == 200)
        .expect("the GET stream opens again");
    handle.enable_tool("beta").unwrap();
    assert!(is_list_changed(&stream.next_message().unwrap()));
    let list = endpoint
        .in_session(&session, "2025-11-25", 3, "tools/list", json!({}))
        .send();
    assert_eq!(names(&list.answer()), ["alpha", "beta", "slow"]);
}

/// Over HTTP on 2026-07-28, the listen request's own response carries the notifications, for
/// as long as the client reads it.
#[cfg(feature = "http")]
#[test]
fn http_listen_streams_hear_of_changes() {
    use common::http::Endpoint;
    let (server, handle) = server();
    let endpoint = Endpoint::start(server);
    let mut stream = endpoint
        .modern(
            5,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        )
        .open();
    assert_eq!(stream.status, 200);
    let ack = stream.next_message().unwrap();
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true}),
        "{ack}"
    );
    handle.disable_tool("alpha").unwrap();
    let changed = stream.next_message().unwrap();
    assert!(is_list_changed(&changed), "{changed}");
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        5
    );
    let list = endpoint.modern(6, "tools/list", json!({})).send();
    assert_eq!(names(&list.answer()), ["beta", "slow"]);
    assert_eq!(list.answer()["result"]["ttlMs"], 0);
}

/// Who is calling, as an HTTP layer would put it into a request.
#[derive(Clone)]
struct Caller {
    _name: &'static str,
}

#[test]
fn an_in_process_client_that_carries_extensions_still_hears_of_changes() {
    // In a session: `initialize` registered the connection before the extensions came.
    let (built, handle) = server();
    let mut client = toolwright::testing::Client::connect(built, ProtocolVersion::V2025_11_25)
        .unwrap()
        .extension(Caller { _name: "ada" })
        .extension(Caller { _name: "bob" });
    handle.disable_tool("beta").unwrap();
    let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert!(is_list_changed(&heard), "{heard}");

    // On 2026-07-28: a `subscriptions/listen` opened before the extensions changed.
    let (built, handle) = server();
    let mut client = toolwright::testing::Client::connect(built, ProtocolVersion::V2026_07_28)
        .unwrap()
        .extension(Caller { _name: "ada" });
    let listen = json!({"jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": true},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }
    }});
    client.send_line(&listen.to_string());
    let ack: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    let mut client = client.extension(Caller { _name: "bob" });
    handle.disable_tool("beta").unwrap();
    let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert!(is_list_changed(&heard), "{heard}");
}

#[test]
fn a_name_clash_through_the_handle_names_the_served_tool_first() {
    let (mut server, _) = server();
    let handle = server.handle();
    let _client = toolwright::testing::Client::new(server).unwrap();
    handle.add_tool::<gamma>().unwrap();
    let Err(Error::Clash {
        kind: ItemKind::Tool,
        detail,
        first,
        second,
    }) = handle.add_tool::<gamma_again>()
    else {
        panic!("a clash");
    };
    assert_eq!(detail, "two tools are named `gamma`");
    let line = |location: &str| -> u32 { location.rsplit(':').next().unwrap().parse().unwrap() };
    // `gamma_again` is defined above `gamma`, yet the served tool comes first.
    assert!(line(&first) > line(&second), "{first} then {second}");
}
