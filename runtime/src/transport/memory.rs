//! A server and a client in one process, joined by channels: no process, no pipes. The
//! command line's `list` and `call`, the public `testing` client and the benchmarks all talk to
//! a server through this one harness, over the same request path a real client takes.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::call::extensions::Extensions;
use crate::call::outlet::{Outlet, Sink};
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::meta::{CLIENT_CAPABILITIES, CLIENT_INFO, PROTOCOL_VERSION};
use crate::protocol::{Era, ProtocolVersion};
use crate::server::engine::Engine;
use crate::server::session::Session;
use crate::server::{Result, Server};

/// The server's side: one session, its lines in a channel.
struct Connection {
    #[cfg(feature = "testing")]
    engine: Arc<Engine>,
    session: Session,
    outlet: Outlet,
    #[cfg(feature = "testing")]
    queue: Sender<Vec<u8>>,
    /// The outlets `carry` replaced: kept for as long as the connection, since what listens
    /// through them (the session's `list_changed`, a `subscriptions/listen`) holds them weakly
    /// and would end with them.
    #[cfg(feature = "testing")]
    replaced: Vec<Outlet>,
    lines: Receiver<Vec<u8>>,
}

/// Where the lines of an in-process connection go, and the extensions its requests carry.
struct Channel {
    queue: Sender<Vec<u8>>,
    extensions: Extensions,
}

impl Sink for Channel {
    fn send(&self, line: Vec<u8>) {
        let _ = self.queue.send(line);
    }

    fn extensions(&self) -> Option<&Extensions> {
        Some(&self.extensions)
    }

    fn lasting(&self) -> bool {
        true
    }
}

impl Connection {
    fn new(engine: Arc<Engine>) -> Connection {
        let (queue, lines) = mpsc::channel();
        Connection {
            session: Session::new(Arc::clone(&engine)),
            #[cfg(feature = "testing")]
            engine,
            outlet: Outlet::new(
                "memory",
                Channel {
                    queue: queue.clone(),
                    extensions: Extensions::new(),
                },
            ),
            #[cfg(feature = "testing")]
            queue,
            #[cfg(feature = "testing")]
            replaced: Vec::new(),
            lines,
        }
    }

    /// The requests sent from now on carry `extensions`.
    #[cfg(feature = "testing")]
    fn carry(&mut self, extensions: Extensions) {
        let queue = self.queue.clone();
        let carrying = Outlet::new("memory", Channel { queue, extensions });
        self.replaced
            .push(std::mem::replace(&mut self.outlet, carrying));
    }

    fn send(&self, line: &[u8]) {
        self.session
            .handle(line, &self.outlet)
            .deliver(&self.outlet);
    }
}

impl Drop for Connection {
    /// The client is gone: what runs is cancelled. The workers stop when the last call lets go
    /// of the server.
    fn drop(&mut self) {
        self.session.close();
    }
}

/// Why an exchange got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Silence {
    /// Nothing came in time.
    TimedOut,
}

/// How the client answers the server's requests (elicitation, sampling, roots): the result
/// for a method and its params, or the error to answer with.
pub(crate) type Responder =
    Box<dyn FnMut(&str, &Value) -> std::result::Result<Value, ProtocolError> + Send>;

/// The client's side: requests with ids of its own, in one revision, and the messages that
/// arrive meanwhile.
pub(crate) struct Conversation {
    connection: Connection,
    revision: ProtocolVersion,
    client: Value,
    /// The client's capabilities, as `initialize` or each 2026-07-28 request declares them.
    capabilities: Value,
    /// Answers the server's requests; without one, each gets "method not found".
    responder: Option<Responder>,
    next_id: i64,
    /// Messages that arrived while an answer to another request was awaited.
    early: VecDeque<Value>,
}

impl Conversation {
    /// Connects to `server` in `revision`: `initialize` for a handshake revision, nothing for a
    /// stateless one. `client` is the `clientInfo` to give.
    pub(crate) fn open(server: Server, revision: ProtocolVersion, client: Value) -> Result<Self> {
        Ok(Conversation::on(server.build()?, revision, client))
    }

    /// A conversation with a server already built, which may serve others at the same time.
    pub(crate) fn on(engine: Arc<Engine>, revision: ProtocolVersion, client: Value) -> Self {
        Conversation::answering(engine, revision, client, json!({}), None)
    }

    /// A conversation whose client declares `capabilities` and answers the server's requests
    /// with `responder`.
    pub(crate) fn answering(
        engine: Arc<Engine>,
        revision: ProtocolVersion,
        client: Value,
        capabilities: Value,
        responder: Option<Responder>,
    ) -> Self {
        let mut conversation = Conversation {
            connection: Connection::new(engine),
            revision,
            client,
            capabilities,
            responder,
            next_id: 0,
            early: VecDeque::new(),
        };
        if revision.era() == Era::Legacy {
            let params = json!({
                "protocolVersion": revision.as_str(),
                "capabilities": conversation.capabilities,
                "clientInfo": conversation.client,
            });
            let id = conversation.send_request("initialize", params);
            conversation
                .answer(id, None)
                .expect("initialize is answered at once");
            conversation.notify("notifications/initialized", None);
        }
        conversation
    }

    /// The requests sent from now on carry `extensions`, as if a layer in front of an HTTP
    /// endpoint had put them there.
    #[cfg(feature = "testing")]
    pub(crate) fn carry(&mut self, extensions: Extensions) {
        self.connection.carry(extensions);
    }

    #[cfg(feature = "testing")]
    pub(crate) fn revision(&self) -> ProtocolVersion {
        self.revision
    }

