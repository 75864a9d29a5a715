//! Testing tools without a client process: an MCP client in the same process as the server
//! ([`Client`]), and a manifest of the tools that tests can pin ([`Manifest`]).
//!
//! Enable the `testing` feature in `[dev-dependencies]`:
//!
//! ```toml
//! [dev-dependencies]
//! toolwright = { version = "0.1", features = ["testing"] }
//! ```
//!
//! A test of a tool in every protocol revision:
//!
//! ```
//! use toolwright_runtime::testing::Client;
//! use toolwright_runtime::{ProtocolVersion, Server};
//! # fn server() -> Server { Server::new("example", "1") }
//!
//! for revision in ProtocolVersion::ALL {
//!     let mut client = Client::connect(server(), revision).unwrap();
//!     let tools = client.list_tools().unwrap();
//!     assert!(tools.is_empty(), "{revision}");
//! }
//! ```
//!
//! Calls go through the same request path a real client's do (JSON-RPC lines, the revision's
//! handshake or `_meta`), answered by the server's own workers. A call's structured result is
//! read with [`CallResult::structured`], which also checks it against the output schema the
//! tool advertised in that revision, so a schema that does not describe what the tool returns
//! fails the test rather than a client.

mod answers;
mod client;
mod diff;
mod item_diff;
mod items;
mod manifest;
mod result;
mod tasks;

pub use answers::Answers;
pub use client::{Client, PendingCall, RpcError};
pub use diff::{Change, Compatibility};
pub use manifest::Manifest;
pub use result::{CallResult, LogMessage, ProgressUpdate, StructuredError};
pub use tasks::{TaskCall, TaskEnd};
