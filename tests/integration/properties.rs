//! Random conversations, in CI: any mix of valid requests, notifications and garbage is served
//! without a crash, every line written is JSON-RPC, and every valid request gets exactly one
//! answer. (The long-running fuzzer over the same path lives in `fuzz/`.)

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolwright::prelude::*;

/// Echoes.
#[mcp_tool]
fn echo(text: String, times: Option<u8>) -> String {
    text.repeat(usize::from(times.unwrap_or(1)))
}

/// Adds, asynchronously.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Always fails.
#[mcp_tool]
fn fail() -> Result<(), ToolError> {
    Err(ToolError::new("no"))
}

#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One line of a conversation: a request that must be answered (its id is assigned later), or
/// anything else.
#[derive(Debug, Clone)]
enum Line {
    Request(Value),
    Other(Vec<u8>),
}

fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({})),
        ".{0,8}".prop_map(|t| json!({"text": t})),
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| json!({"a": a, "b": b})),
        (".{0,4}", any::<u16>()).prop_map(|(t, n)| json!({"text": t, "times": n})),
        any::<f64>().prop_map(|x| json!({"a": x})),
    ]
}

fn line() -> impl Strategy<Value = Line> {
    let tool = prop_oneof![Just("echo"), Just("add"), Just("fail"), Just("missing")];
    prop_oneof![
        (tool, arguments()).prop_map(|(name, arguments)| Line::Request(
            json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}})
        )),
        Just(Line::Request(json!({"method": "ping"}))),
        Just(Line::Request(json!({"method": "tools/list"}))),
        ".{0,12}".prop_map(|m| Line::Request(json!({"method": m}))),
        Just(Line::Other(
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#
                .to_vec()
        )),
        proptest::collection::vec(any::<u8>(), 0..40)
            .prop_map(|bytes| { Line::Other(bytes.into_iter().filter(|b| *b != b'\n').collect()) }),
        "[\\[\\]{}\":,0-9a-z ]{0,30}".prop_map(|s| Line::Other(s.into_bytes())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_request_is_answered_once_and_nothing_else_breaks(lines in proptest::collection::vec(line(), 0..24)) {
        let mut input = br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#.to_vec();
        input.push(b'\n');
        let mut expected = Vec::new();
        for (id, line) in lines.iter().enumerate() {
            match line {
                Line::Request(request) => {
                    let mut request = request.clone();
                    request["jsonrpc"] = json!("2.0");
                    // `-` is outside the garbage alphabet, so no garbage line carries these ids.
                    request["id"] = json!(format!("req-{id}"));
                    expected.push(format!("req-{id}"));
                    input.extend(request.to_string().into_bytes());
                }
                Line::Other(bytes) => input.extend(bytes),
            }
            input.push(b'\n');
        }
        let output = Output::default();
        Server::new("properties", "1")
            .tool::<echo>().tool::<add>().tool::<fail>()
            .shutdown_grace(Duration::from_secs(5))
            .serve(&input[..], output.clone())
            .unwrap();
        let written = output.0.lock().unwrap();
        let mut answered: Vec<String> = Vec::new();
        for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let message: Value = serde_json::from_slice(line).expect("every line is JSON");
            prop_assert_eq!(&message["jsonrpc"], "2.0");
            if let Some(id) = message["id"].as_str().filter(|id| id.starts_with("req-")) {
                answered.push(id.to_owned());
            }
        }
        answered.sort_unstable();
        expected.sort_unstable();
        prop_assert_eq!(answered, expected);
    }
}
