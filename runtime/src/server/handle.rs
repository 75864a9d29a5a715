//! [`ServerHandle`]: changes the tools, prompts and resources of a running server, and
//! announces that a resource changed.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde::Serialize;

use crate::item::handler::Instance;
use crate::item::header::{Header, ItemKind, Mount};
use crate::item::prompt::{Prompt, PromptSpec};
use crate::item::prompt_def::PromptDef;
use crate::item::resource::{Resource, ResourceSpec};
use crate::item::resource_def::ResourceDef;
use crate::item::shared::Shared;
use crate::item::tool::{Tool, ToolSpec};
use crate::item::tool_def::ToolDef;
use crate::protocol::Level;
use crate::server::engine::Engine;
use crate::server::error::{Error, Result};
use crate::server::listeners::List;
use crate::server::mounting;

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
/// server stopped does not keep it alive; and, for the handle of a server mounted into it, the
/// mount its items are served through, so that the handle names them as its own server does.
/// Both are set together and read together, so a handle never acts on the server without its
/// mount.
#[derive(Default)]
pub(crate) struct ServedBy {
    attached: Mutex<(Weak<Engine>, Option<Arc<Mount>>)>,
}

/// The server a handle changes, and where the handle's own server is mounted in it.
struct Served {
    engine: Arc<Engine>,
    mount: Option<Arc<Mount>>,
}

impl ServedBy {
    pub(crate) fn attach(&self, engine: &Arc<Engine>, mount: Option<Arc<Mount>>) {
        let mut attached = self.attached.lock().unwrap_or_else(PoisonError::into_inner);
        *attached = (Arc::downgrade(engine), mount);
    }

    /// The server, while it serves, and the handle's mount in it.
    fn served(&self) -> Result<Served> {
        let attached = self.attached.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Served {
            engine: attached.0.upgrade().ok_or(Error::NotServing)?,
            mount: attached.1.clone(),
        })
    }

    /// The server, while it serves.
    fn engine(&self) -> Result<Arc<Engine>> {
        Ok(self.served()?.engine)
    }

    /// Tells the clients subscribed to the resource this handle's server has at `uri`.
    fn updated(&self, uri: &str) -> Result<()> {
        let served = self.served()?;
        served.engine.listeners.updated(&served.uri(uri)?);
        Ok(())
    }

    /// Every URI a client of the server is subscribed to now, in order: of a mounted server's
    /// handle, those of its own resources (or in its namespaces), as it names them.
    fn subscriptions(&self) -> Result<Vec<String>> {
        let Served { engine, mount } = self.served()?;
        let subscribed = engine.listeners.subscriptions();
        Ok(match mount {
            None => subscribed.into_iter().collect(),
            Some(mount) => (subscribed.iter())
                .filter(|uri| engine.mounted_uri(&mount, uri))
                .filter_map(|uri| mount.local_uri(uri))
                .collect(),
        })
    }
}

impl Served {
    /// What the served server calls the tool or prompt this handle's server calls `name`.
    fn name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        match &self.mount {
            Some(mount) => Cow::Owned(mounting::name_in(name, mount)),
            None => Cow::Borrowed(name),
        }
    }

    /// Where the served server has the resource this handle's server has at `uri`.
    fn uri<'a>(&self, uri: &'a str) -> Result<Cow<'a, str>> {
        match &self.mount {
            Some(mount) => Ok(Cow::Owned(mount.uri(uri).map_err(Error::Mount)?)),
            None => Ok(Cow::Borrowed(uri)),
        }
    }

    /// Whether the item of `header` is this handle's server's to change: a mounted server's
    /// handle changes its own items (and those of the servers mounted into it), no others.
    fn owns(&self, header: &Header) -> bool {
        (self.mount.as_ref()).is_none_or(|mount| mount.holds(header.mount.as_deref()))
    }

    /// The tool of `spec`, as the served server serves it.
    fn tool(&self, spec: Shared<ToolSpec>) -> Result<Shared<ToolSpec>> {
        match &self.mount {
            Some(mount) => {
                let serves = |uri: &str| self.engine.outward(mount, uri).is_some();
                mounting::tool_in(&spec, mount, &serves)
            }
            None => Ok(spec),
        }
    }

    /// The prompt of `spec`, as the served server serves it.
    fn prompt(&self, spec: Shared<PromptSpec>) -> Shared<PromptSpec> {
        match &self.mount {
            Some(mount) => mounting::prompt_in(&spec, mount),
            None => spec,
        }
    }

    /// The resource of `spec`, as the served server serves it.
    fn resource(&self, spec: Shared<ResourceSpec>) -> Result<Shared<ResourceSpec>> {
        match &self.mount {
            Some(mount) => mounting::resource_in(&spec, mount),
            None => Ok(spec),
        }
    }
}

