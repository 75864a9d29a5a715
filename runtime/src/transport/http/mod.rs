//! MCP over Streamable HTTP: both eras on one endpoint (feature `http`).
//!
//! 2026-07-28 requests stand alone (any instance behind any load balancer can serve any of
//! them); the handshake era (2025-03-26, 2025-06-18, 2025-11-25) gets sessions. The 2024-11-05
//! "HTTP+SSE" transport (a GET stream plus a POST endpoint announced on it) is not served: it is
//! deprecated, and 2024-11-05 clients are served over stdio.

mod backlog;
mod body;
mod config;
mod endpoint;
mod head;
mod headers;
pub mod oauth;
mod quiet;
mod reply;
mod serve;
mod service;
mod sessioned;
mod sessions;
mod stateless;
mod stream;

pub use config::Http;
pub(crate) use serve::shutdown_signal;
pub use service::{HttpService, PATH};
pub use stream::ResponseBody;
