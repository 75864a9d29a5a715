//! # toolwright
//!
//! Write [Model Context Protocol](https://modelcontextprotocol.io) servers as plain Rust
//! functions. Put `#[mcp_tool]` on a function and it becomes a tool: its name, description,
//! input schema, output schema and annotations come from the signature and the doc comment,
//! and the server finds it on its own. Prompts and resources are functions too
//! (`#[mcp_prompt]`, `#[mcp_resource("uri")]`), and one server speaks every protocol revision
//! from 2024-11-05 to 2026-07-28 over stdio, in process and over Streamable HTTP.
//!
//! ```no_run
//! use toolwright::prelude::*;
//!
//! /// Adds two integers.
//! ///
//! /// # Arguments
//! /// * `a` - The first addend.
//! /// * `b` - The second addend.
//! #[mcp_tool(read_only, open_world = false)]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     toolwright::server!().discover().run()
//! }
//! ```
//!
//! The program serves MCP over stdio when run with no arguments, the way an MCP client starts
//! it. Run it with `list` to see its tools, or `call add '{"a": 2, "b": 3}'` to call one.
//!
//! # The guide
//!
//! | page | |
//! |---|---|
//! | [tools](guide::tools) | `#[mcp_tool]`, parameters, injected parameters, return values, errors, where tools run |
//! | [items made at run time](guide::values) | `ToolDef`, `PromptDef`, `ResourceDef`: items whose names, schemas and handlers are values |
//! | [prompts and resources](guide::prompts_resources) | `#[mcp_prompt]`, `#[mcp_resource]`, templates, completion, cache hints, subscriptions, skills |
//! | [asking the client](guide::asking) | forms, URLs, the model, roots, in every revision |
//! | [tasks](guide::tasks) | long-running tools as tasks |
//! | [serving](guide::serving) | `main` and the command line, transports, revisions, capabilities |
//! | [composition](guide::composition) | a library's items, servers mounted under namespaces, collisions |
//! | [HTTP](guide::http) | Streamable HTTP, limits, replicas |
//! | [authorization](guide::authorization) | OAuth 2.1: tokens, metadata, scopes |
//! | [testing](guide::testing) | the in-process client and the manifest |
//! | [operations](guide::operations) | tracing, middleware, visibility, changing tools, reliability |
//!
//! # The crate
//!
//! The root holds the attributes, [`server!`], [`Server`] and [`ServerHandle`], the errors
//! ([`Error`], [`ToolError`], [`McpError`]), what most functions take ([`Context`],
//! [`State`]) and the revisions ([`ProtocolVersion`], [`Era`]); [`prelude`] holds what servers
//! reach for. The rest is grouped by subject: [`tools`], [`content`], [`prompts`],
//! [`resources`], [`completion`], [`asking`], [`context`], [`tasks`], [`visibility`],
//! [`cli`], [`middleware`], and with features `http`, `oauth` and `testing`.
//!
//! | feature | adds |
//! |---|---|
//! | `testing` | `testing`: the in-process test client and the tool manifest, for `[dev-dependencies]` |
//! | `http` | Streamable HTTP: `Server::serve_http`, `Server::http_service`, `serve --http ADDR`, `http`, and `oauth`'s `Authorization` |
//! | `oauth` | bearer tokens checked by the server: `oauth::Jwt`, `oauth::Introspection` (implies `http`) |
//! | `redis` | `tasks::RedisTaskStore`: tasks kept in Redis, shared by every replica |
//! | `opentelemetry` | the client's W3C trace context as the parent of each request's span |

#![forbid(unsafe_code)]

pub mod guide;

// The README's examples are compiled as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use toolwright_macros::{mcp_prompt, mcp_resource, mcp_tool, mcp_tool_type};
// What every server names: the server, its errors, what a tool's function sees and returns
// when it fails, and the revisions. Everything else is in the module of its subject.
pub use toolwright_runtime::{
    Context, Era, Error, McpError, ProtocolVersion, Result, Server, ServerHandle, State, ToolError,
};

/// What a tool returns, how its schemas are shaped and listed, and the tool as a visibility
/// rule or a middleware sees it. A tool's error, [`ToolError`], is at the
/// crate's root.
pub mod tools {
    pub use toolwright_runtime::{
        Args, IntoToolOutput, Json, SchemaProfile, Structured, Text, Tool, ToolDef, ToolInfo,
        ToolOrder, ToolOutput,
    };
}

/// Content blocks (text, image, audio, links to resources, embedded resources) and their
/// annotations, in tool results and prompt messages alike.
pub mod content {
    pub use toolwright_runtime::{
        Annotations, Content, EmbeddedResource, InvalidBase64, ResourceLink, Role,
    };
}

/// What a prompt returns: its messages, and the trait a prompt's marker type implements.
pub mod prompts {
    pub use toolwright_runtime::{IntoPrompt, Messages, Prompt, PromptDef, PromptMessage};
}

/// What a resource returns, the trait a resource's marker type implements, how reads are
/// cached, and telling subscribers that a resource changed.
pub mod resources {
    pub use toolwright_runtime::{
        CacheScope, IntoContents, Resource, ResourceDef, ResourceUpdates,
    };
}

