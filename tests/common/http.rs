//! A raw HTTP/1.1 client over TCP: the test decides every byte that goes out, and reads the
//! status, headers and body that come back (chunked bodies decoded, server-sent events parsed),
//! as they arrive when it needs to.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;

use serde_json::{Value, json};
use toolwright::Server;
use toolwright::http::Http;

use super::{TIMEOUT, modern_meta};

/// A server's HTTP endpoint on a free loopback port, served by `HttpService::serve` on a
/// runtime of its own until [`Endpoint::stop`].
pub struct Endpoint {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

impl Endpoint {
    pub fn start(server: Server) -> Endpoint {
        Endpoint::start_with(server, Http::new())
    }

    pub fn start_with(server: Server, http: Http) -> Endpoint {
        let service = server.http_service(http).expect("the server starts");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)?;
                service
                    .serve(listener, async {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        Endpoint {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Shuts the server down and waits until `serve` has returned.
    pub fn stop(mut self) -> std::io::Result<()> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread.join().expect("the server thread does not panic"),
            None => Ok(()),
        }
    }

    /// A POST of `body` with the headers every well-behaved client sends.
    pub fn post(&self, body: &Value) -> Request {
        Request::new("POST", self.addr)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body.to_string().into_bytes())
    }

    /// A 2026-07-28 request to this endpoint: see [`modern`].
    pub fn modern(&self, id: i64, method: &str, params: Value) -> Request {
        modern(self.addr, id, method, params)
    }

