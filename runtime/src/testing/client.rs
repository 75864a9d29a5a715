//! [`Client`]: an MCP client in the test's process.

use std::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use crate::call::extensions::Extensions;
use crate::protocol::{Era, Level, ProtocolVersion};
use crate::server::{Result, Server};
use crate::testing::answers::Answers;
use crate::testing::result::{CallResult, Received};
use crate::transport::memory::{Conversation, Silence};

/// The most rounds a 2026-07-28 call that asks may take before the client gives it up.
const MAX_ROUNDS: usize = 32;

/// How long a call may take by default before the test fails.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// An MCP client connected to a server in the same process, speaking one protocol revision.
///
/// ```
/// use serde_json::json;
/// use toolwright_runtime::testing::Client;
/// use toolwright_runtime::{ProtocolVersion, Server};
/// # fn server() -> Server { Server::new("example", "1") }
///
/// let mut client = Client::connect(server(), ProtocolVersion::V2025_06_18).unwrap();
/// let error = client.call("missing", json!({})).unwrap_err();
/// assert_eq!(error.code, -32602);
/// ```
///
/// Every method waits for its answer at most the client's timeout (30 seconds unless
/// [`Client::timeout`] says otherwise), and panics when none comes: a test should not hang.
pub struct Client {
    pub(crate) conversation: Conversation,
    pub(crate) timeout: Duration,
    log_level: Option<Level>,
    /// Calls started with a progress token, to make each token unique.
    started: u64,
    /// What every request carries beside its message.
    extensions: Extensions,
}

/// A JSON-RPC error the server answered with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RpcError {
    /// The error code, like `-32602`.
    pub code: i64,
    /// The message.
    pub message: String,
    /// The `data`, when the server sent some.
    pub data: Option<Value>,
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}

impl Client {
    /// Builds `server` (as `run` would: every schema generated, every check made) and connects
    /// to it in the latest revision, 2026-07-28.
    pub fn new(server: Server) -> Result<Client> {
        Client::connect(server, ProtocolVersion::V2026_07_28)
    }

    /// Builds `server` and connects to it in `revision`: with `initialize` for a handshake
    /// revision, with each request's `_meta` for 2026-07-28.
    pub fn connect(server: Server, revision: ProtocolVersion) -> Result<Client> {
        Client::connect_answering(server, revision, Answers::new())
    }

    /// Builds `server` and connects to it in `revision`, answering the asks of its tools with
    /// `answers` (and declaring the capabilities they need).
    pub fn connect_answering(
        server: Server,
        revision: ProtocolVersion,
        answers: Answers,
    ) -> Result<Client> {
        let client = json!({"name": "toolwright-testing", "version": env!("CARGO_PKG_VERSION")});
        let capabilities = answers.capabilities(revision);
        let conversation = Conversation::answering(
            server.build()?,
            revision,
            client,
            capabilities,
            Some(answers.responder()),
        );
        Ok(Client {
            conversation,
            timeout: DEFAULT_TIMEOUT,
            log_level: None,
            started: 0,
            extensions: Extensions::new(),
        })
    }

    /// The same client, waiting at most `timeout` for each answer.
    pub fn timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// The same client, its requests from now on carrying `value` in their
    /// [`Extensions`](crate::Extensions), as if a layer in front of an HTTP endpoint had put it
    /// there: the caller an authentication layer verified, say. What tools read with
    /// [`Context::extension`](crate::Context::extension) and visibility rules with
    /// [`Caller::extension`](crate::Caller::extension).
    ///
    /// ```
    /// # use toolwright_runtime::{Server, testing::Client};
    /// #[derive(Clone)]
    /// struct Subject(&'static str);
    ///
    /// let server = Server::new("tagged", "1")
    ///     .visibility(|_tool, caller| caller.extension::<Subject>().is_some_and(|s| s.0 == "ada"));
    /// let mut ada = Client::new(server).unwrap().extension(Subject("ada"));
    /// assert!(ada.list_tools().unwrap().is_empty()); // a server with no tools
    /// ```
    pub fn extension<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Client {
        self.extensions.insert(value);
        self.conversation.carry(self.extensions.clone());
        self
    }

    /// The same client, its requests from now on made by `caller`, as if an authentication
    /// layer had verified it: what tools read with [`Context::auth`](crate::Context::auth) (or
    /// take as `auth: Auth`), what visibility rules see, and who owns the tasks it creates.
    pub fn caller(self, caller: crate::call::auth::Auth) -> Client {
        self.extension(caller)
    }

    /// The revision this client speaks.
    pub fn revision(&self) -> ProtocolVersion {
        self.conversation.revision()
    }

