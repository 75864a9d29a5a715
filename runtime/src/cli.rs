//! Every server binary is also a command line tool: `list` and `call` go through the same
//! request path as a client would, over an in-memory connection.

use std::io::Write;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::error::Result;
use crate::protocol::ProtocolVersion;
use crate::server::Server;

const USAGE: &str = "\
usage: SERVER [COMMAND]

With no command, serves MCP over stdin and stdout (what an MCP client runs).

commands:
  list              print the tools, with their schemas, as JSON
  call NAME [JSON]  call the tool NAME with the JSON object of arguments (default {})
                    and print its result; exits 1 when the result is an error
  help              print this message";

pub(crate) fn run(server: Server, args: &[String]) -> Result<()> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let request = match args.as_slice() {
        [] => return server.serve_stdio(),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            return Ok(());
        }
        ["list"] => serde_json::json!({"method": "tools/list"}),
        ["call", name] => call_request(name, "{}")?,
        ["call", name, json] => call_request(name, json)?,
        _ => usage_error(&format!("unexpected arguments: {}", args.join(" "))),
    };
    let answer = exchange(server, &request)?;
    let failed = answer.get("error").is_some()
        || answer.pointer("/result/isError") == Some(&Value::Bool(true));
    let shown = answer.get("result").or_else(|| answer.get("error"));
    let mut out = std::io::stdout().lock();
    let printed = serde_json::to_writer_pretty(&mut out, &shown)
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
        .and_then(|()| out.flush());
    match printed {
        // The reader of our output (`| head`) has what it wanted.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other?,
    }
    if failed {
        std::process::exit(1);
    }
    Ok(())
}

fn call_request(name: &str, json: &str) -> Result<Value> {
    let arguments: Value = match serde_json::from_str(json) {
        Ok(value @ Value::Object(_)) => value,
        Ok(_) => usage_error("the arguments must be a JSON object, like '{\"a\": 1}'"),
        Err(e) => usage_error(&format!("the arguments are not valid JSON: {e}")),
    };
    Ok(
        serde_json::json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}}),
    )
}

fn usage_error(message: &str) -> ! {
    eprintln!("error: {message}\n\n{USAGE}");
    std::process::exit(2)
}

/// Sends `initialize` and one request through a real connection; returns the request's answer.
fn exchange(server: Server, request: &Value) -> Result<Value> {
    let mut request = request.clone();
    request["jsonrpc"] = "2.0".into();
    request["id"] = 2.into();
    let init = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": ProtocolVersion::LATEST_HANDSHAKE.as_str(),
            "capabilities": {},
            "clientInfo": {"name": "toolwright-cli", "version": env!("CARGO_PKG_VERSION")}
        }
    });
    let input = format!("{init}\n{request}\n");
    let output = SharedBuffer::default();
    server.serve(input.as_bytes(), output.clone())?;
    let bytes = output.0.lock().unwrap_or_else(|e| e.into_inner());
    let answer = bytes
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .find(|message| message.get("id") == Some(&Value::from(2)))
        .unwrap_or_else(|| serde_json::json!({"error": {"message": "no answer"}}));
    Ok(answer)
}

#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
