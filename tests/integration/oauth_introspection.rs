//! Introspection asks the authorization server as little as it can: one question at a time per
//! token, and none at all, but a 503 at once, for a while after a question failed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use toolwright::oauth::{Authorization, Introspection};

use crate::common::http::Endpoint;
use crate::common::oauth::{FakeAs, INTROSPECTOR, RESOURCE, now};
use crate::oauth::{call, protected, text};

fn introspecting(authority: &FakeAs) -> Endpoint {
    let (id, secret) = INTROSPECTOR;
    let tokens = Introspection::new(&authority.issuer, id, secret);
    protected(Authorization::new(RESOURCE, tokens))
}

fn active(authority: &FakeAs, sub: &str) -> serde_json::Value {
    json!({"active": true, "sub": sub, "scope": "mcp:tools", "aud": RESOURCE,
           "iss": authority.issuer, "exp": now() + 300})
}

#[test]
fn requests_presenting_one_unknown_token_at_once_share_one_introspection() {
    let authority = Arc::new(FakeAs::start());
    let endpoint = Arc::new(introspecting(&authority));
    authority.describe("opaque-ada", active(&authority, "ada"));
    authority.hold();
    let requests: Vec<_> = (0..6)
        .map(|_| {
            let endpoint = Arc::clone(&endpoint);
            std::thread::spawn(move || text(&call(&endpoint, "opaque-ada", "whoami")))
        })
        .collect();
    // Every request is in, waiting: the first one's question has reached the server, and the
    // others had time to ask questions of their own.
    let start = Instant::now();
    while authority.introspections() == 0 {
        assert!(start.elapsed() < Duration::from_secs(10), "nobody asked");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    authority.release();
    for request in requests {
        assert_eq!(request.join().unwrap(), "you are ada (mcp:tools)");
    }
    assert_eq!(authority.introspections(), 1);
}

#[test]
fn an_authorization_server_that_fails_costs_one_question_then_503_at_once() {
    let authority = FakeAs::start();
    let endpoint = introspecting(&authority);
    authority.fail_introspection(true);
    for n in 0..5 {
        let token = format!("opaque-{n}");
        authority.describe(&token, active(&authority, "ada"));
        let reply = call(&endpoint, &token, "whoami");
        assert_eq!(reply.status, 503, "{}", reply.text());
        assert_eq!(reply.json()["error"], "temporarily_unavailable");
    }
    assert_eq!(
        authority.introspections(),
        1,
        "asked once, then not while the breaker is open"
    );
    // Back, the server is still not asked until the breaker half-opens.
    authority.fail_introspection(false);
    let reply = call(&endpoint, "opaque-0", "whoami");
    assert_eq!(
        reply.status,
        503,
        "the breaker is still open: {}",
        reply.text()
    );
    assert_eq!(authority.introspections(), 1);
}
