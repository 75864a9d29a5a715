//! Test clients: newline-delimited JSON-RPC with a real server process over pipes, or with a
//! server in this process through the public in-process client (`toolwright::testing`).
#![allow(dead_code)] // each test file uses its own part of this module

#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "oauth")]
pub mod oauth;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};
use toolwright::{ProtocolVersion, Server};

/// Long enough for a loaded CI machine; only failing tests ever wait this long.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The repository's root, where the examples run as their users run them.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests package is a folder of the repository")
}

/// The path of an example binary, beside the test binaries. `cargo test` builds examples, but
/// not when one test target is run alone, so each is brought up to date once per test process.
pub fn example(name: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if !built.iter().any(|b| b == name) {
        // As `cargo test --workspace` builds it, with the features this test was built with, so
        // that it does not rebuild the crates with others. The example is the root package's, or
        // this package's for the ones that need test-only crates.
        let features: Vec<&str> = [
            ("http", cfg!(feature = "http")),
            ("oauth", cfg!(feature = "oauth")),
            ("testing", cfg!(feature = "testing")),
            ("opentelemetry", cfg!(feature = "opentelemetry")),
        ]
        .iter()
        .filter_map(|(name, on)| on.then_some(*name))
        .collect();
        let status = Command::new(env!("CARGO"))
            .args([
                "build",
                "--quiet",
                "--workspace",
                "--example",
                name,
                "--features",
            ])
            .arg(features.join(","))
            .current_dir(root())
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building example {name} failed");
        built.push(name.to_owned());
    }
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop(); // the test binary
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.join("examples").join(name)
}

/// Where a test's lines go and come from: a real server process, or a server in this process
/// through the public `toolwright::testing` client.
enum Wire {
    Pipes {
        input: Option<Box<dyn Write + Send>>,
        lines: Receiver<String>,
    },
    Memory(Box<toolwright::testing::Client>),
}

/// One side of a JSON-RPC conversation.
pub struct Client {
    wire: Wire,
    next_id: i64,
    revision: Option<String>,
}

impl Client {
    fn pipes(input: impl Write + Send + 'static, output: impl Read + Send + 'static) -> Client {
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Client {
            wire: Wire::Pipes {
                input: Some(Box::new(input)),
                lines,
            },
            next_id: 100,
            revision: None,
        }
    }

    /// Writes one raw line (a newline is added).
    pub fn send_raw(&mut self, line: &[u8]) {
        match &mut self.wire {
            Wire::Pipes { input, .. } => {
                let input = input.as_mut().expect("input is open");
                input.write_all(line).unwrap();
                input.write_all(b"\n").unwrap();
                input.flush().unwrap();
            }
            Wire::Memory(client) => {
                client.send_line(std::str::from_utf8(line).expect("in-process lines are UTF-8"))
            }
        }
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    /// The next line the server wrote, parsed.
    pub fn recv(&mut self) -> Value {
        let line = self.recv_raw();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// The next line the server wrote, as written.
    pub fn recv_raw(&mut self) -> String {
        match &mut self.wire {
            Wire::Pipes { lines, .. } => lines
                .recv_timeout(TIMEOUT)
                .expect("the server answered in time"),
            Wire::Memory(client) => client.next_line(),
        }
    }

    /// Asserts that the server writes nothing for `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        match &mut self.wire {
            Wire::Pipes { lines, .. } => match lines.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) => {}
                Ok(line) => panic!("expected silence, got {line}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
            },
            Wire::Memory(client) => client.expect_silence(wait),
        }
    }

    /// Sends a request and returns the whole response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.recv();
        assert_eq!(response["id"], id, "response to the request: {response}");
        response
    }

    /// `initialize` with the given version, then `notifications/initialized`.
    pub fn initialize(&mut self, version: &str) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "toolwright-tests", "version": "0"}
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        response
    }

    /// `tools/call`, returning the response.
    pub fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Closes the server's input (of a server process).
    pub fn close(&mut self) {
        if let Wire::Pipes { input, .. } = &mut self.wire {
            *input = None;
        }
    }

    /// Whether the server's output has ended (it closed stdout or exited).
    pub fn output_ended(&self, wait: Duration) -> bool {
        let Wire::Pipes { lines, .. } = &self.wire else {
            panic!("only a server process has an output that ends")
        };
        loop {
            match lines.recv_timeout(wait) {
                Err(RecvTimeoutError::Disconnected) => return true,
                Err(RecvTimeoutError::Timeout) => return false,
                Ok(_) => {}
            }
        }
    }
}

/// A server process and a client on its stdin and stdout.
pub struct Process {
    pub child: Child,
    pub client: Client,
}

impl Process {
    pub fn spawn(example_name: &str) -> Process {
        let mut child = Command::new(example(example_name))
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        Process {
            client: Client::pipes(input, output),
            child,
        }
    }
}