    /// Asks for log messages at `level` and above: `logging/setLevel` in a handshake revision,
    /// a `logLevel` in each later request's `_meta` on 2026-07-28.
    pub fn log_level(&mut self, level: Level) -> std::result::Result<(), RpcError> {
        if self.revision().era() == Era::Legacy {
            self.request("logging/setLevel", json!({"level": level}))?;
        }
        self.log_level = Some(level);
        Ok(())
    }

    /// Every tool, as this revision lists them (all pages).
    pub fn list_tools(&mut self) -> std::result::Result<Vec<Value>, RpcError> {
        let mut tools = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let mut page = self.request("tools/list", params)?;
            if let Some(Value::Array(listed)) = page.get_mut("tools").map(Value::take) {
                tools.extend(listed);
            }
            match page.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = Some(next.clone()),
                _ => return Ok(tools),
            }
        }
    }

    /// Calls a tool with a JSON object of arguments and waits for its result.
    pub fn call(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> std::result::Result<CallResult, RpcError> {
        self.start_call(name, arguments, false).finish()
    }

    /// Starts a call that reports progress (its request carries a `progressToken`), to watch
    /// its progress, cancel it, or wait for it.
    pub fn start(&mut self, name: &str, arguments: Value) -> PendingCall<'_> {
        self.start_call(name, arguments, true)
    }

    fn start_call(&mut self, name: &str, arguments: Value, progress: bool) -> PendingCall<'_> {
        let params = json!({"name": name, "arguments": arguments});
        self.start_with(params, progress)
    }

    /// Starts `tools/call` with `params` (the name, the arguments, anything else).
    pub(crate) fn start_with(&mut self, mut params: Value, progress: bool) -> PendingCall<'_> {
        let name = params["name"].as_str().unwrap_or_default().to_owned();
        let token = progress.then(|| {
            self.started += 1;
            Value::from(format!("{name}-{}", self.started))
        });
        if let Some(token) = &token {
            params["_meta"]["progressToken"] = token.clone();
        }
        let id = self.send("tools/call", params.clone());
        PendingCall {
            client: self,
            id,
            tool: name,
            params,
            received: Received::new(token),
        }
    }

    /// Any request, and its result (or the error the server answered with). A 2026-07-28
    /// request whose item asks is answered round after round, as a client does: each round's
    /// `inputRequests` with the client's [`Answers`], then the request again with them.
    pub fn request(&mut self, method: &str, params: Value) -> std::result::Result<Value, RpcError> {
        let id = self.send(method, params.clone());
        let (answer, _) = self.rounds(method, &params, id, method);
        self.conversation.take();
        outcome(answer)
    }

    /// The last answer to `method`, first sent with `params` as request `id`, after every
    /// 2026-07-28 round its asks took; and the id of the last request.
    pub(crate) fn rounds(
        &mut self,
        method: &str,
        params: &Value,
        mut id: i64,
        what: &str,
    ) -> (Value, i64) {
        let mut answer = self.answer(id, what);
        for _ in 0..MAX_ROUNDS {
            let result = &answer["result"];
            if result["resultType"] != "input_required" {
                break;
            }
            let mut responses = serde_json::Map::new();
            if let Some(Value::Object(requests)) = result.get("inputRequests") {
                for (key, request) in requests {
                    let method = request["method"].as_str().unwrap_or_default();
                    let params = request.get("params").cloned().unwrap_or(Value::Null);
                    if let Ok(response) = self.conversation.respond(method, &params) {
                        responses.insert(key.clone(), response);
                    }
                }
            }
            let mut retry = params.clone();
            retry["inputResponses"] = Value::Object(responses);
            if let Some(state) = result.get("requestState") {
                retry["requestState"] = state.clone();
            }
            id = self.send(method, retry);
            answer = self.answer(id, what);
        }
        (answer, id)
    }

    /// Sends a notification (`notifications/roots/list_changed`, say); none is answered.
    pub fn notify(&mut self, method: &str, params: Value) {
        let note = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.conversation.send_line(&note.to_string());
    }

    /// Sends one line as it is, for tests of what a server does with any input.
    pub fn send_line(&mut self, line: &str) {
        self.conversation.send_line(line);
    }

    /// The next line the server writes, as written.
    ///
    /// # Panics
    /// When the server writes nothing within the timeout.
    pub fn next_line(&mut self) -> String {
        self.conversation
            .next_line(self.timeout)
            .unwrap_or_else(|_| panic!("the server wrote nothing within {:?}", self.timeout))
    }

    /// Asserts that the server writes nothing for `wait`.
    ///
    /// # Panics
    /// When it writes something.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Ok(message) = self.conversation.next(wait) {
            panic!("expected silence, the server wrote {message}");
        }
    }

    /// Opens a 2026-07-28 `subscriptions/listen` stream asking for `notifications` and waits
    /// for its acknowledgement: what the server agreed to send. The stream's notifications
    /// follow (read them with [`Client::next_line`]); it stays open as long as the client.
    pub fn listen(&mut self, notifications: Value) -> std::result::Result<Value, RpcError> {
        let id = self.send(
            "subscriptions/listen",
            json!({"notifications": notifications}),
        );
        loop {
            let message = self.conversation.next(self.timeout).unwrap_or_else(|_| {
                panic!(
                    "no acknowledgement of subscriptions/listen within {:?}",
                    self.timeout
                )
            });
            if message["id"] == id {
                return outcome(message).map(|_| Value::Null);
            }
            let params = &message["params"];
            if message["method"] == "notifications/subscriptions/acknowledged"
                && params["_meta"]["io.modelcontextprotocol/subscriptionId"] == id
            {
                return Ok(params["notifications"].clone());
            }
        }
    }

    pub(crate) fn send(&mut self, method: &str, mut params: Value) -> i64 {
        if let (Some(level), Era::Modern) = (self.log_level, self.revision().era()) {
            let meta = params
                .as_object_mut()
                .map(|p| p.entry("_meta").or_insert_with(|| json!({})));
            if let Some(Value::Object(meta)) = meta {
                meta.insert("io.modelcontextprotocol/logLevel".into(), json!(level));
            }
        }
        self.conversation.send_request(method, params)
    }

    fn answer(&mut self, id: i64, what: &str) -> Value {
        match self.conversation.answer(id, Some(self.timeout)) {
            Ok(answer) => answer,
            Err(Silence::TimedOut) => {
                panic!("no answer to `{what}` within {:?}", self.timeout)
            }
        }
    }
}

