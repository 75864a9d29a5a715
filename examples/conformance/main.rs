//! The fixtures the official MCP conformance suite calls, written with toolwright: tools with
//! every content type, errors, logging, progress, a hand-written JSON Schema 2020-12 input
//! schema, and (in `asking`) tools that ask the client for input, a model's answer or its
//! roots; (in `items`) prompts and resources; and a folder of Agent Skills (`skills/`).
//! `tests/interop/run.sh` serves it to the suite (behind a stdio-to-HTTP bridge) and to the
//! official SDK clients.

mod asking;
mod items;
mod tasks;

use std::process::ExitCode;
use std::time::Duration;

use serde_json::Value;
use toolwright::prelude::*;

/// A 1x1 PNG.
pub(crate) const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A WAV file with a header and no samples.
fn wav() -> Vec<u8> {
    let mut wav = b"RIFF".to_vec();
    wav.extend(36u32.to_le_bytes());
    wav.extend(b"WAVEfmt ");
    wav.extend(16u32.to_le_bytes());
    wav.extend(1u16.to_le_bytes()); // PCM
    wav.extend(1u16.to_le_bytes()); // mono
    wav.extend(8000u32.to_le_bytes()); // sample rate
    wav.extend(8000u32.to_le_bytes()); // byte rate
    wav.extend(1u16.to_le_bytes()); // block align
    wav.extend(8u16.to_le_bytes()); // bits per sample
    wav.extend(b"data");
    wav.extend(0u32.to_le_bytes());
    wav
}

pub(crate) fn png() -> Content {
    Content::image_base64(PNG, "image/png").expect("the fixture is base64")
}

/// Returns a simple text response.
#[mcp_tool(read_only)]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image.
#[mcp_tool(read_only)]
fn test_image_content() -> Content {
    png()
}

/// Returns audio.
#[mcp_tool(read_only)]
fn test_audio_content() -> Content {
    Content::audio(&wav(), "audio/wav")
}

/// Returns an embedded text resource.
#[mcp_tool(read_only)]
fn test_embedded_resource() -> Content {
    Content::text_resource(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )
}

/// Returns text, an image and an embedded resource.
#[mcp_tool(read_only)]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        png(),
        Content::text_resource(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ]
}

/// Always fails, with a message for the client.
#[mcp_tool(read_only)]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Sends three log messages while it runs.
#[mcp_tool(read_only)]
async fn test_tool_with_logging(log: Log) -> &'static str {
    log.info("Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    log.info("Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    log.info("Tool execution completed");
    "Tool with logging executed successfully"
}

/// Reports progress 0, 50 and 100 of 100.
#[mcp_tool(read_only)]
async fn test_tool_with_progress(progress: Progress) -> &'static str {
    for done in [0.0, 50.0, 100.0] {
        progress.report(done, Some(100.0), None);
        if done < 100.0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    "Tool with progress executed successfully"
}

/// Logs one message: a 2026-07-28 client sees it only if its request names a log level.
#[mcp_tool(read_only)]
fn test_logging_tool(log: Log) -> &'static str {
    log.info("test_logging_tool ran");
    "logged"
}

/// Tool with JSON Schema 2020-12 features.
#[mcp_tool(read_only, input_schema = include_str!("schema.json"))]
fn json_schema_2020_12_tool(arguments: Args<Value>) -> String {
    format!("ok: {}", arguments.0)
}

/// Runs a read-only query in a region; the region travels as an HTTP header too
/// (`Mcp-Param-Region`), so that a gateway can route by it without reading the body.
///
/// # Arguments
/// * `region` - Where the data lives.
/// * `query` - The query.
#[mcp_tool(read_only, open_world = false)]
fn execute_sql(#[arg(header = "Region")] region: String, query: String) -> String {
    format!("ran `{query}` in {region}")
}

/// Lets go of the client's connection mid-call, then answers: over HTTP in a 2025-11-25
/// session the client resumes the stream (`Last-Event-ID`) to get the result (SSE polling).
#[mcp_tool(read_only)]
async fn test_reconnection(ctx: &Context) -> &'static str {
    ctx.close_stream();
    tokio::time::sleep(Duration::from_millis(200)).await;
    "Reconnection test completed"
}

/// Streams a progress notification (when asked for) before its result: over 2026-07-28 HTTP
/// the response stream carries only notifications about this request, then its result.
#[mcp_tool(read_only)]
async fn test_streaming_elicitation(progress: Progress) -> &'static str {
    progress.report(1.0, Some(2.0), Some("halfway"));
    tokio::time::sleep(Duration::from_millis(20)).await;
    progress.report(2.0, Some(2.0), Some("done"));
    "Streaming completed"
}

/// The fixtures, with the state they need and the skills.
fn fixtures() -> Server {
    let mut server = toolwright::server!();
    let watched = items::Watched {
        changes: Default::default(),
        updates: server.resource_updates(),
    };
    server.state(watched).discover().skills(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/conformance/skills"
    ))
}

/// The server's identity, around what it serves.
fn named(server: Server) -> Server {
    server
        .title("Conformance fixtures")
        .instructions("Fixture tools for the MCP conformance suite.")
}

fn server() -> Server {
    named(fixtures())
}

