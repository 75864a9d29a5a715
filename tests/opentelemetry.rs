//! With the `opentelemetry` feature and a tracing-opentelemetry layer installed, the client's
//! W3C trace context (in `_meta`, or in the HTTP headers) is the parent of the request's span,
//! as an OpenTelemetry exporter sees it.
#![cfg(feature = "opentelemetry")]

mod common;

use opentelemetry::trace::{SpanId, TraceId, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::{ProtocolVersion, Server};
use tracing_subscriber::layer::SubscriberExt;

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn server() -> Server {
    Server::new("otel", "1").discover()
}

/// The exported span named `name` whose parent is `parent`, once the provider has flushed.
fn exported(
    provider: &SdkTracerProvider,
    exporter: &InMemorySpanExporter,
    name: &str,
    parent: SpanId,
) -> Option<SpanData> {
    // A span is exported when it closes, just after the client read the answer.
    for _ in 0..200 {
        provider.force_flush().unwrap();
        let spans = exporter.get_finished_spans().unwrap();
        let found = spans
            .into_iter()
            .find(|span| span.name == name && span.parent_span_id == parent);
        if found.is_some() {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

#[test]
fn the_client_s_trace_is_the_parent() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("tests"));
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).unwrap();

    // In `_meta`, in both eras.
    for (revision, parent) in [
        (ProtocolVersion::V2025_11_25, "00f067aa0ba902b7"),
        (ProtocolVersion::V2026_07_28, "00f067aa0ba902b8"),
    ] {
        let mut client = Client::connect(server(), revision).unwrap();
        let traceparent = format!("00-{TRACE}-{parent}-01");
        let params = json!({"name": "add", "arguments": {"a": 1, "b": 2},
            "_meta": {"traceparent": traceparent, "tracestate": "vendor=x"}});
        client.request("tools/call", params).unwrap();
        let parent = SpanId::from_hex(parent).unwrap();
        let span = exported(&provider, &exporter, "tools/call add", parent)
            .unwrap_or_else(|| panic!("{revision}: no span with the client's parent"));
        assert_eq!(
            span.span_context.trace_id(),
            TraceId::from_hex(TRACE).unwrap()
        );
        assert_eq!(
            span.span_context.trace_state().get("vendor"),
            Some("x"),
            "{revision}"
        );
        let version = span
            .attributes
            .iter()
            .find(|kv| kv.key.as_str() == "mcp.protocol.version");
        assert_eq!(version.unwrap().value.as_str(), revision.as_str());
    }

    // A request without a trace context starts a trace of its own.
    let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    client.call("add", json!({"a": 1, "b": 1})).unwrap();
    let own = exported(&provider, &exporter, "tools/call add", SpanId::INVALID);
    assert!(own.is_some());

    // Over HTTP, from the headers.
    #[cfg(feature = "http")]
    {
        let endpoint = common::http::Endpoint::start(server());
        let reply = endpoint
            .modern(
                9,
                "tools/call",
                json!({"name": "add", "arguments": {"a": 2, "b": 2}}),
            )
            .header("traceparent", &format!("00-{TRACE}-00f067aa0ba902b9-01"))
            .send();
        assert_eq!(reply.status, 200, "{}", reply.text());
        let parent = SpanId::from_hex("00f067aa0ba902b9").unwrap();
        let span = exported(&provider, &exporter, "tools/call add", parent).unwrap();
        let transport = span
            .attributes
            .iter()
            .find(|kv| kv.key.as_str() == "network.transport");
        assert_eq!(transport.unwrap().value.as_str(), "http");
    }
}

/// The example exports the request's span, under the client's, before it exits.
#[test]
fn the_example_exports_the_request_s_span_under_the_client_s() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::example("tracing_otel"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "weather", "arguments": {"city": "Oslo"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "traceparent": format!("00-{TRACE}-00f067aa0ba902b7-01")}}});
    // Input ends at once: the server answers, then exits with every span exported.
    writeln!(child.stdin.take().unwrap(), "{request}").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("Oslo: sunny"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!("trace={TRACE} id=");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("span ") && l.contains(" name=\"tools/call weather\""))
        .unwrap_or_else(|| panic!("no request span: {stderr}"));
    assert!(line.starts_with(&format!("span {expected}")), "{line}");
    assert!(line.contains("parent=00f067aa0ba902b7"), "{line}");
}
