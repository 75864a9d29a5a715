//! Requests, by method and era.
//!
//! Each request is classified on its own: one whose `params._meta` names a protocol revision is
//! served statelessly under that revision (2026-07-28), beside any handshake session on the same
//! connection; any other is served under the revision `initialize` negotiated. Policy:
//!
//! - A 2026-07-28 request must carry `io.modelcontextprotocol/clientCapabilities` and a string
//!   version (`-32602`); an unknown version gets `-32022` listing the stateless revisions, as the
//!   Python and TypeScript SDKs do (a client wanting a handshake revision sends `initialize`).
//! - An `initialize` asking for a revision the server does not speak with a handshake is answered
//!   with the latest one it does (the client decides whether to stay); a second `initialize` is
//!   refused. Requests other than `ping` before it are refused with `-32600`.
//! - `subscriptions/listen` is acknowledged with what the server will send of what the client
//!   asked for (list changes of lists that can change, updates of the resources named when it
//!   serves resources), and stays open until the client cancels it.
//! - `resources/subscribe` keeps any URI (a resource may come to exist), at most 4096 per
//!   session; a listen stream names at most as many, and a malformed filter is `-32602`.
//! - `logging/setLevel` sets the session's level (`info` until then, the specification lets the
//!   server choose); a 2026-07-28 request gets log messages only when its `_meta` names a level.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::value::RawValue;

use crate::call::client::DeclaredClient;
use crate::call::client::RequestClient;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::meta::Meta;
use crate::protocol::method::Method;
use crate::protocol::params::{Params, SUBSCRIPTION_ID};
use crate::protocol::wire;
use crate::protocol::{Era, ProtocolVersion};
use crate::server::batch::Batch;
use crate::server::engine::Engine;
use crate::server::hooks::Route;
use crate::server::listeners::Wants;
use crate::server::methods::calls::Request;
use crate::server::methods::lists::{self, Listing};
use crate::server::methods::skills;
use crate::server::reply::{Reply, id_in_use, log_level};
use crate::server::session::{Handshake, RequestScope, Session};

/// The most resources one session (or one listen stream) hears of: what it asks for is kept
/// while it lasts, so a client cannot grow the server without bound.
const MAX_SUBSCRIPTIONS: usize = 4096;

impl Session {
    pub(crate) fn request(
        &self,
        id: &RawValue,
        method: &Method<'_>,
        params: &Params<'_>,
        scope: RequestScope<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let none = Meta::default();
        let meta = match params.read_meta() {
            Some(meta) => {
                meta.ok_or_else(|| ProtocolError::invalid_params("`_meta` must be an object"))?
            }
            None => &none,
        };
        if meta.protocol_version.is_some() {
            if batch.is_some() {
                return Err(ProtocolError::invalid_request(
                    "a 2026-07-28 request cannot be part of a batch",
                ));
            }
            return self.stateless(id, method, params, meta, scope);
        }
        let client = (self.handshake.get())
            .map(|handshake| RequestClient::session(handshake.version, &handshake.client));
        if let Some(client) = &client {
            scope.span.revision(client.version);
        }
        let scope = RequestScope {
            client: client.as_ref(),
            ..scope
        };
        let engine = &self.engine;
        match method {
            Method::Initialize if batch.is_some() => Err(ProtocolError::invalid_request(
                "`initialize` must not be part of a batch",
            )),
            Method::Initialize => self.initialize(id, params, scope),
            Method::Ping => Ok(Reply::Now(jsonrpc::result_line(id, &serde_json::json!({})))),
            Method::ToolsList => list(id, engine, self.version()?, params, scope),
            Method::ToolsCall => {
                let version = self.version()?;
                self.call(id, version, params, meta, scope, batch)
            }
            Method::LoggingSetLevel => {
                self.version()?;
                let level = log_level(params.rare().level.as_deref())?;
                *self.log_level().lock().unwrap_or_else(|e| e.into_inner()) = level;
                Ok(Reply::Now(jsonrpc::result_line(id, &serde_json::json!({}))))
            }
            // The methods only the other era has, and notifications sent as requests.
            Method::ServerDiscover
            | Method::SubscriptionsListen
            | Method::Cancelled
            | Method::RootsListChanged
            | Method::Initialized
            | Method::Other(_) => Err(ProtocolError::method_not_found(method.name())),
            _ => {
                let version = self.version()?;
                let request = Request {
                    id,
                    version,
                    params,
                    meta,
                    scope,
                };
                self.served(method, &request, batch)
            }
        }
    }

