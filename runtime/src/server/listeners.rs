//! Who hears that the tool list changed. In the handshake era, a session on a connection that
//! lasts (stdio, in-process) gets `notifications/tools/list_changed` from `initialize` on, and
//! an HTTP session on its GET stream while it has one. On
//! 2026-07-28, a `subscriptions/listen` stream that asked for `toolsListChanged` gets it, tagged
//! with its subscription, until the client cancels the stream (with `notifications/cancelled`
//! on a connection, by closing it over HTTP).
//!
//! A listener on a connection holds it weakly, and ends with it or its session; one on an HTTP
//! response holds the response, and ends when its client leaves it. Ended listeners are
//! forgotten at the next change or registration.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde_json::json;
use serde_json::value::RawValue;

use crate::call::outlet::{Outlet, WeakOutlet};
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc;
use crate::protocol::params::SUBSCRIPTION_ID;
use crate::run::inflight::OpenRequests;

const LIST_CHANGED: &str = "notifications/tools/list_changed";

#[derive(Default)]
pub(crate) struct Listeners(Mutex<Vec<Listener>>);

struct Listener {
    outlet: Held,
    /// A 2026-07-28 subscription: the listen request's id.
    subscription: Option<(IdKey, Box<RawValue>)>,
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
        let mut listeners = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        listeners.retain(|listener| listener.outlet().is_some());
        listeners.push(listener);
    }

    /// A handshake session that has just been initialized on `outlet` (heard when the outlet
    /// is the connection's).
    pub(crate) fn session(&self, outlet: &Outlet, open: &Arc<OpenRequests>) {
        if outlet.lasting() {
            self.connection(outlet, open);
        }
    }

    /// A handshake session's way to messages about no request: its connection, or its HTTP
    /// GET stream.
    pub(crate) fn connection(&self, outlet: &Outlet, open: &Arc<OpenRequests>) {
        self.add(Listener {
            outlet: Held::Connection {
                outlet: outlet.downgrade(),
                open: Arc::downgrade(open),
            },
            subscription: None,
        });
    }

    /// A `subscriptions/listen` stream with id `id`, on a connection or an HTTP response.
    pub(crate) fn subscription(&self, outlet: &Outlet, open: &Arc<OpenRequests>, id: &RawValue) {
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
        });
    }

    /// Tells every listener still there that the tool list changed.
    pub(crate) fn tools_changed(&self) {
        let mut listeners = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        listeners.retain(|listener| {
            let Some(outlet) = listener.outlet() else {
                return false;
            };
            let params = match &listener.subscription {
                None => json!({}),
                Some((_, id)) => json!({"_meta": {SUBSCRIPTION_ID: id}}),
            };
            outlet.send(jsonrpc::notification_line(LIST_CHANGED, &params));
            true
        });
    }
}
