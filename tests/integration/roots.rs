//! The client's roots: asked once per handshake session, asked again after the client says they
//! changed (and the server hears it); a round per call on 2026-07-28, where nothing is kept.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use toolwright::ProtocolVersion;
use toolwright::asking::Root;
use toolwright::prelude::*;
use toolwright::testing::{Answers, Client};

/// Says whether a path is inside one of the client's roots.
#[mcp_tool(read_only)]
async fn allowed(path: String, roots: Roots) -> Result<bool, ToolError> {
    let roots = roots.list().await?;
    Ok(roots.iter().any(|root| path.starts_with(&root.uri)))
}

/// The client's roots, and how often the server asked for them.
#[derive(Clone, Default)]
struct Side {
    roots: Arc<Mutex<Vec<Root>>>,
    asked: Arc<AtomicUsize>,
    heard: Arc<Mutex<Vec<Option<Vec<Root>>>>>,
}

impl Side {
    fn answers(&self) -> Answers {
        let side = self.clone();
        Answers::new().roots_with(move || {
            side.asked.fetch_add(1, Ordering::SeqCst);
            side.roots.lock().unwrap().clone()
        })
    }

    fn server(&self) -> Server {
        let heard = Arc::clone(&self.heard);
        Server::new("roots", "1")
            .tool::<allowed>()
            .on_roots_changed(move |change| heard.lock().unwrap().push(change.before))
    }

    fn set(&self, uris: &[&str]) {
        *self.roots.lock().unwrap() = uris.iter().map(|uri| Root::new(*uri)).collect();
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }
}

fn allowed_path(client: &mut Client, path: &str) -> bool {
    let result = client.call("allowed", json!({"path": path})).unwrap();
    assert!(!result.is_error(), "{}", result.text());
    result.text() == "true"
}

#[test]
fn a_session_asks_once_and_again_after_each_change() {
    for revision in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_11_25] {
        let side = Side::default();
        side.set(&["file:///work/a"]);
        let mut client =
            Client::connect_answering(side.server(), revision, side.answers()).unwrap();
        for _ in 0..50 {
            assert!(allowed_path(&mut client, "file:///work/a/x.rs"));
            assert!(!allowed_path(&mut client, "file:///work/b/y.rs"));
        }
        assert_eq!(side.asked(), 1, "{revision}: one roots/list for 100 calls");

        side.set(&["file:///work/b"]);
        client.notify("notifications/roots/list_changed", json!({}));
        assert!(
            allowed_path(&mut client, "file:///work/b/y.rs"),
            "{revision}"
        );
        assert!(
            !allowed_path(&mut client, "file:///work/a/x.rs"),
            "{revision}"
        );
        assert_eq!(side.asked(), 2, "{revision}: one more after the change");

        // Two changes before the next call: one ask.
        client.notify("notifications/roots/list_changed", json!({}));
        client.notify("notifications/roots/list_changed", json!({}));
        assert!(allowed_path(&mut client, "file:///work/b/z.rs"));
        assert_eq!(side.asked(), 3, "{revision}");

        // The hook heard each change, with the roots the session had known.
        let heard = side.heard.lock().unwrap().clone();
        assert_eq!(
            heard,
            [
                Some(vec![Root::new("file:///work/a")]),
                Some(vec![Root::new("file:///work/b")]),
                None
            ],
            "{revision}"
        );
    }
}

#[test]
fn each_2026_call_takes_a_round_for_the_roots() {
    let side = Side::default();
    side.set(&["file:///work/a"]);
    let mut client =
        Client::connect_answering(side.server(), ProtocolVersion::V2026_07_28, side.answers())
            .unwrap();
    for _ in 0..5 {
        assert!(allowed_path(&mut client, "file:///work/a/x.rs"));
    }
    assert_eq!(side.asked(), 5, "nothing outlives a 2026-07-28 request");
}

/// Calls that start together, in a session that has not read its roots yet, share one ask:
/// over stdio, the client answers the one `roots/list` late, while the others wait for it.
#[test]
fn calls_at_once_share_one_ask() {
    let mut piped = common::PipedServer::start(Server::new("roots", "1").tool::<allowed>());
    let client = &mut piped.client;
    let init = client.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {"roots": {"listChanged": true}},
               "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for id in 1..=8 {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "allowed", "arguments": {"path": "file:///work/a/x"}}}));
    }
    let (mut asks, mut answered) = (0, 0);
    while answered < 8 {
        let message = client.recv();
        if message["method"] == "roots/list" {
            asks += 1;
            // Late, so that every call is waiting by now.
            std::thread::sleep(std::time::Duration::from_millis(200));
            client.send(&json!({"jsonrpc": "2.0", "id": message["id"],
                "result": {"roots": [{"uri": "file:///work/a"}]}}));
        } else {
            assert_eq!(message["result"]["content"][0]["text"], "true", "{message}");
            answered += 1;
        }
    }
    assert_eq!(asks, 1, "the calls shared one ask");
    piped.finish().unwrap();
}

/// A hook that panics is reported on stderr; the session goes on.
#[test]
fn a_panicking_hook_does_not_end_the_session() {
    let side = Side::default();
    side.set(&["file:///work/a"]);
    let server = Server::new("roots", "1")
        .tool::<allowed>()
        .on_roots_changed(|_| panic!("the hook failed"));
    let mut client =
        Client::connect_answering(server, ProtocolVersion::V2025_11_25, side.answers()).unwrap();
    assert!(allowed_path(&mut client, "file:///work/a/x"));
    client.notify("notifications/roots/list_changed", json!({}));
    assert!(allowed_path(&mut client, "file:///work/a/x"));
    assert_eq!(side.asked(), 2);
}

/// A client that does not announce changes to its roots (`roots: {}` without `listChanged`)
/// is asked on every call: what it said could change unseen.
#[test]
fn a_client_that_announces_no_changes_is_asked_every_time() {
    let mut piped = common::PipedServer::start(Server::new("roots", "1").tool::<allowed>());
    let client = &mut piped.client;
    client.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {"roots": {}},
               "clientInfo": {"name": "t", "version": "0"}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let mut asks = 0;
    for id in 1..=3 {
        client.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "allowed", "arguments": {"path": "file:///work/a/x"}}}));
        loop {
            let message = client.recv();
            if message["method"] != "roots/list" {
                assert_eq!(message["result"]["content"][0]["text"], "true", "{message}");
                break;
            }
            asks += 1;
            client.send(&json!({"jsonrpc": "2.0", "id": message["id"],
                "result": {"roots": [{"uri": "file:///work/a"}]}}));
        }
    }
    assert_eq!(asks, 3);
    piped.finish().unwrap();
}
