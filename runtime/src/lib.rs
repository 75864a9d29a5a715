//! The runtime of [toolwright](https://docs.rs/toolwright): the Model Context Protocol served
//! over stdio, in process (the command line's `list` and `call`, and `testing`) and over
//! Streamable HTTP (feature `http`), for every revision from 2024-11-05 to 2026-07-28; the tool
//! registry, schema generation and result shaping.
//!
//! Most programs use it through the `toolwright` crate, whose `#[mcp_tool]` attribute generates
//! each tool's description. The items here are what a server's `main`, its tools and its tests
//! name.
//!
//! The modules form layers, each importing only from those below it, and so do the files of
//! every folder (a test keeps it so): `protocol` (revisions, JSON-RPC, wire shapes) → `tools`
//! (outputs, binding, schemas, rendering) → `call` (what a tool sees of one call: its record,
//! context, injectables and asks) → `item` (the generated code's contract: the header every
//! item shares, each kind's spec) → `run` (how calls run: threads, pools, middleware) →
//! `server` (builder, engine, sessions, dispatch) → `transport` (stdio, memory, HTTP) → `cli`
//! and `testing`, with `private` (what generated code names) on top.

#![warn(missing_docs)]
// One function reads the thread's CPU clock through libc (`run/pace.rs`); it says why it is
// sound, and nothing else may be unsafe.
#![deny(unsafe_code)]

mod call;
mod cli;
mod diagnostics;
mod item;
#[doc(hidden)]
pub mod private;
mod prompts;
mod protocol;
mod resources;
mod run;
mod server;
mod tasks;
#[cfg(feature = "testing")]
pub mod testing;
mod tools;
mod transport;

pub use call::{
    Answer, AskError, Auth, Caller, Cancellation, ClientInfo, Completing, Completion, Context,
    Elicit, Extensions, Inject, IntoCompletion, Log, NoForm, Progress, Requirements, Root, Roots,
    RootsChanged, Sample, SamplingMessage, SamplingRequest, SamplingResult, State, TaskStart,
};
#[cfg(feature = "http")]
pub use cli::ServeHttp;
pub use cli::{Command, UsageError};
pub use item::tool::TaskSupport;
pub use item::{
    ItemInfo, ItemKind, Prompt, PromptDef, Resource, ResourceDef, Tool, ToolDef, ToolInfo,
};
pub use prompts::{IntoPrompt, Messages, PromptMessage};
pub use protocol::{CacheScope, Era, Level, McpError, ProtocolVersion, UrlElicitation};
pub use resources::IntoContents;
pub use run::middleware;
pub use server::{
    DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_SIZE, Error, ResourceUpdates, Result, Server,
    ServerHandle, ServerLog, SessionInfo, ToolOrder,
};
pub use tasks::memory::MemoryTaskStore;
#[cfg(feature = "redis")]
pub use tasks::redis::RedisTaskStore;
pub use tasks::store::{StoreError, StoreFuture, TaskStore, Waker, Watch};
pub use tools::{
    Annotations, Args, Content, EmbeddedResource, IntoToolOutput, InvalidBase64, Json,
    ResourceLink, Role, SchemaProfile, Structured, Text, ToolError, ToolOutput,
};
#[cfg(feature = "http")]
pub use transport::http::oauth;
#[cfg(feature = "http")]
pub use transport::http::{Http, HttpService, PATH as HTTP_PATH, ResponseBody};
