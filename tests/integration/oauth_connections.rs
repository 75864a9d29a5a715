//! What a protected endpoint's connections cost a client that has no business there: the body
//! of a refused request is read within a short bound of its own, not the whole body timeout.

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use toolwright::oauth::{Authorization, Jwt};

use crate::common::http::Open;
use crate::common::oauth::{FakeAs, RESOURCE};
use crate::oauth::{jwt, layered};

/// A POST without a token whose body of 4 KiB arrives a byte every 100 ms (seven minutes in
/// all): where it is answered, when, and whether the connection then closes.
fn slow_body_without_a_token(addr: SocketAddr) -> (u16, Option<String>, Duration) {
    let body = vec![b' '; 4096];
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body[..16]).unwrap();
    let mut trickle = stream.try_clone().unwrap();
    std::thread::spawn(move || {
        for byte in &body[16..] {
            std::thread::sleep(Duration::from_millis(100));
            if trickle.write_all(std::slice::from_ref(byte)).is_err() {
                return;
            }
        }
    });
    // Within the endpoint's body timeout (30 s) and well beyond the refusal's own bound.
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let start = Instant::now();
    let open = Open::read_head(stream);
    let elapsed = start.elapsed();
    let connection = open.header("connection").map(str::to_owned);
    (open.status, connection, elapsed)
}

#[test]
fn a_slow_body_without_a_token_is_answered_within_a_short_bound_and_the_connection_closed() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let authorization = Authorization::new(RESOURCE, Jwt::new(&authority.issuer));
    let layer = layered(authorization.require_scopes(["mcp:tools"]));
    for (what, addr) in [("the endpoint", endpoint.addr), ("the layer", layer)] {
        let (status, connection, elapsed) = slow_body_without_a_token(addr);
        assert_eq!(status, 401, "{what}");
        // What is left of the body would be read as the next request.
        assert_eq!(connection.as_deref(), Some("close"), "{what}");
        assert!(elapsed < Duration::from_secs(8), "{what}: {elapsed:?}");
    }
}