/// A call in flight, started with [`Client::start`].
pub struct PendingCall<'c> {
    client: &'c mut Client,
    id: i64,
    tool: String,
    /// The call's params, to send again for the next round of a 2026-07-28 call that asks.
    params: Value,
    received: Received,
}

impl PendingCall<'_> {
    /// Waits for the next progress notification of this call: its progress, total and message.
    ///
    /// # Panics
    /// When none comes within the client's timeout (the call may have finished first).
    pub fn next_progress(&mut self) -> crate::testing::result::ProgressUpdate {
        loop {
            let message = self
                .client
                .conversation
                .next(self.client.timeout)
                .unwrap_or_else(|_| {
                    panic!(
                        "no progress from `{}` within {:?}",
                        self.tool, self.client.timeout
                    )
                });
            if let Some(update) = self.received.note(message) {
                return update;
            }
        }
    }

    /// Cancels the call (`notifications/cancelled`). The server sends no answer for it.
    pub fn cancel(self) {
        let params = json!({"requestId": self.id, "reason": "cancelled by the test"});
        self.client
            .conversation
            .notify("notifications/cancelled", Some(params));
    }

    /// Waits for the call's result, with the progress and log messages it sent on the way. A
    /// 2026-07-28 call that asks is answered round after round, as a client does: each round's
    /// `inputRequests` with the client's [`Answers`], then the call again with them.
    pub fn finish(mut self) -> std::result::Result<CallResult, RpcError> {
        let answer = self.rounds();
        self.result(outcome(answer)?)
    }

    /// The call's last answer, after every 2026-07-28 round its asks took.
    pub(crate) fn rounds(&mut self) -> Value {
        let what = format!("tools/call `{}`", self.tool);
        let (answer, id) = self
            .client
            .rounds("tools/call", &self.params, self.id, &what);
        self.id = id;
        for message in self.client.conversation.take() {
            self.received.note(message);
        }
        answer
    }

    /// The call's result, read as its tool advertised it.
    pub(crate) fn result(self, result: Value) -> std::result::Result<CallResult, RpcError> {
        Ok(self.client.read_result(&self.tool, result, self.received))
    }
}

impl Client {
    /// A result of `tool`, read as the tool advertised it in this revision.
    pub(crate) fn read_result(&self, tool: &str, result: Value, received: Received) -> CallResult {
        let engine = self.conversation.engine();
        let revision = self.revision();
        let registry = engine.registry();
        let compiled = registry.find(tool).map(|entry| &entry.compiled);
        CallResult::new(
            result,
            revision,
            compiled.and_then(|c| c.output_schema(revision)).cloned(),
            compiled.is_some_and(|c| c.wraps_output(revision)),
            received,
        )
    }
}

/// A response's result, or its error.
pub(crate) fn outcome(answer: Value) -> std::result::Result<Value, RpcError> {
    match answer.get("error") {
        Some(error) => Err(RpcError {
            code: error
                .get("code")
                .and_then(Value::as_i64)
                .unwrap_or_default(),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            data: error.get("data").cloned(),
        }),
        None => Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
    }
}
