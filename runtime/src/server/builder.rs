//! The server builder: what the server is called, which tools it serves, and its limits;
//! [`Server::build`] checks it and derives everything once.

use std::any::TypeId;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tower_layer::Layer;
use tower_service::Service as TowerService;

use crate::call::caller::Caller;
use crate::call::state::States;
use crate::call::to_client::form::Forms;
use crate::item::discovery::{self, Item};
use crate::item::handler::Instance;
use crate::item::header::Rule;
use crate::item::header::{ItemKind, ToolInfo};
use crate::item::prompt::Prompt;
use crate::item::prompt_def::PromptDef;
use crate::item::resource::Resource;
use crate::item::resource_def::ResourceDef;
use crate::item::shared::Shared;
use crate::item::tool::{TaskSupport, Tool, ToolSpec};
use crate::item::tool_def::ToolDef;
use crate::protocol::mcp_error::McpError;
use crate::protocol::wire::{self, Cache, CacheScope, Offer, ServerInfo};
use crate::resources::skills::load::Skills;
use crate::run::inflight::RunningTasks;
use crate::run::middleware::{self, BoxError, BoxedService, Chain, ToolCall, Wrap};
use crate::run::sync_pool;
use crate::run::workers::Workers;
use crate::server::catalog::{Items, Pending};
use crate::server::engine::{Engine, Limits};
use crate::server::error::{Error, Result};
use crate::server::handle::{ResourceUpdates, ServedBy, ServerHandle, ServerLog};
use crate::server::hooks::{Hooks, SessionInfo};
use crate::server::listeners::Listeners;
use crate::server::mount::{self, Child, Handed, Mounted};
use crate::server::request_state::Sealer;
use crate::server::toolset::{self, Admission, Names, ToolOrder, ToolSet};
use crate::tasks::book::TaskBook;
use crate::tasks::memory::MemoryTaskStore;
use crate::tasks::store::TaskStore;
use crate::tools::SchemaProfile;
use crate::tools::compiled::Options;

