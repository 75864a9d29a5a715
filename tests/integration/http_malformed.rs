//! Anything an HTTP client can send, over real TCP: each malformed request gets its exact status
//! and body, and the request after it is served.
#![cfg(feature = "http")]

use crate::common;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use common::http::{Endpoint, Open, Request, exchange};
use serde_json::json;
use toolwright::Server;
use toolwright::http::Http;
use toolwright::prelude::*;

/// Echoes the text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Runs a query in a region.
#[mcp_tool]
fn regional(#[arg(header = "Region")] region: String, query: String) -> String {
    format!("{query} in {region}")
}

const LIMIT: usize = 2048;

fn endpoint() -> Endpoint {
    let server = Server::new("http-malformed", "1")
        .tool::<echo>()
        .tool::<regional>();
    let http = Http::new()
        .max_body(LIMIT)
        .body_timeout(Duration::from_millis(300))
        .header_timeout(Duration::from_millis(300))
        .max_header_size(16 * 1024);
    Endpoint::start_with(server, http)
}

/// What comes back.
enum Expect {
    /// This status and exactly this body.
    Reply(u16, &'static str),
    /// This status and a body that starts so (hyper's own bodies are empty).
    Status(u16),
    /// The connection closes without a response.
    Closed,
}

use Expect::*;

/// A request that is fine in every way but the one a case changes.
fn modern(addr: SocketAddr) -> Request {
    common::http::modern(
        addr,
        1,
        "tools/call",
        json!({"name": "echo", "arguments": {"text": "hi"}}),
    )
}

/// The same with another body (headers kept).
fn modern_body(addr: SocketAddr, body: serde_json::Value) -> Request {
    modern(addr).body(body.to_string().into_bytes())
}

fn in_session(addr: SocketAddr, session: &str, body: &str) -> Request {
    Request::new("POST", addr)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2025-11-25")
        .header("Mcp-Session-Id", session)
        .body(body.as_bytes().to_vec())
}

fn cases(addr: SocketAddr, session: &str) -> Vec<(&'static str, Vec<u8>, Expect)> {
    let meta = common::modern_meta();
    let call = |meta: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}})
    };
    let mut without_capabilities = meta.clone();
    without_capabilities
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let mut numeric_version = meta.clone();
    numeric_version["io.modelcontextprotocol/protocolVersion"] = json!(20260728);
    let mut future_version = meta.clone();
    future_version["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let regional = |region_header: &str| {
        let mut params = json!({"name": "regional", "arguments": {"region": "eu", "query": "q"}});
        params["_meta"] = meta.clone();
        modern_body(
            addr,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}),
        )
        .header("Mcp-Name", "regional")
        .header("Mcp-Param-Region", region_header)
        .bytes()
    };
    let oversize = vec![b' '; LIMIT + 1];
    let mut chunked_oversize = modern(addr)
        .header("Transfer-Encoding", "chunked")
        .body(Vec::new())
        .bytes();
    chunked_oversize.extend_from_slice(format!("{:x}\r\n", LIMIT + 1).as_bytes());
    chunked_oversize.extend_from_slice(&oversize);
    chunked_oversize.extend_from_slice(b"\r\n0\r\n\r\n");

    let slow_body = {
        let mut head = modern(addr)
            .header("Content-Length", "100")
            .body(Vec::new())
            .bytes();
        head.extend_from_slice(b"{\"jsonrpc\":");
        head
    };
    let session_get = |extra: &[(&str, &str)]| {
        let mut request = Request::new("GET", addr)
            .header("Accept", "text/event-stream")
            .header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", "2025-11-25");
        for (name, value) in extra {
            request = request.header(name, value);
        }
        request.bytes()
    };
    let ping = r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#;
    vec![
        // Methods.
        ("PUT", modern(addr).method("PUT").bytes(), Reply(405, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method Not Allowed: send messages with POST; GET and DELETE need a session"}}"#)),
        ("PATCH", modern(addr).method("PATCH").bytes(), Reply(405, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method Not Allowed: send messages with POST; GET and DELETE need a session"}}"#)),
        ("GET without a session", Request::new("GET", addr).header("Accept", "text/event-stream").bytes(), Reply(405, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method Not Allowed: send messages with POST; GET and DELETE need a session"}}"#)),
        ("DELETE without a session", Request::new("DELETE", addr).bytes(), Reply(405, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method Not Allowed: send messages with POST; GET and DELETE need a session"}}"#)),
        ("OPTIONS", Request::new("OPTIONS", addr).bytes(), Reply(405, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Method Not Allowed: send messages with POST; GET and DELETE need a session"}}"#)),
        // Content types and accepts.
        ("no Content-Type", modern(addr).without("Content-Type").bytes(), Reply(415, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: send the message as `Content-Type: application/json`"}}"#)),
        ("text/plain", modern(addr).header("Content-Type", "text/plain").bytes(), Reply(415, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: send the message as `Content-Type: application/json`"}}"#)),
        ("application/jsonp", modern(addr).header("Content-Type", "application/jsonp").bytes(), Reply(415, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Unsupported Media Type: send the message as `Content-Type: application/json`"}}"#)),
        ("Accept text/html", modern(addr).header("Accept", "text/html").bytes(), Reply(406, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Acceptable: accept `application/json` or `text/event-stream`"}}"#)),
        // Bodies.
        ("not JSON", modern(addr).body(b"hello".to_vec()).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: expected value at line 1 column 1"}}"#)),
        ("empty body", modern(addr).body(Vec::new()).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: EOF while parsing a value at line 1 column 0"}}"#)),
        ("truncated JSON", modern(addr).body(br#"{"jsonrpc":"2.0","id":1,"#.to_vec()).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: EOF while parsing a value at line 1 column 24"}}"#)),
        ("invalid UTF-8", modern(addr).body(b"{\"a\":\"\xff\"}".to_vec()).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid UTF-8"}}"#)),
        ("a number", modern(addr).body(b"42".to_vec()).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message is a JSON object"}}"#)),
        ("oversize, declared", modern(addr).body(oversize.clone()).bytes(), Reply(413, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Payload Too Large: the body exceeds the 2048-byte limit"}}"#)),
        ("oversize, chunked", chunked_oversize, Reply(413, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Payload Too Large: the body exceeds the 2048-byte limit"}}"#)),
        ("slow body", slow_body, Reply(408, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Request Timeout: the body took too long to arrive"}}"#)),
        // Origins and hosts.
        ("foreign Host", modern(addr).header("Host", "evil.example").bytes(), Reply(403, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden: host `evil.example` is not allowed"}}"#)),
        ("foreign Origin", modern(addr).header("Origin", "https://evil.example").bytes(), Reply(403, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden: origin `https://evil.example` is not allowed"}}"#)),
        ("Origin null", modern(addr).header("Origin", "null").bytes(), Reply(403, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden: origin `null` is not allowed"}}"#)),
        // 2026-07-28 headers and `_meta`.
        ("no MCP-Protocol-Version", modern(addr).without("MCP-Protocol-Version").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: mcp-protocol-version header is required"}}"#)),
        ("another Mcp-Method", modern(addr).header("Mcp-Method", "tools/list").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: mcp-method header value 'tools/list' does not match body value 'tools/call'"}}"#)),
        ("no Mcp-Name", modern(addr).without("Mcp-Name").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: mcp-name header is required"}}"#)),
        ("_meta without capabilities", modern_body(addr, call(without_capabilities)).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: `_meta` lacks `io.modelcontextprotocol/clientCapabilities`"}}"#)),
        ("_meta not an object", modern_body(addr, call(json!([1]))).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: `_meta` must be an object"}}"#)),
        ("protocolVersion a number", modern_body(addr, call(numeric_version)).bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: `io.modelcontextprotocol/protocolVersion` must be a string"}}"#)),
        ("unknown protocolVersion", modern_body(addr, call(future_version)).header("MCP-Protocol-Version", "2099-01-01").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2099-01-01"}}}"#)),
        ("2026-07-28 header, no _meta", in_session(addr, session, ping).without("Mcp-Session-Id").header("MCP-Protocol-Version", "2026-07-28").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: `_meta` lacks `io.modelcontextprotocol/protocolVersion` for a 2026-07-28 request"}}"#)),
        ("unknown MCP-Protocol-Version", in_session(addr, session, ping).header("MCP-Protocol-Version", "banana").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Bad Request: unsupported MCP-Protocol-Version `banana`"}}"#)),
        ("unknown method", modern_body(addr, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/destroy", "params": {"_meta": meta.clone()}})).header("Mcp-Method", "tools/destroy").without("Mcp-Name").bytes(), Reply(404, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: tools/destroy"}}"#)),
        ("header argument mismatch", regional("us"), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-Region header value 'us' does not match body value 'eu'"}}"#)),
        ("header argument bad base64", regional("=?base64?***?="), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-Region header is not valid Base64"}}"#)),
        ("header argument non-ASCII", regional("é"), Reply(400, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-Region header value has invalid characters"}}"#)),
        // Sessions.
        ("no session", in_session(addr, session, ping).without("Mcp-Session-Id").bytes(), Reply(400, r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Bad Request: the `Mcp-Session-Id` header is required; send `initialize` first"}}"#)),
        ("unknown session", in_session(addr, "0123456789abcdef0123456789abcdef", ping).bytes(), Reply(404, r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Not Found: the session is unknown or has ended; send `initialize` again"}}"#)),
        ("session id with a space", in_session(addr, "abc def", ping).bytes(), Reply(404, r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Not Found: the session is unknown or has ended; send `initialize` again"}}"#)),
        ("GET, unknown session", Request::new("GET", addr).header("Accept", "text/event-stream").header("Mcp-Session-Id", "nope").bytes(), Reply(404, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Found: the session is unknown or has ended"}}"#)),
        ("DELETE, unknown session", Request::new("DELETE", addr).header("Mcp-Session-Id", "nope").bytes(), Reply(404, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Found: the session is unknown or has ended"}}"#)),
        ("GET, JSON only", session_get(&[("Accept", "application/json")]), Reply(406, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Acceptable: a GET stream needs `Accept: text/event-stream`"}}"#)),
        ("GET, garbage Last-Event-ID", session_get(&[("Last-Event-ID", "garbage")]), Reply(200, "")),
        // HTTP itself (hyper answers these).
        ("not HTTP", b"HELLO\r\n\r\n".to_vec(), Status(400)),
        ("bad Content-Length", modern(addr).header("Content-Length", "abc").bytes(), Status(400)),
        ("Content-Length and chunked", modern(addr).header("Transfer-Encoding", "chunked").also("Content-Length", "5").bytes(), Status(400)),
        ("oversize headers", modern(addr).header("X-Filler", &"a".repeat(20 * 1024)).bytes(), Status(431)),
        ("slow headers", b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_vec(), Closed),
    ]
}

/// Sends `raw` and reads what comes back; `None` when the connection closes without a response.
fn reply_to(addr: SocketAddr, raw: &[u8]) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(common::TIMEOUT)).unwrap();
    stream.write_all(raw).unwrap();
    let mut first = [0u8; 1];
    if stream.peek(&mut first).ok()? == 0 {
        return None;
    }
    let reply = Open::read_head(stream).finish();
    Some((
        reply.status,
        String::from_utf8_lossy(&reply.body).into_owned(),
    ))
}

#[test]
fn every_malformed_request_gets_its_error_and_the_next_is_served() {
    let endpoint = endpoint();
    let addr = endpoint.addr;
    let session = endpoint.initialize("2025-11-25");
    let cases = cases(addr, &session);
    assert!(cases.len() >= 30);
    let mut failures = Vec::new();
    for (name, raw, expect) in cases {
        let got = reply_to(addr, &raw);
        let ok = match (&expect, &got) {
            (Reply(status, body), Some((s, b))) => s == status && b == body,
            (Status(status), Some((s, _))) => s == status,
            (Closed, None) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!("{name}: got {got:?}"));
        }
        let next = exchange(addr, &modern(addr).bytes());
        assert_eq!(next.status, 200, "after {name}: {}", next.text());
        assert_eq!(
            next.json()["result"]["content"][0]["text"],
            "hi",
            "after {name}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The session survived every case.
    let pinged = exchange(
        addr,
        &in_session(
            addr,
            &session,
            r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
        )
        .bytes(),
    );
    assert_eq!(pinged.status, 200);
}
