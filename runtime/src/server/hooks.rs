//! What a server's author hears of a handshake session's life: that it is initialized, that
//! it subscribes to a resource (which the hook may refuse) or unsubscribes, that it ended; and
//! the session as those hooks see it ([`SessionInfo`]).
//!
//! Policy: hooks run on the path that reads the client's messages, so they must be quick (a
//! hook with slow work spawns it). A panic in one is reported on stderr and changes nothing,
//! except that a subscription a panicking hook was asked about is refused (`-32603`): a hook
//! that may refuse guards something, and a failure to decide is not a yes. `initialized` runs
//! once per session, however often the client says so; `session-end` once, however it ends.
//! 2026-07-28 has no sessions, so none of these run for its requests.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, PoisonError};

use serde_json::Value;

use crate::call::ask::RootsChanged;
use crate::call::client::{ClientInfo, DeclaredClient};
use crate::diagnostics;
use crate::item::header::Level;
use crate::protocol::ProtocolVersion;
use crate::protocol::mcp_error::McpError;
use crate::server::catalog::{Catalog, Reached};
use crate::server::listeners::Uris;

/// A handshake session, as a session hook sees it: its id, what `initialize` settled, and
/// what it is subscribed to.
pub struct SessionInfo<'a> {
    pub(crate) id: Option<&'a str>,
    pub(crate) version: ProtocolVersion,
    pub(crate) client: &'a DeclaredClient,
    pub(crate) subscribed: Option<&'a Uris>,
    /// The mounts of the server whose hook sees it, outermost first (none: the server's own).
    pub(crate) within: &'a [Arc<Level>],
}

impl<'a> SessionInfo<'a> {
    /// The session's id: an HTTP session's `Mcp-Session-Id`; `None` over stdio and in process,
    /// where the connection is the session.
    pub fn id(&self) -> Option<&'a str> {
        self.id
    }

    /// The revision `initialize` settled.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// What the client said of itself in `initialize` (`clientInfo`).
    pub fn client_info(&self) -> Option<&'a ClientInfo> {
        self.client.info.as_ref()
    }

    /// The capabilities the client declared in `initialize`: a JSON object.
    pub fn client_capabilities(&self) -> &'a Value {
        &self.client.capabilities
    }

    /// Whether the client declared `path` (`"sampling"`, `"elicitation.url"`, `"roots"`).
    pub fn declares(&self, path: &str) -> bool {
        self.client.declares(path)
    }

    /// The URIs it is subscribed to (`resources/subscribe`), in order. A mounted server's hook
    /// sees those in its namespaces, as it names them (one mounted without a namespace, all).
    pub fn subscriptions(&self) -> Vec<String> {
        let Some(uris) = self.subscribed else {
            return Vec::new();
        };
        let uris = uris.lock().unwrap_or_else(PoisonError::into_inner);
        let local = |uri: &String| {
            (self.within.iter()).try_fold(uri.clone(), |uri, l| l.namespace.local_uri(&uri))
        };
        uris.iter().filter_map(local).collect()
    }

    /// The session as the hooks of the server mounted through `level` see it.
    fn inside(&self, within: &'a [Arc<Level>]) -> SessionInfo<'a> {
        SessionInfo { within, ..*self }
    }
}

/// Whose a subscription is, as decided when it was made, kept so that its unsubscribe reaches
/// the hooks that heard of it even if the items changed meanwhile: the mounts of the resource
/// its URI reached, or none (`None`: it reached no resource).
pub(crate) struct Route(Option<Vec<Arc<Level>>>);

impl Route {
    /// Whose `uri` is now, among the items of `catalog`.
    pub(crate) fn of(catalog: &Catalog, uri: &str) -> Route {
        Route(match Owner::of(catalog, uri) {
            Owner::Reached(levels) => Some(levels.to_vec()),
            Owner::Unreached => None,
        })
    }

    /// No one's: where no mounted server has hooks, whose a URI is matters to none.
    pub(crate) fn unrouted() -> Route {
        Route(None)
    }

    /// The owner it names.
    pub(crate) fn owner(&self) -> Owner<'_> {
        match &self.0 {
            Some(levels) => Owner::Reached(levels),
            None => Owner::Unreached,
        }
    }
}

/// Which mounted server a URI is: the mounts of the resource it reaches, outermost first, or,
/// reaching none, whatever mounted server's namespaces it is in.
#[derive(Clone, Copy)]
pub(crate) enum Owner<'a> {
    Reached(&'a [Arc<Level>]),
    Unreached,
}