/// Waiting for a server child to exit, and reading what it wrote to stderr.
pub trait ChildExt {
    fn wait_with_output_after_close(&mut self) -> String;
}

impl ChildExt for Child {
    fn wait_with_output_after_close(&mut self) -> String {
        let status = self.wait().expect("the server exits");
        assert!(status.success(), "exit status {status}");
        let mut stderr = String::new();
        if let Some(mut pipe) = self.stderr.take() {
            pipe.read_to_string(&mut stderr)
                .expect("stderr is readable");
        }
        stderr
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server in this process, reached through the public in-process client
/// (`toolwright::testing`) at the level of JSON-RPC lines: the test chooses the handshake.
pub struct InProcess {
    pub client: Client,
}

impl InProcess {
    pub fn start(server: Server) -> InProcess {
        InProcess::of(InProcess::connect(server))
    }

    /// A conversation whose every request carries `caller`, as an authentication layer would
    /// have put it there.
    pub fn start_as(server: Server, caller: toolwright::context::Auth) -> InProcess {
        InProcess::of(InProcess::connect(server).caller(caller))
    }

    fn connect(server: Server) -> toolwright::testing::Client {
        // Connected without a handshake (2026-07-28 needs none): the test sends `initialize`
        // itself, or `_meta` with each request.
        toolwright::testing::Client::connect(server, ProtocolVersion::V2026_07_28)
            .expect("the server builds")
    }

    fn of(client: toolwright::testing::Client) -> InProcess {
        InProcess {
            client: Client {
                wire: Wire::Memory(Box::new(client.timeout(TIMEOUT))),
                next_id: 100,
                revision: None,
            },
        }
    }

    /// Ends the conversation; the server's calls in flight are signalled.
    pub fn finish(self) -> toolwright::Result<()> {
        drop(self);
        Ok(())
    }
}

/// A server on a thread of this process, served over OS pipes by the stdio transport
/// (`Server::serve`): for tests of the transport itself (framing, raw bytes, end of input).
pub struct PipedServer {
    pub client: Client,
    pub server: Option<std::thread::JoinHandle<toolwright::Result<()>>>,
}

impl PipedServer {
    pub fn start(server: Server) -> PipedServer {
        let (server_in, client_out) = std::io::pipe().unwrap();
        let (client_in, server_out) = std::io::pipe().unwrap();
        let handle =
            std::thread::spawn(move || server.serve(BufReader::new(server_in), server_out));
        PipedServer {
            client: Client::pipes(client_out, client_in),
            server: Some(handle),
        }
    }

    /// Closes the input and waits for `serve` to return.
    pub fn finish(mut self) -> toolwright::Result<()> {
        self.client.close();
        self.server
            .take()
            .unwrap()
            .join()
            .expect("serve does not panic")
    }
}

/// The names in a `tools/list` response, in order.
pub fn tool_names(list: &Value) -> Vec<&str> {
    list["result"]["tools"]
        .as_array()
        .expect("a tool list")
        .iter()
        .map(|t| t["name"].as_str().expect("a tool name"))
        .collect()
}

/// The names of the tools `client` lists (every page), in order.
pub fn listed_names(client: &mut toolwright::testing::Client) -> Vec<String> {
    let tools = client.list_tools().expect("a tool list");
    let names = tools
        .iter()
        .map(|t| t["name"].as_str().expect("a tool name"));
    names.map(str::to_owned).collect()
}

/// The tool called `name` in a `tools/list` response.
pub fn tool<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["result"]["tools"]
        .as_array()
        .expect("a tool list")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

/// The error that stops `server` from starting.
pub fn start_error(server: Server) -> String {
    match toolwright::testing::Client::new(server) {
        Ok(_) => panic!("the server started"),
        Err(error) => error.to_string(),
    }
}

/// The protocol revisions a test can speak: four through `initialize`, one per request.
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// `_meta` of a 2026-07-28 request.
pub fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "toolwright-tests", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

impl Client {
    /// Starts speaking `revision`: `initialize` for a handshake revision, nothing for 2026-07-28.
    pub fn open(&mut self, revision: &str) {
        if revision != "2026-07-28" {
            self.initialize(revision);
        }
        self.revision = Some(revision.to_owned());
    }

    /// A request in the revision chosen with [`Client::open`].
    pub fn ask(&mut self, method: &str, params: Value) -> Value {
        let line = self.ask_raw(method, params);
        serde_json::from_str(&line).unwrap()
    }

    /// A request in the revision chosen with [`Client::open`], with id 1; its answer as written
    /// (the notifications before it, such as a tool's log messages, are passed over).
    pub fn ask_raw(&mut self, method: &str, mut params: Value) -> String {
        if self.revision.as_deref() == Some("2026-07-28") {
            params["_meta"] = modern_meta();
        }
        self.send(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
        loop {
            let line = self.recv_raw();
            let message: Value = serde_json::from_str(&line).unwrap();
            if message.get("method").is_none() {
                return line;
            }
        }
    }
}
