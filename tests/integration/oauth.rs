//! The endpoint as an OAuth 2.1 resource server (`Http::authorization`): its metadata, its
//! challenges, JWT access tokens checked against an authorization server's keys (fetched,
//! cached, fetched again for a new key, not more often than the floor), introspection, a
//! gateway's header, and 403 for the scopes of an item, in both eras.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use toolwright::context::Auth;
use toolwright::http::Http;
use toolwright::oauth::{Authorization, Introspection, Jwt, TokenError, TokenVerifier};
use toolwright::prelude::*;

use crate::common::http::{Endpoint, Reply, Request};
use crate::common::oauth::{FakeAs, INTROSPECTOR, RESOURCE, now, sign, sign_with, unsigned};

pub(crate) const PRM: &str = "http://mcp.test/.well-known/oauth-protected-resource/mcp";

/// Says who called, and with what scopes.
#[mcp_tool(read_only)]
fn whoami(auth: Auth) -> String {
    format!("you are {} ({})", auth.subject(), auth.scopes().join(" "))
}

/// Empties the audit log.
#[mcp_tool(destructive, scopes("mcp:admin"))]
fn clear_audit_log() -> &'static str {
    "the audit log is empty"
}

/// Drops the audit log, for the operators' own team only.
#[mcp_tool(destructive, tags("ops"), scopes("mcp:admin"))]
fn drop_audit_log() -> &'static str {
    "the audit log is gone"
}

/// The tools, and a rule that shows `ops` tools to the `ops` team only (a `team` claim).
pub(crate) fn server() -> Server {
    Server::new("protected", "1")
        .tool::<whoami>()
        .tool::<clear_audit_log>()
        .tool::<drop_audit_log>()
        .visibility(|item, caller| {
            let team = caller.auth().and_then(|auth| auth.claim("team"));
            !item.has_tag("ops") || team.is_some_and(|team| team == "ops")
        })
}

pub(crate) fn protected(authorization: Authorization) -> Endpoint {
    let authorization = authorization.require_scopes(["mcp:tools"]);
    Endpoint::start_with(server(), Http::new().authorization(authorization))
}

pub(crate) fn jwt(authority: &FakeAs) -> Endpoint {
    let tokens = Jwt::new(&authority.issuer).refetch_floor(Duration::from_millis(300));
    protected(Authorization::new(RESOURCE, tokens))
}

pub(crate) fn call(endpoint: &Endpoint, token: &str, tool: &str) -> Reply {
    let request = endpoint.modern(1, "tools/call", json!({"name": tool, "arguments": {}}));
    bearer(request, token).send()
}

pub(crate) fn bearer(request: Request, token: &str) -> Request {
    request.header("Authorization", &format!("Bearer {token}"))
}

/// The parameters of a `Bearer` challenge.
pub(crate) fn challenge(reply: &Reply) -> Value {
    let header = reply.header("www-authenticate").expect("a challenge");
    let params = header.strip_prefix("Bearer ").expect("a Bearer challenge");
    let mut map = serde_json::Map::new();
    for param in params.split("\", ") {
        let (name, value) = param.split_once("=\"").expect("name=\"value\"");
        map.insert(name.into(), value.trim_end_matches('"').into());
    }
    Value::Object(map)
}

pub(crate) fn assert_refused(reply: &Reply, status: u16, error: Option<&str>, scope: Option<&str>) {
    assert_eq!(reply.status, status, "{}", reply.text());
    let params = challenge(reply);
    assert_eq!(params["error"].as_str(), error, "{params}");
    assert_eq!(params["scope"].as_str(), scope, "{params}");
    assert_eq!(params["resource_metadata"], PRM, "{params}");
    assert_eq!(reply.json()["error"].as_str(), error);
}

pub(crate) fn text(reply: &Reply) -> String {
    assert_eq!(reply.status, 200, "{}", reply.text());
    let answer = reply.answer();
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned()
}

