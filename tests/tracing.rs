//! Every request runs in a `mcp.request` span with its method, tool, id, revision, transport,
//! outcome and duration; a tool's own events are its children; a masked error's details are an
//! event under the reference the client saw. Checked with a subscriber that keeps everything.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::{ProtocolVersion, Server};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// Fields as text.
type Fields = HashMap<String, String>;

#[derive(Default)]
struct Captured {
    /// Every span: its name and fields, by id.
    spans: HashMap<u64, (String, Fields)>,
    /// Every event: its fields (`message` included) and the id of the span it happened in.
    events: Vec<(Fields, Option<u64>)>,
}

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Captured>>);

struct Visitor<'a>(&'a mut Fields);

impl Visit for Visitor<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Capture {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: LayerContext<'_, S>) {
        let mut fields = Fields::new();
        attrs.record(&mut Visitor(&mut fields));
        let name = attrs.metadata().name().to_owned();
        self.0
            .lock()
            .unwrap()
            .spans
            .insert(id.into_u64(), (name, fields));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: LayerContext<'_, S>) {
        let mut captured = self.0.lock().unwrap();
        if let Some((_, fields)) = captured.spans.get_mut(&id.into_u64()) {
            values.record(&mut Visitor(fields));
        }
    }

    fn on_event(&self, event: &tracing::Event<'_>, cx: LayerContext<'_, S>) {
        let mut fields = Fields::new();
        event.record(&mut Visitor(&mut fields));
        let parent = cx.event_span(event).map(|span| span.id().into_u64());
        self.0.lock().unwrap().events.push((fields, parent));
    }
}

impl Capture {
    /// The `mcp.request` span of the request with `id` for `method`.
    fn request(&self, method: &str, id: &str) -> (u64, Fields) {
        let captured = self.0.lock().unwrap();
        let found = captured.spans.iter().find(|(_, (name, fields))| {
            name == "mcp.request"
                && fields.get("mcp.method.name").map(String::as_str) == Some(method)
                && fields.get("jsonrpc.request.id").map(String::as_str) == Some(id)
        });
        let (span, (_, fields)) = found.unwrap_or_else(|| panic!("no span for {method} {id}"));
        (*span, fields.clone())
    }

    fn events_in(&self, span: u64) -> Vec<Fields> {
        let captured = self.0.lock().unwrap();
        let events = captured
            .events
            .iter()
            .filter(|(_, parent)| *parent == Some(span));
        events.map(|(fields, _)| fields.clone()).collect()
    }
}

/// Adds two numbers, noting it.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    tracing::info!(a, b, "adding");
    a + b
}

/// Says hello, after a while.
#[mcp_tool]
async fn greet(name: String) -> String {
    tokio::time::sleep(Duration::from_millis(5)).await;
    tracing::info!("greeting {name}");
    format!("hello {name}")
}

/// Fails, as a tool error.
#[mcp_tool]
fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("no"))
}

/// Breaks, with a secret in the panic.
#[mcp_tool]
fn explode() -> String {
    panic!("the password is hunter2")
}

/// Waits to be cancelled.
#[mcp_tool]
async fn wait(cancel: Cancellation) -> &'static str {
    cancel.cancelled().await;
    "cancelled"
}

/// A hint, as a prompt.
#[mcp_prompt]
fn hint() -> &'static str {
    tracing::info!("hinting");
    "Think first."
}

/// A page, as a resource.
#[mcp_resource("pages://{n}")]
fn page(n: u32) -> String {
    format!("page {n}")
}

fn server() -> Server {
    Server::new("traced", "1").discover()
}

