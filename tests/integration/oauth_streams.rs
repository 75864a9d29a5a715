//! Streams that outlive their request end when the token that opened them expires: a session's
//! GET stream (2025-11-25) and a `subscriptions/listen` stream (2026-07-28). A token already
//! past its `exp`, accepted within the leeway, opens none: the client gets a new token first.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::http::{Endpoint, Open, Request};
use crate::common::oauth::{FakeAs, now, sign};
use crate::oauth::{assert_refused, bearer, jwt};

/// A token of `sub` that expires in about two seconds (the verifier's leeway, a minute, keeps
/// accepting it after).
fn brief(authority: &FakeAs, sub: &str) -> String {
    let mut claims = authority.claims(sub, "mcp:tools");
    claims["exp"] = json!(now() + 2);
    sign("k1", &claims)
}

/// `request` sent, its response read as it comes, with a read timeout shorter than the
/// keep-alive interval: a stream that does not end reads as one that ended after 10 s.
fn open(endpoint: &Endpoint, request: &Request) -> Open {
    let mut stream = std::net::TcpStream::connect(endpoint.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    std::io::Write::write_all(&mut stream, &request.bytes()).unwrap();
    Open::read_head(stream)
}

/// A 2025-11-25 session opened with `token`: its id.
fn session(endpoint: &Endpoint, token: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let reply = bearer(endpoint.post(&initialize), token).send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let request = endpoint.post(&initialized).session(&session, "2025-11-25");
    assert_eq!(bearer(request, token).send().status, 202);
    session
}

#[test]
fn a_sessions_get_stream_ends_when_its_token_expires() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let token = brief(&authority, "ada");
    let session = session(&endpoint, &token);
    let stream = || {
        let request = Request::new("GET", endpoint.addr)
            .header("Accept", "text/event-stream")
            .session(&session, "2025-11-25");
        bearer(request, &token)
    };
    let start = Instant::now();
    let mut open = open(&endpoint, &stream());
    assert_eq!(open.status, 200);
    assert_eq!(
        open.next_message(),
        None,
        "the stream ends, with nothing on it"
    );
    let lasted = start.elapsed();
    assert!(lasted < Duration::from_secs(8), "{lasted:?}");
    // The same token, past its `exp` though within the leeway, opens no other.
    let again = stream().send();
    assert_refused(&again, 401, Some("invalid_token"), Some("mcp:tools"));
    assert!(
        again.text().contains("the token expired"),
        "{}",
        again.text()
    );
}

#[test]
fn a_listen_stream_ends_with_its_result_when_its_token_expires() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let token = brief(&authority, "ada");
    let listen = || {
        let params = json!({"notifications": {"toolsListChanged": true}});
        bearer(endpoint.modern(7, "subscriptions/listen", params), &token)
    };
    let start = Instant::now();
    let mut open = open(&endpoint, &listen());
    assert_eq!(open.status, 200);
    let ack = open.next_message().expect("the acknowledgement");
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    let end = open.next_message().expect("the subscription's result");
    assert_eq!(end["id"], 7, "{end}");
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    assert_eq!(open.next_message(), None);
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    assert_refused(
        &listen().send(),
        401,
        Some("invalid_token"),
        Some("mcp:tools"),
    );
    // A request that opens no stream is served with that token as before.
    let call = endpoint.modern(8, "tools/list", json!({}));
    assert_eq!(bearer(call, &token).send().status, 200);
}
