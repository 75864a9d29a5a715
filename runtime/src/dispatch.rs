//! One connection's request handling: the reader calls [`Connection::handle_line`] for every
//! line; answers go to the writer, tool calls to the async runtime. The reader never runs tool
//! code, so a slow tool cannot hold up `ping` or other calls.
//!
//! Each request is classified on its own: one whose `params._meta` names a protocol revision is
//! served statelessly under that revision (2026-07-28); any other is served under the revision
//! `initialize` negotiated for the connection.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::binding::without_position;
use crate::call::{Call, IdKey, Registry};
use crate::context::LogTarget;
use crate::context::{CallInfo, ClientInfo, Context, Handshake};
use crate::inflight::InFlight;
use crate::jsonrpc::{
    self, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Message, RpcError,
    UNSUPPORTED_PROTOCOL_VERSION,
};
use crate::log_notify::Level;
use crate::progress::Progress;
use crate::protocol::{Era, ProtocolVersion};
use crate::reply::Reply;
use crate::server::Service;
use crate::tool::{Handler, Invocation};
use crate::workers::Workers;
use crate::{Arguments, wire};

/// Where finished lines go: the writer's queue.
pub(crate) type Outbox = std::sync::mpsc::Sender<Vec<u8>>;

pub(crate) struct Connection {
    service: Arc<Service>,
    /// The revision `initialize` settled on; unset until then.
    version: OnceLock<ProtocolVersion>,
    /// What the client declared in `initialize`.
    handshake: Arc<OnceLock<Handshake>>,
    /// The least severe log message the handshake session wants (`logging/setLevel`).
    log_level: Mutex<Level>,
    outbox: Outbox,
    workers: Workers,
    pub(crate) inflight: Arc<InFlight>,
    calls: Arc<Registry>,
}

/// The params of every method this server serves, borrowed from the line.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Params<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    protocol_version: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    capabilities: Option<&'a RawValue>,
    #[serde(borrow, default)]
    client_info: Option<&'a RawValue>,
    #[serde(borrow, default)]
    cursor: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    level: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<&'a RawValue>,
}

/// The `_meta` keys the server acts on.
#[derive(Deserialize, Default)]
struct Meta<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "progressToken")]
    progress_token: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/logLevel")]
    log_level: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CancelParams<'a> {
    #[serde(borrow)]
    request_id: &'a RawValue,
}

impl Connection {
    pub(crate) fn new(service: Arc<Service>, outbox: Outbox) -> Connection {
        Connection {
            service,
            version: OnceLock::new(),
            handshake: Arc::new(OnceLock::new()),
            log_level: Mutex::new(Level::Info),
            outbox,
            workers: Workers::default(),
            inflight: Arc::new(InFlight::default()),
            calls: Arc::new(Registry::default()),
        }
    }

    fn direct(&self) -> Reply {
        Reply::Direct(self.outbox.clone())
    }

