//! The practical floor: a hand-written serde_json loop that answers the same requests as the
//! toolwright server, with no framework: borrowed parsing, typed serialization, the tool list
//! serialized once, and a flush only when no more input is buffered. `--many` lists 197 more
//! tools, like the others.
use std::io::{BufRead, Write};

use serde::Serialize;
use serde_json::json;
use serde_json::value::RawValue;

#[derive(Serialize)]
struct Text<'a> {
    r#type: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult<'a, T: Serialize> {
    content: [Text<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<Wrapped<T>>,
}

impl<'a, T: Serialize> CallResult<'a, T> {
    /// One text block, and the structured value wrapped as 2025-11-25 wants it.
    fn new(text: &'a str, structured: Option<T>) -> Self {
        CallResult {
            content: [Text {
                r#type: "text",
                text,
            }],
            structured_content: structured.map(|result| Wrapped { result }),
        }
    }
}

#[derive(Serialize)]
struct Wrapped<T: Serialize> {
    result: T,
}

#[derive(Serialize)]
struct Response<'a, T: Serialize> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: T,
}

/// Writes one response (the loop adds the newline).
fn respond<T: Serialize>(out: &mut impl Write, id: &RawValue, result: T) -> serde_json::Result<()> {
    serde_json::to_writer(
        out,
        &Response {
            jsonrpc: "2.0",
            id,
            result,
        },
    )
}

fn main() {
    let many = std::env::args().any(|a| a == "--many");
    let mut tools = vec![
        json!({"name": "echo", "description": "Echoes the text.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}),
        json!({"name": "add", "description": "Adds two integers.", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}),
        json!({"name": "items", "description": "Returns 100 items.", "inputSchema": {"type": "object"}}),
    ];
    if many {
        for i in 1..=197 {
            tools.push(json!({"name": format!("filler_{i}"), "description": format!("Filler tool {i}."), "inputSchema": {"type": "object", "properties": {"value": {"type": "integer"}}, "required": ["value"]}}));
        }
    }
    let list = serde_json::value::to_raw_value(&json!({"tools": tools})).unwrap();
    let initialize = serde_json::value::to_raw_value(&json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "loop", "version": "0"}})).unwrap();
    let empty = serde_json::value::to_raw_value(&json!({})).unwrap();
    let mut stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            break;
        }
        let Ok(request) = serde_json::from_slice::<toolwright_bench::Request>(&line) else {
            continue;
        };
        let Some(id) = request.id else { continue };
        let arguments = request
            .params
            .as_ref()
            .and_then(|p| p.arguments)
            .map_or("{}", RawValue::get);
        let name = request.params.as_ref().and_then(|p| p.name).unwrap_or("");
        let written = match (request.method, name) {
            ("initialize", _) => respond(&mut out, id, &initialize),
            ("tools/list", _) => respond(&mut out, id, &list),
            ("tools/call", "echo") => {
                let toolwright_bench::Echo { text } = serde_json::from_str(arguments).unwrap();
                respond(&mut out, id, CallResult::<()>::new(&text, None))
            }
            ("tools/call", "add") => {
                let toolwright_bench::Add { a, b } = serde_json::from_str(arguments).unwrap();
                let sum = a.wrapping_add(b);
                respond(&mut out, id, CallResult::new(&sum.to_string(), Some(sum)))
            }
            ("tools/call", "items") => {
                let items = toolwright_bench::items();
                let text = serde_json::to_string(&items).unwrap();
                respond(&mut out, id, CallResult::new(&text, Some(items)))
            }
            _ => respond(&mut out, id, &empty),
        };
        written.unwrap();
        out.write_all(b"\n").unwrap();
        if stdin.buffer().is_empty() {
            out.flush().unwrap();
        }
    }
    out.flush().unwrap();
}
