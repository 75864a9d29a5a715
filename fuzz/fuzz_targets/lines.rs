//! Any bytes as client input, after a handshake: message parsing, dispatch and argument binding.
//! Whatever comes in, the server must not crash, and everything it writes must be JSON-RPC.
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolwright::prelude::*;

/// Echoes its arguments.
#[mcp_tool]
fn echo(text: String, times: Option<u8>, tags: Vec<String>) -> String {
    format!("{text} {times:?} {tags:?}")
}

/// Takes any JSON object.
#[mcp_tool(input_schema = r#"{"type": "object"}"#)]
fn whole(arguments: Args<Value>) -> Value {
    arguments.0
}

/// Adds.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
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

const HANDSHAKE: &[u8] =
    br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}
"#;

fuzz_target!(|data: &[u8]| {
    let input = [HANDSHAKE, data].concat();
    let output = Output::default();
    Server::new("fuzz", "1")
        .discover()
        .max_message_size(1 << 16)
        .shutdown_grace(Duration::from_millis(50))
        .serve(&input[..], output.clone())
        .expect("serving in-memory input cannot fail");
    let written = output.0.lock().unwrap();
    for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let message: Value = serde_json::from_slice(line).expect("every line is JSON");
        let messages = match message {
            Value::Array(batch) => batch,
            single => vec![single],
        };
        for message in messages {
            assert_eq!(message["jsonrpc"], "2.0", "{message}");
        }
    }
});
