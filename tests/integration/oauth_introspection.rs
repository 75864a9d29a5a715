//! Introspection asks the authorization server as little as it can: one question at a time per
//! token, and none at all, but a 503 at once, for a while after a question failed; beside JWTs,
//! it is asked about opaque tokens only.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use toolwright::oauth::{Authorization, Introspection, Jwt};

use crate::common::http::Endpoint;
use crate::common::http::Request;
use crate::common::oauth::{FakeAs, INTROSPECTOR, RESOURCE, now, sign};
use crate::oauth::{assert_refused, call, protected, text};

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

/// JWTs checked here and opaque tokens introspected, from one authorization server: a token
/// shaped as a JWT is the JWT check's alone, refused without a question to the server.
#[test]
fn jwts_and_opaque_tokens_of_one_authorization_server_are_each_checked_their_way() {
    let authority = FakeAs::start();
    let (id, secret) = INTROSPECTOR;
    let opaque = Introspection::new(&authority.issuer, id, secret);
    let tokens = Jwt::new(&authority.issuer).or_introspection(opaque);
    let endpoint = protected(Authorization::new(RESOURCE, tokens));
    let jwt = authority.token("ada", "mcp:tools");
    assert_eq!(
        text(&call(&endpoint, &jwt, "whoami")),
        "you are ada (mcp:tools)"
    );
    assert_eq!(authority.introspections(), 0);
    authority.describe("opaque-bea", active(&authority, "bea"));
    assert_eq!(
        text(&call(&endpoint, "opaque-bea", "whoami")),
        "you are bea (mcp:tools)"
    );
    assert_eq!(authority.introspections(), 1);
    let forged = sign("stranger", &authority.claims("eve", "mcp:tools"));
    let expired = {
        let mut claims = authority.claims("ada", "mcp:tools");
        claims["exp"] = json!(now() - 600);
        sign("k1", &claims)
    };
    for token in [forged, expired] {
        let reply = call(&endpoint, &token, "whoami");
        assert_refused(&reply, 401, Some("invalid_token"), Some("mcp:tools"));
    }
    let reply = call(&endpoint, "opaque-unknown", "whoami");
    assert_refused(&reply, 401, Some("invalid_token"), Some("mcp:tools"));
    assert_eq!(
        authority.introspections(),
        2,
        "only the opaque tokens were asked about"
    );
    let metadata = Request::new("GET", endpoint.addr)
        .target("/.well-known/oauth-protected-resource/mcp")
        .send();
    assert_eq!(
        metadata.json()["authorization_servers"],
        json!([authority.issuer])
    );
}
