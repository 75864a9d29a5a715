//! `serve --http` with the `--auth-*` flags: any server binary (here the quickstart example) an
//! OAuth 2.1 resource server with no code, the introspection client's secret read from the
//! environment.
#![cfg(unix)]

use serde_json::json;

use crate::common::http::{Request, Served, modern};
use crate::common::oauth::{FakeAs, INTROSPECTOR, RESOURCE, now, sign};
use crate::oauth::{PRM, assert_refused, bearer};

/// The quickstart serving HTTP behind the authorization `flags` (with `env`).
fn quickstart(authority: &FakeAs, flags: &[&str], env: &[(&str, &str)]) -> Served {
    let mut args = vec!["serve", "--http", "127.0.0.1:0", "--auth-issuer"];
    args.extend([authority.issuer.as_str(), "--auth-resource", RESOURCE]);
    args.extend(flags);
    Served::spawn("quickstart", &args, env)
}

fn add(served: &Served, token: Option<&str>) -> crate::common::http::Reply {
    let call = modern(
        served.addr,
        1,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 2, "b": 40}}),
    );
    match token {
        Some(token) => bearer(call, token).send(),
        None => call.send(),
    }
}

fn answer(reply: &crate::common::http::Reply) -> String {
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn a_server_binary_checks_jwts_as_its_flags_say() {
    let authority = FakeAs::start();
    let served = quickstart(&authority, &["--auth-scope", "mcp:tools"], &[]);
    let metadata = Request::new("GET", served.addr)
        .target("/.well-known/oauth-protected-resource/mcp")
        .send();
    assert_eq!(
        metadata.json(),
        json!({"resource": RESOURCE, "authorization_servers": [authority.issuer],
               "scopes_supported": ["mcp:tools"], "bearer_methods_supported": ["header"]})
    );
    assert_eq!(
        answer(&add(&served, Some(&authority.token("ada", "mcp:tools")))),
        "42"
    );
    let missing = add(&served, None);
    assert_refused(&missing, 401, None, Some("mcp:tools"));
    assert_eq!(
        missing.header("www-authenticate").unwrap(),
        format!("Bearer scope=\"mcp:tools\", resource_metadata=\"{PRM}\"")
    );
    let forged = sign("stranger", &authority.claims("eve", "mcp:tools"));
    assert_refused(
        &add(&served, Some(&forged)),
        401,
        Some("invalid_token"),
        Some("mcp:tools"),
    );
    let unscoped = authority.token("bo", "mcp:read");
    assert_refused(
        &add(&served, Some(&unscoped)),
        403,
        Some("insufficient_scope"),
        Some("mcp:tools"),
    );
    assert!(served.terminate().success());
}

#[test]
fn a_server_binary_introspects_opaque_tokens_with_a_secret_from_the_environment() {
    let authority = FakeAs::start();
    let (id, secret) = INTROSPECTOR;
    authority.describe(
        "opaque-bea",
        json!({"active": true, "sub": "bea", "scope": "mcp:tools", "aud": RESOURCE,
               "iss": authority.issuer, "exp": now() + 300}),
    );
    let env = [("TOOLWRIGHT_AUTH_CLIENT_SECRET", secret)];
    let served = quickstart(&authority, &["--auth-client-id", id], &env);
    // Both kinds, by default with a client: a JWT checked here, an opaque token asked about.
    assert_eq!(
        answer(&add(&served, Some(&authority.token("ada", "mcp:tools")))),
        "42"
    );
    assert_eq!(authority.introspections(), 0);
    assert_eq!(answer(&add(&served, Some("opaque-bea"))), "42");
    assert_eq!(authority.introspections(), 1);
    assert_refused(
        &add(&served, Some("opaque-eve")),
        401,
        Some("invalid_token"),
        None,
    );
    assert!(served.terminate().success());
}
