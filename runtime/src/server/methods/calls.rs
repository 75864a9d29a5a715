//! `tools/call`: find the tool, admit the call, open its record, and hand it to the transport
//! to run; how a call of a tool that asks will ask.
//!
//! Policy: an unknown tool, a missing `name` or non-object `arguments` is `-32602`; a call
//! beyond the server's cap is refused at once with `-32603`, never queued; an id already in
//! flight is refused with `-32600`. The id is free again as soon as the answer is ready, since
//! a client may reuse it for its very next request.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::call::auth::Auth;
use crate::call::client::ClientSource;
use crate::call::context::Context;
use crate::call::gate::Gate;
use crate::call::record::{CallRecord, TaskSlot};
use crate::call::span::CallSpan;
use crate::call::state::States;
use crate::call::to_client::Asking;
use crate::call::to_client::form::Forms;
use crate::item::handler::Invocation;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::meta::Meta;
use crate::protocol::params::Params;
use crate::protocol::quote::quoted;
use crate::protocol::{Era, Level, ProtocolVersion};
use crate::run::call::Call;
use crate::run::inflight::Admitted;
use crate::run::served::ServedTool;
use crate::run::tool_call::ToolCall;
use crate::run::workers::Threads;
use crate::server::batch::Batch;
use crate::server::delivery::Delivery;
use crate::server::registry::Registry;
use crate::server::reply::{Later, Reply, id_in_use, log_level};
use crate::server::session::{RequestScope, Session};
use crate::tools::binding::Arguments;

/// The request a call (of a tool, a prompt or a resource) is opened for.
pub(crate) struct Request<'a> {
    pub(crate) id: &'a RawValue,
    pub(crate) version: ProtocolVersion,
    pub(crate) params: &'a Params<'a>,
    pub(crate) meta: &'a Meta<'a>,
    pub(crate) scope: RequestScope<'a>,
}

impl Session {
    /// A `tools/call`: find → admit → open → run (the transport starts the call it returns).
    pub(crate) fn call(
        &self,
        id: &RawValue,
        version: ProtocolVersion,
        params: &Params<'_>,
        meta: &Meta<'_>,
        scope: RequestScope<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let registry = self.engine.registry();
        let (tool, arguments) = self.find(&registry, params, scope)?;
        let (threads, admitted) = self.admit()?;
        let request = Request {
            id,
            version,
            params,
            meta,
            scope,
        };
        let record = self.open(&request, &tool, &registry)?;
        let engine = &self.engine;
        let (middleware, depth) = engine.chain_for(&tool);
        Ok(Reply::Later(Later::Tool(Call {
            tool_call: ToolCall {
                invocation: Invocation {
                    arguments,
                    context: Context(record),
                    instance: tool.held.instance.clone(),
                },
                tool,
                threads,
                depth,
            },
            finish: Delivery {
                engine: Arc::clone(engine),
                open: self.call_ids(),
                batch: batch.cloned(),
                _admitted: Some(admitted),
            },
            middleware,
        })))
    }

    /// The tool the call names, if the caller may see it, and the call's arguments, bound as
    /// that tool binds them.
    fn find(
        &self,
        registry: &Registry,
        params: &Params<'_>,
        scope: RequestScope<'_>,
    ) -> Result<(Arc<ServedTool>, Arguments), ProtocolError> {
        let engine = &self.engine;
        let name = params
            .name
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `name`"))?;
        // A tool the caller may not see is as unknown as one that does not exist.
        let caller = scope.caller();
        let tool = match registry.find(name) {
            Some(tool) if engine.visible(&tool.spec, &caller) => tool,
            Some(tool) => {
                let unknown = ProtocolError::unknown_tool(name);
                return Err(engine.hidden(tool.spec.info(), &caller, unknown));
            }
            None => return Err(ProtocolError::unknown_tool(name)),
        };
        // Arguments a request also carries outside its message (a 2026-07-28 HTTP request's
        // `Mcp-Param-*` headers) must agree with it.
        if !tool.compiled.headers.is_empty() {
            scope
                .outlet
                .mirrors(&tool.compiled.headers, params.arguments)
                .map_err(ProtocolError::header_mismatch)?;
        }
        let arguments = match params.arguments.filter(|a| a.get() != "null") {
            Some(a) if !a.get().starts_with('{') => {
                return Err(ProtocolError::invalid_params(
                    "`arguments` must be an object",
                ));
            }
            a => Arguments::new(a.map(RawValue::to_owned))
                .constrained(tool.compiled.constraints.clone())
                .ignoring_unknown(tool.compiled.known_arguments.clone())
                .decoding(
                    (engine.decode_string_arguments)
                        .then(|| Arc::clone(&tool.compiled.input_schema)),
                ),
        };
        Ok((Arc::clone(tool), arguments))
    }

    /// The threads tools run on, started by the first call.
    pub(crate) fn threads(&self) -> Result<Arc<Threads>, ProtocolError> {
        let threads = self.engine.workers.get().map_err(|e| {
            ProtocolError::internal(format_args!("cannot start the threads tools run on: {e}"))
        })?;
        Ok(Arc::clone(threads))
    }

    /// Admits one more call: the threads tools run on (started by the first call), and a place
    /// under the server's cap.
    pub(crate) fn admit(&self) -> Result<(Arc<Threads>, Admitted), ProtocolError> {
        let engine = &self.engine;
        let threads = self.threads()?;
        let limit = engine.limits.max_in_flight;
        let admitted = engine.in_flight.try_enter(limit).ok_or_else(|| {
            ProtocolError::internal(format_args!(
                "{limit} calls are already running, the most this server runs at once; retry \
                 when one has finished"
            ))
        })?;
        Ok((threads, admitted))
    }

