//! The guide: how to write, serve, test and run an MCP server with toolwright, a page per
//! subject. Every example on these pages is compiled by the crate's doc tests.
//!
//! | page | what it covers |
//! |---|---|
//! | [tools] | `#[mcp_tool]` and its keys, parameters and constraints, injected parameters, return values and errors, where tools run, tools on a type, schemas |
//! | [values] | tools made at run time (`ToolDef`): each attribute key as a value, the checks they pass, adding them while serving |
//! | [prompts_resources] | `#[mcp_prompt]`, `#[mcp_resource]` and templates, completion, cache hints, changes and subscriptions, skills |
//! | [asking] | asking the client: forms, URLs, the model, roots, in every revision |
//! | [tasks] | long-running tools as tasks, their ownership and stores |
//! | [serving] | your `main` and the command line, the transports, the protocol revisions, the capabilities declared |
//! | [composition] | a library's items, servers mounted into servers under namespaces, what collides |
//! | [http] | Streamable HTTP (feature `http`): the eras over HTTP, limits, header arguments, replicas |
//! | [authorization] | an OAuth 2.1 resource server (features `http`, `oauth`): tokens, metadata, challenges, scopes |
//! | [testing] | the in-process test client and the manifest (feature `testing`) |
//! | [operations] | tracing, middleware, visibility, tools that change while serving, reliability |
//!
//! # The examples
//!
//! Each is a runnable server in `examples/`, with its own tests in every revision and its
//! manifest pinned in `examples/manifests/`:
//!
//! - `quickstart`: four stateless tools (`cargo run --example quickstart -- call convert_length
//!   '{"value": 5, "from": "km", "to": "mi"}'`; `list` prints every tool with its schemas).
//! - `notes`: a stateful server, a `#[mcp_tool_type]` whose long-running `export_notes` reports
//!   progress, stops when the client cancels it and runs as a task; `delete_tagged` asks the
//!   user first; `lock_notes` takes tools away while the notes are locked; two middlewares (an
//!   audit log, a time limit longer for tools tagged `long`); notes as resources with
//!   completion and subscriptions, and a prompt (`cargo run --example notes -- list`).
//! - `files`: reads files inside the directories it is given, with a command line of its own
//!   before toolwright's (`cargo run --example files -- . list`). The client's roots (asked once
//!   per session) narrow those directories and never add to them, so no client, and over HTTP
//!   no one who reaches the endpoint, makes it read more than its command line allows;
//!   `--roots-widen` lets roots add directories, for a server run for one trusted client. Every
//!   path is opened beneath its directory through a handle held open (cap-std), so neither a
//!   `..` nor a link, even one another local process swaps in while it reads, leads out; only
//!   regular files are read, at most 8 MiB; a `file:///{+path}` template serves them as
//!   resources.
//! - `memory`: a knowledge graph in memory, as the reference memory server keeps one, whose
//!   graph and entities are resources with completion and subscriptions
//!   (`cargo run --example memory -- resources`).
//! - `composed` (the `toolwright-composed` package): one endpoint made of parts, the memory
//!   graph (the `toolwright-graph` library) mounted as `memory` and a weather library mounted
//!   as `weather` beside the program's own tools (`cargo run -p toolwright-composed -- list`).
//! - `json_tools`: tools read from a JSON file at start-up, each a name, a description, an
//!   input schema and a reply, made with `ToolDef` (`cargo run --example json_tools -- list`).
//! - `conformance`: the fixture tools, prompts, resources and skills the official MCP
//!   conformance suite calls.
//! - `http_auth` (in the `toolwright-tests` package): an axum app that mounts the endpoint as
//!   an OAuth 2.1 resource server (`cargo run -p toolwright-tests --example http_auth
//!   --features oauth -- 127.0.0.1:8080`, with `MCP_ISSUER` and `MCP_RESOURCE` set).
//! - `tracing_otel` (in the `toolwright-tests` package): spans that join the client's trace
//!   (`cargo run -p toolwright-tests --example tracing_otel --features opentelemetry`).
//!
//! # Compared with other MCP SDKs
//!
//! | | toolwright | rmcp (Rust) | FastMCP (Python) | TypeScript SDK |
//! |---|---|---|---|---|
//! | a tool is | a function with one attribute | a method in a router impl, arguments in a `Parameters<T>` struct | a decorated function | a call to `registerTool` with a zod schema |
//! | signature mistakes found | at compile time, with one error at the mistake | at compile time, as trait-bound errors | at run time | at compile time, through the zod types |
//! | a panicking / throwing tool | masked `isError` result, details on stderr | request left unanswered (rust-sdk#106) | exception text sent to the client | exception text sent to the client |
//! | a tool that asks the user, in every revision | one `async fn` with an `Elicit<T>` parameter: requests in a session, sealed rounds on 2026-07-28 | two APIs: `elicit::<T>()` on a peer before 2026-07-28, an `InputRequiredResult` built by hand on it | `ctx.elicit(...)` | a re-entrant handler that returns `inputRequired(...)`, with a shim for sessions |
//! | try a tool without a client | `server call NAME JSON` | – | – | – |
//! | test a tool in every protocol revision, in-process | `testing::Client`, results checked against the advertised schema | – | an in-memory client | an in-memory transport |
//! | catch a change that breaks the models calling a tool | a pinned manifest, each change classified | – | – | – |
//! | a prompt, a resource | a function with one attribute, in the same impl block as tools if you like | `#[prompt]` in a prompt router; resources by implementing `list_resources`/`read_resource` by hand | a decorated function | `registerPrompt`, `registerResource` calls |
//! | a resource template's values | decoded once; `..`, a `/` in one segment and absolute paths refused before your function runs; variables checked against parameters at compile time | parsed by you | matched by a regex built from the template; checks are yours | matched still percent-encoded (`{+path}` passes `../`); checks are yours |
//! | completion | from an enum's variants by itself, or `#[arg(complete = f)]` | `complete` implemented by hand | a completion handler | `completable(...)` on a zod schema |
//! | Agent Skills (SEP-2640) | `.skills("skills/")`, checked as a host checks them | – | – | – |
//! | a long-running tool as a task, in every revision that has tasks | `task = "optional"` on the tool; the same function's asks, progress and cancellation reach the task | `call_tool` overridden by hand, spawning the call into a `TaskManager` (in process) | `task=True` on the decorator | `registerToolTask` with a handler's `createTask`, `getTask`, `getTaskResult` against a task store |

#[doc = include_str!("tools.md")]
pub mod tools {}

#[doc = include_str!("values.md")]
pub mod values {}

#[doc = include_str!("prompts_resources.md")]
pub mod prompts_resources {}

#[doc = include_str!("asking.md")]
pub mod asking {}

#[doc = include_str!("tasks.md")]
pub mod tasks {}

#[doc = include_str!("serving.md")]
pub mod serving {}

#[doc = include_str!("composition.md")]
pub mod composition {}

#[doc = include_str!("http.md")]
pub mod http {}

#[doc = include_str!("authorization.md")]
pub mod authorization {}

#[doc = include_str!("testing.md")]
pub mod testing {}

#[doc = include_str!("operations.md")]
pub mod operations {}
