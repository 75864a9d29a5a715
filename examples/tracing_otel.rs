//! Traces that join the client's. Every request runs in a `mcp.request` span (method, tool,
//! id, revision, transport, outcome, duration); with the `opentelemetry` feature, a client that
//! sends W3C trace context (`traceparent` in the request's `_meta`, or as an HTTP header) finds
//! the server's span under its own, and the tool's spans and events under that.
//!
//! The spans are exported to stderr here, one line each, so that the example needs no
//! collector; a real deployment swaps `StderrExporter` for `opentelemetry-otlp`'s exporter.
//!
//! ```sh
//! cargo run -p toolwright-tests --example tracing_otel --features opentelemetry -- call weather '{"city": "Oslo"}'
//! ```

use std::process::ExitCode;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanData, SpanExporter};
use toolwright::prelude::*;
use tracing_subscriber::layer::SubscriberExt;

/// Looks up the weather in a city.
///
/// # Arguments
/// * `city` - The city.
#[mcp_tool(read_only)]
async fn weather(city: String) -> String {
    // A span of the tool's own: a child of the request's span.
    let forecast = async {
        tracing::info!(%city, "asking the forecast service");
        "sunny"
    };
    let forecast = tracing::Instrument::instrument(forecast, tracing::info_span!("forecast")).await;
    format!("{city}: {forecast}")
}

/// Writes each finished span to stderr: its trace, its id, its parent and its name.
#[derive(Debug)]
struct StderrExporter;

impl SpanExporter for StderrExporter {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        for span in batch {
            let attributes: Vec<String> = span
                .attributes
                .iter()
                .map(|kv| format!("{}={}", kv.key, kv.value))
                .collect();
            eprintln!(
                "span trace={} id={} parent={} name={:?} {}",
                span.span_context.trace_id(),
                span.span_context.span_id(),
                span.parent_span_id,
                span.name,
                attributes.join(" ")
            );
        }
        Ok(())
    }
}

fn main() -> ExitCode {
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(StderrExporter)
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("tracing_otel")))
        // Log lines go to stderr too: stdout carries the protocol.
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr));
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
    let code = toolwright::server!().discover().run();
    let _ = provider.shutdown();
    code
}
