//! # toolwright
//!
//! Write [Model Context Protocol](https://modelcontextprotocol.io) tools as plain Rust
//! functions. Put `#[mcp_tool]` on a function and it becomes a tool: its name, description,
//! input schema, output schema and annotations come from the signature and the doc comment, and
//! the server finds it on its own.
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
//! Prompts and resources are functions too: `#[mcp_prompt]` and `#[mcp_resource("uri")]`
//! (below), with completion of their arguments. A tool's result can also carry resources
//! ([`Content::resource_link`], [`Content::text_resource`], [`Content::blob_resource`]).
//!
//! ## `#[mcp_tool]`
//!
//! | attribute | meaning |
//! |---|---|
//! | `name = "..."` | the tool name (default: the function's name); 1–128 characters of `A-Za-z0-9_-.` |
//! | `title = "..."` | a human-readable title; like `description`, a literal or any constant `&str` (`SHARED`, `concat!(...)`) |
//! | `description = "..."` | the description (default: the doc comment, without its `# Arguments` section) |
//! | `read_only`, `destructive`, `idempotent`, `open_world` | annotation hints, as flags or `= true`/`= false`; only the hints you set are sent |
//! | `icon = "https://..."`, `icon(src = "...", mime_type = "...", sizes = "48x48", theme = "dark")` | icons (repeatable; sent from 2025-11-25 on) |
//! | `meta = r#"{"com.example/key": 1}"#` | the tool's `_meta`, a JSON object (sent from 2025-06-18 on) |
//! | `tags("admin", "billing")` | labels the server chooses tools by ([`Server::without_tags`], [`Server::visibility`]); not sent to clients |
//! | `scopes("notes:write")` | OAuth scopes a caller must have been granted (its [`Auth`], which an authentication layer verified) to see and call the tool; anyone else, and every caller over stdio, finds no such tool. Prompts and resources take it too |
//! | `ignore_unknown_arguments` | argument keys the schema does not list are dropped instead of refused, and the schema says so; `= false` keeps a tool strict on a server that ignores them ([`Server::ignore_unknown_arguments`]) |
//! | `task = "optional"`, `task = "required"` | the tool runs as a task for a client that can follow one: the call is answered at once with a task the client polls, while the tool runs on (see [Tasks](#tasks)); `"required"` refuses other clients |
//! | `task_ttl_ms = 3600000` | how long the tool's tasks are kept, from their creation (default: [`Server::task_ttl`]) |
//! | `input_schema = include_str!("schema.json")` | a hand-written input schema, served as written (whitespace aside); pair it with `Args<serde_json::Value>` or typed parameters |
//! | `crate = path` | where the `toolwright` crate is, when it is re-exported under another path |
//!
//! Parameters are the client's arguments, deserialized with serde and described with schemars:
//! `Option<T>` parameters are optional, all others required. A parameter's description comes from
//! `#[arg(description = "...")]` or from the doc comment's `# Arguments` list
//! (``* `name` - text``). Unknown arguments are rejected with a message that names them
//! (`"additionalProperties": false` in the schema), unless the tool or the server ignores them.
//!
//! Return values:
//!
//! | the function returns | the client gets |
//! |---|---|
//! | `String`, `&str`, [`Text<T>`] | one text block |
//! | `()` | no content |
//! | [`Content`], `Vec<Content>` | those blocks: text, image, audio, resource link, embedded resource, each with optional [`Annotations`] and `_meta`; images, audio and blobs from bytes or from base64 you already have ([`Content::image_base64`]) |
//! | [`Structured<T>`] | structured output with blocks of your own beside it instead of its JSON text |
//! | any other `T: Serialize + JsonSchema`, or [`Json<T>`] | structured output (below) and the JSON as a text block |
//! | [`ToolOutput`] | exactly that |
//! | `Result<T, E>` | `Ok` as above; `Err` is a result with `isError: true` |
//!
//! Structured output is shaped for each protocol revision: on 2026-07-28 the value and its
//! schema as they are (any JSON); on 2025-06-18 and 2025-11-25 an object, so a number, array or
//! enum travels as `{"result": value}` under a matching object schema; before 2025-06-18, text
//! only. Schemas follow [`SchemaProfile::Portable`] unless the server asks for
//! [`SchemaProfile::Verbatim`].
//!
//! An `Err` of [`ToolError`], `String` or `&str` reaches the client verbatim. Any other error,
//! and a panic, is masked as "internal error (ref …)" with the details on stderr under the same
//! reference (see [`Server::expose_internal_errors`] for development).
//!
//! To answer with a JSON-RPC error instead of a result, return an [`McpError`] (directly, or
//! as a [`ToolError`] made from one, so that `?` works with both): a code of your own
//! (`McpError::new(-1, "…").with_data(…)`), or one the specification names, shaped for each
//! revision: [`McpError::resource_not_found`] (`-32002`, or `-32602` on 2026-07-28, with
//! `data.uri`) and [`McpError::url_elicitation_required`] (`-32042` on 2025-11-25, an
//! `input_required` round asking the URLs on 2026-07-28). Prompts and resources return it the
//! same way. An error that quotes what the client sent (a name, a URI, a value) quotes at most
//! its first 200 bytes, and a message stays within 4 KiB.
//!
//! Every `#[mcp_tool]` function `foo` also defines a type `foo` that names the tool, for servers
//! that register tools one by one: `toolwright::server!().tool::<foo>()`.
//!
//! ## Injected parameters
//!
//! A parameter whose type is one of the server's injectable types is filled in by the server,
//! never by the client, and does not appear in the input schema:
//!
//! | parameter | what it is |
//! |---|---|
//! | `ctx: &Context` (or `Context`) | the request: its id, protocol revision, client info and capabilities, `_meta` |
//! | `progress: Progress` | `progress.report(done, Some(total), Some("message"))`; sent only if the client asked |
//! | `log: Log` | `log.info("...")`: `notifications/message` at the level the client asked for |
//! | `cancel: Cancellation` | `cancel.is_cancelled()`, `cancel.cancelled().await`; no response is sent for a cancelled call |
//! | `db: State<Db>` | shared state registered with `.state(Db::open()?)`; a missing state stops the server at start-up |
//! | `ask: Elicit<T>` | `ask.form("message").await?`: a form of `T`'s fields for the user, answered with an [`Answer<T>`](asking::Answer) (`async fn` only) |
//! | `sample: Sample` | `sample.prompt("question", max_tokens).await?`: the client's model answers (`async fn` only) |
//! | `roots: Roots` | `roots.list().await?`: the client's roots, asked once per session and again after the client says they changed ([`Server::on_roots_changed`]); on 2026-07-28 a round per call (`async fn` only) |
//! | `auth: Auth` | the caller an authentication layer verified: `auth.subject()`, `auth.has_scope("...")`, `auth.claim("...")`; a call that carries none is refused before the tool runs (a tool for any caller reads `ctx.auth()`, `None` over stdio) |
//! | `task: TaskStart` | `task.start().await`: the rest of the call is a task (a tool with `task = "..."` only; see [Tasks](#tasks)) |
//! | `#[inject] conn: Conn` | any type that implements [`Inject`] |
//!
//! The asking parameters work in every revision: in a session each ask is a request to the
//! client; on 2026-07-28 the call answers `input_required` and runs again, from the top, with
//! the client's answers, so the code before an ask must not act on what is not confirmed yet.
//! See [`Elicit`], [`Sample`] and [`Roots`].
//!
//! A type of your own that happens to be named like one of these is reported at compile time;
//! mark it `#[arg]` to make it an argument.
//!
//! ```no_run
//! use toolwright::prelude::*;
//!
//! struct Catalogue;
//!
//! /// Searches the catalogue.
//! #[mcp_tool(read_only)]
//! async fn search(
//!     ctx: &Context,
//!     progress: Progress,
//!     catalogue: State<Catalogue>,
//!     #[arg(description = "Words to look for")] query: String,
//!     #[arg(default = 10)] limit: u32,
//! ) -> Vec<String> {
//!     progress.report(1.0, Some(1.0), Some("searched"));
//!     let _ = (ctx, catalogue);
//!     vec![format!("{query} ({limit})")]
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     toolwright::server!().state(Catalogue).discover().run()
//! }
//! ```
//!
//! `#[arg(rename = "...", default = expr, description = "...")]` shapes one argument;
//! `Args<T>` takes the whole arguments object as one `Deserialize + JsonSchema` struct.