    /// Opens the call's record and registers its id, which must not be in flight.
    fn open(
        &self,
        request: &Request<'_>,
        tool: &ServedTool,
        registry: &Registry,
    ) -> Result<Arc<CallRecord>, ProtocolError> {
        let task = self.task_slot(
            request.version,
            request.params,
            request.meta,
            request.scope,
            tool,
        )?;
        let asking = match tool.held.needs.asks {
            true => {
                let arguments = round_arguments(request.params);
                let forms = Arc::clone(&registry.forms);
                let asking = self.asking(request, &tool.spec.header.name, arguments, forms)?;
                Some(Box::new(asking))
            }
            false => None,
        };
        let states = Arc::clone(&tool.held.states);
        self.open_record(
            request,
            tool.spec.header.name.clone(),
            states,
            asking,
            None,
            task,
        )
    }

    /// Opens the record of a request answered once a function has run (a tool's, a prompt's,
    /// a resource's, named `name`, taking `states`, reading `resource_uri`; `task` for a call
    /// that may become a task) and registers its id, which must not be in flight.
    pub(crate) fn open_record(
        &self,
        request: &Request<'_>,
        name: Cow<'static, str>,
        states: Arc<States>,
        asking: Option<Box<Asking>>,
        resource_uri: Option<Box<str>>,
        task: Option<Box<TaskSlot>>,
    ) -> Result<Arc<CallRecord>, ProtocolError> {
        let &Request {
            id,
            version,
            params,
            meta,
            scope,
        } = request;
        let (client, log_threshold) = self.client_of(version, meta)?;
        let record = Arc::new(CallRecord {
            id: id.to_owned(),
            key: IdKey::of(id),
            version,
            meta: params.read_meta().flatten().map(Meta::keep),
            client,
            name,
            progress_token: meta.progress_token.map(RawValue::to_owned),
            log_threshold,
            outlet: scope.outlet.clone(),
            states,
            gate: Gate::default(),
            asking,
            span: CallSpan::new(scope.span),
            resource_uri,
            session_id: match version.era() {
                Era::Legacy => self.id.clone(),
                Era::Modern => None,
            },
            task,
        });
        if !self.single_request() && !self.open_requests().insert(&record) {
            return Err(id_in_use(id));
        }
        Ok(record)
    }

    /// Where the call's client is described, and the least severe log message it wants.
    fn client_of(
        &self,
        version: ProtocolVersion,
        meta: &Meta<'_>,
    ) -> Result<(ClientSource, Option<Level>), ProtocolError> {
        Ok(match version.era() {
            Era::Modern => (
                ClientSource::Request(OnceLock::new()),
                meta.log_level
                    .as_deref()
                    .map(|l| log_level(Some(l)))
                    .transpose()?,
            ),
            Era::Legacy => (
                ClientSource::Session(Arc::clone(
                    &self
                        .handshake
                        .get()
                        .expect("a legacy call follows initialize")
                        .client,
                )),
                Some(*self.log_level().lock().unwrap_or_else(|e| e.into_inner())),
            ),
        })
    }
}

impl Session {
    /// How a request of an item that asks will ask: requests through this session's peer,
    /// or, on 2026-07-28, answers from the client's retry and the sealed state of earlier
    /// rounds, bound to `target` (the item) and `arguments`.
    pub(crate) fn asking(
        &self,
        request: &Request<'_>,
        target: &str,
        arguments: Value,
        forms: Arc<Forms>,
    ) -> Result<Asking, ProtocolError> {
        let (version, params) = (request.version, request.params);
        let engine = &self.engine;
        if version.era() == Era::Legacy {
            let peer = Arc::clone(self.peer());
            let roots = Arc::clone(self.roots.get_or_init(Arc::default));
            return Ok(Asking::requests(forms, peer, engine.ask_timeout, roots));
        }
        let mut answers = match params.request_state {
            None => Map::new(),
            Some(state) => {
                let refused = |reason: &str| {
                    ProtocolError::invalid_params(format_args!(
                        "the requestState is refused: {reason}"
                    ))
                    .with_data(json!({"reason": "invalid_request_state"}))
                };
                let state: String =
                    serde_json::from_str(state.get()).map_err(|_| refused("it is not a string"))?;
                let caller = request
                    .scope
                    .outlet
                    .extensions()
                    .and_then(|e| e.get::<Auth>());
                engine
                    .sealer
                    .open(&state, target, &arguments, caller.map(Auth::subject))
                    .map_err(|why| refused(why.reason()))?
            }
        };
        if let Some(responses) = params.input_responses {
            let responses: Map<String, Value> = serde_json::from_str(responses.get())
                .map_err(|_| ProtocolError::invalid_params("`inputResponses` must be an object"))?;
            for (key, response) in responses {
                if !response.is_object() {
                    let message =
                        format!("`inputResponses.{}` must be a result object", quoted(&key));
                    return Err(ProtocolError::invalid_params(message));
                }
                answers.insert(key, response);
            }
        }
        Ok(Asking::rounds(forms, answers, target.into(), arguments))
    }
}

/// A call's arguments as a round's state is bound to them: an object (empty when the client
/// sent none).
pub(crate) fn round_arguments(params: &Params<'_>) -> Value {
    params
        .arguments
        .and_then(|a| serde_json::from_str(a.get()).ok())
        .filter(|a: &Value| !a.is_null())
        .unwrap_or_else(|| Value::Object(Map::new()))
}
