//! A remote MCP server that is an OAuth 2.1 resource server. An axum app mounts toolwright's
//! endpoint, given an `Authorization`, at `/mcp` and at the paths of its Protected Resource
//! Metadata: it accepts only access tokens the authorization server issued for this server,
//! and hands each caller to the tools as an `Auth`. Every request needs the scope
//! `mcp:tools`; `clear_audit_log` needs `mcp:admin` too: a caller without it does not see it
//! listed, and calling it by name gets 403 naming the scopes, so that the client can ask for
//! them. TLS, CORS, rate limits and tracing are more layers of the same kind.
//!
//! ```sh
//! MCP_ISSUER=https://auth.example.com MCP_RESOURCE=http://localhost:8080/mcp \
//!   cargo run -p toolwright-tests --example http_auth --features oauth -- 127.0.0.1:8080
//! ```
//!
//! - `MCP_ISSUER`: the authorization server (its metadata names its keys).
//! - `MCP_RESOURCE`: this server's URI, as clients reach it and tokens name it (`aud`).
//! - `MCP_INTROSPECTION=client_id:secret`: opaque tokens, checked by introspection as that
//!   client, instead of JWTs; `MCP_INTROSPECTION_CACHE=60` (seconds) keeps answers that long.
//! - `MCP_JWKS_REFETCH_FLOOR=30` (seconds): the least time between two fetches of the keys;
//!   `MCP_JWT_LEEWAY=60` (seconds): how far the clocks may disagree.
//! - `MCP_GATEWAY_HEADER=x-jwt-payload`: a gateway in front checks the tokens and forwards their
//!   claims in that header, which the server trusts instead.

use std::time::Duration;

use axum::Router;
use axum::http::HeaderName;
use toolwright::Server;
use toolwright::context::Auth;
use toolwright::http::Http;
use toolwright::oauth::{Authorization, Introspection, Jwt};
use toolwright::prelude::*;

/// Says who is calling, as the authorization server vouched for them.
#[mcp_tool(read_only, open_world = false)]
fn whoami(auth: Auth) -> String {
    format!("you are {}", auth.subject())
}

/// Empties the audit log. Administrators only: callers granted `mcp:admin`.
#[mcp_tool(destructive, idempotent, open_world = false, scopes("mcp:admin"))]
fn clear_audit_log(auth: Auth) -> String {
    format!("the audit log is empty ({} emptied it)", auth.subject())
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Seconds (`30` or `30s`) in `name`, else `default`.
fn seconds(name: &str, default: u64) -> Duration {
    let value = env(name).and_then(|v| v.trim_end_matches('s').parse().ok());
    Duration::from_secs(value.unwrap_or(default))
}

/// The authorization the environment describes.
fn authorization() -> Result<Authorization, String> {
    let issuer = env("MCP_ISSUER").ok_or("set MCP_ISSUER to the authorization server")?;
    let resource = env("MCP_RESOURCE").ok_or("set MCP_RESOURCE to this server's URI")?;
    let authorization = if let Some(header) = env("MCP_GATEWAY_HEADER") {
        let header = HeaderName::try_from(header).map_err(|e| e.to_string())?;
        Authorization::behind_gateway(&resource, &issuer, header)
    } else if let Some(client) = env("MCP_INTROSPECTION") {
        let (id, secret) = client
            .split_once(':')
            .ok_or("MCP_INTROSPECTION is client_id:secret")?;
        let tokens = Introspection::new(&issuer, id, secret)
            .cache_for(seconds("MCP_INTROSPECTION_CACHE", 60));
        Authorization::new(&resource, tokens)
    } else {
        let tokens = Jwt::new(&issuer)
            .refetch_floor(seconds("MCP_JWKS_REFETCH_FLOOR", 30))
            .leeway(seconds("MCP_JWT_LEEWAY", 60));
        Authorization::new(&resource, tokens)
    };
    Ok(authorization
        .require_scopes(["mcp:tools"])
        .resource_name("toolwright http_auth example"))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr: std::net::SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or("127.0.0.1:8080".into())
        .parse()?;
    let authorization = authorization()?;
    // A server on the local machine checks `Host` against DNS rebinding; one reached under a
    // public name behind a proxy lets the proxy check it.
    let http = match addr.ip().is_loopback() {
        true => Http::new(),
        false => Http::new().allow_any_host(),
    };
    let metadata = authorization.metadata_path().unwrap_or_default().to_owned();
    let endpoint = Server::new("http-auth", "1.0.0")
        .discover()
        .http_service(http.authorization(authorization))?;
    // The endpoint answers its metadata's paths itself (where the resource's path is appended,
    // and the root form), checks `Host` and `Origin` first, then the token.
    let root = "/.well-known/oauth-protected-resource";
    let mut app = Router::new()
        .route_service("/mcp", endpoint.clone())
        .route_service(root, endpoint.clone());
    if metadata != root {
        app = app.route_service(&metadata, endpoint);
    }
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("serving MCP at http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