    /// `initialize` in `revision`; the session id it created.
    pub fn initialize(&self, revision: &str) -> String {
        let reply = self
            .post(
                &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": revision,
                    "capabilities": {},
                    "clientInfo": {"name": "toolwright-tests", "version": "0"}
                }}),
            )
            .send();
        assert_eq!(reply.status, 200, "{}", reply.text());
        assert_eq!(
            reply.json()["result"]["protocolVersion"],
            revision,
            "{}",
            reply.text()
        );
        let session = reply
            .header("mcp-session-id")
            .expect("a session id")
            .to_owned();
        let initialized = self
            .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .session(&session, revision)
            .send();
        assert_eq!(initialized.status, 202, "{}", initialized.text());
        session
    }

    /// A request in a session.
    pub fn in_session(
        &self,
        session: &str,
        revision: &str,
        id: i64,
        method: &str,
        params: Value,
    ) -> Request {
        self.post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .session(session, revision)
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// A 2026-07-28 request, its `_meta` and headers complete and consistent. The `_meta` entries
/// of `params` (a progress token) are kept.
pub fn modern(addr: SocketAddr, id: i64, method: &str, mut params: Value) -> Request {
    let mut meta = modern_meta();
    if let Some(Value::Object(own)) = params.get("_meta") {
        for (key, value) in own {
            meta[key] = value.clone();
        }
    }
    params["_meta"] = meta;
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut request = Request::new("POST", addr)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", method)
        .body(body.to_string().into_bytes());
    // What the request names: the tool or prompt, or the URI read.
    let named = match method {
        "resources/read" => params["uri"].as_str(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => params["taskId"].as_str(),
        _ => params["name"].as_str(),
    };
    if let Some(name) = named {
        request = request.header("Mcp-Name", name);
    }
    request
}

/// The value of header `name` among lowercase-named `headers`.
fn find_header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

/// One HTTP request, built header by header.
pub struct Request {
    method: String,
    target: String,
    addr: SocketAddr,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    pub fn new(method: &str, addr: SocketAddr) -> Request {
        Request {
            method: method.into(),
            target: "/mcp".into(),
            addr,
            headers: vec![("Host".into(), addr.to_string())],
            body: Vec::new(),
        }
    }

    pub fn method(mut self, method: &str) -> Request {
        self.method = method.into();
        self
    }

    /// Sets a header, replacing one of the same name.
    pub fn header(mut self, name: &str, value: &str) -> Request {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Adds a header beside any of the same name.
    pub fn also(mut self, name: &str, value: &str) -> Request {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn without(mut self, name: &str) -> Request {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }

    pub fn target(mut self, target: &str) -> Request {
        self.target = target.into();
        self
    }

    pub fn body(mut self, body: Vec<u8>) -> Request {
        self.body = body;
        self
    }

    pub fn session(self, session: &str, revision: &str) -> Request {
        self.header("Mcp-Session-Id", session)
            .header("MCP-Protocol-Version", revision)
    }

    /// The request's bytes: its head, `Content-Length` (unless the test set its own framing),
    /// and its body.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = format!("{} {} HTTP/1.1\r\n", self.method, self.target).into_bytes();
        for (name, value) in &self.headers {
            out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        let framed = self.headers.iter().any(|(n, _)| {
            n.eq_ignore_ascii_case("content-length") || n.eq_ignore_ascii_case("transfer-encoding")
        });
        if !framed && (self.method == "POST" || !self.body.is_empty()) {
            out.extend_from_slice(format!("Content-Length: {}\r\n", self.body.len()).as_bytes());
        }
        // One request per connection, unless the test chose otherwise.
        if !self
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("connection"))
        {
            out.extend_from_slice(b"Connection: close\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }

    /// Sends the request and reads the whole response.
    pub fn send(&self) -> Reply {
        self.open().finish()
    }

    /// Sends the request and reads the response's head; its body is read as it comes.
    pub fn open(&self) -> Open {
        Open::send(self.addr, &self.bytes())
    }
}

/// Sends raw bytes on a new connection and reads the whole response.
pub fn exchange(addr: SocketAddr, raw: &[u8]) -> Reply {
    Open::send(addr, raw).finish()
}

/// A response being read.
pub struct Open {
    reader: BufReader<TcpStream>,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    chunked: bool,
    length: Option<usize>,
    /// Body bytes read but not yet handed out as events.
    pending: Vec<u8>,
    ended: bool,
    /// The id of the last event read, with or without data (what `Last-Event-ID` resumes).
    pub last_id: Option<String>,
}

impl Open {
    fn send(addr: SocketAddr, raw: &[u8]) -> Open {
        let mut stream = TcpStream::connect(addr).expect("the server accepts");
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        stream.write_all(raw).expect("the request is written");
        Open::read_head(stream)
    }

    /// Reads a response's head from a connection the test already wrote a request on.
    pub fn read_head(stream: TcpStream) -> Open {
        let mut reader = BufReader::new(stream);
        let mut status_line = String::new();
        reader.read_line(&mut status_line).expect("a status line");
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP status line: {status_line:?}"));
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header line");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').expect("a header");
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let find = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        let chunked = find("transfer-encoding").is_some_and(|v| v.contains("chunked"));
        let length = find("content-length").and_then(|v| v.parse().ok());
        Open {
            reader,
            status,
            headers,
            chunked,
            length,
            pending: Vec::new(),
            ended: false,
            last_id: None,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    /// The next piece of the body; `None` at its end.
    fn piece(&mut self) -> Option<Vec<u8>> {
        if self.ended {
            return None;
        }
        if self.chunked {
            let mut size = String::new();
            self.reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim(), 16).ok()?;
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).ok()?;
            chunk.truncate(size);
            if size == 0 {
                self.ended = true;
                return None;
            }
            return Some(chunk);
        }
        self.ended = true;
        let mut body = Vec::new();
        match self.length {
            Some(length) => {
                body.resize(length, 0);
                self.reader.read_exact(&mut body).ok()?;
            }
            None => {
                self.reader.read_to_end(&mut body).ok()?;
            }
        }
        Some(body)
    }

    /// The next server-sent event's data, parsed; `None` once the stream ends. Comments and
    /// events without data (priming, keep-alive) are skipped.
    pub fn next_message(&mut self) -> Option<Value> {
        self.next_event().map(|(_, data)| data)
    }

    /// The next server-sent event with data: its id (if any) and its data, parsed.
    pub fn next_event(&mut self) -> Option<(Option<String>, Value)> {
        loop {
            if let Some(end) = find(&self.pending, b"\n\n") {
                let event: Vec<u8> = self.pending.drain(..end + 2).collect();
                let event = String::from_utf8(event).expect("events are UTF-8");
                let mut id = None;
                let mut data = String::new();
                for line in event.lines() {
                    if let Some(value) = line.strip_prefix("id:") {
                        id = Some(value.trim().to_owned());
                        self.last_id.clone_from(&id);
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data.push_str(value.trim_start());
                    }
                }
                if !data.is_empty() {
                    return Some((id, serde_json::from_str(&data).expect("data is JSON")));
                }
                continue;
            }
            let piece = self.piece()?;
            self.pending.extend_from_slice(&piece);
        }
    }

    /// The rest of the response.
    pub fn finish(mut self) -> Reply {
        let mut body = std::mem::take(&mut self.pending);
        while let Some(piece) = self.piece() {
            body.extend_from_slice(&piece);
        }
        Reply {
            status: self.status,
            headers: self.headers,
            body,
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A whole response.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        find_header(&self.headers, name)
    }

    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("a UTF-8 body")
    }

    /// The body as one JSON document.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {} {}", self.status, self.text()))
    }

    /// The JSON-RPC messages of the body: the document, or the data of each event.
    pub fn messages(&self) -> Vec<Value> {
        if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"))
        {
            self.text()
                .split("\n\n")
                .filter_map(|event| {
                    let data: String = event
                        .lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .map(str::trim_start)
                        .collect();
                    (!data.is_empty()).then(|| serde_json::from_str(&data).expect("JSON data"))
                })
                .collect()
        } else {
            vec![self.json()]
        }
    }

    /// The last message: a request's answer.
    pub fn answer(&self) -> Value {
        self.messages().pop().expect("an answer")
    }
}

/// An example server process serving HTTP on a free loopback port.
pub struct Served {
    pub addr: SocketAddr,
    pub child: std::process::Child,
}

impl Served {
    /// Runs example `name` with `args` (which make it listen on port 0), and reads the address
    /// it announces on stderr (`... serving MCP at http://ADDR/mcp`).
    pub fn spawn(name: &str, args: &[&str], env: &[(&str, &str)]) -> Served {
        let mut child = std::process::Command::new(super::example(name))
            .args(args)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the example starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).expect("an announcement");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.trim().strip_suffix("/mcp"))
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Served { addr, child }
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(start.elapsed() < TIMEOUT, "the server did not exit");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