#[test]
fn the_metadata_is_served_to_anyone_at_both_places() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = Request::new("GET", endpoint.addr)
            .target(path)
            .header("Origin", "https://elsewhere.example")
            .send();
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
        assert_eq!(
            reply.json(),
            json!({
                "resource": RESOURCE,
                "authorization_servers": [authority.issuer],
                "scopes_supported": ["mcp:tools"],
                "bearer_methods_supported": ["header"],
            })
        );
    }
    let preflight = Request::new("OPTIONS", endpoint.addr)
        .target("/.well-known/oauth-protected-resource/mcp")
        .send();
    assert_eq!(preflight.status, 204);
    // A path that is not the metadata's is not served, and no token was needed to learn it.
    let other = Request::new("GET", endpoint.addr)
        .target("/.well-known/oauth-protected-resource/other")
        .send();
    assert_eq!(other.status, 404);
    assert_eq!(authority.jwks_fetches(), 0);
}

#[test]
fn requests_without_a_valid_token_are_challenged() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let list = || endpoint.modern(1, "tools/list", json!({}));
    let valid = authority.token("ada", "mcp:tools");
    let in_query = format!("/mcp?access_token={valid}");
    let malformed = [
        list().header("Authorization", "Bearer"),
        list().header("Authorization", "Bearer a b"),
        bearer(list(), &valid).also("Authorization", "Bearer other"),
        // Two methods at once (RFC 6750 §3.1).
        bearer(list(), &valid).target(&in_query),
    ];
    for request in malformed {
        assert_refused(&request.send(), 400, Some("invalid_request"), None);
    }
    // A token in the query string is no credential: the request presents none.
    let missing = [
        list(),
        list().header("Authorization", "Basic YWRhOnB3"),
        list().target(&in_query),
    ];
    for request in missing {
        assert_refused(&request.send(), 401, None, Some("mcp:tools"));
    }
    let claims = |change: &dyn Fn(&mut Value)| {
        let mut claims = authority.claims("ada", "mcp:tools");
        change(&mut claims);
        claims
    };
    let mut typ_jwt = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
    typ_jwt.kid = Some("k1".into());
    // The signature of another token: every byte of it wrong for this one.
    let (signed, _) = valid.rsplit_once('.').unwrap();
    let other = authority.token("bea", "mcp:tools");
    let tampered = format!("{signed}.{}", other.rsplit_once('.').unwrap().1);
    let invalid = [
        ("not a JWT", "abc.def".to_owned()),
        ("tampered", tampered),
        ("another key, same kid", {
            let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
            header.typ = Some("at+jwt".into());
            header.kid = Some("k1".into());
            sign_with(header, "stranger", &claims(&|_| {}))
        }),
        ("unpublished key", sign("stranger", &claims(&|_| {}))),
        (
            "alg none",
            unsigned(
                &json!({"alg": "none", "typ": "at+jwt", "kid": "k1"}),
                &claims(&|_| {}),
                "",
            ),
        ),
        (
            "HS256",
            unsigned(
                &json!({"alg": "HS256", "typ": "at+jwt", "kid": "k1"}),
                &claims(&|_| {}),
                "c2ln",
            ),
        ),
        ("typ JWT", sign_with(typ_jwt, "k1", &claims(&|_| {}))),
        (
            "expired",
            sign("k1", &claims(&|c| c["exp"] = json!(now() - 120))),
        ),
        (
            "not yet",
            sign("k1", &claims(&|c| c["nbf"] = json!(now() + 600))),
        ),
        (
            "no exp",
            sign(
                "k1",
                &claims(&|c| drop(c.as_object_mut().unwrap().remove("exp"))),
            ),
        ),
        (
            "issuer",
            sign("k1", &claims(&|c| c["iss"] = json!("https://evil.example"))),
        ),
        (
            "bound to a DPoP key",
            sign("k1", &claims(&|c| c["cnf"] = json!({"jkt": "0ZcOCORZNYy"}))),
        ),
        (
            "audience",
            sign(
                "k1",
                &claims(&|c| c["aud"] = json!("http://mcp.test/other")),
            ),
        ),
        (
            "audience prefix",
            sign(
                "k1",
                &claims(&|c| c["aud"] = json!("http://mcp.test/mcp-admin")),
            ),
        ),
        (
            "no audience",
            sign(
                "k1",
                &claims(&|c| drop(c.as_object_mut().unwrap().remove("aud"))),
            ),
        ),
        (
            "no subject",
            sign(
                "k1",
                &claims(&|c| {
                    let claims = c.as_object_mut().unwrap();
                    claims.remove("sub");
                    claims.remove("client_id");
                }),
            ),
        ),
    ];
    for (case, token) in invalid {
        let reply = bearer(list(), &token).send();
        assert_refused(&reply, 401, Some("invalid_token"), Some("mcp:tools"));
        let description = challenge(&reply)["error_description"].clone();
        assert!(
            description.as_str().is_some_and(|d| !d.is_empty()),
            "{case}"
        );
        let challenged = reply.header("www-authenticate").unwrap_or_default();
        assert!(
            !reply.text().contains(&token) && !challenged.contains(&token),
            "{case}: the token came back"
        );
    }
    // A token without the server's scope is valid, but not enough.
    let unscoped = authority.token("ada", "openid");
    assert_refused(
        &bearer(list(), &unscoped).send(),
        403,
        Some("insufficient_scope"),
        Some("mcp:tools"),
    );
    // The server went on serving.
    assert_eq!(bearer(list(), &valid).send().status, 200);
    assert_eq!(
        text(&call(&endpoint, &valid, "whoami")),
        "you are ada (mcp:tools)"
    );
}