impl<'a> Owner<'a> {
    /// Whose `uri` is, among the items of `catalog`.
    pub(crate) fn of(catalog: &'a Catalog, uri: &str) -> Owner<'a> {
        match catalog.reach(uri, |_| true) {
            Reached::Resource(resource, _) => match resource.spec.header.mount.as_deref() {
                Some(mount) => Owner::Reached(&mount.levels),
                None => Owner::Reached(&[]),
            },
            _ => Owner::Unreached,
        }
    }

    /// Whether the server mounted through `level` (into the one asking) has the URI `uri`, and
    /// then its URI there and the owner there.
    fn within(self, level: &Arc<Level>, uri: &str) -> Option<(String, Owner<'a>)> {
        let inner = match self {
            Owner::Reached([outer, inner @ ..]) if Arc::ptr_eq(outer, level) => {
                Owner::Reached(inner)
            }
            Owner::Unreached if !level.namespace.is_empty() => Owner::Unreached,
            _ => return None,
        };
        Some((level.namespace.local_uri(uri)?, inner))
    }
}

type SessionHook = Box<dyn Fn(&SessionInfo<'_>) + Send + Sync>;
type UriHook = Box<dyn Fn(&SessionInfo<'_>, &str) + Send + Sync>;
type SubscribeHook = Box<dyn Fn(&SessionInfo<'_>, &str) -> Result<(), McpError> + Send + Sync>;
/// What hears a client's roots change.
pub(crate) type RootsHook = Box<dyn Fn(RootsChanged) + Send + Sync>;

/// The hooks a server was given.
#[derive(Default)]
pub(crate) struct Hooks {
    pub(crate) initialized: Option<SessionHook>,
    pub(crate) subscribe: Option<SubscribeHook>,
    pub(crate) unsubscribe: Option<UriHook>,
    pub(crate) ended: Option<SessionHook>,
    pub(crate) roots_changed: Option<RootsHook>,
    /// The hooks of the servers mounted into this one, each asked about its own resources
    /// only, by the URIs it knows them by.
    pub(crate) mounted: Vec<(Arc<Level>, Hooks)>,
}

impl Hooks {
    /// Whether a mounted server has hooks: only then does whose a URI is matter.
    pub(crate) fn routes(&self) -> bool {
        !self.mounted.is_empty()
    }

    /// Whether there is any hook at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.initialized.is_none()
            && self.subscribe.is_none()
            && self.unsubscribe.is_none()
            && self.ended.is_none()
            && self.roots_changed.is_none()
            && self.mounted.is_empty()
    }

    /// The session was initialized (`notifications/initialized`).
    pub(crate) fn initialized(&self, session: &SessionInfo<'_>) {
        if let Some(hook) = &self.initialized {
            guarded("initialized", || hook(session));
        }
        self.each_mounted(session, &|hooks, session| {
            if let Some(hook) = &hooks.initialized {
                guarded("initialized", || hook(session));
            }
        });
    }

    /// The session asks to subscribe to `uri`, which `owner` says whose it is: the first
    /// refusal of a hook asked, if one refuses. The mounted server whose resource it is is
    /// asked first, then this server; a refusal after an acceptance tells those that accepted
    /// that the session unsubscribed.
    pub(crate) fn subscribe(
        &self,
        session: &SessionInfo<'_>,
        uri: &str,
        owner: Owner<'_>,
    ) -> Result<(), McpError> {
        for (level, hooks) in &self.mounted {
            if let Some((local, inner)) = owner.within(level, uri) {
                let within = [session.within, std::slice::from_ref(level)].concat();
                hooks.subscribe(&session.inside(&within), &local, inner)?;
                if let Err(refused) = self.own_subscribe(session, uri) {
                    hooks.unsubscribed(&session.inside(&within), &local, inner);
                    return Err(refused);
                }
                return Ok(());
            }
        }
        self.own_subscribe(session, uri)
    }

    /// This server's own hook's word on a subscription to `uri`.
    fn own_subscribe(&self, session: &SessionInfo<'_>, uri: &str) -> Result<(), McpError> {
        match &self.subscribe {
            Some(hook) => guarded("subscribe", || hook(session, uri)).unwrap_or_else(|| {
                Err(McpError::internal(
                    "the server could not decide on this subscription",
                ))
            }),
            None => Ok(()),
        }
    }

    /// The session unsubscribed from `uri`, which `owner` says whose it is.
    pub(crate) fn unsubscribed(&self, session: &SessionInfo<'_>, uri: &str, owner: Owner<'_>) {
        if let Some(hook) = &self.unsubscribe {
            guarded("unsubscribe", || hook(session, uri));
        }
        for (level, hooks) in &self.mounted {
            if let Some((local, inner)) = owner.within(level, uri) {
                let within = [session.within, std::slice::from_ref(level)].concat();
                hooks.unsubscribed(&session.inside(&within), &local, inner);
                return;
            }
        }
    }

    /// The session ended.
    pub(crate) fn ended(&self, session: &SessionInfo<'_>) {
        if let Some(hook) = &self.ended {
            guarded("session-end", || hook(session));
        }
        self.each_mounted(session, &|hooks, session| {
            if let Some(hook) = &hooks.ended {
                guarded("session-end", || hook(session));
            }
        });
    }

    /// The session's client announced that its roots changed.
    pub(crate) fn roots_changed(&self, change: &RootsChanged) {
        if let Some(hook) = &self.roots_changed {
            guarded("roots-changed", || hook(change.clone()));
        }
        for (_, hooks) in &self.mounted {
            hooks.roots_changed(change);
        }
    }

    /// Whether any hook hears of roots changing.
    pub(crate) fn hears_roots(&self) -> bool {
        self.roots_changed.is_some() || self.mounted.iter().any(|(_, h)| h.hears_roots())
    }

    /// Runs `each` on the hooks of every server mounted into this one (and into those), each
    /// seeing the session as its server does.
    fn each_mounted(&self, session: &SessionInfo<'_>, each: &dyn Fn(&Hooks, &SessionInfo<'_>)) {
        for (level, hooks) in &self.mounted {
            let within = [session.within, std::slice::from_ref(level)].concat();
            let inside = session.inside(&within);
            each(hooks, &inside);
            hooks.each_mounted(&inside, each);
        }
    }
}

/// Runs the author's hook `name`; a panic in it is reported, and is `None`.
fn guarded<T>(name: &str, hook: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(hook)) {
        Ok(value) => Some(value),
        Err(panic) => {
            let message = diagnostics::panic_message(&*panic);
            diagnostics::error(format_args!("the {name} hook panicked: {message}"));
            None
        }
    }
}
