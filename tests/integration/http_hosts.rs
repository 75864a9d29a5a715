//! The `Host` allow-list of a server that listens itself: the address it listens on decides it,
//! whatever other settings the author passes, unless the author names hosts.
#![cfg(all(feature = "http", unix))]

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use serde_json::json;
use toolwright::Server;
use toolwright::http::Http;
use toolwright::prelude::*;

use crate::common::TIMEOUT;
use crate::common::http::modern;

/// Echoes its text.
#[mcp_tool]
fn say(text: String) -> String {
    text
}

/// `Server::serve_http_with(ADDR, http, ...)` on a free port of `ip`, in a thread of its own:
/// where it can be reached, and what stops it.
fn serve_with(ip: [u8; 4], http: Http) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let free = TcpListener::bind(SocketAddr::from((ip, 0))).unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        let server = Server::new("hosts", "1").tool::<say>();
        let shutdown = async {
            let _ = stopped.await;
        };
        server.serve_http_with((ip, port).into(), http, shutdown)
    });
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let start = Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(start.elapsed() < TIMEOUT, "the server does not listen");
        std::thread::sleep(Duration::from_millis(10));
    }
    (addr, stop)
}

/// The status of a call sent to `addr` as a request for `host`.
fn status_for(addr: SocketAddr, host: &str) -> u16 {
    let call = modern(
        addr,
        1,
        "tools/call",
        json!({"name": "say", "arguments": {"text": "hi"}}),
    );
    call.header("Host", host).send().status
}

#[test]
fn settings_of_ones_own_keep_the_hosts_of_the_address() {
    // On every interface, a server is reached under names of its own: any `Host` will do,
    // though the author passed settings that say nothing of hosts.
    let (public, _stop) = serve_with([0, 0, 0, 0], Http::new().max_body(1 << 20));
    assert_eq!(status_for(public, "mcp.example.com"), 200);
    // Naming hosts means checking them, on any address.
    let named = Http::new().allow_host("mcp.example.com");
    let (checked, _stop) = serve_with([0, 0, 0, 0], named);
    assert_eq!(status_for(checked, "mcp.example.com"), 200);
    assert_eq!(status_for(checked, "evil.example.com"), 403);
    // On a loopback address, the loopback names only.
    let (local, _stop) = serve_with([127, 0, 0, 1], Http::new().max_body(1 << 20));
    assert_eq!(status_for(local, "evil.example.com"), 403);
    assert_eq!(status_for(local, &local.to_string()), 200);
}