/// An MCP server: its identity, its tools and its limits.
///
/// Made with `toolwright::server!()`, which takes the name and version from the calling crate,
/// or with [`Server::new`].
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     toolwright_runtime::Server::new("weather", "1.0.0")
///         .instructions("Ask for the weather by city name.")
///         .discover()
///         .run()
/// }
/// ```
#[must_use = "a server does nothing until `run` is called"]
pub struct Server {
    info: ServerInfo,
    tools: Vec<(Shared<ToolSpec>, Option<Instance>)>,
    /// Prompts and resources, in the order they were added.
    items: Vec<Pending>,
    /// The folder of Agent Skills to serve (the skills extension).
    skills: Option<PathBuf>,
    states: States,
    /// Types whose tools were added with `tools`, to catch one added twice.
    tool_types: Vec<(TypeId, &'static str)>,
    /// Mistakes found while building, reported by `build`.
    errors: Vec<Error>,
    limits: Limits,
    /// The most threads sync tools hold at once.
    max_sync_threads: usize,
    options: Options,
    order: ToolOrder,
    page_size: Option<usize>,
    /// How long clients may cache lists; `None` for the default.
    cache_ttl: Option<Duration>,
    /// The cache hints of reads whose resource gives none; `None` for none.
    reads_cache: Option<Cache>,
    /// The handle's link to the built server, once a handle was asked for.
    served_by: Option<Arc<ServedBy>>,
    /// The link of the [`ResourceUpdates`] handed out, once one was asked for.
    updates: Option<Arc<ServedBy>>,
    /// What a [`ServerLog`] sends through, once the server is built.
    logs: Option<Arc<ServedBy>>,
    /// What mounted servers bring that is not an item.
    mounted: Mounted,
    expose_internal_errors: bool,
    decode_string_arguments: bool,
    /// Tools with any of these tags are left out.
    without_tags: Vec<String>,
    visibility: Option<Rule>,
    /// Layers around every tool call, the first outermost.
    layers: Vec<Wrap>,
    ask_timeout: Duration,
    hooks: Hooks,
    /// The key of 2026-07-28 request states; random per process when `None`.
    state_key: Option<Vec<u8>>,
    state_ttl: Duration,
    /// Where tasks are kept, and their settings.
    tasks: TaskBook,
    /// A store was chosen: the server offers tasks even before a tool runs as one.
    task_store_chosen: bool,
}

/// The largest message accepted by default: 8 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 8 << 20;

/// How long 2026-07-28 clients may cache lists by default: an hour (none for a server whose
/// tools a [`ServerHandle`] may change, unless it says).
const DEFAULT_CACHE_TTL: Duration = Duration::from_secs(3600);

/// How many tool calls run at once by default.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 1024;

impl Server {
    /// A server with the given `serverInfo` name and version and no tools yet.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Server {
        Server {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                title: None,
                instructions: None,
            },
            tools: Vec::new(),
            items: Vec::new(),
            skills: None,
            states: States::default(),
            tool_types: Vec::new(),
            errors: Vec::new(),
            limits: Limits {
                max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
                max_in_flight: DEFAULT_MAX_IN_FLIGHT,
                shutdown_grace: Duration::from_millis(500),
            },
            max_sync_threads: sync_pool::DEFAULT_THREADS,
            options: Options::default(),
            order: ToolOrder::Name,
            page_size: None,
            cache_ttl: None,
            reads_cache: None,
            served_by: None,
            updates: None,
            logs: None,
            mounted: Mounted::default(),
            expose_internal_errors: false,
            decode_string_arguments: true,
            without_tags: Vec::new(),
            visibility: None,
            layers: Vec::new(),
            ask_timeout: Duration::from_secs(600),
            hooks: Hooks::default(),
            state_key: None,
            state_ttl: Duration::from_secs(900),
            tasks: TaskBook::new(Arc::new(MemoryTaskStore::new())),
            task_store_chosen: false,
        }
    }

    /// A human-readable name for the server (sent from 2025-06-18 on).
    pub fn title(mut self, title: impl Into<String>) -> Server {
        self.info.title = Some(title.into());
        self
    }

    /// Hints for the model on how to use the server's tools.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Server {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Serves every `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` function linked into
    /// the program: the program's own, and those of every crate it depends on. A binary that
    /// depends on a library of tools serves that library's tools too, as they are named there;
    /// [`discover_in`](Server::discover_in) takes those of one crate or module only.
    pub fn discover(mut self) -> Server {
        for item in discovery::discovered() {
            self.add(item, None);
        }
        self
    }

    /// Serves the `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` functions defined in
    /// `module` or in a module inside it: `discover_in(module_path!())` at a crate's root takes
    /// that crate's own items and no dependency's; in a module, that module's. This is how a
    /// library gives its items to the program that serves them:
    ///
    /// ```
    /// use toolwright_runtime::Server;
    ///
    /// /// The library's items (in its `lib.rs`), and what they need.
    /// pub fn toolset() -> Server {
    ///     Server::new("weather", "1").discover_in(module_path!())
    /// }
    /// ```
    ///
    /// A module in which nothing is defined is an error when the server is built: a misspelt
    /// path serves nothing otherwise.
    pub fn discover_in(mut self, module: &str) -> Server {
        let items: Vec<Item> = discovery::discovered()
            .into_iter()
            .filter(|item| item.header().defined_in(module))
            .collect();
        if items.is_empty() {
            self.errors.push(Error::Discovery(format!(
                "nothing is defined in `{module}`: no `#[mcp_tool]`, `#[mcp_prompt]` or \
                 `#[mcp_resource]` function is linked into the program from it (the path is \
                 `module_path!()` where they are)"
            )));
        }
        for item in items {
            self.add(item, None);
        }
        self
    }

    fn add(&mut self, item: Item, instance: Option<Instance>) {
        match item {
            Item::Tool(spec) => self.tools.push((spec.into(), instance)),
            Item::Prompt(spec) => self.items.push(Pending::Prompt(spec.into(), instance)),
            Item::Resource(spec) => self.items.push(Pending::Resource(spec.into(), instance)),
        }
    }

    /// Serves the Agent Skills in `folder` through the skills extension (SEP-2640,
    /// `io.modelcontextprotocol/skills`): each folder below it that holds a `SKILL.md` is a
    /// skill, listed by `skills/list`, described by `skills/get`, its files read as
    /// `skill://<path>/<file>` resources and its folders with `resources/directory/read`.
    /// The files are read once, when the server is built; a skill a host would refuse (no
    /// frontmatter `name` and `description`, a name that breaks the naming rules or differs
    /// from its folder, over 512 files or 16 MiB, a symbolic link) fails the build, saying
    /// which and why.
    pub fn skills(mut self, folder: impl Into<PathBuf>) -> Server {
        self.skills = Some(folder.into());
        self
    }

    /// Serves one prompt: `server.prompt::<review>()` for `#[mcp_prompt] fn review`.
    pub fn prompt<P: Prompt>(mut self) -> Server {
        self.items.push(Pending::Prompt(P::spec().into(), None));
        self
    }

    /// Serves one resource (or resource template): `server.resource::<readme>()` for
    /// `#[mcp_resource("docs://readme")] fn readme`.
    pub fn resource<R: Resource>(mut self) -> Server {
        self.items.push(Pending::Resource(R::spec().into(), None));
        self
    }

    /// Serves a prompt made at run time ([`PromptDef`]), checked with the others when the
    /// server is built: its name free, its `_meta` an object.
    pub fn prompt_def(mut self, prompt: PromptDef) -> Server {
        let (spec, instance, problem) = prompt.into_parts();
        if let Some(problem) = problem {
            self.errors
                .push(Error::invalid(ItemKind::Prompt, &spec.header, problem));
        }
        let pending = Pending::Prompt(Shared::Owned(Arc::new(spec)), Some(instance));
        self.items.push(pending);
        self
    }

    /// Serves a resource or a template made at run time ([`ResourceDef`]), checked with the
    /// others when the server is built: its URI template valid, its URIs served by no other.
    pub fn resource_def(mut self, resource: ResourceDef) -> Server {
        let (spec, instance) = resource.into_parts();
        let pending = Pending::Resource(Shared::Owned(Arc::new(spec)), Some(instance));
        self.items.push(pending);
        self
    }

    /// Serves one tool: `server.tool::<add>()` for `#[mcp_tool] fn add`.
    pub fn tool<T: Tool>(mut self) -> Server {
        self.tools.push((T::spec().into(), None));
        self
    }

    /// Serves a tool made at run time ([`ToolDef`]), checked with the others when the server
    /// is built: its name free, its schemas valid.
    pub fn tool_def(mut self, tool: ToolDef) -> Server {
        self.tools
            .push((Shared::Owned(Arc::new(tool.spec)), Some(tool.handler)));
        self
    }

    /// Serves the `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` methods of every
    /// `#[mcp_tool_type]` impl block of `T`, called on `instance`. Concurrent calls share the
    /// one instance.
    pub fn tools<T: Send + Sync + 'static>(self, instance: T) -> Server {
        self.shared_tools(Arc::new(instance))
    }

    /// Like [`tools`](Server::tools), for an instance the program also keeps.
    pub fn shared_tools<T: Send + Sync + 'static>(mut self, instance: Arc<T>) -> Server {
        let (id, name) = (TypeId::of::<T>(), std::any::type_name::<T>());
        if self.tool_types.iter().any(|(seen, _)| *seen == id) {
            self.errors.push(Error::ToolType {
                type_name: name,
                problem: "was given to `tools` twice; each tool can be served from one instance",
            });
            return self;
        }
        self.tool_types.push((id, name));
        let methods = discovery::methods_of(id);
        let none = methods.is_empty();
        for item in methods {
            self.add(item, Some(Arc::clone(&instance) as Instance));
        }
        if none {
            self.errors.push(Error::ToolType {
                type_name: name,
                problem: "has no tools: mark an impl block of it `#[mcp_tool_type]` and its tool methods `#[mcp_tool]`",
            });
        }
        self
    }

    /// Serves the items of `child` too, under `namespace`: its tools and prompts as
    /// `namespace_name`, its resources and templates at `scheme://namespace/rest` (for
    /// `scheme://rest`). Mounts stack: a server mounted into a mounted server takes both
    /// namespaces, outermost first (`team_github_search`).
    ///
    /// The child keeps deciding for its own items: its states (which its items' parameters take
    /// before this server's), its visibility rule, tags filter and middleware (inside this
    /// server's), each seeing its items as it names them, its schema profile, the cache hints
    /// of its reads, and its session hooks (asked first about its own resources, by the URIs
    /// it knows). Its handles keep working while this server serves, naming items as the child
    /// does and changing its own items only. This
    /// server decides the rest: its identity, limits, pages and order, error masking, task
    /// store, authorization, and its own visibility rule and tags filter on top of the child's.
    /// Two items that end up with one name, or two resources that can serve one URI, stop the
    /// server when it is built, naming both definitions and the mounts they came through.
    ///
    /// ```
    /// use toolwright_runtime::Server;
    ///
    /// # fn github() -> Server { Server::new("github", "1") }
    /// # fn database() -> Server { Server::new("database", "1") }
    /// let server = Server::new("team", "1.0.0")
    ///     .mount("github", github())
    ///     .mount("db", database());
    /// ```
    ///
    /// A namespace has up to 32 characters, each a lowercase letter, a digit or `-`; the empty one
    /// mounts the child's items under their own names (collisions are still refused). A server
    /// is mounted by value, so it cannot be mounted into itself.
    pub fn mount(mut self, namespace: &str, child: Server) -> Server {
        let mounting = mount::mount(namespace, child.into_child());
        self.tools.extend(mounting.tools);
        self.items.extend(mounting.items);
        self.errors.extend(mounting.errors);
        self.mounted.absorb(mounting.mounted);
        self.hooks.mounted.extend(mounting.hooks);
        self
    }

    /// The builder, taken apart to be mounted.
    fn into_child(self) -> Child {
        let handles = [
            (self.served_by, Handed::Changes),
            (self.updates, Handed::Updates),
            (self.logs, Handed::Log),
        ];
        Child {
            tools: self.tools,
            items: self.items,
            skills: self.skills,
            states: self.states,
            errors: self.errors,
            options: self.options,
            without_tags: self.without_tags,
            visibility: self.visibility,
            layers: self.layers,
            hooks: self.hooks,
            handles: handles
                .into_iter()
                .filter_map(|(served, handed)| Some((served?, handed)))
                .collect(),
            mounted: self.mounted,
            cache_ttl: self.cache_ttl,
            reads_cache: self.reads_cache,
            tasks: self.task_store_chosen,
        }
    }

    /// Shares `value` with every tool that takes a `State<T>` parameter.
    pub fn state<T: Send + Sync + 'static>(self, value: T) -> Server {
        self.shared_state(Arc::new(value))
    }

    /// Like [`state`](Server::state), for a value the program also keeps (the instance given
    /// to [`shared_tools`](Server::shared_tools), say, for completion functions to read).
    pub fn shared_state<T: Send + Sync + 'static>(mut self, value: Arc<T>) -> Server {
        self.states.insert(value);
        self
    }

    /// Splits `tools/list` into pages of `size` tools, linked by opaque cursors. By default the
    /// list is one page.
    pub fn page_size(mut self, size: usize) -> Server {
        self.page_size = Some(size.max(1));
        self
    }

    /// The order of `tools/list`: alphabetical by default, or [`ToolOrder::Registration`].
    /// Either way it is the same on every run, as the specification asks.
    pub fn tool_order(mut self, order: ToolOrder) -> Server {
        self.order = order;
        self
    }

    /// How generated schemas are shaped. Defaults to [`SchemaProfile::Portable`].
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Server {
        self.options.profile = profile;
        self
    }

    /// How long 2026-07-28 clients may cache lists: `tools/list`, `prompts/list`,
    /// `resources/list`, `resources/templates/list`, `skills/list`, and the `server/discover`
    /// result (`ttlMs`; `cacheScope` is `public`, or `private` once what is listed depends on
    /// the caller). Defaults to one hour, or to no caching for a server whose items a
    /// [`ServerHandle`] may change at any moment. Reads of resources are not covered: see
    /// [`cache_reads`](Server::cache_reads).
    pub fn cache_ttl(mut self, ttl: Duration) -> Server {
        self.cache_ttl = Some(ttl);
        self
    }

    /// The cache hints of every `resources/read` whose resource sets none of its own
    /// (`#[mcp_resource("...", ttl_ms = 60000, cache = "private")]`): how long a 2026-07-28
    /// client may reuse a read, and with whom. By default reads are not cached (`ttlMs` 0,
    /// `private`), since contents change and may depend on the caller. Whatever is chosen
    /// here, a read whose contents may depend on the caller is `private`: its resource takes
    /// `Auth` (or a value whose [`Inject::require`](crate::Inject::require) says
    /// [`caller`](crate::Requirements::caller)), takes the whole [`Context`](crate::Context),
    /// or needs scopes, or a [`visibility`](Server::visibility) rule chooses per caller. The files of a folder of skills are read once, when the server starts, and
    /// keep the lists' hints.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolwright_runtime::{CacheScope, Server};
    ///
    /// let server = Server::new("docs", "1").cache_reads(Duration::from_secs(300), CacheScope::Public);
    /// # let _ = server;
    /// ```
    pub fn cache_reads(mut self, ttl: Duration, scope: CacheScope) -> Server {
        self.reads_cache = Some(Cache {
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
            cache_scope: scope.as_str(),
        });
        self
    }

    /// The largest message, in bytes, that the server reads; a longer line is answered with an
    /// error and skipped. Defaults to [`DEFAULT_MAX_MESSAGE_SIZE`].
    pub fn max_message_size(mut self, bytes: usize) -> Server {
        self.limits.max_message_size = bytes;
        self
    }

    /// How many tool calls may run at once; a call beyond that is refused at once with an
    /// error (`-32603`) rather than queued. Defaults to [`DEFAULT_MAX_IN_FLIGHT`].
    pub fn max_in_flight(mut self, calls: usize) -> Server {
        self.limits.max_in_flight = calls.max(1);
        self
    }

    /// How many threads sync tools (and sync prompt and resource functions) may hold at once:
    /// 256 by default. They run on threads of their own, never on tokio's blocking threads, so
    /// sync tools that block for good cannot stall `tokio::fs`, `spawn_blocking`, async tools,
    /// pings or the transports. With every thread busy, a further call waits for the first
    /// that comes free: the client sees no answer until its call has run (a call it cancels
    /// meanwhile still runs then, its [`Cancellation`](crate::Cancellation) fired, and is not
    /// answered), and calls beyond [`Server::max_in_flight`] are refused as usual. At least one
    /// thread.
    ///
    /// ```
    /// let server = toolwright_runtime::Server::new("files", "1").max_sync_threads(32);
    /// # drop(server);
    /// ```
    pub fn max_sync_threads(mut self, threads: usize) -> Server {
        self.max_sync_threads = threads.max(1);
        self
    }

    /// How long calls still running when the input ends may take to finish (their
    /// [`Cancellation`](crate::Cancellation) fires at once) before they are abandoned and the
    /// server exits. Defaults to 500 ms.
    pub fn shutdown_grace(mut self, grace: Duration) -> Server {
        self.limits.shutdown_grace = grace;
        self
    }

    /// How long a tool waits for the client to answer an ask in a handshake session (ten
    /// minutes by default: a person may be filling in a form). The request is then cancelled
    /// at the client and the ask fails with [`AskError::TimedOut`](crate::AskError::TimedOut).
    pub fn ask_timeout(mut self, timeout: Duration) -> Server {
        self.ask_timeout = timeout;
        self
    }

    /// Hears a handshake client announce that its roots changed
    /// (`notifications/roots/list_changed`), after the session has forgotten the roots it knew:
    /// the next [`Roots::list`](crate::Roots::list) of that session asks the client again. The
    /// hook gets the client and the roots it had (to let go of what was kept for them). It runs
    /// on the thread that reads the client's messages: keep it short, and hand slow work to a
    /// thread or task of its own.
    ///
    /// ```
    /// # use toolwright_runtime::Server;
    /// Server::new("files", "1.0.0").on_roots_changed(|change| {
    ///     let before = change.before.as_deref().unwrap_or_default();
    ///     eprintln!("the client's roots changed (it had {} roots)", before.len());
    /// });
    /// ```
    pub fn on_roots_changed(
        mut self,
        hook: impl Fn(crate::call::ask::RootsChanged) + Send + Sync + 'static,
    ) -> Server {
        self.hooks.roots_changed = Some(Box::new(hook));
        self
    }

    /// Runs `hook` when a handshake session is initialized (`notifications/initialized`, the
    /// first time the client sends it), with the client's info and capabilities. Hooks run on the path that reads the client's
    /// messages: slow work is spawned. 2026-07-28 has no sessions, so none run for it.
    ///
    /// ```
    /// # use toolwright_runtime::Server;
    /// Server::new("files", "1.0.0").on_initialized(|session| {
    ///     let name = session.client_info().map(|c| c.name.as_str()).unwrap_or("?");
    ///     eprintln!("{name} connected; roots: {}", session.declares("roots"));
    /// });
    /// ```
    pub fn on_initialized(
        mut self,
        hook: impl Fn(&SessionInfo<'_>) + Send + Sync + 'static,
    ) -> Server {
        self.hooks.initialized = Some(Box::new(hook));
        self
    }

    /// Asks `hook` whether a session may subscribe to a URI (`resources/subscribe`): an `Err`
    /// refuses it, and the client gets that error (shaped for its revision); the session is not
    /// subscribed then. A hook that panics refuses too. A URI the session is subscribed to
    /// already is not asked about again.
    pub fn on_subscribe(
        mut self,
        hook: impl Fn(&SessionInfo<'_>, &str) -> std::result::Result<(), McpError>
        + Send
        + Sync
        + 'static,
    ) -> Server {
        self.hooks.subscribe = Some(Box::new(hook));
        self
    }

    /// Runs `hook` when a session unsubscribes from a URI it was subscribed to.
    pub fn on_unsubscribe(
        mut self,
        hook: impl Fn(&SessionInfo<'_>, &str) + Send + Sync + 'static,
    ) -> Server {
        self.hooks.unsubscribe = Some(Box::new(hook));
        self
    }

    /// Runs `hook` once when a handshake session ends: its connection closed (stdio, in
    /// process), or an HTTP session deleted, expired, or still open when `serve_http` stops
    /// (an `HttpService` in an app of one's own ends its sessions as they
    /// are deleted or expire).
    pub fn on_session_end(
        mut self,
        hook: impl Fn(&SessionInfo<'_>) + Send + Sync + 'static,
    ) -> Server {
        self.hooks.ended = Some(Box::new(hook));
        self
    }

    /// The key that seals the `requestState` of 2026-07-28 rounds (HMAC-SHA256), at least 32
    /// bytes. By default each process makes a random one, which is right for one instance;
    /// replicas behind a load balancer share a key, so that any of them accepts a round
    /// another began.
    pub fn request_state_key(mut self, key: impl AsRef<[u8]>) -> Server {
        let key = key.as_ref();
        if key.len() < 32 {
            self.errors.push(Error::Setting(
                "the request-state key must be at least 32 bytes (256 bits) of secret",
            ));
        }
        self.state_key = Some(key.to_vec());
        self
    }

    /// How long a 2026-07-28 client may take to answer a round's asks (15 minutes by default);
    /// a later retry is refused and the client starts over.
    pub fn request_state_ttl(mut self, ttl: Duration) -> Server {
        self.state_ttl = ttl;
        self
    }

    /// Where tasks are kept (`#[mcp_tool(task = "...")]`): in this process by default
    /// ([`MemoryTaskStore`]); replicas behind a load balancer share one store (`RedisTaskStore`,
    /// feature `redis`), so that any of them answers for a task another runs.
    pub fn task_store(mut self, store: impl TaskStore) -> Server {
        self.tasks.store = Arc::new(store);
        self.task_store_chosen = true;
        self
    }

    /// How long a task is kept, from its creation, unless its tool says (`task_ttl_ms`): an
    /// hour by default. Its client may read its result until then.
    ///
    /// The time runs from the task's creation, not its end: a tool still running when it is
    /// over sees its [`Cancellation`](crate::Cancellation) fire, since nobody can read its
    /// result any more. At least a second.
    pub fn task_ttl(mut self, ttl: Duration) -> Server {
        if ttl < Duration::from_secs(1) {
            self.errors.push(Error::Setting(
                "a task is kept at least a second (`task_ttl`)",
            ));
        }
        self.tasks.ttl = ttl;
        self
    }

    /// How often clients are asked to poll a task (`pollIntervalMs`; 500 ms by default; at
    /// least a millisecond).
    pub fn task_poll_interval(mut self, interval: Duration) -> Server {
        if interval < Duration::from_millis(1) {
            self.errors.push(Error::Setting(
                "clients poll a task at most every millisecond (`task_poll_interval`)",
            ));
        }
        self.tasks.poll_interval = interval;
        self
    }

    /// How long a replica's word that it still runs a task lasts (30 s by default, between
    /// 30 ms and a day); it renews it at a third of that. A task whose replica stopped
    /// (killed, crashed) fails once its lease lapses, rather than working forever.
    pub fn task_lease(mut self, lease: Duration) -> Server {
        if !(Duration::from_millis(30)..=Duration::from_secs(86_400)).contains(&lease) {
            self.errors.push(Error::Setting(
                "a task's lease lasts between 30 ms and a day (`task_lease`)",
            ));
        }
        self.tasks.lease = lease;
        self
    }

    /// A handle to change this server's tools while it runs (add, remove, enable, disable);
    /// the server then declares `listChanged` and tells clients of each change. Take it before
    /// the server runs, and keep it (or a clone) wherever changes are decided.
    ///
    /// ```
    /// use toolwright_runtime::Server;
    ///
    /// let mut server = Server::new("example", "1");
    /// let handle = server.handle();
    /// std::thread::spawn(move || {
    ///     // Later, while the server runs:
    ///     let _ = handle.disable_tool("maintenance_only");
    /// });
    /// ```
    pub fn handle(&mut self) -> ServerHandle {
        let served_by = self.served_by.get_or_insert_with(Arc::default);
        ServerHandle {
            served: Arc::clone(served_by),
        }
    }

    /// A way to tell the clients that subscribed to a resource that it changed, from anywhere:
    /// a tool (as a `State`), a background task, a file watcher. Take it before the server
    /// runs. It leaves the lists as they are (a [`handle`](Server::handle) can do this too, and
    /// makes the lists changeable).
    ///
    /// ```
    /// use toolwright_runtime::Server;
    ///
    /// let mut server = Server::new("example", "1");
    /// let updates = server.resource_updates();
    /// std::thread::spawn(move || {
    ///     // Later, when the file behind `file:///etc/motd` changed:
    ///     let _ = updates.updated("file:///etc/motd");
    /// });
    /// ```
    pub fn resource_updates(&mut self) -> ResourceUpdates {
        let served = self.updates.get_or_insert_with(Arc::default);
        ResourceUpdates {
            served: Arc::clone(served),
        }
    }

    /// A handle that sends log messages belonging to no request to every handshake session,
    /// at each session's level ([`ServerLog`]). Like [`resource_updates`](Server::resource_updates),
    /// it leaves the lists as they are.
    pub fn server_log(&mut self) -> ServerLog {
        let served = self.logs.get_or_insert_with(Arc::default);
        ServerLog::through(Arc::clone(served))
    }

    /// Leaves out the tools that have any of `tags` (`#[mcp_tool(tags("admin"))]`): a build of
    /// the server for one audience from tools written for several.
    pub fn without_tags<I, S>(mut self, tags: I) -> Server
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.without_tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// Shows each caller only the tools `rule` allows them: asked per request with the tool and
    /// the [`Caller`] (what an HTTP authentication layer put into the request, and what its
    /// client declared it can do), it hides tools from `tools/list` and refuses them in
    /// `tools/call` as unknown tools. The rule must depend on those only, so that a caller's
    /// client sees the same tools on every request; lists are then cached privately
    /// (`cacheScope: "private"` on 2026-07-28). A tool that asks the client for what it cannot
    /// give can so be offered only to clients that can:
    /// `|tool, caller| !tool.has_tag("samples") || caller.declares("sampling")`.
    ///
    /// ```
    /// # use toolwright_runtime::Server;
    /// #[derive(Clone)]
    /// struct Claims { admin: bool }
    ///
    /// let server = Server::new("example", "1").visibility(|tool, caller| {
    ///     !tool.has_tag("admin") || caller.extension::<Claims>().is_some_and(|c| c.admin)
    /// });
    /// ```
    pub fn visibility(
        mut self,
        rule: impl Fn(ToolInfo, &Caller<'_>) -> bool + Send + Sync + 'static,
    ) -> Server {
        self.visibility = Some(Arc::new(rule));
        self
    }

    /// Wraps every tool call in `layer`: a tower [`Layer`](tower_layer::Layer) over the service
    /// that runs tools, which sees each [`ToolCall`] (the tool, its arguments, its context) and
    /// the [`ToolOutput`](crate::ToolOutput) it returns, and may answer without calling the
    /// tool. tower's own layers apply as they are (`TimeoutLayer`, `ConcurrencyLimitLayer`,
    /// `RateLimitLayer`), and [`middleware::from_fn`](crate::middleware::from_fn) makes one of
    /// an async function. Layers compose: the first added is the outermost. An error from a
    /// layer (a timeout) answers the call as a tool error with the error's message.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolwright_runtime::Server;
    /// use toolwright_runtime::middleware::{self, Next, ToolCall};
    ///
    /// let server = Server::new("guarded", "1").layer(middleware::from_fn(
    ///     |call: ToolCall, next: Next| async move {
    ///         match tokio::time::timeout(Duration::from_secs(30), next.run(call)).await {
    ///             Ok(output) => output,
    ///             Err(_) => toolwright_runtime::ToolOutput::error("the tool took over 30 s"),
    ///         }
    ///     },
    /// ));
    /// ```
    pub fn layer<L>(mut self, layer: L) -> Server
    where
        L: Layer<BoxedService> + Send + 'static,
        L::Service: TowerService<ToolCall, Response = crate::tools::ToolOutput> + Send + 'static,
        <L::Service as TowerService<ToolCall>>::Error: Into<BoxError>,
        <L::Service as TowerService<ToolCall>>::Future: Send + 'static,
    {
        self.layers.push(middleware::wrap(layer));
        self
    }

    /// Whether an argument sent as JSON text, where the input schema asks for an array, an
    /// object, a number or a boolean (`"[1, 2]"`, `"{\"a\": 1}"`, `"3"`, `"true"`), is decoded
    /// and bound as that value: language models often send them so. On by default; a parameter
    /// that may be a string always keeps the string. Only arguments that would not bind
    /// otherwise are looked at, so a well-formed call costs nothing more.
    pub fn decode_string_arguments(mut self, decode: bool) -> Server {
        self.decode_string_arguments = decode;
        self
    }

    /// Whether argument keys a tool's input schema does not list are ignored, rather than
    /// refused with an error naming them (the default: a misspelt optional argument must not
    /// vanish silently). For a server ported from one that ignored them, or models that add
    /// keys of their own. A tool's schema then leaves out `"additionalProperties": false` (a
    /// hand-written one is served as written: say so in it), and a tool can choose for itself:
    /// `#[mcp_tool(ignore_unknown_arguments)]`, or `= false` to stay strict on such a server.
    pub fn ignore_unknown_arguments(mut self, ignore: bool) -> Server {
        self.options.ignore_unknown_arguments = ignore;
        self
    }

    /// Shows the details of panics and unexpected errors to the client, for development.
    /// By default the client sees "internal error (ref …)" and the details go to stderr only.
    pub fn expose_internal_errors(mut self, expose: bool) -> Server {
        self.expose_internal_errors = expose;
        self
    }

    /// Checks the tool set and generates every schema, once.
    pub(crate) fn build(mut self) -> Result<Arc<Engine>> {
        if !self.errors.is_empty() {
            return Err(self.errors.swap_remove(0));
        }
        let without = &self.without_tags;
        let kept = self.tools.into_iter().filter(|(spec, _)| {
            !spec
                .header
                .tags
                .iter()
                .any(|tag| without.iter().any(|w| w == tag))
        });
        // Every name first, then every tool's needs and schemas, as the handle admits a tool.
        let mut names = Names::default();
        let mut admitted = Vec::new();
        for (spec, instance) in kept {
            match names.admit(&spec) {
                Admission::New => admitted.push((spec, instance)),
                Admission::Again => {}
                Admission::Taken(seen) => return Err(toolset::clash(&seen, &spec)),
            }
        }
        let states = Arc::new(self.states);
        let mut forms = Forms::default();
        let served = admitted
            .into_iter()
            .map(|(spec, instance)| {
                toolset::serve(spec, instance, self.options, &states, &mut forms)
            })
            .collect::<Result<Vec<_>>>()?;
        let items = self.items.into_iter().filter(|item| {
            let tags = match item {
                Pending::Prompt(spec, _) => spec.header.tags,
                Pending::Resource(spec, _) => spec.header.tags,
            };
            !tags.iter().any(|tag| without.iter().any(|w| w == tag))
        });
        let items = Items::new(items.collect(), &states)?;
        let page_size = self.page_size.unwrap_or(usize::MAX);
        let runs_tasks = served.iter().any(|t| t.spec.task != TaskSupport::Forbidden);
        let scoped = served.iter().any(|t| !t.spec.header.scopes.is_empty());
        let tools = ToolSet::new(served, names, forms, self.order, page_size, self.options);
        let changing = self.served_by.is_some() || self.mounted.hands(Handed::Changes);
        let mounted_logs = self.mounted.hands(Handed::Log);
        // The server's own skills, and those of the servers mounted into it.
        let folders: Vec<(PathBuf, Vec<String>)> = (self.skills.into_iter())
            .map(|folder| (folder, Vec::new()))
            .chain(std::mem::take(&mut self.mounted.skills))
            .collect();
        let skills = match folders.is_empty() {
            false => Some(Skills::load_all(&folders).map_err(|e| Error::Skills(e.to_string()))?),
            true => None,
        };
        let catalog = items.current();
        let catalog_scoped = catalog
            .prompts
            .iter()
            .any(|p| !p.spec.header.scopes.is_empty())
            || catalog
                .resources
                .iter()
                .any(|r| !r.spec.header.scopes.is_empty());
        let offer = Offer {
            changing,
            prompts: !catalog.prompts.is_empty(),
            resources: catalog.has_resources() || skills.is_some(),
            updates: self.updates.is_some() || self.mounted.hands(Handed::Updates) || changing,
            completions: !catalog.prompts.is_empty()
                || catalog.resources.iter().any(|r| !r.template.is_static()),
            skills: skills.as_ref().map(|_| true),
            tasks: self.task_store_chosen || self.mounted.tasks || runs_tasks,
        };
        // A list that can change at any moment is cached only as long as the server says.
        let cache_ttl = match (
            mount::shortest(self.cache_ttl, self.mounted.cache_ttl),
            changing,
        ) {
            (Some(ttl), _) => ttl,
            (None, true) => Duration::ZERO,
            (None, false) => DEFAULT_CACHE_TTL,
        };
        // The mounted servers' layers are innermost in the server's, each around its own tools;
        // without layers of its own, a call of a mounted tool goes through its server's alone.
        let splits = std::mem::take(&mut self.mounted.splits);
        let (middleware, mounted_chains) = match self.layers.is_empty() {
            true => (None, splits),
            false => {
                let mut wraps = self.layers;
                wraps.extend(
                    splits
                        .into_iter()
                        .map(|(l, chain)| middleware::split(l, chain)),
                );
                (Some(Arc::new(Chain::new(wraps))), Vec::new())
            }
        };
        let engine = Arc::new(Engine {
            server_meta: wire::server_meta(&self.info),
            info: self.info,
            limits: self.limits,
            cache_ttl,
            reads_cache: self.reads_cache.unwrap_or(Cache {
                ttl_ms: 0,
                cache_scope: "private",
            }),
            expose_internal_errors: self.expose_internal_errors,
            decode_string_arguments: self.decode_string_arguments,
            visibility: self.visibility,
            mounted_rules: self.mounted.rules,
            middleware,
            mounted_chains,
            tools,
            changing,
            logs: self.logs.is_some() || mounted_logs,
            listeners: Listeners::default(),
            states,
            workers: Workers::new(self.max_sync_threads),
            in_flight: Default::default(),
            ask_timeout: self.ask_timeout,
            hooks: self.hooks,
            sealer: Sealer::new(
                self.state_key.unwrap_or_else(Sealer::random_key),
                self.state_ttl,
            ),
            items,
            offer,
            page_size,
            skills,
            tasks: Arc::new(self.tasks),
            running: RunningTasks::default(),
            scoped: AtomicBool::new(scoped || catalog_scoped),
        });
        for served_by in self.served_by.iter().chain(&self.updates).chain(&self.logs) {
            served_by.attach(&engine, None);
        }
        for (served_by, mount, _) in self.mounted.handles {
            served_by.attach(&engine, Some(Arc::new(mount)));
        }
        Ok(engine)
    }
}