impl ServerHandle {
    /// Applies `change` to the server's tools and tells whoever can hear it, when the served
    /// tools changed.
    fn change(&self, change: impl FnOnce(&Served) -> Result<bool>) -> Result<()> {
        let served = self.served.served()?;
        let changed = change(&served)?;
        served.engine.tools_changed(changed);
        Ok(())
    }

    /// Serves the tool of `#[mcp_tool] fn T` too. Its name must be free; its schemas are
    /// checked as at start-up.
    pub fn add_tool<T: Tool>(&self) -> Result<()> {
        self.change(|served| {
            let (engine, spec) = (&served.engine, served.tool(T::spec().into())?);
            engine.needs_scopes(spec.header.scopes);
            engine.tools.add(spec, None, &engine.states)
        })
    }

    /// Serves a tool made at run time ([`ToolDef`]) too, checked as at start-up: its name free,
    /// its schemas valid.
    pub fn add_tool_def(&self, tool: ToolDef) -> Result<()> {
        self.change(|served| {
            let engine = &served.engine;
            let spec = served.tool(Shared::Owned(Arc::new(tool.spec)))?;
            engine.needs_scopes(spec.header.scopes);
            engine.tools.add(spec, Some(tool.handler), &engine.states)
        })
    }

    /// Stops serving the tool named `name` and forgets it.
    pub fn remove_tool(&self, name: &str) -> Result<()> {
        self.change(|served| {
            let owns = |header: &Header| served.owns(header);
            served.engine.tools.remove(&served.name(name), owns)
        })
    }

    /// Serves the tool named `name` again (it was disabled).
    pub fn enable_tool(&self, name: &str) -> Result<()> {
        self.change(|served| {
            let owns = |header: &Header| served.owns(header);
            served.engine.tools.enable(&served.name(name), true, owns)
        })
    }

    /// Stops serving the tool named `name`, keeping it to enable later: it leaves the lists and
    /// calls of it are unknown-tool errors.
    pub fn disable_tool(&self, name: &str) -> Result<()> {
        self.change(|served| {
            let owns = |header: &Header| served.owns(header);
            served.engine.tools.enable(&served.name(name), false, owns)
        })
    }

    /// Serves the prompt of `#[mcp_prompt] fn P` too; its name must be free. The server must
    /// have started with a prompt (it declared the `prompts` capability then).
    pub fn add_prompt<P: Prompt>(&self) -> Result<()> {
        self.serve_prompt(P::spec().into(), None)
    }

    /// Serves a prompt made at run time ([`PromptDef`]) too, checked as at start-up. The server
    /// must have started with a prompt.
    pub fn add_prompt_def(&self, prompt: PromptDef) -> Result<()> {
        let (spec, instance, problem) = prompt.into_parts();
        if let Some(problem) = problem {
            return Err(Error::invalid(ItemKind::Prompt, &spec.header, problem));
        }
        self.serve_prompt(Shared::Owned(Arc::new(spec)), Some(instance))
    }

    fn serve_prompt(&self, spec: Shared<PromptSpec>, instance: Option<Instance>) -> Result<()> {
        let served = self.served.served()?;
        let engine = &served.engine;
        if !engine.offer.prompts {
            return Err(Error::Setting(
                "the server started without prompts, so it did not offer any; serve one from \
                 the start to add more later",
            ));
        }
        let spec = served.prompt(spec);
        engine.needs_scopes(spec.header.scopes);
        engine.items.add_prompt(spec, instance, &engine.states)?;
        engine.listeners.changed(List::Prompts);
        Ok(())
    }

