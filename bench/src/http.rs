//! The HTTP bench's client: one keep-alive HTTP/1 connection (hyper 1) per client, speaking
//! either era of Streamable HTTP, and the server it drives.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;

/// The revision a client speaks: 2026-07-28 (each request stands alone, `_meta` and
/// `Mcp-*` headers) or 2025-11-25 (`initialize`, then a session when the server gives one).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Era {
    Modern,
    Handshake,
}

impl Era {
    pub fn parse(text: &str) -> Era {
        match text {
            "2026-07-28" => Era::Modern,
            "2025-11-25" => Era::Handshake,
            other => panic!("unknown era {other}: 2026-07-28 or 2025-11-25"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Era::Modern => "2026-07-28",
            Era::Handshake => "2025-11-25",
        }
    }
}

/// An answer: its status, session id (if any) and body.
pub struct Answer {
    pub status: StatusCode,
    pub session: Option<String>,
    pub body: Bytes,
}

impl Answer {
    /// The JSON-RPC message in the body: the body itself, or the `data:` line of an event
    /// stream that carries a response.
    pub fn message(&self) -> &[u8] {
        let body = &self.body[..];
        if body.first() == Some(&b'{') {
            return body;
        }
        body.split(|&b| b == b'\n')
            .filter_map(|line| line.strip_prefix(b"data:"))
            .map(|data| data.trim_ascii())
            .find(|data| data.starts_with(b"{") && contains(data, b"\"id\""))
            .unwrap_or(b"")
    }

    /// The message, parsed (`null` when there is none).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(self.message()).unwrap_or_default()
    }

    /// A 200 whose message is a result that is not an error.
    pub fn is_result(&self) -> bool {
        let message = self.message();
        self.status == StatusCode::OK
            && contains(message, b"\"result\"")
            && !contains(message, b"\"isError\":true")
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// One client: its connection, and its session once it has one.
pub struct Client {
    sender: SendRequest<Full<Bytes>>,
    host: HeaderValue,
    path: String,
    pub era: Era,
    pub session: Option<String>,
    /// The `Accept` header: both types, as the specification asks of a client, unless changed.
    pub accept: &'static str,
}

/// What a client that follows the specification accepts.
pub const ACCEPT_BOTH: &str = "application/json, text/event-stream";

impl Client {
    /// A new connection to `addr`.
    pub async fn connect(addr: SocketAddr, path: &str, era: Era) -> Client {
        let tcp = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        tcp.set_nodelay(true).unwrap();
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .expect("an HTTP/1 connection");
        tokio::spawn(connection);
        Client {
            sender,
            host: HeaderValue::from_str(&addr.to_string()).unwrap(),
            path: path.to_owned(),
            era,
            session: None,
            accept: ACCEPT_BOTH,
        }
    }

    /// A new connection that has done the handshake (2025-11-25), keeping the session id the
    /// server gave (none from a server without sessions).
    pub async fn open(addr: SocketAddr, path: &str, era: Era) -> Client {
        let mut client = Client::connect(addr, path, era).await;
        if era == Era::Handshake {
            client.handshake().await;
        }
        client
    }

    /// `initialize` and `notifications/initialized`.
    pub async fn handshake(&mut self) {
        self.session = None;
        let answer = self.post("initialize", None, INITIALIZE.into()).await;
        assert!(
            answer.is_result(),
            "initialize failed: {} {}",
            answer.status,
            String::from_utf8_lossy(&answer.body)
        );
        self.session = answer.session;
        let answer = self
            .post("notifications/initialized", None, INITIALIZED.into())
            .await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "initialized refused");
    }

    /// Calls `add` with `a` and 2.
    pub async fn add(&mut self, id: u64, a: i64) -> Answer {
        let body = match self.era {
            Era::Modern => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":2}},"_meta":{META}}}}}"#
            ),
            Era::Handshake => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":2}}}}}}"#
            ),
        };
        self.post("tools/call", Some("add"), body).await
    }

    /// One POST, with the headers of the client's era, and its whole answer.
    pub async fn post(&mut self, method: &str, name: Option<&str>, body: String) -> Answer {
        let mut request = Request::post(&self.path)
            .header(HOST, self.host.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, self.accept);
        match self.era {
            Era::Modern => {
                request = request
                    .header("mcp-protocol-version", "2026-07-28")
                    .header("mcp-method", method);
                if let Some(name) = name {
                    request = request.header("mcp-name", name);
                }
            }
            Era::Handshake if method != "initialize" => {
                request = request.header("mcp-protocol-version", "2025-11-25");
            }
            Era::Handshake => {}
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        let request = request.body(Full::new(Bytes::from(body))).unwrap();
        self.sender
            .ready()
            .await
            .expect("the connection stays open");
        let response = self.sender.send_request(request).await.expect("an answer");
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response
            .into_body()
            .collect()
            .await
            .expect("a whole body")
            .to_bytes();
        Answer {
            status,
            session,
            body,
        }
    }
}

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A server the driver started: `COMMAND` (with its `serve --http 127.0.0.1:0` arguments),
/// and the address it announced on stderr (`...serving MCP at http://ADDR/PATH`).
pub struct Spawned {
    pub child: Child,
    pub addr: SocketAddr,
    pub path: String,
}

impl Spawned {
    pub fn start(command: &[String], env: &[(&str, String)]) -> Spawned {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            // Read on to the end, so that the server never blocks on a full pipe.
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some((_, url)) = line.split_once("serving MCP at http://") {
                    let _ = tx.send(url.trim().to_owned());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server announces its address on stderr");
        let (addr, path) = url.split_at(url.find('/').unwrap_or(url.len()));
        Spawned {
            child,
            addr: addr.parse().expect("an address"),
            path: path.to_owned(),
        }
    }

    /// A number from the server's /proc status, in KiB (`VmHWM:` is the peak resident set,
    /// `VmRSS:` the resident set now).
    pub fn status(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