#[test]
fn an_item_the_token_lacks_scopes_for_is_403_in_both_eras() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let user = authority.token("ada", "mcp:tools");
    let admin = authority.token("root", "mcp:tools mcp:admin");
    // 2026-07-28.
    let listed = |token: &str| {
        let reply = bearer(endpoint.modern(1, "tools/list", json!({})), token).send();
        let tools = reply.answer()["result"]["tools"].clone();
        let names = tools.as_array().unwrap().iter();
        names
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(listed(&user), ["whoami"]);
    assert_eq!(listed(&admin), ["clear_audit_log", "whoami"]);
    let refused = call(&endpoint, &user, "clear_audit_log");
    assert_refused(
        &refused,
        403,
        Some("insufficient_scope"),
        Some("mcp:tools mcp:admin"),
    );
    // A tool the rule hides is unknown, whatever its scopes: no 403 tells that it exists.
    let hidden = call(&endpoint, &user, "drop_audit_log");
    assert_eq!(hidden.status, 200, "{}", hidden.text());
    assert_eq!(
        hidden.answer()["error"]["code"],
        -32602,
        "{}",
        hidden.text()
    );
    let mut ops = authority.claims("oli", "mcp:tools");
    ops["team"] = json!("ops");
    let refused = call(&endpoint, &sign("k1", &ops), "drop_audit_log");
    assert_refused(
        &refused,
        403,
        Some("insufficient_scope"),
        Some("mcp:tools mcp:admin"),
    );
    assert_eq!(
        text(&call(&endpoint, &admin, "clear_audit_log")),
        "the audit log is empty"
    );
    // A session of 2025-11-25, and one of the same caller's.
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let reply = bearer(endpoint.post(&initialize), &user).send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let in_session = |token: &str, name: &str| {
        let request = endpoint.in_session(
            &session,
            "2025-11-25",
            2,
            "tools/call",
            json!({"name": name, "arguments": {}}),
        );
        bearer(request, token).send()
    };
    let refused = in_session(&user, "clear_audit_log");
    assert_refused(
        &refused,
        403,
        Some("insufficient_scope"),
        Some("mcp:tools mcp:admin"),
    );
    assert_eq!(
        text(&in_session(&user, "whoami")),
        "you are ada (mcp:tools)"
    );
    // The session is its opener's: to another caller it does not exist.
    let bea = authority.token("bea", "mcp:tools");
    let stolen = in_session(&bea, "whoami");
    assert_eq!(stolen.status, 404, "{}", stolen.text());
    let stream = Request::new("GET", endpoint.addr)
        .header("Accept", "text/event-stream")
        .session(&session, "2025-11-25");
    assert_eq!(bearer(stream, &bea).send().status, 404);
    let delete = Request::new("DELETE", endpoint.addr).session(&session, "2025-11-25");
    assert_eq!(bearer(delete, &bea).send().status, 404);
    assert_eq!(
        text(&in_session(&user, "whoami")),
        "you are ada (mcp:tools)"
    );
    // Without a token, even in the session: every request carries one.
    let bare = endpoint.in_session(&session, "2025-11-25", 3, "tools/list", json!({}));
    assert_refused(&bare.send(), 401, None, Some("mcp:tools"));
    // A tool that does not exist is as unknown as ever.
    let missing = call(&endpoint, &user, "nothing");
    assert_eq!(missing.status, 200);
    assert!(missing.answer()["error"].is_object() || missing.answer()["result"]["isError"] == true);
}