    /// A request for prompts, resources, completion or skills, in either era; method-not-found for any
    /// other, and for those the server does not offer (it declared no such capability).
    fn served(
        &self,
        method: &Method<'_>,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let offer = &self.engine.offer;
        let (id, version, cursor) = (
            request.id,
            request.version,
            request.params.cursor.as_deref(),
        );
        let scope = request.scope;
        let engine = &self.engine;
        match method {
            Method::PromptsList if offer.prompts => {
                lists::list(Listing::Prompts, id, engine, version, cursor, scope)
            }
            Method::PromptsGet if offer.prompts => self.get_prompt(request, batch),
            Method::ResourcesList if offer.resources => {
                lists::list(Listing::Resources, id, engine, version, cursor, scope)
            }
            Method::ResourcesTemplatesList if offer.resources => {
                lists::list(Listing::Templates, id, engine, version, cursor, scope)
            }
            Method::ResourcesRead if offer.resources => self.read_resource(request, batch),
            Method::ResourcesSubscribe | Method::ResourcesUnsubscribe
                if offer.resources
                    && offer.updates
                    && version.has_resource_subscribe_requests() =>
            {
                self.subscribe(*method == Method::ResourcesSubscribe, request)
            }
            Method::CompletionComplete if offer.completions => self.complete(request, batch),
            _ if offer.tasks && method.is_task_method() => {
                self.task_request(method, request, batch)
            }
            _ => engine
                .skills
                .as_ref()
                .and_then(|skills| skills::answer(method, skills, engine, request))
                .unwrap_or_else(|| Err(ProtocolError::method_not_found(method.name()))),
        }
    }

