//! [`ServerHandle`]: changes the tools, prompts and resources of a running server, and
//! announces that a resource changed.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use crate::item::handler::Instance;
use crate::item::prompt::{Prompt, PromptSpec};
use crate::item::prompt_def::PromptDef;
use crate::item::resource::{Resource, ResourceSpec};
use crate::item::resource_def::ResourceDef;
use crate::item::shared::Shared;
use crate::item::tool::Tool;
use crate::item::tool_def::ToolDef;
use crate::server::engine::Engine;
use crate::server::error::{Error, Result};
use crate::server::listeners::List;

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
        self.change(|engine| {
            engine.needs_scopes(T::spec().header.scopes);
            engine.tools.add(T::spec().into(), None, &engine.states)
        })
    }

    /// Serves a tool made at run time ([`ToolDef`]) too, checked as at start-up: its name free,
    /// its schemas valid.
    pub fn add_tool_def(&self, tool: ToolDef) -> Result<()> {
        self.change(|engine| {
            engine.needs_scopes(tool.spec.header.scopes);
            let spec = Shared::Owned(Arc::new(tool.spec));
            engine.tools.add(spec, Some(tool.handler), &engine.states)
        })
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

    /// Serves the prompt of `#[mcp_prompt] fn P` too; its name must be free. The server must
    /// have started with a prompt (it declared the `prompts` capability then).
    pub fn add_prompt<P: Prompt>(&self) -> Result<()> {
        self.serve_prompt(P::spec().into(), None)
    }

    /// Serves a prompt made at run time ([`PromptDef`]) too, checked as at start-up. The server
    /// must have started with a prompt.
    pub fn add_prompt_def(&self, prompt: PromptDef) -> Result<()> {
        let (spec, instance) = prompt.into_parts();
        self.serve_prompt(Shared::Owned(Arc::new(spec)), Some(instance))
    }

    fn serve_prompt(&self, spec: Shared<PromptSpec>, instance: Option<Instance>) -> Result<()> {
        let engine = self.engine()?;
        if !engine.offer.prompts {
            return Err(Error::Setting(
                "the server started without prompts, so it did not offer any; serve one from \
                 the start to add more later",
            ));
        }
        engine.needs_scopes(spec.header.scopes);
        engine.items.add_prompt(spec, instance, &engine.states)?;
        engine.listeners.changed(List::Prompts);
        Ok(())
    }

    /// Stops serving the prompt named `name`.
    pub fn remove_prompt(&self, name: &str) -> Result<()> {
        let engine = self.engine()?;
        engine.items.remove_prompt(name)?;
        engine.listeners.changed(List::Prompts);
        Ok(())
    }

    /// Serves the resource (or template) of `#[mcp_resource] fn R` too; no other may serve
    /// its URIs. The server must have started with a resource.
    pub fn add_resource<R: Resource>(&self) -> Result<()> {
        self.serve_resource(R::spec().into(), None)
    }

    /// Serves a resource or a template made at run time ([`ResourceDef`]) too, checked as at
    /// start-up: a resource a tool's call produced, say. The server must have started with a
    /// resource.
    pub fn add_resource_def(&self, resource: ResourceDef) -> Result<()> {
        let (spec, instance) = resource.into_parts();
        self.serve_resource(Shared::Owned(Arc::new(spec)), Some(instance))
    }

    fn serve_resource(&self, spec: Shared<ResourceSpec>, instance: Option<Instance>) -> Result<()> {
        let engine = self.engine()?;
        if !engine.offer.resources {
            return Err(Error::Setting(
                "the server started without resources, so it did not offer any; serve one \
                 from the start to add more later",
            ));
        }
        if spec.uri.contains('{') && !engine.offer.completions {
            return Err(Error::Setting(
                "the server started without prompts or templates, so it did not offer \
                 completion; serve a template from the start to add more later",
            ));
        }
        engine.needs_scopes(spec.header.scopes);
        engine.items.add_resource(spec, instance, &engine.states)?;
        engine.listeners.changed(List::Resources);
        Ok(())
    }

    /// Stops serving the resource (or template) whose URI (or template) is `uri`.
    pub fn remove_resource(&self, uri: &str) -> Result<()> {
        let engine = self.engine()?;
        engine.items.remove_resource(uri)?;
        engine.listeners.changed(List::Resources);
        Ok(())
    }

    /// Tells the clients that subscribed to `uri` that the resource changed, as
    /// [`ResourceUpdates::updated`] does.
    pub fn resource_updated(&self, uri: &str) -> Result<()> {
        self.engine()?.listeners.updated(uri);
        Ok(())
    }
}

/// Tells the clients that subscribed to a resource that it changed, and nothing else: unlike a
/// [`ServerHandle`], it does not make the server's lists changeable (which would declare
/// `listChanged` and cache the lists for no time unless the server says). Get one from
/// [`Server::resource_updates`](crate::Server::resource_updates) before the server runs; it is
/// cheap to clone and can be sent to other threads.
#[derive(Clone, Default)]
pub struct ResourceUpdates {
    pub(crate) served: Arc<ServedBy>,
}

impl ResourceUpdates {
    /// Tells the clients that subscribed to `uri` that the resource changed
    /// (`notifications/resources/updated`): handshake sessions that sent
    /// `resources/subscribe`, and 2026-07-28 listen streams whose `resourceSubscriptions`
    /// name it. They read it again if they care.
    pub fn updated(&self, uri: &str) -> Result<()> {
        let engine = self
            .served
            .engine
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .upgrade()
            .ok_or(Error::NotServing)?;
        engine.listeners.updated(uri);
        Ok(())
    }
}
