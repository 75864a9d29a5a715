//! Who hears that a list (of tools, prompts or resources) changed, and that a resource
//! changed. In the handshake era, a session on a connection that lasts (stdio, in-process)
//! gets `notifications/*/list_changed` from `initialize` on, and
//! `notifications/resources/updated` for the URIs it subscribed to; an HTTP session gets them
//! on its GET stream while it has one. On 2026-07-28, a `subscriptions/listen` stream gets
//! what it asked for (`toolsListChanged`, `promptsListChanged`, `resourcesListChanged`,
//! `resourceSubscriptions`), tagged with its subscription, until the client cancels the stream
//! (with `notifications/cancelled` on a connection, by closing it over HTTP).
//!
//! A listener on a connection holds it weakly, and ends with it or its session; one on an HTTP
//! response holds the response, and ends when its client leaves it. Ended listeners are
//! forgotten at the next change or registration.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde_json::json;
use serde_json::value::RawValue;

use crate::call::outlet::{Outlet, WeakOutlet};
use crate::protocol::id::IdKey;
use crate::protocol::params::SUBSCRIPTION_ID;
use crate::protocol::{Level, jsonrpc};
use crate::run::inflight::OpenRequests;

/// A list that can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum List {
    Tools,
    Prompts,
    Resources,
}

impl List {
    fn notification(self) -> &'static str {
        match self {
            List::Tools => "notifications/tools/list_changed",
            List::Prompts => "notifications/prompts/list_changed",
            List::Resources => "notifications/resources/list_changed",
        }
    }
}

/// What a handshake session's listener shares with the session: its subscriptions and its log
/// level.
pub(crate) type Heard<'a> = (&'a Uris, &'a SharedLevel);

/// The URIs a listener hears updates of: a session's, which `resources/subscribe` changes, or
/// a listen stream's, fixed when it opened.
pub(crate) type Uris = Arc<Mutex<BTreeSet<String>>>;

/// A handshake session's log level, shared with its listener: `logging/setLevel` changes it.
pub(crate) type SharedLevel = Arc<Mutex<Level>>;

/// What a listener hears.
#[derive(Default)]
pub(crate) struct Wants {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
    pub(crate) uris: Uris,
    /// A handshake session's log level: it hears the server's log messages at it. (A
    /// 2026-07-28 listen stream hears none: its revision sends a message only about a request
    /// that asked for them.)
    pub(crate) level: Option<SharedLevel>,
}

impl Wants {
    /// A handshake session hears every list change (the server sends only those it declared),
    /// and the resources it subscribed to.
    pub(crate) fn session(uris: Uris, level: SharedLevel) -> Wants {
        Wants {
            tools: true,
            prompts: true,
            resources: true,
            uris,
            level: Some(level),
        }
    }

    fn list(&self, list: List) -> bool {
        match list {
            List::Tools => self.tools,
            List::Prompts => self.prompts,
            List::Resources => self.resources,
        }
    }

    fn uri(&self, uri: &str) -> bool {
        self.uris
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }
}

#[derive(Default)]
pub(crate) struct Listeners {
    listeners: Mutex<Vec<Listener>>,
    /// Every handshake session's subscriptions, while it lives, whether or not it has a way to
    /// hear of them now (an HTTP session between GET streams).
    sessions: Mutex<Vec<Weak<Mutex<BTreeSet<String>>>>>,
}

struct Listener {
    outlet: Held,
    /// A 2026-07-28 subscription: the listen request's id.
    subscription: Option<(IdKey, Box<RawValue>)>,
    wants: Wants,
}

enum Held {
    /// A connection (or a session's GET stream) and the session's open requests: the listener
    /// ends with either, and a subscription when its request is no longer open.
    Connection {
        outlet: WeakOutlet,
        open: Weak<OpenRequests>,
    },
    /// One HTTP response, as long as its client reads it.
    Response(Outlet),
}

impl Listener {
    /// Where to send, while the listener lasts.
    fn outlet(&self) -> Option<Outlet> {
        match &self.outlet {
            Held::Connection { outlet, open } => {
                let (outlet, open) = (outlet.upgrade()?, open.upgrade()?);
                let cancelled = self
                    .subscription
                    .as_ref()
                    .is_some_and(|(key, _)| !open.contains(key));
                (!cancelled).then_some(outlet)
            }
            Held::Response(outlet) => outlet.is_open().then(|| outlet.clone()),
        }
    }
}