    /// `resources/subscribe` or `resources/unsubscribe` in a handshake session: the session
    /// hears `notifications/resources/updated` for the URI from now on, or no more. Any URI
    /// may be subscribed to (a resource may come to exist); unsubscribing one never
    /// subscribed is no error.
    fn subscribe(&self, subscribe: bool, request: &Request<'_>) -> Result<Reply, ProtocolError> {
        let uri = request
            .params
            .uri
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `uri`"))?;
        let lock = || self.subscribed().lock().unwrap_or_else(|e| e.into_inner());
        let full = |subscribed: &BTreeSet<String>| {
            subscribed.len() >= MAX_SUBSCRIPTIONS && !subscribed.contains(uri)
        };
        let too_many = || {
            ProtocolError::invalid_params(format_args!(
                "a session subscribes to at most {MAX_SUBSCRIPTIONS} resources; unsubscribe \
                 from one first"
            ))
        };
        // Refused before the hooks are asked, so that none hears of a subscription not made.
        if subscribe && full(&lock()) {
            return Err(too_many());
        }
        // A resource the caller lacks scopes for is not subscribed to (it hears nothing of what
        // it may not read); over HTTP the request is refused with the scopes, so that the
        // client can ask for them.
        let engine = &self.engine;
        let catalog = engine.catalog();
        let lacking = engine.lacking_uri(&catalog, uri, &request.scope.caller());
        // Whose the URI is: the hooks of a mounted server hear of its own resources only; an
        // unsubscribe goes where its subscribe went.
        let routes = || {
            let routes = self.routes.get_or_init(Default::default);
            routes.lock().unwrap_or_else(|e| e.into_inner())
        };
        let route = match (engine.hooks.routes(), subscribe) {
            (false, _) => Route::unrouted(),
            (true, true) => Route::of(&catalog, uri),
            (true, false) => routes()
                .remove(uri)
                .unwrap_or_else(|| Route::of(&catalog, uri)),
        };
        let owner = route.owner();
        let info = self
            .info()
            .expect("a handshake request's session is initialized");
        if lacking.is_none() {
            // The author's hook may refuse; it runs without the session's lock, so that it can
            // read the session's subscriptions.
            match subscribe {
                // Subscribing again to what it has changes nothing, and asks the hook nothing.
                true if lock().contains(uri) => {}
                true => {
                    if let Err(refused) = engine.hooks.subscribe(&info, uri, owner) {
                        return Err(refused.protocol_error(request.version));
                    }
                    // Another request may have filled the session (or subscribed to this URI)
                    // while the hooks were asked: they hear it undone.
                    let mut subscribed = lock();
                    if full(&subscribed) || subscribed.contains(uri) {
                        let full = full(&subscribed);
                        drop(subscribed);
                        engine.hooks.unsubscribed(&info, uri, owner);
                        return match full {
                            true => Err(too_many()),
                            false => Ok(Reply::Now(jsonrpc::result_line(
                                request.id,
                                &serde_json::json!({}),
                            ))),
                        };
                    }
                    subscribed.insert(uri.to_owned());
                    drop(subscribed);
                    if engine.hooks.routes() {
                        routes().insert(uri.to_owned(), route);
                    }
                }
                false => {
                    if lock().remove(uri) {
                        engine.hooks.unsubscribed(&info, uri, owner);
                    }
                }
            }
        }
        let done = Reply::Now(jsonrpc::result_line(request.id, &serde_json::json!({})));
        Ok(done.unless_lacking(lacking))
    }

    /// A 2026-07-28 request: everything it needs is in its own `_meta`.
    fn stateless(
        &self,
        id: &RawValue,
        method: &Method<'_>,
        params: &Params<'_>,
        meta: &Meta<'_>,
        scope: RequestScope<'_>,
    ) -> Result<Reply, ProtocolError> {
        let requested = meta
            .stateless_version()
            .map_err(|why| ProtocolError::invalid_params(&why))?
            .expect("a stateless request names its revision");
        let version = ProtocolVersion::parse(&requested)
            .filter(|v| v.era() == Era::Modern)
            .ok_or_else(|| {
                ProtocolError::unsupported_protocol_version(&requested, &ProtocolVersion::MODERN)
            })?;
        scope.span.revision(version);
        let client = RequestClient::request(version, meta);
        let scope = RequestScope {
            client: Some(&client),
            ..scope
        };
        let engine = &self.engine;
        match method {
            Method::ServerDiscover => {
                let result = wire::discover(
                    &engine.info,
                    &engine.server_meta,
                    engine.cache(),
                    &engine.offer,
                );
                Ok(Reply::Now(jsonrpc::result_line(id, &result)))
            }
            Method::ToolsList => list(id, engine, version, params, scope),
            Method::ToolsCall => self.call(id, version, params, meta, scope, None),
            Method::SubscriptionsListen => self.listen(id, params, scope),
            _ => {
                let request = Request {
                    id,
                    version,
                    params,
                    meta,
                    scope,
                };
                self.served(method, &request, None)
            }
        }
    }

    fn initialize(
        &self,
        id: &RawValue,
        params: &Params<'_>,
        scope: RequestScope<'_>,
    ) -> Result<Reply, ProtocolError> {
        let requested = params
            .rare()
            .protocol_version
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `protocolVersion`"))?;
        let version = ProtocolVersion::negotiate(requested);
        let handshake = Handshake {
            version,
            client: Arc::new(DeclaredClient::from_initialize(
                params.rare().client_info,
                params.rare().capabilities,
            )),
        };
        if self.handshake.set(handshake).is_err() {
            return Err(ProtocolError::invalid_request(
                "the session is already initialized",
            ));
        }
        let engine = &self.engine;
        if engine.announces() {
            engine
                .listeners
                .session(scope.outlet, self.open_requests(), self.heard());
        }
        let result = wire::initialize(&engine.info, version, &engine.offer);
        Ok(Reply::Now(jsonrpc::result_line(id, &result)))
    }

