//! A remote MCP server behind a bearer-token check. An axum app mounts toolwright's endpoint at
//! `/mcp` behind a middleware that verifies the token and puts the caller (an `Auth`) in the
//! request's extensions; a tool reads the caller through `Context`, and the server shows the tools tagged
//! `admin` to administrators only. TLS, CORS, rate limits and tracing are more layers of the
//! same kind.
//!
//! ```sh
//! MCP_TOKENS="s3cret=alice:admin,t0ken=bob" cargo run -p toolwright-tests --example http_auth --features http -- 127.0.0.1:8080
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use toolwright::prelude::*;
use toolwright::{Auth, Http, Server};

/// Says who is calling, as the server authenticated them.
#[mcp_tool(read_only, open_world = false)]
fn whoami(ctx: &Context) -> String {
    match ctx.auth() {
        Some(caller) => format!("you are {}", caller.subject()),
        None => "you are anonymous".to_owned(),
    }
}

/// Empties the audit log. Administrators only: nobody else sees or calls it.
#[mcp_tool(destructive, idempotent, open_world = false, tags("admin"))]
fn clear_audit_log() -> &'static str {
    "the audit log is empty"
}

/// The tokens the server accepts, and whose each is: the caller, with its scopes.
type Tokens = Arc<HashMap<String, Auth>>;

/// Lets a request through with a known bearer token, its caller in the extensions; answers
/// 401 otherwise.
async fn authenticate(State(tokens): State<Tokens>, mut request: Request, next: Next) -> Response {
    let token = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    match token.and_then(|token| tokens.get(token)) {
        Some(caller) => {
            request.extensions_mut().insert(caller.clone());
            next.run(request).await
        }
        None => (
            StatusCode::UNAUTHORIZED,
            [(WWW_AUTHENTICATE, "Bearer")],
            "a valid bearer token is required",
        )
            .into_response(),
    }
}

/// `token=name` pairs (`token=name:admin` for an administrator), comma-separated.
fn tokens(spec: &str) -> Tokens {
    let pairs = spec.split(',').filter_map(|pair| pair.split_once('='));
    let users = pairs.map(|(token, user)| {
        let caller = match user.trim().split_once(':') {
            Some((name, role)) => Auth::new(name).with_scopes([role]),
            None => Auth::new(user.trim()),
        };
        (token.trim().to_owned(), caller)
    });
    Arc::new(users.collect())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args().nth(1).unwrap_or("127.0.0.1:8080".into());
    let tokens = tokens(&std::env::var("MCP_TOKENS").unwrap_or_default());
    let endpoint = Server::new("http-auth", "1.0.0")
        .discover()
        // The same tools for everyone, but those tagged `admin` for administrators only.
        .visibility(|tool, caller| {
            !tool.has_tag("admin") || caller.auth().is_some_and(|c| c.has_scope("admin"))
        })
        .http_service(Http::new())?;
    let app = Router::new()
        .route_service("/mcp", endpoint)
        .layer(middleware::from_fn_with_state(tokens, authenticate));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("serving MCP at http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