impl Listeners {
    fn add(&self, listener: Listener) {
        let mut listeners = self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        listeners.retain(|listener| listener.outlet().is_some());
        listeners.push(listener);
    }

    /// A handshake session that has just been initialized on `outlet` (heard when the outlet
    /// is the connection's).
    pub(crate) fn session(&self, outlet: &Outlet, open: &Arc<OpenRequests>, heard: Heard<'_>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions.retain(|uris| uris.strong_count() > 0);
        sessions.push(Arc::downgrade(heard.0));
        drop(sessions);
        if outlet.lasting() {
            self.connection(outlet, open, heard);
        }
    }

    /// A handshake session's way to messages about no request: its connection, or its HTTP
    /// GET stream.
    pub(crate) fn connection(&self, outlet: &Outlet, open: &Arc<OpenRequests>, heard: Heard<'_>) {
        let (uris, level) = heard;
        self.add(Listener {
            outlet: Held::Connection {
                outlet: outlet.downgrade(),
                open: Arc::downgrade(open),
            },
            subscription: None,
            wants: Wants::session(Arc::clone(uris), Arc::clone(level)),
        });
    }

    /// A `subscriptions/listen` stream with id `id`, on a connection or an HTTP response.
    pub(crate) fn subscription(
        &self,
        outlet: &Outlet,
        open: &Arc<OpenRequests>,
        id: &RawValue,
        wants: Wants,
    ) {
        let outlet = match outlet.lasting() {
            true => Held::Connection {
                outlet: outlet.downgrade(),
                open: Arc::downgrade(open),
            },
            false => Held::Response(outlet.clone()),
        };
        self.add(Listener {
            outlet,
            subscription: Some((IdKey::of(id), id.to_owned())),
            wants,
        });
    }

    /// Tells every listener still there that wants it that `list` changed.
    pub(crate) fn changed(&self, list: List) {
        self.tell(list.notification(), None, |wants| wants.list(list));
    }

    /// Tells every listener that subscribed to `uri` that the resource changed.
    pub(crate) fn updated(&self, uri: &str) {
        let params = json!({"uri": uri});
        self.tell("notifications/resources/updated", Some(params), |wants| {
            wants.uri(uri)
        });
    }

    /// Sends a log message to every handshake session whose level admits `level`: how many it
    /// reached.
    pub(crate) fn log(
        &self,
        level: Level,
        logger: Option<&str>,
        data: &serde_json::Value,
    ) -> usize {
        let mut params = json!({"level": level, "data": data});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        let (reached, params) = (AtomicUsize::new(0), Some(params));
        self.tell("notifications/message", params, |wants| {
            let admits = (wants.level.as_ref())
                .is_some_and(|at| level >= *at.lock().unwrap_or_else(PoisonError::into_inner));
            if admits {
                reached.fetch_add(1, Ordering::Relaxed);
            }
            admits
        });
        reached.into_inner()
    }

    /// Every URI a client is subscribed to: a live handshake session's `resources/subscribe`
    /// (heard now or not), a listen stream's `resourceSubscriptions`.
    pub(crate) fn subscriptions(&self) -> BTreeSet<String> {
        let mut sets: Vec<Uris> = (self.sessions.lock().unwrap_or_else(PoisonError::into_inner))
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        let listeners = self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let streams = listeners.iter().filter(|l| l.subscription.is_some());
        sets.extend(
            streams
                .filter(|l| l.outlet().is_some())
                .map(|l| Arc::clone(&l.wants.uris)),
        );
        drop(listeners);
        let mut all = BTreeSet::new();
        for uris in sets {
            all.extend(
                uris.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .iter()
                    .cloned(),
            );
        }
        all
    }

    /// Sends `method` with `params` (tagged for a subscription) to every listener still there
    /// that `wanted` chooses; forgets those that are gone.
    fn tell(
        &self,
        method: &str,
        params: Option<serde_json::Value>,
        wanted: impl Fn(&Wants) -> bool,
    ) {
        let mut listeners = self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        listeners.retain(|listener| {
            let Some(outlet) = listener.outlet() else {
                return false;
            };
            if !wanted(&listener.wants) {
                return true;
            }
            let mut params = params.clone().unwrap_or_else(|| json!({}));
            if let Some((_, id)) = &listener.subscription {
                params["_meta"] = json!({SUBSCRIPTION_ID: id});
            }
            outlet.send(jsonrpc::notification_line(method, &params));
            true
        });
    }
}
