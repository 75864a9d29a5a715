//! `tools/call`: finding the tool, opening the call's record, and what becomes of its output.
//!
//! Policy: an unknown tool, a missing `name` or non-object `arguments` is `-32602`; a call
//! beyond the server's cap is refused at once with `-32603`, never queued; an id already in
//! flight is refused with `-32600`. The id is free again as soon as the answer is ready, since
//! a client may reuse it for its very next request.

use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::call::ask::asking::Asking;
use crate::call::context::{ClientSource, Context};
use crate::call::inflight::{Guard, Open};
use crate::call::record::{CallRecord, CallState};
use crate::call::run::{Call, Finish};
use crate::call::span::{CallSpan, Outcome};
use crate::call::spec::Invocation;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError,
};
use crate::protocol::params::{Meta, Params};
use crate::protocol::{Era, ProtocolVersion};
use crate::server::batch::Batch;
use crate::server::dispatch::{invalid_params, log_level};
use crate::server::registry::{Entry, Registry};
use crate::server::service::Service;
use crate::server::session::{Answer, Session, Via, id_in_use};
use crate::tools::ToolOutput;
use crate::tools::binding::Arguments;
use crate::tools::output::Repr;
use crate::tools::render::{self, Renderer};

impl Session {
    pub(crate) fn call(
        &self,
        id: &RawValue,
        version: ProtocolVersion,
        params: &Params<'_>,
        meta: &Meta<'_>,
        via: Via<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Answer, RpcError> {
        let service = &self.service;
        let name = params
            .name
            .as_deref()
            .ok_or_else(|| invalid_params("missing field `name`"))?;
        // A tool the caller may not see is as unknown as one that does not exist.
        let registry = service.registry();
        let tool = registry
            .find(name)
            .filter(|tool| service.visible(tool.spec, via.outlet))
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, format!("Unknown tool: {name}")))?;
        let arguments = match params.arguments.filter(|a| a.get() != "null") {
            Some(a) if !a.get().starts_with('{') => {
                return Err(invalid_params("`arguments` must be an object"));
            }
            a => Arguments::new(a.map(RawValue::to_owned))
                .constrained(tool.compiled.constraints.clone())
                .ignoring_unknown(tool.compiled.known_arguments.clone())
                .decoding(
                    (service.decode_string_arguments)
                        .then(|| Arc::clone(&tool.compiled.input_schema)),
                ),
        };
        let workers = service.workers.get().map_err(|e| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("Internal error: cannot start the threads tools run on: {e}"),
            )
        })?;
        let limit = service.limits.max_in_flight;
        let guard = service.in_flight.try_enter(limit).ok_or_else(|| {
            RpcError::new(
                INTERNAL_ERROR,
                format!(
                    "Internal error: {limit} calls are already running, the most this server \
                     runs at once; retry when one has finished"
                ),
            )
        })?;
        let (client, log_threshold) = match version.era() {
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
                Some(*self.log_level.lock().unwrap_or_else(|e| e.into_inner())),
            ),
        };
        let asking = match tool.asks {
            true => Some(Box::new(self.asking(version, name, params, &registry)?)),
            false => None,
        };
        let record = Arc::new(CallRecord {
            id: id.to_owned(),
            key: IdKey::of(id),
            version,
            meta: params.meta.map(RawValue::to_owned),
            client,
            spec: tool.spec,
            progress_token: meta.progress_token.map(RawValue::to_owned),
            log_threshold,
            outlet: via.outlet.clone(),
            states: Arc::clone(&service.states),
            instance: tool.instance.clone(),
            state: CallState::default(),
            asking,
            span: CallSpan::new(via.span),
        });
        if !self.open.insert(&record) {
            return Err(id_in_use(id));
        }
        Ok(Answer::Later(Call {
            invocation: Invocation {
                arguments,
                context: Context(Arc::clone(&record)),
            },
            record,
            handler: tool.spec.handler,
            finish: Finisher {
                service: Arc::clone(service),
                tool: Arc::clone(tool),
                open: Arc::clone(&self.open),
                batch: batch.cloned(),
                _guard: guard,
            },
            workers: Arc::clone(workers),
            pace: Arc::clone(&tool.pace),
            middleware: service.middleware.clone(),
        }))
    }
}