#[test]
fn a_broad_scope_grants_the_narrower_ones_it_implies() {
    let authority = FakeAs::start();
    let tokens = Jwt::new(&authority.issuer);
    let authorization = Authorization::new(RESOURCE, tokens)
        .scope_implies("mcp:admin", ["mcp:write"])
        .scope_implies("mcp:write", ["mcp:tools"]);
    let endpoint = protected(authorization);
    // `mcp:admin` alone meets what every request needs (`mcp:tools`, two steps down) and the
    // tool's own `mcp:admin`; the caller the tool sees holds all three.
    let root = authority.token("root", "mcp:admin");
    assert_eq!(
        text(&call(&endpoint, &root, "whoami")),
        "you are root (mcp:admin mcp:write mcp:tools)"
    );
    let listed = bearer(endpoint.modern(2, "tools/list", json!({})), &root).send();
    assert_eq!(
        listed.answer()["result"]["tools"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        text(&call(&endpoint, &root, "clear_audit_log")),
        "the audit log is empty"
    );
    // Narrower scopes do not imply broader ones: the 403 names the scopes as declared.
    let writer = authority.token("ada", "mcp:write");
    assert_eq!(
        text(&call(&endpoint, &writer, "whoami")),
        "you are ada (mcp:write mcp:tools)"
    );
    let refused = call(&endpoint, &writer, "clear_audit_log");
    assert_refused(
        &refused,
        403,
        Some("insufficient_scope"),
        Some("mcp:tools mcp:admin"),
    );
    let reader = authority.token("bo", "mcp:read");
    let refused = call(&endpoint, &reader, "whoami");
    assert_refused(&refused, 403, Some("insufficient_scope"), Some("mcp:tools"));
}

#[test]
fn keys_are_fetched_once_again_for_a_new_key_and_no_more_often_than_the_floor() {
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let first = authority.token("ada", "mcp:tools");
    assert_eq!(
        text(&call(&endpoint, &first, "whoami")),
        "you are ada (mcp:tools)"
    );
    assert_eq!(
        text(&call(&endpoint, &first, "whoami")),
        "you are ada (mcp:tools)"
    );
    assert_eq!(authority.jwks_fetches(), 1, "the keys are cached");
    // The authorization server rotates: `k2` signs, `k1` still verifies.
    std::thread::sleep(Duration::from_millis(350));
    authority.publish(&["k2", "k1"]);
    let rotated = sign("k2", &authority.claims("bea", "mcp:tools"));
    assert_eq!(
        text(&call(&endpoint, &rotated, "whoami")),
        "you are bea (mcp:tools)"
    );
    assert_eq!(authority.jwks_fetches(), 2, "a new kid is fetched");
    assert_eq!(
        text(&call(&endpoint, &first, "whoami")),
        "you are ada (mcp:tools)"
    );
    // Unknown keys, many of them: one fetch per floor at most.
    for _ in 0..5 {
        let stranger = sign("stranger", &authority.claims("eve", "mcp:tools"));
        assert_eq!(call(&endpoint, &stranger, "whoami").status, 401);
    }
    assert_eq!(
        authority.jwks_fetches(),
        2,
        "the floor holds refetches back"
    );
    // `k1` is withdrawn: once the server has fetched again, its tokens are refused, though
    // they were accepted (and their answers kept) a moment ago. A token naming an unknown key
    // has the keys read again (one not refused moments ago: that refusal is kept).
    authority.publish(&["k2"]);
    std::thread::sleep(Duration::from_millis(350));
    let stranger = sign("stranger", &authority.claims("zed", "mcp:tools"));
    assert_eq!(call(&endpoint, &stranger, "whoami").status, 401);
    assert_eq!(authority.jwks_fetches(), 3, "an unknown key is fetched");
    assert_eq!(call(&endpoint, &first, "whoami").status, 401);
    assert_eq!(
        text(&call(&endpoint, &rotated, "whoami")),
        "you are bea (mcp:tools)"
    );
}

#[test]
fn an_unreachable_authorization_server_is_503_without_a_challenge() {
    let authority = FakeAs::start();
    let tokens = Jwt::new(&authority.issuer).jwks_uri("http://127.0.0.1:1/jwks");
    let endpoint = protected(Authorization::new(RESOURCE, tokens));
    let reply = call(&endpoint, &authority.token("ada", "mcp:tools"), "whoami");
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert_eq!(reply.header("www-authenticate"), None);
    assert_eq!(reply.json()["error"], "temporarily_unavailable");
}

#[test]
fn opaque_tokens_are_introspected_and_answers_kept_for_a_while() {
    let authority = FakeAs::start();
    let (id, secret) = INTROSPECTOR;
    let tokens =
        Introspection::new(&authority.issuer, id, secret).cache_for(Duration::from_millis(300));
    let endpoint = protected(Authorization::new(RESOURCE, tokens));
    let active = |sub: &str, aud: &str| {
        json!({
        "active": true, "sub": sub, "scope": "mcp:tools", "aud": aud,
        "iss": authority.issuer, "exp": now() + 300, "client_id": "app"})
    };
    authority.describe("opaque-ada", active("ada", RESOURCE));
    authority.describe("opaque-other", active("eve", "http://mcp.test/other"));
    authority.describe(
        "opaque-expired",
        json!({"active": true, "sub": "ada", "aud": RESOURCE,
        "scope": "mcp:tools", "exp": now() - 5}),
    );
    assert_eq!(
        text(&call(&endpoint, "opaque-ada", "whoami")),
        "you are ada (mcp:tools)"
    );
    assert_eq!(
        text(&call(&endpoint, "opaque-ada", "whoami")),
        "you are ada (mcp:tools)"
    );
    assert_eq!(authority.introspections(), 1, "the answer is kept");
    let with = |member: &str, value: Value| {
        let mut answer = active("ada", RESOURCE);
        answer[member] = value;
        answer
    };
    authority.describe("opaque-refresh", with("token_type", json!("refresh_token")));
    authority.describe("opaque-dpop", with("cnf", json!({"jkt": "0ZcOCORZNYy"})));
    authority.describe("opaque-typed", with("token_type", json!("Bearer")));
    assert_eq!(
        text(&call(&endpoint, "opaque-typed", "whoami")),
        "you are ada (mcp:tools)"
    );
    for token in [
        "opaque-unknown",
        "opaque-other",
        "opaque-expired",
        "opaque-refresh",
        "opaque-dpop",
    ] {
        let reply = call(&endpoint, token, "whoami");
        assert_refused(&reply, 401, Some("invalid_token"), Some("mcp:tools"));
    }
    // Revoked: refused once the kept answer is older than the cache allows.
    authority.describe("opaque-ada", json!({"active": false}));
    std::thread::sleep(Duration::from_millis(350));
    let reply = call(&endpoint, "opaque-ada", "whoami");
    assert_refused(&reply, 401, Some("invalid_token"), Some("mcp:tools"));
}

/// One verifier behind two resources, as a wrapper of one's own may share it.
struct Shared(Arc<Introspection>);

impl TokenVerifier for Shared {
    fn issuer(&self) -> &str {
        self.0.issuer()
    }

    fn verify<'a>(
        &'a self,
        token: &'a str,
        resource: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Auth, TokenError>> + Send + 'a>> {
        self.0.verify(token, resource)
    }
}