//! ## Where tools run
//!
//! An `async fn` tool is a task on the server's multi-threaded tokio runtime (over HTTP, the
//! runtime that serves the connections), beside every other call and connection: it must not
//! block. Await asynchronous I/O (`tokio::fs`, an async HTTP client or database driver), and
//! hand blocking work (`std::fs`, a synchronous driver, computation that takes milliseconds) to
//! `tokio::task::spawn_blocking`:
//!
//! ```no_run
//! use toolwright::prelude::*;
//!
//! /// Counts the lines of a file.
//! #[mcp_tool(read_only)]
//! async fn count_lines(path: String) -> Result<usize, ToolError> {
//!     let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(path)).await;
//!     match read {
//!         Ok(Ok(text)) => Ok(text.lines().count()),
//!         Ok(Err(e)) => Err(ToolError::new(format!("cannot read the file: {e}"))),
//!         Err(panicked) => std::panic::resume_unwind(panicked.into_panic()),
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! Or write the tool as a plain `fn`: sync tools run on threads meant for blocking (one per
//! core, and another as soon as a call has held one for a millisecond), so a slow one never
//! holds up other requests, and tokio's handle is there for them too
//! (`tokio::runtime::Handle::current()`). Only an `async fn` can ask the client ([`Elicit`],
//! [`Sample`], [`Roots`]): a plain `fn` that takes one does not compile.
//!
//! ## Constraints on arguments
//!
//! `#[arg(...)]` also takes schemars' validation attributes, and `#[schemars(...)]` may be
//! written on an argument as on a struct field:
//!
//! | attribute | schema | checked |
//! |---|---|---|
//! | `length(min = 1, max = 10)` | `minLength`/`maxLength` on a string, `minItems`/`maxItems` on an array | ✓ |
//! | `range(min = 0, max = 100)` | `minimum`/`maximum` | ✓ |
//! | `pattern = "^[a-z]+$"`, `regex(pattern = "...")` | `pattern` | ✓ |
//! | `email`, `url`, `ipv4`, `ipv6`, `format = "uuid"` | `format` | ✓ (`email`, `hostname`, `ipv4`, `ipv6`, `uri`, `uuid`, `date-time`, `date`, `time`) |
//! | `inner(length(min = 1))` | the same, on each item of a list | ✓ |
//!
//! ```no_run
//! use toolwright::prelude::*;
//!
//! /// Tags notes.
//! #[mcp_tool]
//! fn tag(
//!     #[arg(length(min = 1, max = 20))] ids: Vec<u64>,
//!     #[arg(pattern = "^[a-z][a-z0-9-]*$", description = "The tag")] tag: String,
//! ) -> String {
//!     format!("tagged {} notes {tag}", ids.len())
//! }
//! # fn main() {}
//! ```
//!
//! The server enforces what the input schema advertises when it binds the arguments, wherever
//! the constraint was written (on a parameter, a field of an `Args<T>` struct, a newtype, a
//! hand-written schema): a value outside it gets the same error as a value of the wrong type,
//! naming its path (``invalid arguments: `ids`: must have at least 1 item, got 0``). And a
//! value the schema allows binds: `2.0` is an integer, as JSON Schema says.
//!
//! ## Tools on a type
//!
//! `#[mcp_tool_type]` on an inherent impl block makes its `#[mcp_tool]` methods (taking `&self`)
//! tools, served on one instance shared by all calls:
//!
//! ```no_run
//! use std::sync::Mutex;
//! use toolwright::prelude::*;
//!
//! #[derive(Default)]
//! struct Notes(Mutex<Vec<String>>);
//!
//! #[mcp_tool_type]
//! impl Notes {
//!     /// Stores a note.
//!     #[mcp_tool(destructive = false)]
//!     fn add_note(&self, text: String) -> usize {
//!         let mut notes = self.0.lock().unwrap();
//!         notes.push(text);
//!         notes.len()
//!     }
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     toolwright::server!().tools(Notes::default()).run()
//! }
//! ```
//!
//! A type may have several such impl blocks, and ordinary methods beside the tools; its
//! `#[mcp_prompt]` and `#[mcp_resource]` methods are served on the same instance.
//!
//! ## Prompts and resources
//!
//! `#[mcp_prompt]` makes a function a prompt, and `#[mcp_resource("uri")]` a resource, or a
//! resource template when the URI has RFC 6570 `{variables}`. Both are named after the
//! function unless `name = "..."` says otherwise, and take `title`, `description`, `icon`,
//! `tags`, `scopes`, `meta` and `crate` as `#[mcp_tool]` does. A resource also takes:
//!
//! | key | meaning |
//! |---|---|
//! | `mime_type = "text/markdown"` | the MIME type of its contents |
//! | `size = 1234` | its size in bytes (without variables only) |
//! | `audience("user", "assistant")`, `priority = 0.5` (0 to 1), `last_modified = "2025-01-12T15:00:58Z"` | annotations |
//! | `ttl_ms = 60000` | how long a 2026-07-28 client may reuse a read (default: [`Server::cache_reads`], else 0) |
//! | `cache = "public"`, `cache = "private"` | with whom a read may be shared (default: [`Server::cache_reads`], else `private`); `public` is refused for a resource that takes `Auth` (or a value that says it reads the caller, [`Requirements::caller`]) or needs scopes; one that takes the whole [`Context`] is `public` only if it says so itself |
//!
//! They register as tools do (`server.prompt::<review>()`, `server.resource::<note>()`,
//! `discover()`, or methods of a `#[mcp_tool_type]` impl block).
//!
//! Parameters are injected as a tool's are, asking the client included: an `async` prompt or
//! resource may take [`Elicit`], [`Sample`] or [`Roots`] (a request to the client in a
//! session, an `input_required` round on 2026-07-28). Every other parameter is a prompt
//! argument, described by the doc comment's `# Arguments`, or the template variable of its
//! name: every variable needs its parameter and every such parameter its variable, checked at
//! compile time. Arguments and variables arrive as strings, so a parameter is a `String`, an
//! `Option<String>` (optional), a number, a `bool` or a unit enum, read from the string; one
//! that does not read is refused saying what it must look like ("the variable `{id}` must be
//! an integer of at least 0 (decimal digits, no leading zero), not `01`").
//! `#[arg(complete = f)]` names the function that suggests values as the user types
//! (`fn(Completing) -> Vec<String>`, or a [`Completion`], sync or `async`); a unit enum
//! completes from its variants on its own.
//!
//! | a prompt returns | the client gets |
//! |---|---|
//! | `String`, `&'static str` | one message from the user |
//! | [`PromptMessage`], `Vec<PromptMessage>` | those messages |
//! | [`Messages`] | its messages, and its description |
//! | `Result<T, E: Display>` | `Err`: error `-32603` with the error's text, as written; an [`McpError`] is the error it describes |
//!
//! | a resource returns | the client gets |
//! |---|---|
//! | `String`, `&'static str` | text, `text/plain` unless `mime_type` says otherwise |
//! | `Vec<u8>` | a base64 blob, `application/octet-stream` unless `mime_type` says otherwise |
//! | [`Json<T>`] | the value's JSON text, `application/json` unless `mime_type` says otherwise |
//! | [`EmbeddedResource`], `Vec<EmbeddedResource>` | those contents, as given |
//! | `Option<T>` | `None`: the resource is not found |
//! | `Result<T, E: Display>` | `Err`: error `-32603` with the error's text, as written; an [`McpError`] is the error it describes |
//!
//! ```no_run
//! use toolwright::prelude::*;
//!
//! /// Asks for a review of some code.
//! ///
//! /// # Arguments
//! /// * `code` - The code to review.
//! /// * `language` - The language it is written in.
//! #[mcp_prompt]
//! fn review(code: String, #[arg(complete = languages)] language: Option<String>) -> String {
//!     let language = language.as_deref().unwrap_or("Rust");
//!     format!("Review this {language} code:\n{code}")
//! }
//!
//! fn languages(completing: Completing) -> Vec<String> {
//!     let typed = completing.value().to_lowercase();
//!     ["rust", "python"]
//!         .into_iter()
//!         .filter(|language| language.starts_with(&typed))
//!         .map(String::from)
//!         .collect()
//! }
//!
//! /// One note, by its number.
//! #[mcp_resource("notes://{id}", mime_type = "text/markdown")]
//! fn note(id: u32) -> Option<String> {
//!     (id == 1).then(|| "# The first note".to_owned())
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     toolwright::server!().discover().run()
//! }
//! ```
//!
//! ## Tasks
//!
//! A tool that runs for minutes (a build, an export, a crawl) says `task = "optional"`. For a
//! client that can follow a task (on 2026-07-28 one whose request declares the extension
//! `io.modelcontextprotocol/tasks`; on 2025-11-25 one that asks with `params.task`) the call is
//! answered at once with a task, once the task is stored; the client polls `tasks/get` for its
//! status and result, and may `tasks/cancel` it. Any other client gets an ordinary call;
//! `task = "required"` refuses it instead (`-32021` naming the extension). The function does
//! not change: its [`Cancellation`] fires on `tasks/cancel`, its [`Progress`] reports become the
//! task's `statusMessage`, and what it asks ([`Elicit`], [`Sample`], [`Roots`]) becomes the
//! task's `inputRequests`, answered with `tasks/update` (on 2026-07-28). A tool error completes
//! the task with an error result; a panic fails it.
//!
//! ```no_run
//! use std::time::Duration;
//! use toolwright::prelude::*;
//!
//! /// Exports every note as one file.
//! #[mcp_tool(task = "optional", task_ttl_ms = 86_400_000)]
//! async fn export(progress: Progress, cancel: Cancellation) -> Result<String, ToolError> {
//!     for step in 1..=10 {
//!         if cancel.is_cancelled() {
//!             return Err(ToolError::new("export cancelled"));
//!         }
//!         tokio::time::sleep(Duration::from_secs(1)).await;
//!         progress.report(step as f64, Some(10.0), None);
//!     }
//!     Ok("exported to notes.zip".into())
//! }
//! ```
//!
//! A tool can ask first and become a task later: it takes a [`TaskStart`] and calls
//! `task.start().await` where the long part begins. Tasks belong to their caller (the
//! subject of the [`Auth`] an authentication layer put into the request's extensions, else the session) and
//! live in the server's [`TaskStore`]: [`MemoryTaskStore`] by default; replicas behind a load
//! balancer share one ([`Server::task_store`]). [`Server::task_ttl`],
//! [`Server::task_poll_interval`] and [`Server::task_lease`] tune them.
//!
//! ## Testing tools
//!
//! With the `testing` feature (`toolwright = { version = "0.1", features = ["testing"] }` in
//! `[dev-dependencies]`), `testing::Client` talks to a server in the test's own
//! process, in any protocol revision, over the same request path a client takes.
//! `structured::<T>()` reads a structured result and checks it against the output schema the
//! tool advertised in that revision, so a schema that does not describe the value fails the
//! test, not a client. A `testing::Manifest` pins every tool as listed, and a
//! change fails the test with each change classified breaking or compatible.
//!
//! ```
//! # #[cfg(feature = "testing")] {
//! use serde_json::json;
//! use toolwright::prelude::*;
//! use toolwright::testing::{Client, Manifest};
//! use toolwright::ProtocolVersion;
//!
//! /// Adds two integers.
//! #[mcp_tool(read_only)]
//! fn add(a: i64, b: i64) -> i64 {
//!     a + b
//! }
//!
//! fn server() -> Server {
//!     Server::new("adder", "1").tool::<add>()
//! }
//!
//! // #[test]
//! fn adds_in_every_revision() {
//!     for revision in ProtocolVersion::ALL {
//!         let mut client = Client::connect(server(), revision).unwrap();
//!         let result = client.call("add", json!({"a": 2, "b": 3})).unwrap();
//!         match revision.has_structured_output() {
//!             true => assert_eq!(result.structured::<i64>().unwrap(), 5),
//!             false => assert_eq!(result.text(), "5"),
//!         }
//!     }
//! }
//!
//! // #[test]
//! fn the_tools_do_not_change_by_accident() {
//!     // Written on the first run; `TOOLWRIGHT_MANIFEST=overwrite` pins a change that is meant.
//!     Manifest::of(server()).unwrap().assert_matches("tests/manifest.json");
//! }
//! # adds_in_every_revision();
//! # }
//! ```
//!
//! `client.start(name, arguments)` watches a call's progress and cancels it; `CallResult`
//! also holds the log messages a call sent.
//!
//! ## Your `main`, your command line
//!
//! [`Server::run`] reads the command line and returns the exit code for `main`:
//! `SERVER` serves stdio, `SERVER serve --http ADDR [OPTIONS]` Streamable HTTP (with flags for
//! every `Http` limit: `--max-body 16MiB`, `--session-idle 10m`, ...; `SERVER
//! help` lists them), `SERVER list` and `SERVER call NAME JSON` try the tools. A program with a
//! command line of its own chooses a [`Command`] and calls [`Server::execute`]: it parses
//! what follows its own arguments with [`Command::parse`] (see [`Server::execute`] for a server
//! that takes directories first), or builds one (`Command::serve_http(addr)`,
//! `ServeHttp::new(addr).http(...)`):
//!
//! ```no_run
//! use toolwright::Server;
//! use toolwright::cli::Command;
//!
//! fn main() -> std::process::ExitCode {
//!     let server = Server::new("weather", "1.0.0").discover();
//!     match std::env::args().nth(1).as_deref() {
//!         Some("mcp") => server.execute(Command::Serve),
//!         Some("tools") => server.execute(Command::List),
//!         _ => std::process::ExitCode::from(2),
//!     }
//! }
//! ```
//!
//! ## Over HTTP
//!
//! With the `http` feature every server also serves Streamable HTTP: `SERVER serve --http
//! 127.0.0.1:8080` on the command line, `Server::serve_http` in code, or `Server::http_service`
//! for a tower `Service` to mount in an application of your own (axum:
//! `Router::new().route_service("/mcp", endpoint)`) behind your own layers. A tool reads what
//! those layers put in the request's extensions with `Context::extension`, and an argument
//! marked `#[arg(header = "Region")]` also travels as the `Mcp-Param-Region` header on
//! 2026-07-28. 2026-07-28 requests stand alone, so any number of replicas can serve one client;
//! the handshake revisions get sessions. The `http_auth` example puts a bearer-token check in
//! front.
//!
//! ## Protocol revisions
//!
//! The server speaks 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 through `initialize`,
//! and 2026-07-28 per request: a request whose `_meta` names its revision is served on its own,
//! beside a handshake session on the same connection. Each result carries only the fields its
//! revision defines.
//!
//! ## What the server declares
//!
//! A capability is declared (in the `initialize` result, and in `server/discover` on
//! 2026-07-28) exactly when the server can do what it says:
//!
//! | capability | declared when |
//! |---|---|
//! | `tools` | always; `listChanged: true` once a [`ServerHandle`] was taken ([`Server::handle`]), which can change the lists |
//! | `prompts` | some prompt is served; `listChanged` as for tools |
//! | `resources` | some resource, template or folder of skills is served; `subscribe: true` once the server can announce that one changed ([`Server::resource_updates`] or [`Server::handle`]: without either, `resources/subscribe` is `-32601` and a listen stream's `resourceSubscriptions` are left out of its acknowledgement); `listChanged` as for tools |
//! | `completions` | some prompt or resource template is served (from 2025-03-26, which defined it) |
//! | `logging` | always: every tool can log ([`Log`]) |
//! | `tasks` (2025-11-25), `extensions."io.modelcontextprotocol/tasks"` (2026-07-28) | some tool has `task = "..."`, or a task store was chosen ([`Server::task_store`]) |
//! | `extensions."io.modelcontextprotocol/skills"` | a folder of skills is served ([`Server::skills`]) |
//!
//! [`Annotations`]: content::Annotations
//! [`Auth`]: context::Auth
//! [`Cancellation`]: context::Cancellation
//! [`Command`]: cli::Command
//! [`Command::parse`]: cli::Command::parse
//! [`Completion`]: completion::Completion
//! [`Content`]: content::Content
//! [`Content::blob_resource`]: content::Content::blob_resource
//! [`Content::image_base64`]: content::Content::image_base64
//! [`Content::resource_link`]: content::Content::resource_link
//! [`Content::text_resource`]: content::Content::text_resource
//! [`Elicit`]: asking::Elicit
//! [`EmbeddedResource`]: content::EmbeddedResource
//! [`Inject`]: context::Inject
//! [`Log`]: context::Log
//! [`MemoryTaskStore`]: tasks::MemoryTaskStore
//! [`Messages`]: prompts::Messages
//! [`Progress`]: context::Progress
//! [`PromptMessage`]: prompts::PromptMessage
//! [`Requirements::caller`]: context::Requirements::caller
//! [`Roots`]: asking::Roots
//! [`Sample`]: asking::Sample
//! [`SchemaProfile::Portable`]: tools::SchemaProfile::Portable
//! [`SchemaProfile::Verbatim`]: tools::SchemaProfile::Verbatim
//! [`TaskStart`]: tasks::TaskStart
//! [`TaskStore`]: tasks::TaskStore
//! [`ToolOutput`]: tools::ToolOutput
//! [`Text<T>`]: tools::Text
//! [`Structured<T>`]: tools::Structured
//! [`Json<T>`]: tools::Json

#![forbid(unsafe_code)]

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
        Args, IntoToolOutput, Json, SchemaProfile, Structured, Text, Tool, ToolInfo, ToolOrder,
        ToolOutput,
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
    pub use toolwright_runtime::{IntoPrompt, Messages, Prompt, PromptMessage};
}

/// What a resource returns, the trait a resource's marker type implements, how reads are
/// cached, and telling subscribers that a resource changed.
pub mod resources {
    pub use toolwright_runtime::{CacheScope, IntoContents, Resource, ResourceUpdates};
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
/// for injectables of one's own.
pub mod context {
    pub use toolwright_runtime::{
        Auth, Cancellation, ClientInfo, Extensions, Inject, Level, Log, Progress, Requirements,
    };
}

/// Tools that run as tasks: the point where a call becomes one ([`TaskStart`](tasks::TaskStart)),
/// and the stores that keep them ([`MemoryTaskStore`](tasks::MemoryTaskStore), a
/// [`TaskStore`](tasks::TaskStore) of one's own, and with feature `redis` `RedisTaskStore`).
pub mod tasks {
    #[cfg(feature = "redis")]
    pub use toolwright_runtime::RedisTaskStore;
    pub use toolwright_runtime::{
        MemoryTaskStore, StoreError, StoreFuture, TaskStart, TaskStore, Waker, Watch,
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