    /// `subscriptions/listen`: acknowledged with the part of what it asked for that the server
    /// can send (list changes of the lists that can change, updates of resources when it serves
    /// any, for exactly the URIs asked for); open until cancelled.
    fn listen(
        &self,
        id: &RawValue,
        params: &Params<'_>,
        scope: RequestScope<'_>,
    ) -> Result<Reply, ProtocolError> {
        #[derive(serde::Deserialize, Default)]
        #[serde(rename_all = "camelCase")]
        struct Wanted {
            #[serde(default)]
            tools_list_changed: bool,
            #[serde(default)]
            prompts_list_changed: bool,
            #[serde(default)]
            resources_list_changed: bool,
            #[serde(default)]
            resource_subscriptions: Option<Vec<String>>,
        }
        let wanted: Wanted = match params.rare().notifications {
            None => Wanted::default(),
            Some(filter) => serde_json::from_str(filter.get()).map_err(|e| {
                ProtocolError::invalid_params(format_args!(
                    "`notifications`: {}",
                    jsonrpc::without_position(&e)
                ))
            })?,
        };
        let asked = wanted.resource_subscriptions.as_ref().map_or(0, Vec::len);
        if asked > MAX_SUBSCRIPTIONS {
            return Err(ProtocolError::invalid_params(format_args!(
                "`resourceSubscriptions` names {asked} resources; a stream listens to at most \
                 {MAX_SUBSCRIPTIONS}"
            )));
        }
        if !self.open_requests().insert_stream(IdKey::of(id)) {
            return Err(id_in_use(id));
        }
        let engine = &self.engine;
        let offer = &engine.offer;
        let uris = wanted
            .resource_subscriptions
            .filter(|_| offer.resources && offer.updates)
            .unwrap_or_default();
        let wants = Wants {
            tools: wanted.tools_list_changed && offer.changing,
            prompts: wanted.prompts_list_changed && offer.changing && offer.prompts,
            resources: wanted.resources_list_changed && offer.changing && offer.resources,
            uris: Arc::new(std::sync::Mutex::new(uris.iter().cloned().collect())),
            level: None,
        };
        let mut notifications = serde_json::Map::new();
        for (key, on) in [
            ("toolsListChanged", wants.tools),
            ("promptsListChanged", wants.prompts),
            ("resourcesListChanged", wants.resources),
        ] {
            if on {
                notifications.insert(key.into(), true.into());
            }
        }
        if !uris.is_empty() {
            notifications.insert("resourceSubscriptions".into(), uris.into());
        }
        if !notifications.is_empty() {
            engine
                .listeners
                .subscription(scope.outlet, self.open_requests(), id, wants);
        }
        let params = serde_json::json!({
            "notifications": notifications,
            "_meta": {SUBSCRIPTION_ID: id},
        });
        Ok(Reply::Stream(jsonrpc::notification_line(
            "notifications/subscriptions/acknowledged",
            &params,
        )))
    }
}

fn list(
    id: &RawValue,
    engine: &Engine,
    version: ProtocolVersion,
    params: &Params<'_>,
    scope: RequestScope<'_>,
) -> Result<Reply, ProtocolError> {
    let registry = engine.registry();
    let page = engine
        .tool_page(
            &registry,
            version,
            params.cursor.as_deref(),
            &scope.caller(),
        )
        .ok_or_else(|| {
            ProtocolError::invalid_params("unknown `cursor`; start again without one")
        })?;
    Ok(Reply::Now(jsonrpc::result_line_sized(
        id,
        &*page,
        page.get().len(),
    )))
}
