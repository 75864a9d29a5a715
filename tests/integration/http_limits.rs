//! A body over the limit: the client gets its 413 however it sends, and the server goes on. A
//! connection quiet for longer than the head's bound is closed, and one waiting for its answer
//! is not.
#![cfg(all(feature = "http", unix))]

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::TIMEOUT;
use common::http::{Endpoint, Open};
use serde_json::json;
use toolwright::Server;
use toolwright::http::Http;
use toolwright::prelude::*;

/// Echoes its text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Naps for three times the quiet bound of `quiet_endpoint`.
#[mcp_tool]
fn nap() -> String {
    std::thread::sleep(QUIET * 3);
    "rested".to_owned()
}

const LIMIT: usize = 64 << 10;
const QUIET: Duration = Duration::from_millis(300);

fn endpoint() -> Endpoint {
    Endpoint::start_with(
        Server::new("limits", "1").tool::<echo>(),
        Http::new().max_body(LIMIT),
    )
}

/// A 2026-07-28 call of `echo` whose body is `size` bytes, the head and the body as bytes.
fn oversized(endpoint: &Endpoint, size: usize) -> (Vec<u8>, Vec<u8>) {
    let text = "x".repeat(size);
    let request = endpoint.modern(
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": text}}),
    );
    let raw = request.bytes();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    (raw[..split].to_vec(), raw[split..].to_vec())
}

/// A client that sends its whole request before it reads anything, as the Python SDK's does:
/// on a server that answers and closes while the body still arrives, its writes or its read
/// fail with a reset and it never sees the status.
#[test]
fn a_client_that_sends_everything_first_reads_the_413() {
    let endpoint = endpoint();
    let (head, body) = oversized(&endpoint, 8 << 20);
    let mut stream = TcpStream::connect(endpoint.addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.write_all(&head).unwrap();
    for piece in body.chunks(256 << 10) {
        stream
            .write_all(piece)
            .expect("the server reads the whole body");
    }
    let reply = Open::read_head(stream).finish();
    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.json()["error"]["message"],
        format!("Payload Too Large: the body exceeds the {LIMIT}-byte limit")
    );
    // And it goes on serving.
    let next = endpoint
        .modern(
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "hi"}}),
        )
        .send();
    assert_eq!(next.json()["result"]["content"][0]["text"], "hi");
}

/// A client that asks before it sends (`Expect: 100-continue`) is refused before it sends.
#[test]
fn a_client_waiting_to_continue_is_refused_before_it_sends() {
    let endpoint = endpoint();
    let (head, _) = oversized(&endpoint, 8 << 20);
    let head = String::from_utf8(head).unwrap();
    let head = head.replace("\r\n\r\n", "\r\nExpect: 100-continue\r\n\r\n");
    let mut stream = TcpStream::connect(endpoint.addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let reply = Open::read_head(stream.try_clone().unwrap()).finish();
    assert_eq!(reply.status, 413);
    assert_eq!(reply.header("connection"), Some("close"));
    // Nothing more comes: no `100 Continue`, and the connection is closed.
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
}

/// A body declared far over what the server would read is refused at once, and one that never
/// comes is given up on after the body's time: neither holds the server.
#[test]
fn a_body_too_large_to_read_or_never_sent_is_refused_in_bounded_time() {
    let endpoint = Endpoint::start_with(
        Server::new("limits", "1").tool::<echo>(),
        Http::new()
            .max_body(LIMIT)
            .body_timeout(std::time::Duration::from_millis(300)),
    );
    for declared in [1usize << 30, 8 << 20] {
        let (head, _) = oversized(&endpoint, 100);
        let head = String::from_utf8(head).unwrap();
        let length = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-length"))
            .unwrap()
            .to_owned();
        let head = head.replace(&length, &format!("Content-Length: {declared}"));
        let mut stream = TcpStream::connect(endpoint.addr).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let started = std::time::Instant::now();
        // Nothing of the body is sent.
        let reply = Open::read_head(stream).finish();
        assert_eq!(reply.status, 413, "{declared}");
        assert_eq!(reply.header("connection"), Some("close"), "{declared}");
        assert!(
            started.elapsed() < TIMEOUT / 2,
            "{declared}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn a_quiet_connection_is_closed_and_one_that_waits_for_its_answer_is_not() {
    let endpoint = Endpoint::start_with(
        Server::new("quiet", "1").tool::<echo>().tool::<nap>(),
        Http::new().header_timeout(QUIET),
    );
    let stream = TcpStream::connect(endpoint.addr).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    let call = |params: serde_json::Value| {
        let mut writer = stream.try_clone().unwrap();
        writer
            .write_all(
                &(endpoint.modern(1, "tools/call", params))
                    .header("Connection", "keep-alive")
                    .bytes(),
            )
            .unwrap();
        Open::read_head(stream.try_clone().unwrap()).finish()
    };
    // Waiting for its answer for three bounds, the connection stays open, and serves the
    // next request.
    let napped = call(json!({"name": "nap", "arguments": {}}));
    assert_eq!(napped.json()["result"]["content"][0]["text"], "rested");
    let echoed = call(json!({"name": "echo", "arguments": {"text": "hi"}}));
    assert_eq!(echoed.json()["result"]["content"][0]["text"], "hi");
    // Quiet, it is closed after between one and one and a half bounds.
    let quiet_since = Instant::now();
    let mut byte = [0u8; 1];
    assert_eq!(
        (&stream).read(&mut byte).unwrap(),
        0,
        "the server closed it"
    );
    let waited = quiet_since.elapsed();
    assert!(waited >= QUIET * 5 / 6, "closed after {waited:?}");
    // A new connection is served.
    let again = endpoint
        .modern(
            2,
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "back"}}),
        )
        .send();
    assert_eq!(again.json()["result"]["content"][0]["text"], "back");
}

