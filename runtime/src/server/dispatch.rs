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

use crate::call::context::Client;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{
    self, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RpcError, UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::protocol::params::{Meta, Params, SUBSCRIPTION_ID};
use crate::protocol::wire;
use crate::protocol::{Era, Level, ProtocolVersion};
use crate::server::batch::Batch;
use crate::server::session::{Answer, Handshake, Session, Via, id_in_use};

impl Session {
    pub(crate) fn request(
        &self,
        id: &RawValue,
        method: &str,
        params: &Params<'_>,
        via: Via<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Answer, RpcError> {
        let meta: Meta<'_> = match params.meta {
            Some(meta) => {
                Meta::parse(meta).ok_or_else(|| invalid_params("`_meta` must be an object"))?
            }
            None => Meta::default(),
        };
        if let Some(version) = meta.protocol_version {
            if batch.is_some() {
                return Err(RpcError::new(
                    INVALID_REQUEST,
                    "Invalid Request: a 2026-07-28 request cannot be part of a batch",
                ));
            }
            return self.stateless(id, method, params, &meta, version, via);
        }
        if let Some(handshake) = self.handshake.get() {
            via.span.revision(handshake.version);
        }
        let service = &self.service;
        match method {
            "initialize" if batch.is_some() => Err(RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: `initialize` must not be part of a batch",
            )),
            "initialize" => self.initialize(id, params, via),
            "ping" => Ok(Answer::Now(jsonrpc::result_line(
                id,
                &serde_json::json!({}),
            ))),
            "tools/list" => list(id, service, self.session_version()?, params, via),
            "tools/call" => {
                let version = self.session_version()?;
                self.call(id, version, params, &meta, via, batch)
            }
            "logging/setLevel" => {
                self.session_version()?;
                let level = log_level(params.level.as_deref())?;
                *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = level;
                Ok(Answer::Now(jsonrpc::result_line(
                    id,
                    &serde_json::json!({}),
                )))
            }
            _ => Err(method_not_found(method)),
        }
    }

    /// A 2026-07-28 request: everything it needs is in its own `_meta`.
    fn stateless(
        &self,
        id: &RawValue,
        method: &str,
        params: &Params<'_>,
        meta: &Meta<'_>,
        version: &RawValue,
        via: Via<'_>,
    ) -> Result<Answer, RpcError> {
        if meta.client_capabilities.is_none() {
            return Err(invalid_params(
                "`_meta` lacks `io.modelcontextprotocol/clientCapabilities`",
            ));
        }
        let requested: String = serde_json::from_str(version.get()).map_err(|_| {
            invalid_params("`io.modelcontextprotocol/protocolVersion` must be a string")
        })?;
        let version = ProtocolVersion::parse(&requested)
            .filter(|v| v.era() == Era::Modern)
            .ok_or_else(|| unsupported_version(&requested))?;
        via.span.revision(version);
        let service = &self.service;
        match method {
            "server/discover" => {
                let result = wire::discover(
                    &service.info,
                    &service.server_meta,
                    service.cache(),
                    service.changing,
                );
                Ok(Answer::Now(jsonrpc::result_line(id, &result)))
            }
            "tools/list" => list(id, service, version, params, via),
            "tools/call" => self.call(id, version, params, meta, via, None),
            "subscriptions/listen" => self.listen(id, params, via),
            _ => Err(method_not_found(method)),
        }
    }

    fn session_version(&self) -> Result<ProtocolVersion, RpcError> {
        self.handshake.get().map(|h| h.version).ok_or_else(|| {
            RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: the session is not initialized; send `initialize` first",
            )
        })
    }

    fn initialize(
        &self,
        id: &RawValue,
        params: &Params<'_>,
        via: Via<'_>,
    ) -> Result<Answer, RpcError> {
        let requested = params
            .protocol_version
            .as_deref()
            .ok_or_else(|| invalid_params("missing field `protocolVersion`"))?;
        let version = ProtocolVersion::negotiate(requested);
        let handshake = Handshake {
            version,
            client: Arc::new(Client::from_initialize(
                params.client_info,
                params.capabilities,
            )),
        };
        if self.handshake.set(handshake).is_err() {
            return Err(RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: the session is already initialized",
            ));
        }
        let service = &self.service;
        if service.changing {
            service.listeners.session(via.outlet, &self.open);
        }
        let result = wire::initialize(&service.info, version, service.changing);
        Ok(Answer::Now(jsonrpc::result_line(id, &result)))
    }

    /// `subscriptions/listen`: acknowledged with what it will get (`toolsListChanged` when
    /// asked for, from a server whose tools can change); open until cancelled.
    fn listen(&self, id: &RawValue, params: &Params<'_>, via: Via<'_>) -> Result<Answer, RpcError> {
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
        let service = &self.service;
        let tools = wanted.tools_list_changed && service.changing;
        if tools {
            service.listeners.subscription(via.outlet, &self.open, id);
        }
        let notifications = match tools {
            true => serde_json::json!({"toolsListChanged": true}),
            false => serde_json::json!({}),
        };
        let params = serde_json::json!({
            "notifications": notifications,
            "_meta": {SUBSCRIPTION_ID: id},
        });
        Ok(Answer::Stream(jsonrpc::notification_line(
            "notifications/subscriptions/acknowledged",
            &params,
        )))
    }
}

fn list(
    id: &RawValue,
    service: &crate::server::service::Service,
    version: ProtocolVersion,
    params: &Params<'_>,
    via: Via<'_>,
) -> Result<Answer, RpcError> {
    let registry = service.registry();
    let page = service
        .tool_page(&registry, version, params.cursor.as_deref(), via.outlet)
        .ok_or_else(|| invalid_params("unknown `cursor`; start again without one"))?;
    Ok(Answer::Now(jsonrpc::result_line_sized(
        id,
        &*page,
        page.get().len(),
    )))
}

pub(crate) fn log_level(name: Option<&str>) -> Result<Level, RpcError> {
    let name = name.ok_or_else(|| invalid_params("missing field `level`"))?;
    Level::parse(name).ok_or_else(|| {
        invalid_params(&format!(
            "unknown log level `{name}`; expected one of debug, info, notice, warning, error, \
             critical, alert, emergency"
        ))
    })
}

pub(crate) fn invalid_params(message: &str) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: {message}"))
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))
}

fn unsupported_version(requested: &str) -> RpcError {
    let supported: Vec<&str> = ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect();
    RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
        .with_data(serde_json::json!({"supported": supported, "requested": requested}))
}
