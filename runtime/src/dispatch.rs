//! One connection's request handling: the reader calls [`Connection::handle_line`] for every
//! line; answers go to the writer, tool calls to the async runtime. The reader never runs tool
//! code, so a slow tool cannot hold up `ping` or other calls.

use std::borrow::Cow;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::inflight::InFlight;
use crate::jsonrpc::{self, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, Message, RpcError};
use crate::log;
use crate::output::{Content, Repr, ToolOutput};
use crate::protocol::ProtocolVersion;
use crate::server::Service;
use crate::tool::{Arguments, Handler};
use crate::wire;

/// Where finished response lines go: the writer's queue.
pub(crate) type Outbox = std::sync::mpsc::Sender<Vec<u8>>;

pub(crate) struct Connection {
    service: Arc<Service>,
    /// The revision `initialize` settled on; unset until then.
    version: OnceLock<ProtocolVersion>,
    outbox: Outbox,
    runtime: tokio::runtime::Handle,
    pub(crate) inflight: Arc<InFlight>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeParams<'a> {
    #[serde(borrow)]
    protocol_version: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

impl Connection {
    pub(crate) fn new(
        service: Arc<Service>,
        outbox: Outbox,
        runtime: tokio::runtime::Handle,
    ) -> Connection {
        Connection {
            service,
            version: OnceLock::new(),
            outbox,
            runtime,
            inflight: Arc::new(InFlight::default()),
        }
    }

    fn send(&self, line: Vec<u8>) {
        // A closed writer means the client is gone; there is no one left to tell.
        let _ = self.outbox.send(line);
    }

    /// Answers a line that exceeded the size limit (it was skipped, not read).
    pub(crate) fn too_long(&self) {
        let limit = self.service.limits.max_message_size;
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("Invalid Request: message exceeds the {limit}-byte limit"),
        );
        self.send(jsonrpc::error_line(None, &error));
    }

    pub(crate) fn handle_line(&self, line: &[u8]) {
        match jsonrpc::classify(line) {
            Message::Request { id, method, params } => {
                if let Err(error) = self.request(id, &method, params) {
                    self.send(jsonrpc::error_line(Some(id), &error));
                }
            }
            // `notifications/initialized` needs no action; unknown ones are dropped unanswered.
            Message::Notification { .. } | Message::Response => {}
            Message::Batch => self.send(jsonrpc::error_line(
                None,
                &RpcError::new(
                    INVALID_REQUEST,
                    "Invalid Request: batches are not supported",
                ),
            )),
            Message::Invalid { id, error } => self.send(jsonrpc::error_line(id, &error)),
        }
    }

    fn request(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
    ) -> Result<(), RpcError> {
        match method {
            "initialize" => self.initialize(id, params),
            "ping" => {
                self.send(jsonrpc::result_line(id, &serde_json::json!({})));
                Ok(())
            }
            "tools/list" => {
                let version = self.session_version()?;
                self.send(jsonrpc::result_line(id, self.service.tool_list(version)));
                Ok(())
            }
            "tools/call" => self.call(id, params),
            _ => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
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

    fn initialize(&self, id: &RawValue, params: Option<&RawValue>) -> Result<(), RpcError> {
        let params: InitializeParams<'_> = parse_params(params)?;
        let version = ProtocolVersion::negotiate(&params.protocol_version);
        if self.version.set(version).is_err() {
            return Err(RpcError::new(
                INVALID_REQUEST,
                "Invalid Request: the session is already initialized",
            ));
        }
        let result = wire::initialize(&self.service, version);
        self.send(jsonrpc::result_line(id, &result));
        Ok(())
    }

    fn call(&self, id: &RawValue, params: Option<&RawValue>) -> Result<(), RpcError> {
        let version = self.session_version()?;
        let params: CallParams<'_> = parse_params(params)?;
        let Some(tool) = self.service.tool(&params.name) else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("Unknown tool: {}", params.name),
            ));
        };
        let arguments = match params.arguments.filter(|a| a.get() != "null") {
            Some(a) if !a.get().starts_with('{') => {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: `arguments` must be an object",
                ));
            }
            a => Arguments::new(a.map(RawValue::to_owned)),
        };
        let call = Call {
            service: Arc::clone(&self.service),
            tool: tool.spec.name,
            version,
            id: id.to_owned(),
            outbox: self.outbox.clone(),
            _guard: self.inflight.enter(),
        };
        match tool.spec.handler {
            Handler::Sync(run) => {
                self.runtime.spawn_blocking(move || {
                    let output = catch_unwind(AssertUnwindSafe(|| run(arguments)));
                    call.finish(output.unwrap_or_else(|p| panicked(&*p)));
                });
            }
            Handler::Async(run) => {
                self.runtime.spawn(async move {
                    let output = CatchUnwind(run(arguments)).await;
                    call.finish(output);
                });
            }
        }
        Ok(())
    }
}

fn parse_params<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, RpcError> {
    let json = params.map_or("{}", RawValue::get);
    serde_json::from_str(json).map_err(|e| {
        let text = e.to_string();
        let message = text.rfind(" at line ").map_or(&*text, |at| &text[..at]);
        RpcError::new(INVALID_PARAMS, format!("Invalid params: {message}"))
    })
}

/// A call in flight: everything needed to answer it once the tool is done.
struct Call {
    service: Arc<Service>,
    tool: &'static str,
    version: ProtocolVersion,
    id: Box<RawValue>,
    outbox: Outbox,
    _guard: crate::inflight::Guard,
}

impl Call {
    fn finish(self, output: ToolOutput) {
        let line = self.render(output);
        let _ = self.outbox.send(line);
    }

    fn render(&self, output: ToolOutput) -> Vec<u8> {
        let (content, structured, is_error) = match output.repr {
            Repr::Result {
                content,
                structured,
                is_error,
            } => (content, structured, is_error),
            Repr::InvalidArguments(message) => {
                if !self.version.invalid_arguments_are_tool_errors() {
                    let error = RpcError::new(INVALID_PARAMS, message);
                    return jsonrpc::error_line(Some(&self.id), &error);
                }
                (vec![Content::text(message)], None, true)
            }
            Repr::Internal(detail) => {
                let reference = log::next_reference();
                log::error(format_args!(
                    "tool `{}` failed (ref {reference}): {detail}",
                    self.tool
                ));
                let message = if self.service.limits.expose_internal_errors {
                    format!("internal error (ref {reference}): {detail}")
                } else {
                    format!("internal error (ref {reference})")
                };
                (vec![Content::text(message)], None, true)
            }
        };
        // Structured content goes out exactly when this revision advertised an output schema.
        let advertised = self.version.has_structured_output()
            && self
                .service
                .tool(self.tool)
                .is_some_and(|t| t.object_output_schema().is_some());
        let result = wire::CallToolResult {
            content: &content,
            structured_content: structured.as_deref().filter(|_| advertised && !is_error),
            is_error,
        };
        jsonrpc::result_line(&self.id, &result)
    }
}

fn panicked(payload: &(dyn std::any::Any + Send)) -> ToolOutput {
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic with a non-string payload");
    ToolOutput::internal(format!("panicked: {message}"))
}

/// Turns a panic inside a tool's future into an internal-error result.
struct CatchUnwind(crate::tool::BoxFuture);

impl Future for CatchUnwind {
    type Output = ToolOutput;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolOutput> {
        let future = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| future.poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(panicked(&*payload)),
        }
    }
}
