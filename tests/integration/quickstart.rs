//! The quickstart example over real pipes: the exact JSON of `initialize`, `tools/list` and
//! `tools/call` in each handshake revision.

use crate::common;

use std::time::{Duration, Instant};

use common::Process;
use serde_json::{Value, json};

const VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const INSTRUCTIONS: &str = "Arithmetic, text statistics, unit conversion and reading files.";

fn initialize_result(version: &str) -> Value {
    let server_info = if version >= "2025-06-18" {
        json!({"name": "quickstart", "title": "Quickstart", "version": env!("CARGO_PKG_VERSION")})
    } else {
        json!({"name": "quickstart", "version": env!("CARGO_PKG_VERSION")})
    };
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}, "logging": {}},
        "serverInfo": server_info,
        "instructions": INSTRUCTIONS,
    })
}

fn input_schema(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": properties, "required": required})
}

/// The tool list of 2025-06-18 and 2025-11-25, written out.
fn full_tools() -> Value {
    let hints = json!({"readOnlyHint": true, "openWorldHint": false});
    json!([
        {
            "name": "add",
            "description": "Adds two integers.",
            "inputSchema": input_schema(json!({
                "a": {"type": "integer", "description": "The first addend."},
                "b": {"type": "integer", "description": "The second addend."}
            }), &["a", "b"]),
            // An integer is not an object: it travels as `{"result": 42}`.
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "integer"}},
                "required": ["result"]
            },
            "annotations": hints,
        },
        {
            "name": "convert_length",
            "description": "Converts a length between units.\n\nKnown units: `mm`, `cm`, `m`, `km`, `in`, `ft`, `yd`, `mi`.",
            "inputSchema": input_schema(json!({
                "value": {"type": "number", "description": "The length to convert."},
                "from": {"type": "string", "description": "The unit of `value`."},
                "to": {"type": "string", "description": "The unit to convert to."}
            }), &["value", "from", "to"]),
            "outputSchema": {
                "type": "object",
                "properties": {
                    "value": {"type": "number"},
                    "unit": {"type": "string"}
                },
                "required": ["value", "unit"]
            },
            "annotations": hints,
        },
        {
            "name": "head",
            "title": "Head of a file",
            "description": "Returns the first lines of a text file.",
            "inputSchema": input_schema(json!({
                "path": {"type": "string", "description": "The file to read, absolute or relative to the server's working directory."},
                "lines": {"type": "integer", "minimum": 0, "description": "How many lines to return (default 10)."}
            }), &["path"]),
            "annotations": hints,
        },
        {
            "name": "text_stats",
            "title": "Text statistics",
            "description": "Counts the words, lines and characters of a text.",
            "inputSchema": input_schema(json!({
                "text": {"type": "string", "description": "The text to measure"}
            }), &["text"]),
            "outputSchema": {
                "type": "object",
                "properties": {
                    "words": {"type": "integer", "minimum": 0, "description": "Runs of non-whitespace characters."},
                    "lines": {"type": "integer", "minimum": 0, "description": "Lines, the last one counted even without a final newline."},
                    "characters": {"type": "integer", "minimum": 0, "description": "Unicode scalar values."}
                },
                "required": ["words", "lines", "characters"]
            },
            "annotations": hints,
        }
    ])
}

/// What each older revision lacks, spelt out tool by tool.
fn tools(version: &str) -> Value {
    let mut tools = full_tools();
    if version >= "2025-06-18" {
        return tools;
    }
    for tool in tools.as_array_mut().unwrap() {
        let tool = tool.as_object_mut().unwrap();
        tool.remove("outputSchema");
        let title = tool.remove("title");
        if version == "2024-11-05" {
            tool.remove("annotations");
        } else if let Some(title) = title {
            // 2025-03-26 has no `Tool.title`, but it has `annotations.title`.
            let hints = tool["annotations"].as_object().unwrap().clone();
            let mut annotations = serde_json::Map::new();
            annotations.insert("title".into(), title);
            annotations.extend(hints);
            tool.insert("annotations".into(), Value::Object(annotations));
        }
    }
    tools
}

#[test]
fn initialize_in_every_revision() {
    for version in VERSIONS {
        let mut server = Process::spawn("quickstart");
        let response = server.client.initialize(version);
        assert_eq!(response["result"], initialize_result(version), "{version}");
        assert_eq!(response["jsonrpc"], "2.0");
    }
}

#[test]
fn unknown_revisions_get_the_latest() {
    let mut server = Process::spawn("quickstart");
    let response = server.client.initialize("2099-01-01");
    assert_eq!(response["result"], initialize_result("2025-11-25"));
}

#[test]
fn tool_lists_per_revision() {
    for version in VERSIONS {
        let mut server = Process::spawn("quickstart");
        server.client.initialize(version);
        let response = server.client.request("tools/list", json!({}));
        assert_eq!(
            response["result"],
            json!({"tools": tools(version)}),
            "{version}"
        );
    }
    // The 2025-03-26 rule above, written out once for the tool that has a title.
    assert_eq!(
        tools("2025-03-26")[2]["annotations"],
        json!({"title": "Head of a file", "readOnlyHint": true, "openWorldHint": false})
    );
}

#[test]
fn calls_per_revision() {
    for version in VERSIONS {
        let structured = version >= "2025-06-18";
        let mut server = Process::spawn("quickstart");
        let client = &mut server.client;
        client.initialize(version);

        // A number: wrapped in an object where structured output exists.
        let response = client.call("add", json!({"a": 2, "b": 40}));
        let mut expected = json!({"content": [{"type": "text", "text": "42"}]});
        if structured {
            expected["structuredContent"] = json!({"result": 42});
        }
        assert_eq!(response["result"], expected, "{version}");

        // A struct: structured content exactly where an outputSchema was advertised.
        let response = client.call("text_stats", json!({"text": "one two\nthree"}));
        let text = r#"{"words":3,"lines":2,"characters":13}"#;
        let mut expected = json!({"content": [{"type": "text", "text": text}]});
        if structured {
            expected["structuredContent"] = json!({"words": 3, "lines": 2, "characters": 13});
        }
        assert_eq!(response["result"], expected, "{version}");

        // `Err(ToolError)`: a tool error with the message verbatim.
        let response = client.call(
            "convert_length",
            json!({"value": 1, "from": "km", "to": "league"}),
        );
        assert_eq!(
            response["result"],
            json!({
                "content": [{"type": "text", "text": "unknown unit `league`; use one of mm, cm, m, km, in, ft, yd, mi"}],
                "isError": true
            })
        );

        // An async tool.
        let response = client.call("head", json!({"path": "Cargo.toml", "lines": 1}));
        assert_eq!(
            response["result"],
            json!({"content": [{"type": "text", "text": "[workspace]"}]})
        );
    }
}

#[test]
fn invalid_arguments_per_revision() {
    for version in VERSIONS {
        let mut server = Process::spawn("quickstart");
        server.client.initialize(version);
        let response = server.client.call("add", json!({"a": 1, "b": "two"}));
        let message = "invalid arguments: `b`: invalid type: string \"two\", expected i64";
        if version == "2025-11-25" {
            assert_eq!(
                response["result"],
                json!({"content": [{"type": "text", "text": message}], "isError": true})
            );
        } else {
            assert_eq!(
                response["error"],
                json!({"code": -32602, "message": message})
            );
        }
    }
}

#[test]
fn stdin_eof_exits_zero_promptly() {
    let mut server = Process::spawn("quickstart");
    server.client.initialize("2025-11-25");
    let start = Instant::now();
    server.client.close();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "still running after EOF"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success());
}
