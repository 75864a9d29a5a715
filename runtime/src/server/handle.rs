//! [`ServerHandle`]: changes the tools of a running server.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use crate::call::spec::Tool;
use crate::server::engine::Engine;
use crate::server::error::{Error, Result};

/// Changes the tools of a running server: adds, removes, enables and disables them. Clients
/// that can hear it are told (`notifications/tools/list_changed` in a handshake session;
/// on a `subscriptions/listen` stream that asked for it on 2026-07-28), and calls in flight
/// finish with the tools they began with. Get one from [`Server::handle`](crate::Server::handle)
/// before the server runs; it is cheap to clone and can be sent to other threads.
#[derive(Clone, Default)]
pub struct ServerHandle {
    pub(crate) served: Arc<ServedBy>,
}

/// The server a handle changes, once it is built: held weakly, so a handle kept after the
/// server stopped does not keep it alive.
#[derive(Default)]
pub(crate) struct ServedBy {
    engine: Mutex<Weak<Engine>>,
}

impl ServedBy {
    pub(crate) fn attach(&self, engine: &Arc<Engine>) {
        *self.engine.lock().unwrap_or_else(PoisonError::into_inner) = Arc::downgrade(engine);
    }
}

impl ServerHandle {
    fn engine(&self) -> Result<Arc<Engine>> {
        let engine = self
            .served
            .engine
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        engine.upgrade().ok_or(Error::NotServing)
    }

    /// Applies `change` to the server's tools and tells whoever can hear it, when the served
    /// tools changed.
    fn change(&self, change: impl FnOnce(&Engine) -> Result<bool>) -> Result<()> {
        let engine = self.engine()?;
        let changed = change(&engine)?;
        engine.tools_changed(changed);
        Ok(())
    }

    /// Serves the tool of `#[mcp_tool] fn T` too. Its name must be free; its schemas are
    /// checked as at start-up.
    pub fn add_tool<T: Tool>(&self) -> Result<()> {
        self.change(|engine| engine.tools.add(T::spec(), &engine.states))
    }

    /// Stops serving the tool named `name` and forgets it.
    pub fn remove_tool(&self, name: &str) -> Result<()> {
        self.change(|engine| engine.tools.remove(name))
    }

    /// Serves the tool named `name` again (it was disabled).
    pub fn enable_tool(&self, name: &str) -> Result<()> {
        self.change(|engine| engine.tools.enable(name, true))
    }

    /// Stops serving the tool named `name`, keeping it to enable later: it leaves the lists and
    /// calls of it are unknown-tool errors.
    pub fn disable_tool(&self, name: &str) -> Result<()> {
        self.change(|engine| engine.tools.enable(name, false))
    }
}
