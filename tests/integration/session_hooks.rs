//! A session's life as the author hears it (initialized, subscribe and unsubscribe, which a hook
//! may refuse, its end), what clients are subscribed to, and log messages that belong to no
//! request: over stdio, in process and over HTTP, in both eras.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::PipedServer;
use serde_json::json;
use toolwright::prelude::*;
use toolwright::resources::ResourceUpdates;
use toolwright::{McpError, ProtocolVersion, Server};

/// A note.
#[mcp_resource("notes://{id}")]
fn note(id: String) -> String {
    format!("note {id}")
}

/// What the hooks heard, in order.
type Heard = Arc<Mutex<Vec<String>>>;

fn hooked() -> (Server, Heard, ResourceUpdates) {
    let heard = Heard::default();
    let hear = |heard: &Heard| {
        let heard = Arc::clone(heard);
        move |line: String| heard.lock().unwrap().push(line)
    };
    let (initialized, subscribe, unsubscribe, ended) =
        (hear(&heard), hear(&heard), hear(&heard), hear(&heard));
    let mut server = Server::new("hooked", "1")
        .resource::<note>()
        .on_initialized(move |session| {
            let client = session.client_info().map(|c| c.name.clone());
            initialized(format!(
                "initialized {} {:?} {:?} roots={}",
                session.protocol_version(),
                session.id().is_some(),
                client,
                session.declares("roots")
            ))
        })
        .on_subscribe(move |session, uri| {
            subscribe(format!("subscribe {uri} {:?}", session.subscriptions()));
            match uri.starts_with("notes://secret") {
                true => Err(McpError::invalid_params("secret notes cannot be watched")),
                false => Ok(()),
            }
        })
        .on_unsubscribe(move |session, uri| {
            unsubscribe(format!("unsubscribe {uri} {:?}", session.subscriptions()))
        })
        .on_session_end(move |session| ended(format!("ended {:?}", session.subscriptions())));
    let updates = server.resource_updates();
    (server, heard, updates)
}

fn heard(heard: &Heard) -> Vec<String> {
    heard.lock().unwrap().clone()
}

#[test]
fn a_stdio_session_is_heard_from_start_to_end() {
    let (server, log, updates) = hooked();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.request(
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"roots": {}},
            "clientInfo": {"name": "hooks-test", "version": "0"}
        }),
    );
    assert!(heard(&log).is_empty(), "nothing before `initialized`");
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let subscribed = client.request("resources/subscribe", json!({"uri": "notes://1"}));
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    assert_eq!(
        heard(&log),
        [
            "initialized 2025-11-25 false Some(\"hooks-test\") roots=true",
            "subscribe notes://1 []",
        ]
    );

    let refused = client.request("resources/subscribe", json!({"uri": "notes://secret/2"}));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "secret notes cannot be watched"
    );
    // Any URI may be subscribed to, even one no resource serves yet.
    client.request("resources/subscribe", json!({"uri": "notes://3"}));
    assert_eq!(
        updates.subscriptions().unwrap(),
        ["notes://1", "notes://3"],
        "the refused one is not subscribed"
    );
    updates.updated("notes://secret/2").unwrap();
    updates.updated("notes://3").unwrap();
    let update = client.recv();
    assert_eq!(update["method"], "notifications/resources/updated");
    assert_eq!(update["params"]["uri"], "notes://3");

    // Subscribing again to what it has asks the hook nothing.
    let again = client.request("resources/subscribe", json!({"uri": "notes://3"}));
    assert_eq!(again["result"], json!({}), "{again}");
    let unsubscribed = client.request("resources/unsubscribe", json!({"uri": "notes://1"}));
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");
    // Unsubscribing from what it never subscribed to is no error, and nothing to hear.
    let never = client.request("resources/unsubscribe", json!({"uri": "notes://9"}));
    assert_eq!(never["result"], json!({}), "{never}");
    // A second `initialized` is not a second start.
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(updates.subscriptions().unwrap(), ["notes://3"]);
    piped.finish().unwrap();
    let heard = heard(&log);
    assert_eq!(
        &heard[3..],
        [
            "subscribe notes://3 [\"notes://1\"]",
            "unsubscribe notes://1 [\"notes://3\"]",
            "ended [\"notes://3\"]",
        ],
        "{heard:#?}"
    );
}