    /// Stops serving the prompt named `name`.
    pub fn remove_prompt(&self, name: &str) -> Result<()> {
        let served = self.served.served()?;
        let owns = |header: &Header| served.owns(header);
        served
            .engine
            .items
            .remove_prompt(&served.name(name), owns)?;
        served.engine.listeners.changed(List::Prompts);
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
        let served = self.served.served()?;
        let engine = &served.engine;
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
        let spec = served.resource(spec)?;
        engine.needs_scopes(spec.header.scopes);
        engine.items.add_resource(spec, instance, &engine.states)?;
        engine.listeners.changed(List::Resources);
        Ok(())
    }

    /// Stops serving the resource (or template) whose URI (or template) is `uri`.
    pub fn remove_resource(&self, uri: &str) -> Result<()> {
        let served = self.served.served()?;
        let owns = |header: &Header| served.owns(header);
        served
            .engine
            .items
            .remove_resource(&served.uri(uri)?, owns)?;
        served.engine.listeners.changed(List::Resources);
        Ok(())
    }

    /// Tells the clients that subscribed to `uri` that the resource changed, as
    /// [`ResourceUpdates::updated`] does.
    pub fn resource_updated(&self, uri: &str) -> Result<()> {
        self.served.updated(uri)
    }

    /// Every URI a client is subscribed to now, as [`ResourceUpdates::subscriptions`] says.
    pub fn subscriptions(&self) -> Result<Vec<String>> {
        self.served.subscriptions()
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
        self.served.updated(uri)
    }

    /// Every URI a client is subscribed to now, in order: those handshake sessions sent
    /// `resources/subscribe` for, and those 2026-07-28 listen streams name in
    /// `resourceSubscriptions`, while they last. A server that watches what it serves watches
    /// these, even URIs no client has read yet.
    pub fn subscriptions(&self) -> Result<Vec<String>> {
        self.served.subscriptions()
    }
}

/// Sends log messages that belong to no request (`notifications/message`) to every handshake
/// session, each at the level it asked for with `logging/setLevel` (`info` until it asks):
/// over stdio and in process on the connection, over HTTP on a session's GET stream while it
/// has one. 2026-07-28 clients hear none: that revision lets a server send a message only
/// about a request that asked for them (the request's `logLevel`), and deprecates logging.
/// Get one from [`Server::server_log`](crate::Server::server_log) before the server runs; it
/// is cheap to clone and can be sent to other threads.
///
/// ```
/// use toolwright_runtime::{Level, Server};
///
/// let mut server = Server::new("example", "1");
/// let log = server.server_log().logger("watcher");
/// std::thread::spawn(move || {
///     log.warning("the disk is nearly full");
///     log.send(Level::Error, &serde_json::json!({"disk": "/", "free": 0}));
/// });
/// ```
#[derive(Clone, Default)]
pub struct ServerLog {
    pub(crate) served: Arc<ServedBy>,
    logger: Option<Cow<'static, str>>,
}

impl ServerLog {
    pub(crate) fn through(served: Arc<ServedBy>) -> ServerLog {
        ServerLog {
            served,
            logger: None,
        }
    }

    /// The same log, its messages from `logger` (`"watcher"`, `"db"`).
    pub fn logger(self, logger: impl Into<Cow<'static, str>>) -> ServerLog {
        ServerLog {
            logger: Some(logger.into()),
            ..self
        }
    }

    /// The same log, its messages naming no logger (the default).
    pub fn without_logger(self) -> ServerLog {
        ServerLog {
            logger: None,
            ..self
        }
    }

    /// Sends `data` (any JSON value; a message is a string) at `level` to every session that
    /// wants it: how many it reached (none while the server is not serving).
    pub fn send<T: Serialize + ?Sized>(&self, level: Level, data: &T) -> usize {
        let (Ok(engine), Ok(data)) = (self.served.engine(), serde_json::to_value(data)) else {
            return 0;
        };
        engine.listeners.log(level, self.logger.as_deref(), &data)
    }

    /// Sends `message` at `debug`.
    pub fn debug(&self, message: &str) -> usize {
        self.send(Level::Debug, message)
    }

    /// Sends `message` at `info`.
    pub fn info(&self, message: &str) -> usize {
        self.send(Level::Info, message)
    }

    /// Sends `message` at `warning`.
    pub fn warning(&self, message: &str) -> usize {
        self.send(Level::Warning, message)
    }

    /// Sends `message` at `error`.
    pub fn error(&self, message: &str) -> usize {
        self.send(Level::Error, message)
    }
}