/// With `CONFORMANCE_NAMESPACE` set, the fixtures are served through a mount under that
/// namespace (empty: under their own names, which the suite's scenarios call them by), so
/// that the suite checks a mounted server too.
fn main() -> ExitCode {
    match std::env::var("CONFORMANCE_NAMESPACE") {
        Ok(namespace) => named(toolwright::server!().mount(&namespace, fixtures())).run(),
        Err(_) => server().run(),
    }
}

// Needs toolwright's `testing` feature (`cargo test --all-features`).
#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::json;
    use toolwright::ProtocolVersion;
    use toolwright::context::Level;
    use toolwright::testing::{Answers, Client, Manifest};

    #[test]
    fn progress_and_logs_reach_the_client() {
        let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
        client.log_level(Level::Debug).unwrap();
        let result = client
            .start("test_tool_with_progress", json!({}))
            .finish()
            .unwrap();
        let done: Vec<f64> = result.progress().iter().map(|p| p.progress).collect();
        assert_eq!(done, [0.0, 50.0, 100.0]);
        let result = client.call("test_tool_with_logging", json!({})).unwrap();
        assert_eq!(result.logs().len(), 3);
    }

    /// The `requestedSchema` a tool's first ask sends in 2025-11-25.
    fn requested_schema(tool: &str) -> serde_json::Value {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(json!(null)));
        let keep = std::sync::Arc::clone(&seen);
        let answers = Answers::new().elicitation(move |request| {
            *keep.lock().unwrap() = request["requestedSchema"].clone();
            json!({"action": "decline"})
        });
        let mut client =
            Client::connect_answering(server(), ProtocolVersion::V2025_11_25, answers).unwrap();
        let result = client.call(tool, json!({})).unwrap();
        assert!(!result.is_error(), "{}", result.text());
        seen.lock().unwrap().clone()
    }

    #[test]
    fn forms_with_defaults_and_every_kind_of_enum() {
        let defaults = requested_schema("test_elicitation_sep1034_defaults");
        assert_eq!(defaults["required"], json!([]));
        assert_eq!(
            defaults["properties"],
            json!({
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {"type": "string", "description": "User status",
                           "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "description": "Verification status", "default": true}
            })
        );
        let enums = &requested_schema("test_elicitation_sep1330_enums")["properties"];
        assert_eq!(
            enums["untitledSingle"],
            json!({"type": "string", "description": "Pick one", "enum": ["option1", "option2", "option3"]})
        );
        assert_eq!(
            enums["titledSingle"]["oneOf"],
            json!([{"const": "value1", "title": "First Option"},
                   {"const": "value2", "title": "Second Option"},
                   {"const": "value3", "title": "Third Option"}])
        );
        assert_eq!(
            enums["legacyEnum"]["enumNames"],
            json!(["Option One", "Option Two", "Option Three"])
        );
        assert_eq!(
            enums["untitledMulti"],
            json!({"type": "array", "description": "Pick some", "minItems": 1, "maxItems": 3,
                   "items": {"type": "string", "enum": ["option1", "option2", "option3"]}})
        );
        assert_eq!(
            enums["titledMulti"]["items"]["anyOf"][0],
            json!({"const": "value1", "title": "First Choice"})
        );
    }

    /// The prompt that asks, as the suite's `input-required-result-non-tool-request` gets it
    /// on 2026-07-28 (a round, then the retry), and as a session gets it.
    #[test]
    fn the_prompt_that_asks_is_answered_in_both_eras() {
        for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let answers = Answers::new().elicitation(|request| {
                assert_eq!(request["message"], "What context should the prompt use?");
                json!({"action": "accept", "content": {"context": "test context"}})
            });
            let mut client = Client::connect_answering(server(), revision, answers).unwrap();
            let result = client
                .get_prompt("test_input_required_result_prompt", json!({}))
                .unwrap();
            assert_eq!(
                result["messages"][0]["content"]["text"], "Prompt with context: test context",
                "{revision}"
            );
        }
    }

    /// The server declares `subscribe` (it can announce updates), and a subscriber hears one.
    #[test]
    fn a_subscriber_hears_that_the_watched_resource_changed() {
        for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let mut client = Client::connect(server(), revision).unwrap();
            client.subscribe("test://watched-resource").unwrap();
            let changed = client
                .call("test_change_watched_resource", json!({}))
                .unwrap();
            assert_eq!(changed.text(), "changed 1 times");
            let heard = (0..10).any(|_| {
                let line: serde_json::Value = serde_json::from_str(&client.next_line()).unwrap();
                line["method"] == "notifications/resources/updated"
                    && line["params"]["uri"] == "test://watched-resource"
            });
            assert!(heard, "{revision}: no notifications/resources/updated");
        }
    }

    #[test]
    fn tools_match_the_pinned_manifest() {
        Manifest::of(server())
            .unwrap()
            .assert_matches("examples/manifests/conformance.json");
    }

    #[test]
    fn mounted_without_a_namespace_the_fixtures_are_listed_as_they_are() {
        let mounted = named(toolwright::server!().mount("", fixtures()));
        Manifest::of(mounted)
            .unwrap()
            .assert_matches("examples/manifests/conformance.json");
    }
}