    #[cfg(feature = "testing")]
    /// The client's capabilities, as it declares them.
    pub(crate) fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    #[cfg(feature = "testing")]
    /// The server this conversation talks to.
    pub(crate) fn engine(&self) -> &Arc<Engine> {
        &self.connection.engine
    }

    /// Sends a request; returns its id. On 2026-07-28 its `_meta` carries the revision and the
    /// client, as every request of that revision must.
    pub(crate) fn send_request(&mut self, method: &str, mut params: Value) -> i64 {
        self.next_id += 1;
        if self.revision.era() == Era::Modern {
            if !params.is_object() {
                params = json!({});
            }
            let meta = params
                .as_object_mut()
                .expect("an object")
                .entry("_meta")
                .or_insert_with(|| json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert(PROTOCOL_VERSION.into(), self.revision.as_str().into());
                meta.entry(CLIENT_CAPABILITIES)
                    .or_insert_with(|| self.capabilities.clone());
                meta.entry(CLIENT_INFO)
                    .or_insert_with(|| self.client.clone());
            }
        }
        let message =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.send_line(&message.to_string());
        self.next_id
    }

    /// Sends a notification.
    pub(crate) fn notify(&mut self, method: &str, params: Option<Value>) {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send_line(&message.to_string());
    }

    /// Sends one line as it is.
    pub(crate) fn send_line(&mut self, line: &str) {
        self.connection.send(line.as_bytes());
    }

    /// The answer to request `id` (the whole JSON-RPC response), keeping what arrives before
    /// it for [`Conversation::take`]. Waits at most `timeout`, or for good.
    pub(crate) fn answer(
        &mut self,
        id: i64,
        timeout: Option<Duration>,
    ) -> std::result::Result<Value, Silence> {
        let is_answer =
            |m: &Value| m.get("id") == Some(&Value::from(id)) && m.get("method").is_none();
        if let Some(at) = self.early.iter().position(is_answer) {
            return Ok(self.early.remove(at).expect("found"));
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            let message = self.next_message(deadline)?;
            if is_answer(&message) {
                return Ok(message);
            }
            self.early.push_back(message);
        }
    }

    #[cfg(feature = "testing")]
    /// The next message the server sends, parsed (an unparsable line becomes a JSON string).
    pub(crate) fn next(&mut self, timeout: Duration) -> std::result::Result<Value, Silence> {
        match self.early.pop_front() {
            Some(message) => Ok(message),
            None => self.next_message(Some(Instant::now() + timeout)),
        }
    }

    #[cfg(feature = "testing")]
    /// The next line the server writes, as written.
    pub(crate) fn next_line(&mut self, timeout: Duration) -> std::result::Result<String, Silence> {
        if let Some(message) = self.early.pop_front() {
            return Ok(message.to_string());
        }
        let line = self
            .connection
            .lines
            .recv_timeout(timeout)
            .map_err(|_| Silence::TimedOut)?;
        let line = line.strip_suffix(b"\n").unwrap_or(&line);
        Ok(String::from_utf8_lossy(line).into_owned())
    }

    #[cfg(feature = "testing")]
    /// The messages received so far about the requests made (their progress and log messages,
    /// the server's requests); those about no request (a list or a resource that changed, a
    /// listen stream's) stay for [`Conversation::next`] and [`Conversation::next_line`].
    pub(crate) fn take(&mut self) -> Vec<Value> {
        let (standing, taken) = self.early.drain(..).partition(standing);
        self.early = standing;
        taken.into()
    }

    /// The client's answer to a request of the server's: the result, or an error ("method not
    /// found" when the client answers none).
    pub(crate) fn respond(
        &mut self,
        method: &str,
        params: &Value,
    ) -> std::result::Result<Value, ProtocolError> {
        match &mut self.responder {
            Some(responder) => responder(method, params),
            None => Err(ProtocolError::method_not_found(method)),
        }
    }

    /// The next message from the server. A request of the server's is answered at once, as a
    /// client answers while it waits for something else, and kept for the test to see.
    fn next_message(&mut self, deadline: Option<Instant>) -> std::result::Result<Value, Silence> {
        let message = self.read(deadline)?;
        if let (Some(method), Some(id)) = (
            message.get("method").and_then(Value::as_str),
            message.get("id"),
        ) {
            let params = message.get("params").cloned().unwrap_or(Value::Null);
            let reply = match self.respond(method, &params) {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
            };
            self.send_line(&reply.to_string());
        }
        Ok(message)
    }

    fn read(&mut self, deadline: Option<Instant>) -> std::result::Result<Value, Silence> {
        let line = match deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                self.connection
                    .lines
                    .recv_timeout(left)
                    .map_err(|_| Silence::TimedOut)?
            }
            None => self
                .connection
                .lines
                .recv()
                .map_err(|_| Silence::TimedOut)?,
        };
        Ok(serde_json::from_slice(&line)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&line).into_owned())))
    }
}

/// Whether a message is about no request: a list or a resource that changed, or a message of a
/// `subscriptions/listen` stream.
#[cfg(feature = "testing")]
fn standing(message: &Value) -> bool {
    let method = message["method"].as_str().unwrap_or_default();
    method.ends_with("/list_changed")
        || method == "notifications/resources/updated"
        || method == "notifications/subscriptions/acknowledged"
        || message["params"]["_meta"]
            .get(crate::protocol::params::SUBSCRIPTION_ID)
            .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_in_each_era() {
        for revision in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2026_07_28] {
            let server = Server::new("memory", "1");
            let mut conversation =
                Conversation::open(server, revision, json!({"name": "t", "version": "0"})).unwrap();
            let id = conversation.send_request("tools/list", json!({}));
            let answer = conversation
                .answer(id, Some(Duration::from_secs(5)))
                .unwrap();
            assert_eq!(answer["result"]["tools"], json!([]), "{revision}");
        }
    }
}
