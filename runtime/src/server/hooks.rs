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
use crate::server::listeners::Uris;

/// A handshake session, as a session hook sees it: its id, what `initialize` settled, and
/// what it is subscribed to.
pub struct SessionInfo<'a> {
    pub(crate) id: Option<&'a str>,
    pub(crate) version: ProtocolVersion,
    pub(crate) client: &'a DeclaredClient,
    pub(crate) subscribed: Option<&'a Uris>,
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

    /// The URIs it is subscribed to (`resources/subscribe`), in order.
    pub fn subscriptions(&self) -> Vec<String> {
        let Some(uris) = self.subscribed else {
            return Vec::new();
        };
        let uris = uris.lock().unwrap_or_else(PoisonError::into_inner);
        uris.iter().cloned().collect()
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
        self.mounted
            .iter()
            .for_each(|(_, h)| h.initialized(session));
    }

    /// The session asks to subscribe to `uri`: the first refusal of a hook asked, if one
    /// refuses (the server's own, then the mounted server's whose resource it is).
    pub(crate) fn subscribe(&self, session: &SessionInfo<'_>, uri: &str) -> Result<(), McpError> {
        if let Some(hook) = &self.subscribe {
            guarded("subscribe", || hook(session, uri)).unwrap_or_else(|| {
                Err(McpError::internal(
                    "the server could not decide on this subscription",
                ))
            })?;
        }
        for (level, hooks) in &self.mounted {
            if let Some(local) = level.namespace.local_uri(uri) {
                hooks.subscribe(session, &local)?;
            }
        }
        Ok(())
    }

    /// The session unsubscribed from `uri`.
    pub(crate) fn unsubscribed(&self, session: &SessionInfo<'_>, uri: &str) {
        if let Some(hook) = &self.unsubscribe {
            guarded("unsubscribe", || hook(session, uri));
        }
        for (level, hooks) in &self.mounted {
            if let Some(local) = level.namespace.local_uri(uri) {
                hooks.unsubscribed(session, &local);
            }
        }
    }

    /// The session ended.
    pub(crate) fn ended(&self, session: &SessionInfo<'_>) {
        if let Some(hook) = &self.ended {
            guarded("session-end", || hook(session));
        }
        self.mounted.iter().for_each(|(_, h)| h.ended(session));
    }

    /// The session's client announced that its roots changed.
    pub(crate) fn roots_changed(&self, change: &RootsChanged) {
        if let Some(hook) = &self.roots_changed {
            guarded("roots-changed", || hook(change.clone()));
        }
        self.mounted
            .iter()
            .for_each(|(_, h)| h.roots_changed(change));
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