#[test]
fn spans_and_events_of_every_request() {
    let capture = Capture::default();
    let subscriber = tracing_subscriber::registry().with(capture.clone());
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    // Ids: `initialize` is 1; then one per request.
    assert_eq!(
        client.call("add", json!({"a": 2, "b": 3})).unwrap().text(),
        "5"
    );
    let (span, fields) = capture.request("tools/call", "2");
    assert_eq!(fields["gen_ai.tool.name"], "add");
    assert_eq!(fields["otel.name"], "tools/call add");
    assert_eq!(fields["mcp.protocol.version"], "2025-11-25");
    assert_eq!(fields["network.transport"], "memory");
    assert_eq!(fields["outcome"], "ok");
    assert!(fields["duration_ms"].parse::<f64>().unwrap() >= 0.0);
    let events = capture.events_in(span);
    assert!(
        events
            .iter()
            .any(|e| e["message"] == "adding" && e["a"] == "2"),
        "{events:?}"
    );

    assert_eq!(
        client.call("greet", json!({"name": "Ada"})).unwrap().text(),
        "hello Ada"
    );
    let (span, fields) = capture.request("tools/call", "3");
    assert_eq!(fields["outcome"], "ok");
    let events = capture.events_in(span);
    assert!(
        events.iter().any(|e| e["message"] == "greeting Ada"),
        "{events:?}"
    );

    assert!(client.call("refuse", json!({})).unwrap().is_error());
    assert_eq!(
        capture.request("tools/call", "4").1["outcome"],
        "tool_error"
    );

    // The masked details are an event under the reference the client saw, not on stderr.
    let text = client.call("explode", json!({})).unwrap().text();
    assert!(!text.contains("hunter2"), "{text}");
    let reference = text.split("ref ").nth(1).unwrap().trim_end_matches(')');
    let (span, fields) = capture.request("tools/call", "5");
    assert_eq!(fields["outcome"], "tool_error");
    let events = capture.events_in(span);
    let masked = events
        .iter()
        .find(|e| e.get("reference").map(String::as_str) == Some(reference));
    let masked = masked.unwrap_or_else(|| panic!("no event with ref {reference}: {events:?}"));
    assert_eq!(masked["tool"], "explode");
    assert!(masked["message"].contains("hunter2"), "{masked:?}");

    client.request("tools/list", json!({})).unwrap();
    let (_, fields) = capture.request("tools/list", "6");
    assert_eq!(fields["outcome"], "ok");
    assert!(!fields.contains_key("gen_ai.tool.name"));

    assert!(client.call("nope", json!({})).is_err());
    let (_, fields) = capture.request("tools/call", "7");
    assert_eq!(
        (fields["outcome"].as_str(), fields["error.code"].as_str()),
        ("error", "-32602")
    );

    let pending = client.start("wait", json!({}));
    std::thread::sleep(Duration::from_millis(50));
    pending.cancel();
    let ended = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        capture
            .request("tools/call", "8")
            .1
            .get("outcome")
            .map(String::as_str)
            == Some("cancelled")
    });
    assert!(ended, "{:?}", capture.request("tools/call", "8"));

    // A prompt's and a resource's request are named by what they get and read.
    client.get_prompt("hint", json!({})).unwrap();
    let (span, fields) = capture.request("prompts/get", "9");
    assert_eq!(fields["gen_ai.prompt.name"], "hint");
    assert_eq!(fields["otel.name"], "prompts/get hint");
    assert_eq!(fields["outcome"], "ok");
    let events = capture.events_in(span);
    assert!(
        events.iter().any(|e| e["message"] == "hinting"),
        "{events:?}"
    );
    client.read_resource("pages://3").unwrap();
    let (_, fields) = capture.request("resources/read", "10");
    assert_eq!(fields["mcp.resource.uri"], "pages://3");
    assert_eq!(fields["otel.name"], "resources/read pages://3");
    client.read_resource("pages://x").unwrap_err();
    let (_, fields) = capture.request("resources/read", "11");
    // Not found, in this revision's code.
    assert_eq!(fields["error.code"], "-32002", "{fields:?}");

    // 2026-07-28: the revision is the request's own.
    let mut modern = Client::connect(server(), ProtocolVersion::V2026_07_28).unwrap();
    modern.call("add", json!({"a": 1, "b": 1})).unwrap();
    let (_, fields) = capture.request("tools/call", "1");
    assert_eq!(fields["mcp.protocol.version"], "2026-07-28");
}