#[test]
fn an_introspection_answer_is_kept_for_the_resource_it_was_given_for() {
    let authority = FakeAs::start();
    let (id, secret) = INTROSPECTOR;
    let tokens = Arc::new(Introspection::new(&authority.issuer, id, secret));
    let answer = json!({"active": true, "sub": "ada", "scope": "mcp:tools", "aud": RESOURCE,
        "exp": now() + 300});
    authority.describe("opaque-ada", answer);
    let here = protected(Authorization::new(RESOURCE, Shared(Arc::clone(&tokens))));
    let elsewhere = "http://mcp.test/other";
    let there = protected(Authorization::new(elsewhere, Shared(tokens)));
    assert_eq!(
        text(&call(&here, "opaque-ada", "whoami")),
        "you are ada (mcp:tools)"
    );
    let refused = call(&there, "opaque-ada", "whoami");
    assert_eq!(refused.status, 401, "{}", refused.text());
    assert_eq!(
        authority.introspections(),
        2,
        "asked once for each resource"
    );
}

#[test]
fn a_gateway_header_is_trusted_only_when_asked_for() {
    use base64::Engine as _;
    let header = axum::http::HeaderName::from_static("x-jwt-payload");
    let authorization = Authorization::behind_gateway(RESOURCE, "https://auth.example", header);
    let endpoint = protected(authorization);
    let claims = json!({"sub": "ada", "scope": "mcp:tools", "iss": "https://auth.example"});
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(claims.to_string());
    for value in [claims.to_string(), encoded] {
        let request = endpoint.modern(1, "tools/call", json!({"name": "whoami", "arguments": {}}));
        let reply = request.header("x-jwt-payload", &value).send();
        assert_eq!(text(&reply), "you are ada (mcp:tools)");
    }
    // A bearer token alone is not read: the gateway is the one that checks them.
    let reply = call(&endpoint, "anything", "whoami");
    assert_refused(&reply, 401, None, Some("mcp:tools"));
    let request = endpoint.modern(1, "tools/list", json!({}));
    let reply = request.header("x-jwt-payload", "%%%").send();
    assert_refused(&reply, 400, Some("invalid_request"), None);
    let request = endpoint.modern(1, "tools/list", json!({}));
    let twice = request.header("x-jwt-payload", &claims.to_string());
    let reply = twice.also("x-jwt-payload", &claims.to_string()).send();
    assert_refused(&reply, 400, Some("invalid_request"), None);
}

