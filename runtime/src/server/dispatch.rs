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
//! - `subscriptions/listen` is acknowledged with `toolsListChanged` when the client asks for it
//!   and the server's tools can change (nothing otherwise), and stays open until the client
//!   cancels it.
//! - `logging/setLevel` sets the session's level (`info` until then, the specification lets the
//!   server choose); a 2026-07-28 request gets log messages only when its `_meta` names a level.

use std::sync::Arc;

use serde_json::value::RawValue;

use crate::call::client::DeclaredClient;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::params::{Meta, Params, SUBSCRIPTION_ID};
use crate::protocol::wire;
use crate::protocol::{Era, ProtocolVersion};
use crate::server::batch::Batch;
use crate::server::engine::Engine;
use crate::server::reply::{Reply, id_in_use, log_level};
use crate::server::session::{Handshake, RequestScope, Session};

impl Session {
    pub(crate) fn request(
        &self,
        id: &RawValue,
        method: &str,
        params: &Params<'_>,
        scope: RequestScope<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let meta: Meta<'_> = match params.meta {
            Some(meta) => Meta::parse(meta)
                .ok_or_else(|| ProtocolError::invalid_params("`_meta` must be an object"))?,
            None => Meta::default(),
        };
        if meta.protocol_version.is_some() {
            if batch.is_some() {
                return Err(ProtocolError::invalid_request(
                    "a 2026-07-28 request cannot be part of a batch",
                ));
            }
            return self.stateless(id, method, params, &meta, scope);
        }
        if let Some(handshake) = self.handshake.get() {
            scope.span.revision(handshake.version);
        }
        let engine = &self.engine;
        match method {
            "initialize" if batch.is_some() => Err(ProtocolError::invalid_request(
                "`initialize` must not be part of a batch",
            )),
            "initialize" => self.initialize(id, params, scope),
            "ping" => Ok(Reply::Now(jsonrpc::result_line(id, &serde_json::json!({})))),
            "tools/list" => list(id, engine, self.version()?, params, scope),
            "tools/call" => {
                let version = self.version()?;
                self.call(id, version, params, &meta, scope, batch)
            }
            "logging/setLevel" => {
                self.version()?;
                let level = log_level(params.level.as_deref())?;
                *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = level;
                Ok(Reply::Now(jsonrpc::result_line(id, &serde_json::json!({}))))
            }
            _ => Err(ProtocolError::method_not_found(method)),
        }
    }

    /// A 2026-07-28 request: everything it needs is in its own `_meta`.
    fn stateless(
        &self,
        id: &RawValue,
        method: &str,
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
        let engine = &self.engine;
        match method {
            "server/discover" => {
                let result = wire::discover(
                    &engine.info,
                    &engine.server_meta,
                    engine.cache(),
                    engine.changing,
                );
                Ok(Reply::Now(jsonrpc::result_line(id, &result)))
            }
            "tools/list" => list(id, engine, version, params, scope),
            "tools/call" => self.call(id, version, params, meta, scope, None),
            "subscriptions/listen" => self.listen(id, params, scope),
            _ => Err(ProtocolError::method_not_found(method)),
        }
    }

    fn initialize(
        &self,
        id: &RawValue,
        params: &Params<'_>,
        scope: RequestScope<'_>,
    ) -> Result<Reply, ProtocolError> {
        let requested = params
            .protocol_version
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `protocolVersion`"))?;
        let version = ProtocolVersion::negotiate(requested);
        let handshake = Handshake {
            version,
            client: Arc::new(DeclaredClient::from_initialize(
                params.client_info,
                params.capabilities,
            )),
        };
        if self.handshake.set(handshake).is_err() {
            return Err(ProtocolError::invalid_request(
                "the session is already initialized",
            ));
        }
        let engine = &self.engine;
        if engine.changing {
            engine.listeners.session(scope.outlet, &self.open);
        }
        let result = wire::initialize(&engine.info, version, engine.changing);
        Ok(Reply::Now(jsonrpc::result_line(id, &result)))
    }

    /// `subscriptions/listen`: acknowledged with what it will get (`toolsListChanged` when
    /// asked for, from a server whose tools can change); open until cancelled.
    fn listen(
        &self,
        id: &RawValue,
        params: &Params<'_>,
        scope: RequestScope<'_>,
    ) -> Result<Reply, ProtocolError> {
        if !self.open.insert_stream(IdKey::of(id)) {
            return Err(id_in_use(id));
        }
        #[derive(serde::Deserialize, Default)]
        #[serde(rename_all = "camelCase")]
        struct Wanted {
            #[serde(default)]
            tools_list_changed: bool,
        }
        let wanted: Wanted = params
            .notifications
            .and_then(|n| serde_json::from_str(n.get()).ok())
            .unwrap_or_default();
        let engine = &self.engine;
        let tools = wanted.tools_list_changed && engine.changing;
        if tools {
            engine.listeners.subscription(scope.outlet, &self.open, id);
        }
        let notifications = match tools {
            true => serde_json::json!({"toolsListChanged": true}),
            false => serde_json::json!({}),
        };
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
        .tool_page(&registry, version, params.cursor.as_deref(), scope.outlet)
        .ok_or_else(|| {
            ProtocolError::invalid_params("unknown `cursor`; start again without one")
        })?;
    Ok(Reply::Now(jsonrpc::result_line_sized(
        id,
        &*page,
        page.get().len(),
    )))
}