    /// Answers a line that exceeded the size limit (it was skipped, not read).
    pub(crate) fn too_long(&self) {
        let limit = self.service.limits.max_message_size;
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("Invalid Request: message exceeds the {limit}-byte limit"),
        );
        self.direct().send(jsonrpc::error_line(None, &error));
    }

    pub(crate) fn handle_line(&self, line: &[u8]) {
        match jsonrpc::classify(line) {
            Message::Batch => self.batch(line),
            message => self.handle(message, &self.direct(), false),
        }
    }

    fn handle(&self, message: Message<'_>, reply: &Reply, batched: bool) {
        match message {
            Message::Request { id, method, params } => {
                reply.expect();
                // An id in flight cannot be reused: the client could not tell the answers apart.
                // (`tools/call` checks as it registers the call.)
                let in_use = method != "tools/call" && self.calls.contains(&IdKey::of(id));
                let result = match in_use {
                    true => Err(id_in_use(id)),
                    false => self.request(id, &method, params, reply, batched),
                };
                if let Err(error) = result {
                    reply.send(jsonrpc::error_line(Some(id), &error));
                }
            }
            Message::Notification { method, params } => self.notification(&method, params),
            Message::Response => {}
            Message::Batch => {
                reply.expect();
                let error = RpcError::new(INVALID_REQUEST, "Invalid Request: batches do not nest");
                reply.send(jsonrpc::error_line(None, &error));
            }
            Message::Invalid { id, error } => {
                reply.expect();
                reply.send(jsonrpc::error_line(id, &error));
            }
        }
    }

    /// A JSON array of messages: accepted only in a 2025-03-26 session, the one revision that
    /// has batches. Each element is handled as if it came alone, and the answers leave together.
    fn batch(&self, line: &[u8]) {
        let reject = |message: &str| {
            let error = RpcError::new(INVALID_REQUEST, format!("Invalid Request: {message}"));
            self.direct().send(jsonrpc::error_line(None, &error));
        };
        if self.version.get() != Some(&ProtocolVersion::V2025_03_26) {
            return reject("batches are accepted only in a session of protocol 2025-03-26");
        }
        let elements: Vec<&RawValue> = match serde_json::from_slice(line) {
            Ok(elements) => elements,
            Err(_) => return reject("a batch must be an array of messages"),
        };
        if elements.is_empty() {
            return reject("a batch must not be empty");
        }
        let reply = Reply::batch(self.outbox.clone());
        for element in elements {
            self.handle(jsonrpc::classify(element.get().as_bytes()), &reply, true);
        }
        reply.close();
    }

    /// Notifications are never answered; malformed ones are ignored, as the specification asks.
    fn notification(&self, method: &str, params: Option<&RawValue>) {
        if method == "notifications/cancelled"
            && let Some(Ok(params)) =
                params.map(|p| serde_json::from_str::<CancelParams<'_>>(p.get()))
        {
            self.calls.cancel(&IdKey::of(params.request_id));
        }
    }

    fn request(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        reply: &Reply,
        batched: bool,
    ) -> Result<(), RpcError> {
        let params: Params<'_> = parse(params)?;
        let meta: Meta<'_> = match params.meta {
            Some(meta) => serde_json::from_str(meta.get())
                .map_err(|_| invalid_params("`_meta` must be an object"))?,
            None => Meta::default(),
        };
        if let Some(version) = meta.protocol_version {
            if batched {
                return Err(RpcError::new(
                    INVALID_REQUEST,
                    "Invalid Request: a 2026-07-28 request cannot be part of a batch",
                ));
            }
            return self.stateless(id, method, &params, &meta, version, reply);
        }
        match method {
            "initialize" if batched => Err(RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: `initialize` must not be part of a batch",
            )),
            "initialize" => self.initialize(id, &params, reply),
            "ping" => {
                reply.send(jsonrpc::result_line(id, &serde_json::json!({})));
                Ok(())
            }
            "tools/list" => self.list(id, self.session_version()?, &params, reply),
            "tools/call" => self.call(id, self.session_version()?, &params, &meta, reply),
            "logging/setLevel" => {
                self.session_version()?;
                let level = log_level(params.level.as_deref())?;
                *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = level;
                reply.send(jsonrpc::result_line(id, &serde_json::json!({})));
                Ok(())
            }
            _ => Err(method_not_found(method)),
        }
    }

    fn list(
        &self,
        id: &RawValue,
        version: ProtocolVersion,
        params: &Params<'_>,
        reply: &Reply,
    ) -> Result<(), RpcError> {
        let page = self
            .service
            .tool_page(version, params.cursor.as_deref())
            .ok_or_else(|| invalid_params("unknown `cursor`; start again without one"))?;
        reply.send(jsonrpc::result_line_sized(id, page, page.get().len()));
        Ok(())
    }

    /// A 2026-07-28 request: everything it needs is in its own `_meta`.
    fn stateless(
        &self,
        id: &RawValue,
        method: &str,
        params: &Params<'_>,
        meta: &Meta<'_>,
        version: &RawValue,
        reply: &Reply,
    ) -> Result<(), RpcError> {
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
        match method {
            "server/discover" => {
                reply.send(jsonrpc::result_line(id, &wire::discover(&self.service)));
                Ok(())
            }
            "tools/list" => self.list(id, version, params, reply),
            "tools/call" => self.call(id, version, params, meta, reply),
            "subscriptions/listen" => self.listen(id),
            _ => Err(method_not_found(method)),
        }
    }

    fn session_version(&self) -> Result<ProtocolVersion, RpcError> {
        self.version.get().copied().ok_or_else(|| {
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
        reply: &Reply,
    ) -> Result<(), RpcError> {
        let requested = params
            .protocol_version
            .as_deref()
            .ok_or_else(|| invalid_params("missing field `protocolVersion`"))?;
        let version = ProtocolVersion::negotiate(requested);
        if self.version.set(version).is_err() {
            return Err(RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: the session is already initialized",
            ));
        }
        let handshake = Handshake {
            info: params
                .client_info
                .and_then(|raw| serde_json::from_str::<ClientInfo>(raw.get()).ok()),
            capabilities: params
                .capabilities
                .and_then(|raw| serde_json::from_str(raw.get()).ok())
                .unwrap_or_else(|| serde_json::Value::Object(Default::default())),
        };
        let _ = self.handshake.set(handshake);
        reply.send(jsonrpc::result_line(
            id,
            &wire::initialize(&self.service, version),
        ));
        Ok(())
    }

    /// `subscriptions/listen`: the tool list never changes, so the stream is acknowledged with
    /// nothing subscribed and stays open, silent, until the client cancels it.
    fn listen(&self, id: &RawValue) -> Result<(), RpcError> {
        if self.calls.open(IdKey::of(id)).is_none() {
            return Err(id_in_use(id));
        }
        let params = serde_json::json!({
            "notifications": {},
            "_meta": {"io.modelcontextprotocol/subscriptionId": id},
        });
        let _ = self.outbox.send(jsonrpc::notification_line(
            "notifications/subscriptions/acknowledged",
            &params,
        ));
        Ok(())
    }

    fn call(
        &self,
        id: &RawValue,
        version: ProtocolVersion,
        params: &Params<'_>,
        meta: &Meta<'_>,
        reply: &Reply,
    ) -> Result<(), RpcError> {
        let name = params
            .name
            .as_deref()
            .ok_or_else(|| invalid_params("missing field `name`"))?;
        let (index, tool) = self
            .service
            .tool(name)
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, format!("Unknown tool: {name}")))?;
        let arguments = match params.arguments.filter(|a| a.get() != "null") {
            Some(a) if !a.get().starts_with('{') => {
                return Err(invalid_params("`arguments` must be an object"));
            }
            a => Arguments::new(a.map(RawValue::to_owned)).constrained(tool.constraints.clone()),
        };
        let workers = self.workers.get().map_err(|e| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("Internal error: cannot start the threads tools run on: {e}"),
            )
        })?;
        let limit = self.service.limits.max_in_flight;
        let guard = self.inflight.try_enter(limit).ok_or_else(|| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("Internal error: {limit} calls are already running, the most this server runs at once; retry when one has finished"),
            )
        })?;
        let key = IdKey::of(id);
        let state = self.calls.open(key.clone()).ok_or_else(|| id_in_use(id))?;
        let progress = Progress::new(
            meta.progress_token.map(RawValue::to_owned),
            version,
            self.outbox.clone(),
            &state,
        );
        let log_threshold = match version.era() {
            Era::Modern => meta
                .log_level
                .as_deref()
                .map(|l| log_level(Some(l)))
                .transpose()?,
            Era::Legacy => Some(*self.log_level.lock().unwrap_or_else(|e| e.into_inner())),
        };

        let context = Context(Arc::new(CallInfo {
            id: id.to_owned(),
            version,
            meta: params.meta.map(RawValue::to_owned),
            handshake: Arc::clone(&self.handshake),
            states: Arc::clone(&self.service.states),
            call: Arc::clone(&state),
            progress,
            log: LogTarget {
                threshold: log_threshold,
                logger: tool.spec.name,
                outbox: self.outbox.clone(),
            },
            modern: OnceLock::new(),
        }));
        let invocation = Invocation {
            arguments,
            context: context.clone(),
            instance: tool.instance.clone(),
        };
        let call = Call {
            service: Arc::clone(&self.service),
            tool: index,
            version,
            request: context,
            reply: reply.clone(),
            state,
            calls: Arc::clone(&self.calls),
            key,
            _guard: guard,
        };
        match tool.spec.handler {
            Handler::Sync(run) => {
                workers
                    .sync_pool
                    .run(move || call.run_sync(run, invocation));
            }
            Handler::Async(run) => {
                workers.runtime().spawn(call.run_async(run, invocation));
            }
        }
        Ok(())
    }
}

fn parse<'a, T: Deserialize<'a> + Default>(params: Option<&'a RawValue>) -> Result<T, RpcError> {
    let Some(params) = params else {
        return Ok(T::default());
    };
    serde_json::from_str(params.get()).map_err(|e| invalid_params(&without_position(&e)))
}

fn log_level(name: Option<&str>) -> Result<Level, RpcError> {
    let name = name.ok_or_else(|| invalid_params("missing field `level`"))?;
    Level::parse(name).ok_or_else(|| {
        invalid_params(&format!(
            "unknown log level `{name}`; expected one of debug, info, notice, warning, error, \
             critical, alert, emergency"
        ))
    })
}

fn invalid_params(message: &str) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: {message}"))
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))
}

fn id_in_use(id: &RawValue) -> RpcError {
    RpcError::new(
        INVALID_REQUEST,
        format!("Invalid Request: id {id} is already in use by a request in flight"),
    )
}

fn unsupported_version(requested: &str) -> RpcError {
    let supported: Vec<&str> = ProtocolVersion::MODERN.iter().map(|v| v.as_str()).collect();
    RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
        .with_data(serde_json::json!({"supported": supported, "requested": requested}))
}
