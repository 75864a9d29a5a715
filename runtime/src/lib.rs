//! The runtime of [toolwright](https://docs.rs/toolwright): the Model Context Protocol over
//! stdio, the tool registry, schema generation and result shaping.
//!
//! Most programs use it through the `toolwright` crate, whose `#[mcp_tool]` attribute generates
//! the [`ToolSpec`] of each function. The items here are what that generated code and a server's
//! `main` need.

#![warn(missing_docs)]

#[cfg(feature = "bench")]
#[doc(hidden)]
pub mod bench;
mod binding;
mod call;
mod cli;
mod constraints;
mod context;
mod dispatch;
mod error;
mod format;
mod inflight;
pub mod jsonrpc;
mod log;
mod log_notify;
mod output;
mod progress;
pub mod protocol;
mod render;
mod reply;
mod schema;
#[doc(hidden)]
pub mod select;
mod serve;
mod server;
mod stdout;
mod sync_pool;
mod tool;
mod transport;
mod wire;
mod workers;

pub use binding::{Args, Arguments};
pub use context::{Cancellation, ClientInfo, Context, Inject, Requirements, State};
pub use error::{Error, Result, ToolError};
pub use log_notify::{Level, Log};
pub use output::{
    Content, EmbeddedResource, IntoToolOutput, Json, ResourceLink, Structured, Text, ToolOutput,
};
pub use progress::Progress;
pub use protocol::{Era, ProtocolVersion};
pub use schema::{SchemaProfile, input_schema, whole_input_schema};
pub use server::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_SIZE, Server, ToolOrder};
pub use tool::{
    Annotations, BoxFuture, Handler, Icon, Injector, Invocation, MethodRegistration, Registration,
    Tool, ToolSpec, injector, tool_future,
};

#[doc(hidden)]
pub use inventory;
#[doc(hidden)]
pub use schemars;
#[doc(hidden)]
pub use serde;
#[doc(hidden)]
pub use serde_json;