#[test]
fn a_panicking_hook_changes_nothing_but_refuses_what_it_was_asked() {
    let ran = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (first, second) = (Arc::clone(&ran), Arc::clone(&ran));
    let mut server = Server::new("hooked", "1")
        .resource::<note>()
        .on_initialized(move |_| {
            first.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            panic!("the initialized hook failed")
        })
        .on_subscribe(move |_, _| {
            second.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            panic!("the subscribe hook failed")
        });
    let updates = server.resource_updates();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.initialize("2025-06-18");
    let refused = client.request("resources/subscribe", json!({"uri": "notes://1"}));
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert!(updates.subscriptions().unwrap().is_empty());
    // The session serves on.
    let read = client.request("resources/read", json!({"uri": "notes://1"}));
    assert_eq!(read["result"]["contents"][0]["text"], "note 1");
    assert_eq!(
        ran.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "both hooks ran"
    );
    piped.finish().unwrap();
}

#[cfg(feature = "http")]
#[test]
fn an_http_session_still_open_when_the_endpoint_stops_is_heard_ending_once() {
    use common::http::Endpoint;
    let (server, log, _) = hooked();
    let endpoint = Endpoint::start(server);
    endpoint.initialize("2025-11-25");
    endpoint.stop().unwrap();
    let heard = heard(&log);
    assert_eq!(heard.len(), 2, "{heard:?}");
    assert_eq!(heard[1], "ended []");
}

#[cfg(feature = "http")]
#[test]
fn an_http_session_is_heard_with_its_id_and_a_modern_request_is_not() {
    use common::http::{Endpoint, Request};
    let (server, log, updates) = hooked();
    let endpoint = Endpoint::start(server);
    let modern = endpoint
        .modern(1, "resources/read", json!({"uri": "notes://1"}))
        .send()
        .answer();
    assert_eq!(modern["result"]["contents"][0]["text"], "note 1");
    assert!(heard(&log).is_empty(), "2026-07-28 has no sessions");

    let session = endpoint.initialize("2025-11-25");
    let subscribe = json!({"uri": "notes://7"});
    let subscribed = endpoint
        .in_session(&session, "2025-11-25", 2, "resources/subscribe", subscribe)
        .send()
        .answer();
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    // A session with no GET stream open is subscribed all the same.
    assert_eq!(updates.subscriptions().unwrap(), ["notes://7"]);
    let ended = Request::new("DELETE", endpoint.addr)
        .header("Mcp-Session-Id", &session)
        .send();
    assert_eq!(ended.status, 200);
    // Ended once, though the endpoint closes what is left when it stops.
    drop(endpoint);
    assert_eq!(
        heard(&log),
        [
            "initialized 2025-11-25 true Some(\"toolwright-tests\") roots=false",
            "subscribe notes://7 []",
            "ended [\"notes://7\"]",
        ]
    );
}

fn logging_server() -> (Server, toolwright::context::ServerLog) {
    let mut server = Server::new("logging", "1").resource::<note>();
    let log = server.server_log().logger("watcher");
    (server, log)
}

#[test]
fn the_server_log_reaches_each_session_at_its_level() {
    let (server, log) = logging_server();
    assert_eq!(log.info("before"), 0, "not serving yet");
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.initialize("2025-11-25");
    assert_eq!(log.info("the disk is filling"), 1);
    let message = client.recv();
    assert_eq!(
        message,
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "info", "logger": "watcher", "data": "the disk is filling"
        }})
    );
    client.request("logging/setLevel", json!({"level": "error"}));
    assert_eq!(log.warning("below the session's level"), 0);
    let unnamed = log.clone().without_logger();
    assert_eq!(unnamed.send(Level::Critical, &json!({"disk": "/"})), 1);
    let message = client.recv();
    assert_eq!(
        message["params"],
        json!({"level": "critical", "data": {"disk": "/"}})
    );
    client.expect_silence(Duration::from_millis(100));
    piped.finish().unwrap();
    assert_eq!(log.error("after"), 0);
}

#[test]
fn a_modern_listen_stream_hears_no_server_log() {
    let (server, log) = logging_server();
    let mut client =
        toolwright::testing::Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let ack = client
        .listen(json!({"resourcesListChanged": true, "resourceSubscriptions": ["notes://1"]}))
        .unwrap();
    assert!(ack.is_object(), "{ack}");
    assert_eq!(log.error("nobody hears this"), 0);
}

#[cfg(feature = "http")]
#[test]
fn an_http_session_hears_the_server_log_on_its_get_stream() {
    use common::http::{Endpoint, Request};
    let (server, log) = logging_server();
    let endpoint = Endpoint::start(server);
    let session = endpoint.initialize("2025-11-25");
    assert_eq!(
        log.info("no stream yet"),
        0,
        "a session without a GET stream"
    );
    let mut stream = Request::new("GET", endpoint.addr)
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", &session)
        .header("MCP-Protocol-Version", "2025-11-25")
        .open();
    assert_eq!(stream.status, 200);
    assert_eq!(log.info("on the stream"), 1);
    let message = stream.next_message().expect("a message");
    assert_eq!(message["params"]["data"], "on the stream", "{message}");
}
