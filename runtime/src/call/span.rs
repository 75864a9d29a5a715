//! The `tracing` span of one request: `mcp.request`, open from the moment the request is read
//! until its answer is ready (for `tools/call`, while the tool runs, so that the tool's own
//! spans and events are its children).
//!
//! Field names follow OpenTelemetry's semantic conventions for MCP where they have one
//! (`mcp.method.name`, `mcp.protocol.version`, `jsonrpc.request.id`, `gen_ai.tool.name`,
//! `network.transport`); `otel.name` is the span's name for an exporter (`tools/call add`),
//! `outcome` says how the request ended (`ok`, `tool_error`, `input_required`, `error`,
//! `cancelled`), `error.code` is the JSON-RPC code of an error answer, and `duration_ms` the
//! time from reading the request to its answer.
//!
//! With no subscriber interested, the span is disabled: creating it is one relaxed atomic load,
//! and nothing else here does any work.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use serde_json::value::RawValue;
use tracing::field::Empty;

use crate::protocol::ProtocolVersion;
use crate::protocol::code::ErrorCode;
use crate::protocol::method::Target;

/// One request's span and when it began.
#[derive(Clone)]
pub(crate) struct RequestSpan {
    span: tracing::Span,
    /// `None` when the span is disabled.
    started: Option<Instant>,
}

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A result.
    Ok,
    /// A tool's result with `isError: true`.
    ToolError,
    /// A 2026-07-28 round that ended on asks (`input_required`).
    InputRequired,
    /// A JSON-RPC error, with its code.
    Error(ErrorCode),
    /// Cancelled by the client: no answer.
    Cancelled,
}

impl RequestSpan {
    /// The span of a request for `method` with `id`, read by `transport`; of a call of `tool`
    /// for `tools/call`.
    #[inline]
    /// A request's span, named by its method and what it targets.
    pub(crate) fn start(
        method: &str,
        target: Target<'_>,
        id: &RawValue,
        transport: &'static str,
    ) -> RequestSpan {
        let tool = match target {
            Target::Tool(name) => Some(name),
            _ => None,
        };
        let span = tracing::info_span!(
            target: "toolwright",
            "mcp.request",
            otel.name = Empty,
            otel.kind = "server",
            otel.status_code = Empty,
            mcp.method.name = method,
            jsonrpc.request.id = id.get(),
            mcp.protocol.version = Empty,
            gen_ai.tool.name = tool,
            gen_ai.prompt.name = Empty,
            mcp.resource.uri = Empty,
            network.transport = transport,
            outcome = Empty,
            error.code = Empty,
            duration_ms = Empty,
        );
        let started = (!span.is_disabled()).then(|| {
            // A `str`, and now: exporters take the name only so, and before the span starts.
            match target {
                Target::Tool(name) | Target::Prompt(name) | Target::Uri(name) => {
                    span.record("otel.name", format!("{method} {name}").as_str())
                }
                Target::Task(_) | Target::None => span.record("otel.name", method),
            };
            match target {
                Target::Prompt(name) => span.record("gen_ai.prompt.name", name),
                Target::Uri(uri) => span.record("mcp.resource.uri", uri),
                _ => &span,
            };
            Instant::now()
        });
        RequestSpan { span, started }
    }

    /// A span that records nothing.
    pub(crate) fn none() -> RequestSpan {
        RequestSpan {
            span: tracing::Span::none(),
            started: None,
        }
    }

    pub(crate) fn span(&self) -> &tracing::Span {
        &self.span
    }

    #[inline]
    pub(crate) fn revision(&self, version: ProtocolVersion) {
        if self.started.is_some() {
            self.span.record("mcp.protocol.version", version.as_str());
        }
    }

    /// Records how the request ended, and its duration.
    #[inline]
    pub(crate) fn end(&self, outcome: Outcome) {
        let Some(started) = self.started else {
            return;
        };
        let span = &self.span;
        let name = match outcome {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::InputRequired => "input_required",
            Outcome::Error(code) => {
                span.record("error.code", code.as_i64());
                span.record("otel.status_code", "ERROR");
                "error"
            }
            Outcome::Cancelled => "cancelled",
        };
        span.record("outcome", name);
        span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
    }

    /// Makes the client's trace the parent of this span (`traceparent`, `tracestate` and
    /// `baggage`, from the request's `_meta` or its HTTP headers), for an OpenTelemetry layer.
    #[cfg(feature = "opentelemetry")]
    pub(crate) fn parent(&self, context: &crate::call::trace_context::TraceContext) {
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        if self.started.is_some()
            && let Some(parent) = context.to_otel()
        {
            // Fails only once the span has been entered, which it has not.
            let _ = self.span.set_parent(parent);
        }
    }
}

/// A call's span, held by its record until the answer is out and then let go, so that the span
/// closes (and an exporter has it) before the server counts the call as done, whoever still
/// holds the record.
pub(crate) struct CallSpan(Option<Box<Mutex<RequestSpan>>>);

impl CallSpan {
    pub(crate) fn new(span: &RequestSpan) -> CallSpan {
        // Boxed: a record without a span (no subscriber) stays small.
        CallSpan(span.started.map(|_| Box::new(Mutex::new(span.clone()))))
    }

    /// The span, to run the tool in.
    pub(crate) fn get(&self) -> RequestSpan {
        match &self.0 {
            Some(span) => span.lock().unwrap_or_else(PoisonError::into_inner).clone(),
            None => RequestSpan::none(),
        }
    }

    /// The span, which the record no longer holds.
    pub(crate) fn take(&self) -> RequestSpan {
        match &self.0 {
            Some(span) => std::mem::replace(
                &mut *span.lock().unwrap_or_else(PoisonError::into_inner),
                RequestSpan::none(),
            ),
            None => RequestSpan::none(),
        }
    }
}