impl Session {
    /// How a call of a tool that asks will ask: requests through this session's peer, or, on
    /// 2026-07-28, answers from the client's retry and the sealed state of earlier rounds.
    fn asking(
        &self,
        version: ProtocolVersion,
        tool: &str,
        params: &Params<'_>,
        registry: &Registry,
    ) -> Result<Asking, RpcError> {
        let service = &self.service;
        let forms = Arc::clone(&registry.forms);
        if version.era() == Era::Legacy {
            let peer = Arc::clone(&self.peer);
            let roots = Arc::clone(self.roots.get_or_init(Arc::default));
            return Ok(Asking::requests(forms, peer, service.ask_timeout, roots));
        }
        let arguments: Value = params
            .arguments
            .and_then(|a| serde_json::from_str(a.get()).ok())
            .filter(|a: &Value| !a.is_null())
            .unwrap_or_else(|| Value::Object(Map::new()));
        let mut answers = match params.request_state {
            None => Map::new(),
            Some(state) => {
                let refused = |reason: &str| {
                    RpcError::new(
                        INVALID_PARAMS,
                        format!("Invalid params: the requestState is refused: {reason}"),
                    )
                    .with_data(json!({"reason": "invalid_request_state"}))
                };
                let state: String =
                    serde_json::from_str(state.get()).map_err(|_| refused("it is not a string"))?;
                service
                    .sealer
                    .open(&state, tool, &arguments)
                    .map_err(|why| refused(why.reason()))?
            }
        };
        if let Some(responses) = params.input_responses {
            let responses: Map<String, Value> = serde_json::from_str(responses.get())
                .map_err(|_| invalid_params("`inputResponses` must be an object"))?;
            for (key, response) in responses {
                if !response.is_object() {
                    let message = format!("`inputResponses.{key}` must be a result object");
                    return Err(invalid_params(&message));
                }
                answers.insert(key, response);
            }
        }
        Ok(Asking::rounds(forms, answers, arguments))
    }
}

/// Shapes a call's output for its revision and delivers it, unless the call was cancelled:
/// through the call's outlet, or into its batch.
pub(crate) struct Finisher {
    service: Arc<Service>,
    /// The tool, as served when the call began.
    tool: Arc<Entry>,
    open: Arc<Open>,
    batch: Option<Arc<Batch>>,
    /// Counts the call in flight until its answer is delivered.
    _guard: Guard,
}

impl Finish for Finisher {
    fn finish(self, record: &CallRecord, output: ToolOutput) {
        // A masked error's event belongs to the call's span. The span closes when this
        // function's locals drop, before the call stops counting as in flight (`self`).
        let span = record.span.take();
        let _in_span = span.span().enter();
        let outcome = outcome(&output, record.version);
        let tool = &self.tool;
        let renderer = Renderer {
            tool: &tool.compiled,
            name: tool.spec.name,
            expose_internal_errors: self.service.expose_internal_errors,
            server_meta: &self.service.server_meta,
        };
        let line = match output.into_input_required() {
            Ok(input) => {
                let state = self.service.sealer.seal(
                    tool.spec.name,
                    record.asking().arguments(),
                    input.answers,
                );
                let server_meta = &self.service.server_meta;
                render::input_required(server_meta, &record.id, &input.requests, &state)
            }
            Err(output) => render::call_result(&renderer, record.version, &record.id, output),
        };
        // The id is free again as soon as the client can read the answer.
        self.open.remove(&record.key);
        let mut line = Some(line);
        // The span ends before the client can read the answer (and follow up on it).
        let sent = record.finish(|| {
            span.end(outcome);
            match &self.batch {
                Some(batch) => batch.deliver(line.take()),
                None => record.outlet.finish(line.take()),
            }
        });
        if !sent {
            span.end(Outcome::Cancelled);
            match &self.batch {
                Some(batch) => batch.deliver(None),
                None => record.outlet.finish(None),
            }
        }
    }
}

/// How a call's output ends its request, as its span records it.
fn outcome(output: &ToolOutput, version: ProtocolVersion) -> Outcome {
    match &output.repr {
        Repr::Result { is_error, .. } if !is_error => Outcome::Ok,
        Repr::InvalidArguments(_) if !version.invalid_arguments_are_tool_errors() => {
            Outcome::Error(INVALID_PARAMS)
        }
        Repr::MissingCapability { .. } if version.era() == Era::Modern => {
            Outcome::Error(MISSING_CLIENT_CAPABILITY)
        }
        Repr::InputRequired(_) => Outcome::InputRequired,
        _ => Outcome::ToolError,
    }
}
