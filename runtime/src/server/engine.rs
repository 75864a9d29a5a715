//! The engine: a built server, immutable apart from its tools, prompts and resources (which a
//! handle may change), its caches and its counters; shared by every session and every call.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::value::RawValue;

use crate::call::caller::Caller;
use crate::call::state::States;
use crate::item::header::Rule;
use crate::item::header::{ItemInfo, Level, Mount};
use crate::item::tool::ToolSpec;
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::wire::{Cache, Offer, ServerInfo};
use crate::resources::skills::load::Skills;
use crate::run::inflight::{InFlight, RunningTasks};
use crate::run::middleware::Chain;
use crate::run::served::ServedTool;
use crate::run::workers::Workers;
use crate::server::catalog::{Catalog, Items, Reached};
use crate::server::hooks::Hooks;
use crate::server::listeners::{List, Listeners};
use crate::server::registry::Registry;
use crate::server::request_state::Sealer;
use crate::server::served_items::{ServedPrompt, ServedResource};
use crate::server::toolset::ToolSet;
use crate::server::visibility;
use crate::tasks::book::TaskBook;

/// What the server holds each transport to.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    /// The largest message read, in bytes.
    pub(crate) max_message_size: usize,
    /// The most calls that run at once; more are refused.
    pub(crate) max_in_flight: usize,
    /// How long calls in flight may take to finish once the input has ended.
    pub(crate) shutdown_grace: Duration,
}

pub(crate) struct Engine {
    pub(crate) info: ServerInfo,
    /// The `_meta` of 2026-07-28 results, serialized once.
    pub(crate) server_meta: Box<RawValue>,
    pub(crate) limits: Limits,
    /// How long 2026-07-28 clients may cache list results.
    pub(crate) cache_ttl: Duration,
    /// The cache hints of a read whose resource gives none.
    pub(crate) reads_cache: Cache,
    /// Show the details of internal errors to clients (development only).
    pub(crate) expose_internal_errors: bool,
    /// Decode arguments sent as JSON text where the schema asks for another type.
    pub(crate) decode_string_arguments: bool,
    /// Which tools each caller sees, when that varies.
    pub(crate) visibility: Option<Rule>,
    /// A mounted server has a rule of its own for its items.
    pub(crate) mounted_rules: bool,
    /// The layers around every tool call, when there are any.
    pub(crate) middleware: Option<Arc<Chain>>,
    /// Without layers of its own, those of each mounted server that has any, around its tools.
    pub(crate) mounted_chains: Vec<(Arc<Level>, Arc<Chain>)>,
    /// The tools, as served now.
    pub(crate) tools: ToolSet,
    /// Whether a handle may change the tools (the server declares `listChanged`).
    pub(crate) changing: bool,
    /// Whether a [`ServerLog`](crate::ServerLog) may send messages about no request.
    pub(crate) logs: bool,
    /// Who hears of changes to the tools.
    pub(crate) listeners: Listeners,
    pub(crate) states: Arc<States>,
    pub(crate) workers: Workers,
    pub(crate) in_flight: Arc<InFlight>,
    /// How long an ask in a handshake session waits for the client.
    pub(crate) ask_timeout: Duration,
    /// What the author hears of a session's life.
    pub(crate) hooks: Hooks,
    /// Seals and opens 2026-07-28 request states.
    pub(crate) sealer: Sealer,
    /// The prompts and resources, as served now.
    pub(crate) items: Items,
    /// What the server offers besides tools.
    pub(crate) offer: Offer,
    /// How many entries a page of a list holds.
    pub(crate) page_size: usize,
    /// The skills served (the skills extension), when the server serves a folder of them.
    pub(crate) skills: Option<Skills>,
    /// Where tasks are kept, and their settings.
    pub(crate) tasks: Arc<TaskBook>,
    /// The calls running here as tasks.
    pub(crate) running: RunningTasks,
    /// Some tool, prompt or resource needs scopes: what is listed depends on the caller.
    pub(crate) scoped: AtomicBool,
}

impl Engine {
    /// The cache hints of list results: for an hour unless the server says (none by default
    /// when its tools can change at any moment); the same for every client (`public`) unless
    /// a rule chooses tools per caller (`private`).
    #[inline]
    pub(crate) fn cache(&self) -> Cache {
        Cache {
            ttl_ms: u64::try_from(self.cache_ttl.as_millis()).unwrap_or(u64::MAX),
            cache_scope: match self.per_caller() {
                false => "public",
                true => "private",
            },
        }
    }