#[test]
fn an_authorization_that_cannot_be_used_is_refused_when_the_endpoint_is_made() {
    for resource in [
        "mcp.test/mcp",
        "http://mcp.test/mcp#x",
        "http://mcp.test/mcp?a=1",
    ] {
        let authorization = Authorization::new(resource, Jwt::new("https://auth.example"));
        let made = server().http_service(Http::new().authorization(authorization));
        let error = made.err().expect("refused").to_string();
        assert!(error.contains("resource URI"), "{error}");
    }
    let plain = Authorization::new(RESOURCE, Jwt::new("http://auth.example"));
    let error = plain.check().expect_err("refused");
    assert!(error.contains("is not an `https` URL"), "{error}");
    assert!(
        Authorization::new(RESOURCE, Jwt::new("http://localhost:4100"))
            .check()
            .is_ok()
    );
    let issuer = || Jwt::new("https://auth.example");
    for authorization in [
        Authorization::new(RESOURCE, issuer()).require_scopes(["two words"]),
        Authorization::new(RESOURCE, issuer()).scope_implies("mcp:admin", ["two words"]),
        Authorization::new(RESOURCE, issuer()).scope_implies("", ["mcp:tools"]),
    ] {
        let made = server().http_service(Http::new().authorization(authorization));
        let error = made.err().expect("refused").to_string();
        assert!(error.contains("is not a scope"), "{error}");
    }
}