/// Suggesting an argument's values as the user types (`completion/complete`), for prompts and
/// resource templates.
pub mod completion {
    pub use toolwright_runtime::{Completing, Completion, IntoCompletion};
}

/// Asking the client, in every revision: the user through a form or a URL ([`Elicit`](asking::Elicit)),
/// its model ([`Sample`](asking::Sample)), its roots ([`Roots`](asking::Roots)).
pub mod asking {
    pub use toolwright_runtime::{
        Answer, AskError, Elicit, NoForm, Root, Roots, RootsChanged, Sample, SamplingMessage,
        SamplingRequest, SamplingResult, UrlElicitation,
    };
}

/// What a function is told of the request it serves, beside its [`Context`]:
/// the injected parameters (progress, log, cancellation, the caller) and [`Inject`](context::Inject)
/// for injectables of one's own; and a session, as the server's session hooks see it
/// ([`SessionInfo`](context::SessionInfo)).
pub mod context {
    pub use toolwright_runtime::{
        Auth, Cancellation, ClientInfo, Extensions, Inject, Level, Log, Progress, Requirements,
        ServerLog, SessionInfo,
    };
}

/// Tools that run as tasks: the point where a call becomes one ([`TaskStart`](tasks::TaskStart)),
/// and the stores that keep them ([`MemoryTaskStore`](tasks::MemoryTaskStore), a
/// [`TaskStore`](tasks::TaskStore) of one's own, and with feature `redis` `RedisTaskStore`).
pub mod tasks {
    #[cfg(feature = "redis")]
    pub use toolwright_runtime::RedisTaskStore;
    pub use toolwright_runtime::{
        MemoryTaskStore, StoreError, StoreFuture, TaskStart, TaskStore, TaskSupport, Waker, Watch,
    };
}

/// Which items a caller sees: what a visibility rule ([`Server::visibility`]) is given.
pub mod visibility {
    pub use toolwright_runtime::{Caller, ItemInfo, ItemKind};
}

/// The command line every server binary has, for a program that reads its own first
/// ([`Server::execute`]).
pub mod cli {
    #[cfg(feature = "http")]
    pub use toolwright_runtime::ServeHttp;
    pub use toolwright_runtime::{Command, UsageError};
}

/// Middleware around tool calls: tower layers, and [`from_fn`](middleware::from_fn).
pub use toolwright_runtime::middleware;

/// Streamable HTTP (feature `http`): the endpoint's settings ([`Http`](http::Http)) and the
/// endpoint as a tower service ([`HttpService`](http::HttpService)).
#[cfg(feature = "http")]
pub mod http {
    pub use toolwright_runtime::HTTP_PATH as PATH;
    pub use toolwright_runtime::{Http, HttpService, ResponseBody};
}

/// This server as an OAuth 2.1 resource server: [`Authorization`](oauth::Authorization), and
/// the token checks of feature `oauth` ([`Jwt`](oauth::Jwt), [`Introspection`](oauth::Introspection),
/// and both at once, [`JwtOrIntrospection`](oauth::JwtOrIntrospection)).
#[cfg(feature = "http")]
pub use toolwright_runtime::oauth;

/// Testing tools without a client process: an in-process [`Client`](testing::Client) that
/// checks structured results against the advertised schemas, and a [`Manifest`](testing::Manifest)
/// of the tools that tests pin. Needs the `testing` feature (in `[dev-dependencies]`).
#[cfg(feature = "testing")]
pub mod testing {
    pub use toolwright_runtime::testing::*;
}

/// The names most programs need: `use toolwright::prelude::*;`.
pub mod prelude {
    pub use crate::{mcp_prompt, mcp_resource, mcp_tool, mcp_tool_type};
    pub use toolwright_runtime::{
        Annotations, Answer, Args, AskError, Auth, Cancellation, Completing, Completion, Content,
        Context, Elicit, EmbeddedResource, Inject, IntoContents, IntoPrompt, IntoToolOutput,
        ItemInfo, ItemKind, Json, Level, Log, McpError, Messages, Progress, Prompt, PromptMessage,
        Resource, ResourceLink, ResourceUpdates, Role, Roots, Sample, SamplingRequest, Server,
        State, Structured, TaskStart, Text, ToolError, ToolOrder, ToolOutput,
    };
}

/// A [`Server`] named after the calling program: its binary name (or, outside a binary, its
/// package name) and its package version, from Cargo.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     toolwright::server!().discover().run()
/// }
/// ```
#[macro_export]
macro_rules! server {
    () => {
        $crate::Server::new(
            match ::core::option_env!("CARGO_BIN_NAME") {
                ::core::option::Option::Some(name) => name,
                ::core::option::Option::None => ::core::env!("CARGO_PKG_NAME"),
            },
            ::core::env!("CARGO_PKG_VERSION"),
        )
    };
}

/// What the code generated by `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` names. Not
/// a public API: it may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use toolwright_runtime::private::*;
}