    /// The cache hints of a read of `resource`: its own, where it has them, else the server's
    /// for reads (none by default: `ttlMs` 0, `private`). A read whose contents depend on the
    /// caller (it takes the caller, needs scopes, or a rule chooses per caller) is never
    /// `public`, and one that takes the whole request (which may read the caller) is `public`
    /// only where the resource itself says so.
    pub(crate) fn read_cache(&self, resource: &ServedResource) -> Cache {
        let spec = &resource.spec;
        // A mounted resource's default is the one of the innermost server that set one.
        let mut levels = spec.header.mount.iter().flat_map(|m| m.levels.iter().rev());
        let own = levels
            .find_map(|l| l.reads_cache)
            .unwrap_or(self.reads_cache);
        let private = resource.per_caller() || self.chooses();
        Cache {
            ttl_ms: spec.ttl_ms.unwrap_or(own.ttl_ms),
            cache_scope: match (private, spec.cache_scope) {
                (true, _) => "private",
                (false, Some(scope)) => scope,
                (false, None) if resource.held.needs.context => "private",
                (false, None) => own.cache_scope,
            },
        }
    }

    /// The tools served now: a call keeps the registry it began with.
    pub(crate) fn registry(&self) -> Arc<Registry> {
        self.tools.current()
    }

    /// The `tools/list` result a cursor points at in `registry`, for `version`, as the caller
    /// of a request `caller` describes sees it; `None` for a cursor the server did not hand out.
    #[inline]
    pub(crate) fn tool_page<'a>(
        &self,
        registry: &'a Registry,
        version: ProtocolVersion,
        cursor: Option<&str>,
        caller: &Caller<'_>,
    ) -> Option<Cow<'a, RawValue>> {
        let (meta, cache) = (&self.server_meta, self.cache());
        match self.per_caller() {
            false => registry
                .page(version, cursor, meta, cache)
                .map(Cow::Borrowed),
            true => {
                let rule = self.visibility.as_ref();
                let visible = |spec: &ToolSpec| visibility::allows(rule, spec, caller);
                let page = registry.page_of(version, cursor, meta, cache, visible)?;
                Some(Cow::Owned(page))
            }
        }
    }

    /// Whether what is listed depends on the caller: a rule chooses per caller, or some item
    /// needs scopes.
    fn per_caller(&self) -> bool {
        self.chooses() || self.scoped.load(Ordering::Relaxed)
    }

    /// Whether a rule (this server's, or a mounted server's) chooses items per caller.
    fn chooses(&self) -> bool {
        self.visibility.is_some() || self.mounted_rules
    }

    /// Whether the rules let the caller of a request `caller` describes see `item`, whatever
    /// scopes it needs.
    fn ruled_in(&self, item: ItemInfo, caller: &Caller<'_>) -> bool {
        let own = self.visibility.as_ref();
        own.is_none_or(|rule| rule(item, caller))
            && item.mount().is_none_or(|mount| mount.allows(item, caller))
    }

    /// An item needing `scopes` is served: from now on, lists are made per caller.
    pub(crate) fn needs_scopes(&self, scopes: &[&str]) {
        if !scopes.is_empty() {
            self.scoped.store(true, Ordering::Relaxed);
        }
    }

    /// Tells the clients that can hear it, when the served tools changed.
    pub(crate) fn tools_changed(&self, changed: bool) {
        if changed {
            self.listeners.changed(List::Tools);
        }
    }

    /// The prompts and resources served now: a request keeps the catalog it began with.
    pub(crate) fn catalog(&self) -> Arc<Catalog> {
        self.items.current()
    }

    /// Whether a handshake session may hear of anything outside its requests: a list that
    /// changed, a resource it subscribed to, or the server's log.
    pub(crate) fn announces(&self) -> bool {
        self.changing || self.logs || (self.offer.resources && self.offer.updates)
    }

    /// The prompt named `name` in `catalog`, if the caller of a request `caller` describes may
    /// see it; one it may not see is as unknown as one that does not exist.
    pub(crate) fn prompt<'c>(
        &self,
        catalog: &'c Catalog,
        name: &str,
        caller: &Caller<'_>,
    ) -> Result<&'c Arc<ServedPrompt>, ProtocolError> {
        match catalog.prompt(name) {
            Some(prompt) if self.visible_item(prompt.spec.info(), caller) => Ok(prompt),
            Some(prompt) => Err(self.hidden(
                prompt.spec.info(),
                caller,
                ProtocolError::unknown_prompt(name),
            )),
            None => Err(ProtocolError::unknown_prompt(name)),
        }
    }

    /// The error a request for an item the caller may not see gets: `unknown`, with the scopes
    /// it lacks when that is why (see [`Engine::lacking`]).
    pub(crate) fn hidden(
        &self,
        item: ItemInfo,
        caller: &Caller<'_>,
        unknown: ProtocolError,
    ) -> ProtocolError {
        match self.lacking(item, caller) {
            Some(scopes) => unknown.forbidden(scopes),
            None => unknown,
        }
    }

    /// Whether the caller of a request `caller` describes may see `item`.
    pub(crate) fn visible_item(&self, item: ItemInfo, caller: &Caller<'_>) -> bool {
        visibility::allows_item(self.visibility.as_ref(), item, caller)
    }

    /// The scopes `item` needs, when the verified caller of a request `caller` describes lacks
    /// one of them but may otherwise see it (the visibility rule lets it): such a request is
    /// refused as for an unknown item, with the scopes, which a transport that lets the client
    /// ask for more answers with (HTTP: 403, so that the client can step up). `None` for
    /// every other caller and item.
    pub(crate) fn lacking(
        &self,
        item: ItemInfo,
        caller: &Caller<'_>,
    ) -> Option<&'static [&'static str]> {
        if !self.scoped.load(Ordering::Relaxed) {
            return None;
        }
        let auth = caller.auth()?;
        let scopes = item.scopes();
        let lacking = scopes.iter().any(|s| !auth.has_scope(s));
        (lacking && self.ruled_in(item, caller)).then_some(scopes)
    }

    /// What [`Engine::lacking`] finds for the resource a read of `uri` would reach.
    pub(crate) fn lacking_uri(
        &self,
        catalog: &Catalog,
        uri: &str,
        caller: &Caller<'_>,
    ) -> Option<&'static [&'static str]> {
        if !self.scoped.load(Ordering::Relaxed) {
            return None;
        }
        match catalog.reach(uri, |r| self.ruled_in(r.spec.info(), caller)) {
            Reached::Resource(resource, _) => self.lacking(resource.spec.info(), caller),
            _ => None,
        }
    }

    /// Where a link to `uri` in what an item mounted through `mount` returned points, as this
    /// server serves it: namespaced when the item's own server serves that URI, itself or
    /// through a server mounted into it (then so does this one, at the namespaced URI); `None`
    /// for any other URI, left as it is.
    pub(crate) fn outward(&self, mount: &Mount, uri: &str) -> Option<String> {
        let served = mount.uri(uri).ok()?;
        let own = |r: &ServedResource| mount.holds(r.spec.header.mount.as_deref());
        match self.catalog().reach(&served, own) {
            Reached::Resource(..) => Some(served),
            _ => None,
        }
    }

    /// Whether `uri`, as this server serves it, is the mounted server's that `mount` leads to:
    /// it reaches a resource of that server (or of one mounted into it), or, reaching none, it
    /// is in the mount's namespaces (one of them not empty: an empty one claims every URI).
    pub(crate) fn mounted_uri(&self, mount: &Mount, uri: &str) -> bool {
        match self.catalog().reach(uri, |_| true) {
            Reached::Resource(resource, _) => mount.holds(resource.spec.header.mount.as_deref()),
            _ => {
                let named = mount.levels.iter().any(|l| !l.namespace.is_empty());
                named && mount.local_uri(uri).is_some()
            }
        }
    }

    /// The layers a call of `tool` goes through, and how deep in the tool's mounts they are
    /// (0: this server's own).
    pub(crate) fn chain_for(&self, tool: &ServedTool) -> (Option<Arc<Chain>>, usize) {
        if self.middleware.is_some() || self.mounted_chains.is_empty() {
            return (self.middleware.clone(), 0);
        }
        let Some(mount) = tool.spec.header.mount.as_deref() else {
            return (None, 0);
        };
        let found = self.mounted_chains.iter().find_map(|(level, chain)| {
            let position = mount.levels.iter().position(|l| Arc::ptr_eq(l, level))?;
            Some((Some(Arc::clone(chain)), position + 1))
        });
        found.unwrap_or((None, 0))
    }

    /// Whether the caller of a request `caller` describes may call the tool.
    pub(crate) fn visible(&self, spec: &ToolSpec, caller: &Caller<'_>) -> bool {
        visibility::allows(self.visibility.as_ref(), spec, caller)
    }
}