/// A request refused before its body was read leaves the connection usable: the body is read
/// and dropped first, so the client's next request on the same connection is served.
#[test]
fn a_refused_request_leaves_its_connection_usable() {
    use std::io::{BufRead, BufReader, Read, Write};
    let authority = FakeAs::start();
    let endpoint = jwt(&authority);
    let token = authority.token("ada", "mcp:tools");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "whoami", "arguments": {}, "_meta": crate::common::modern_meta()}})
    .to_string();
    let request = |authorization: &str| {
        format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
             Mcp-Method: tools/call\r\nMcp-Name: whoami\r\n{authorization}\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let stream = std::net::TcpStream::connect(endpoint.addr).unwrap();
    stream
        .set_read_timeout(Some(crate::common::TIMEOUT))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let mut read_response = || {
        let (mut status, mut length, mut line) = (String::new(), 0, String::new());
        reader.read_line(&mut status).unwrap();
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            assert!(!lower.starts_with("connection: close"), "{lower}");
            if let Some(value) = lower.strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
        }
        let mut content = vec![0; length];
        reader.read_exact(&mut content).unwrap();
        (status, String::from_utf8(content).unwrap())
    };
    for authorization in ["", "Authorization: Bearer forged\r\n"] {
        writer.write_all(request(authorization).as_bytes()).unwrap();
        let (status, _) = read_response();
        assert!(status.starts_with("HTTP/1.1 401"), "{status}");
    }
    let good = format!("Authorization: Bearer {token}\r\n");
    writer.write_all(request(&good).as_bytes()).unwrap();
    let (status, content) = read_response();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}: {content}");
    assert!(content.contains("you are ada"), "{content}");
}

/// The `Authorization` as a tower layer around a router of one's own: it answers the
/// metadata's paths, refuses what it must, and hands the caller to the endpoint behind it.
#[test]
fn the_layer_protects_a_router_of_ones_own() {
    let authority = FakeAs::start();
    let tokens = Jwt::new(&authority.issuer);
    let authorization = Authorization::new(RESOURCE, tokens).require_scopes(["mcp:tools"]);
    let addr = layered(authorization);
    let metadata = Request::new("GET", addr)
        .target("/.well-known/oauth-protected-resource/mcp")
        .send();
    assert_eq!(metadata.status, 200, "{}", metadata.text());
    assert_eq!(metadata.json()["resource"], RESOURCE);
    let call = |token: Option<&str>| {
        let request = crate::common::http::modern(
            addr,
            1,
            "tools/call",
            json!({"name": "whoami", "arguments": {}}),
        );
        match token {
            Some(token) => bearer(request, token),
            None => request,
        }
        .send()
    };
    assert_refused(&call(None), 401, None, Some("mcp:tools"));
    let admin = authority.token("root", "mcp:tools mcp:admin");
    assert_eq!(
        text(&call(Some(&admin))),
        "you are root (mcp:tools mcp:admin)"
    );
    let user = authority.token("ada", "mcp:tools");
    let refused = bearer(
        crate::common::http::modern(
            addr,
            1,
            "tools/call",
            json!({"name": "clear_audit_log", "arguments": {}}),
        ),
        &user,
    )
    .send();
    assert_refused(
        &refused,
        403,
        Some("insufficient_scope"),
        Some("mcp:tools mcp:admin"),
    );
}

/// The server's endpoint in an axum router behind `authorization` as a tower layer, on a free
/// loopback port; where it listens.
pub(crate) fn layered(authorization: Authorization) -> std::net::SocketAddr {
    let endpoint = server().http_service(Http::new()).unwrap();
    let app = axum::Router::new()
        .route_service("/mcp", endpoint)
        .layer(authorization);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await
        })
    });
    addr
}