/// Stopping, the server closes an idle keep-alive connection at once, and one waiting for its
/// answer once the answer is sent; `stop` returns when both are closed, well before the two
/// seconds it gives connections to close.
#[test]
fn a_stopping_server_closes_idle_connections_at_once_and_busy_ones_after_their_answer() {
    let endpoint = Endpoint::start(Server::new("stopping", "1").tool::<echo>().tool::<nap>());
    let keep_alive = |id, params: serde_json::Value| {
        (endpoint.modern(id, "tools/call", params))
            .header("Connection", "keep-alive")
            .bytes()
    };
    let idle = TcpStream::connect(endpoint.addr).unwrap();
    idle.set_read_timeout(Some(TIMEOUT)).unwrap();
    (&idle)
        .write_all(&keep_alive(
            1,
            json!({"name": "echo", "arguments": {"text": "hi"}}),
        ))
        .unwrap();
    let echoed = Open::read_head(idle.try_clone().unwrap());
    assert_eq!(echoed.header("connection"), None, "kept alive");
    assert_eq!(echoed.finish().json()["result"]["content"][0]["text"], "hi");
    let busy = TcpStream::connect(endpoint.addr).unwrap();
    busy.set_read_timeout(Some(TIMEOUT)).unwrap();
    (&busy)
        .write_all(&keep_alive(2, json!({"name": "nap", "arguments": {}})))
        .unwrap();
    // The nap has started.
    std::thread::sleep(QUIET / 3);
    let asked = Instant::now();
    let stopped = std::thread::spawn(move || endpoint.stop());
    let mut byte = [0u8; 1];
    assert_eq!(
        (&idle).read(&mut byte).unwrap(),
        0,
        "the idle one is closed"
    );
    // At once: not after the half second calls in flight are given.
    assert!(asked.elapsed() < QUIET, "at once: {:?}", asked.elapsed());
    let napped = Open::read_head(busy.try_clone().unwrap()).finish();
    assert_eq!(napped.json()["result"]["content"][0]["text"], "rested");
    assert_eq!((&busy).read(&mut byte).unwrap(), 0, "then the busy one");
    stopped.join().unwrap().expect("serve returns Ok");
    assert!(
        asked.elapsed() < Duration::from_millis(1800),
        "stopped once both were closed: {:?}",
        asked.elapsed()
    );
}
