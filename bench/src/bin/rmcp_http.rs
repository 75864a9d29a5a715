//! The benchmark tools on rmcp 3.11 over Streamable HTTP: its `StreamableHttpService` mounted
//! in axum at `/mcp`, as its documentation shows.
//!
//! usage: rmcp_http (--stateless | --sessions) [--tcp-delay] serve --http ADDR
//!
//! `--stateless`: `legacy_session_mode` off and `json_response` on (each POST answered with one
//! JSON body; the handshake era gets no session). `--sessions`: rmcp's default, a
//! `LocalSessionManager` session per `initialize`, answers as event streams. rmcp serves a
//! 2026-07-28 request statelessly in either mode. `SESSION_IDLE_MS` sets the sessions' idle
//! time (rmcp's default is 5 minutes).
//!
//! Accepted connections get `TCP_NODELAY` (axum's `ListenerExt::tap_io`), unless
//! `--tcp-delay`: an event-stream answer goes out in several writes, and with Nagle's algorithm
//! on the later ones wait for the client's delayed ACK, about 40 ms a call. Prints `rmcp: serving MCP at http://ADDR/mcp` on stderr
//! once bound.
use std::sync::Arc;
use std::time::Duration;

use axum::serve::ListenerExt;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Items {
    result: Vec<toolwright_bench::Item>,
}

#[derive(Clone)]
struct Three;

// The same generated impl as `rmcp_server` (build.rs).
include!(concat!(env!("OUT_DIR"), "/rmcp_three.rs"));

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let delay = args.iter().any(|a| a == "--tcp-delay");
    args.retain(|a| a != "--tcp-delay");
    let stateless = match args.first().map(String::as_str) {
        Some("--stateless") => true,
        Some("--sessions") => false,
        _ => panic!("usage: rmcp_http (--stateless | --sessions) serve --http ADDR"),
    };
    let addr = match &args[1..] {
        [serve, http, addr] if serve == "serve" && http == "--http" => addr.clone(),
        _ => panic!("usage: rmcp_http (--stateless | --sessions) serve --http ADDR"),
    };
    let mut sessions = LocalSessionManager::default();
    if let Ok(idle) = std::env::var("SESSION_IDLE_MS") {
        sessions.session_config.keep_alive = Some(Duration::from_millis(idle.parse()?));
    }
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless);
    let service = StreamableHttpService::new(|| Ok(Three), Arc::new(sessions), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("rmcp: serving MCP at http://{}/mcp", listener.local_addr()?);
    if delay {
        axum::serve(listener, router).await?;
    } else {
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, router).await?;
    }
    Ok(())
}
