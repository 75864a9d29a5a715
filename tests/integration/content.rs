//! Content blocks beside structured content, and every block the specification defines: what
//! each revision receives.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::content::{Annotations, EmbeddedResource, ResourceLink, Role};
use toolwright::prelude::*;
use toolwright::testing::Client;

/// A one-pixel PNG, in base64 as a file or an API hands it over.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

#[derive(Serialize, JsonSchema)]
struct Picture {
    name: String,
    mime_type: String,
    /// The picture, in base64.
    data: String,
}

fn picture() -> Picture {
    Picture {
        name: "pixel.png".into(),
        mime_type: "image/png".into(),
        data: PIXEL.into(),
    }
}

/// Reads a picture: its facts as structured content, the picture itself as an image.
#[mcp_tool(read_only)]
fn read_picture() -> Result<Structured<Picture>, ToolError> {
    let image =
        Content::image_base64(PIXEL, "image/png").map_err(|e| ToolError::new(e.to_string()))?;
    Ok(Structured::new(picture()).content(image))
}

/// The same, for a client that wants the JSON as text too.
#[mcp_tool(read_only)]
fn read_picture_and_json() -> Structured<Picture> {
    Structured::new(picture())
        .text("a one-pixel picture")
        .json_fallback()
}

/// Every kind of block, each with annotations and `_meta`.
#[mcp_tool(read_only)]
fn every_block() -> Vec<Content> {
    let modified = Annotations::new()
        .audience([Role::User])
        .priority(0.9)
        .last_modified("2026-11-30T12:00:00Z");
    vec![
        Content::text("hello").with_meta("com.example/kind", "greeting"),
        Content::image_base64(PIXEL, "image/png")
            .unwrap()
            .with_annotations(Annotations::new().audience([Role::Assistant])),
        Content::audio_base64("UklGRg==", "audio/wav").unwrap(),
        Content::resource_link(
            ResourceLink::new("file:///notes.md", "notes.md")
                .title("Notes")
                .mime_type("text/markdown")
                .size(42),
        ),
        Content::resource(
            EmbeddedResource::blob_base64("file:///pixel.png", PIXEL)
                .unwrap()
                .mime_type("image/png")
                .with_meta("com.example/cached", true),
        )
        .with_annotations(modified),
    ]
}

fn call(revision: ProtocolVersion, tool: &str) -> Value {
    let server = Server::new("content", "1")
        .tool::<read_picture>()
        .tool::<read_picture_and_json>()
        .tool::<every_block>()
        .tool::<unadvertised>();
    let mut client = Client::connect(server, revision).unwrap();
    client.call(tool, json!({})).unwrap().json().clone()
}

/// The texts of a result's blocks, which are all text blocks.
fn texts(result: &Value) -> Vec<&str> {
    let blocks = result["content"].as_array().unwrap();
    blocks
        .iter()
        .map(|block| block["text"].as_str().unwrap())
        .collect()
}

#[test]
fn media_beside_structured_content_travels_once() {
    for revision in ProtocolVersion::ALL {
        let result = call(revision, "read_picture");
        let line = result.to_string();
        assert_eq!(
            line.matches(PIXEL).count(),
            match revision.has_structured_output() {
                // The image, and the value in structuredContent.
                true => 2,
                // The image alone: no JSON copy of the same data.
                false => 1,
            },
            "{revision}: {line}"
        );
        assert_eq!(
            result["content"],
            json!([{"type": "image", "data": PIXEL, "mimeType": "image/png"}]),
            "{revision}"
        );
    }
}

#[test]
fn json_text_for_older_clients_when_asked() {
    for revision in ProtocolVersion::ALL {
        let result = call(revision, "read_picture_and_json");
        let texts = texts(&result);
        match revision.has_structured_output() {
            true => assert_eq!(texts, ["a one-pixel picture"], "{revision}"),
            false => {
                assert_eq!(texts[0], "a one-pixel picture", "{revision}");
                let json: Value = serde_json::from_str(texts[1]).unwrap();
                assert_eq!(json["name"], "pixel.png", "{revision}");
            }
        }
    }
}

#[test]
fn every_block_in_every_revision() {
    let newest = json!([
        {"type": "text", "text": "hello", "_meta": {"com.example/kind": "greeting"}},
        {"type": "image", "data": PIXEL, "mimeType": "image/png", "annotations": {"audience": ["assistant"]}},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///notes.md", "name": "notes.md", "title": "Notes",
         "mimeType": "text/markdown", "size": 42},
        {"type": "resource", "resource": {"uri": "file:///pixel.png", "mimeType": "image/png",
            "blob": PIXEL, "_meta": {"com.example/cached": true}},
         "annotations": {"audience": ["user"], "priority": 0.9, "lastModified": "2026-11-30T12:00:00Z"}},
    ]);
    for revision in ProtocolVersion::ALL {
        let content = call(revision, "every_block")["content"].clone();
        let mut expected = newest.clone();
        if !revision.has_content_meta() {
            // `_meta` and `lastModified` are 2025-06-18's.
            expected[0] = json!({"type": "text", "text": "hello"});
            expected[4] = json!({"type": "resource", "resource": {"uri": "file:///pixel.png",
                "mimeType": "image/png", "blob": PIXEL},
                "annotations": {"audience": ["user"], "priority": 0.9}});
        }
        if !revision.has_resource_links() {
            expected[3] = json!({"type": "text", "text": "notes.md: file:///notes.md"});
        }
        if !revision.has_audio() {
            expected[2] = json!({"type": "text", "text": "[audio/wav audio, 8 bytes of base64, not shown: protocol 2024-11-05 cannot carry audio]"});
        }
        assert_eq!(content, expected, "{revision}");
    }
}

/// A structured value with a sentence, from a tool that advertises no output schema.
#[mcp_tool(read_only)]
fn unadvertised() -> ToolOutput {
    ToolOutput::structured_with_text(&json!({"count": 3}), "three things")
}

#[test]
fn a_value_no_schema_advertised_keeps_its_json_text_where_structured_content_exists() {
    for revision in ProtocolVersion::ALL {
        let result = call(revision, "unadvertised");
        let texts = texts(&result);
        assert_eq!(result.get("structuredContent"), None, "{revision}");
        match revision.has_structured_output() {
            // Not sent as structured content (no schema promised it): the JSON keeps it.
            true => assert_eq!(texts, ["three things", r#"{"count":3}"#], "{revision}"),
            // The tool's own text, as for a revision without structured content.
            false => assert_eq!(texts, ["three things"], "{revision}"),
        }
    }
}
