//! [`Answers`]: how a test client answers a tool that asks.

use serde_json::{Value, json};

use crate::call::ask::Root;
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::ProtocolError;
use crate::transport::memory::Responder;

type Handler = Box<dyn FnMut(&Value) -> Value + Send>;
type RootsHandler = Box<dyn FnMut() -> Vec<Root> + Send>;

/// How a test [`Client`](super::Client) answers the server's asks: the client declares the
/// capabilities of the answers it has, and answers each ask with them, the same way in every
/// revision (a request to the client in a handshake session, an `input_required` round on
/// 2026-07-28, which the client retries).
///
/// ```
/// use serde_json::json;
/// use toolwright_runtime::testing::{Answers, Client};
/// use toolwright_runtime::{ProtocolVersion, Server};
/// # fn server() -> Server { Server::new("example", "1") }
///
/// let answers = Answers::new()
///     .elicitation(|_request| json!({"action": "accept", "content": {"confirm": true}}))
///     .sampling(|_request| json!({"role": "assistant", "model": "test",
///                                 "content": {"type": "text", "text": "Paris"}}));
/// let client = Client::connect_answering(server(), ProtocolVersion::V2025_11_25, answers);
/// ```
#[derive(Default)]
pub struct Answers {
    elicitation: Option<Handler>,
    sampling: Option<Handler>,
    roots: Option<RootsHandler>,
}

impl Answers {
    /// Answers nothing (and declares no capability).
    pub fn new() -> Answers {
        Answers::default()
    }

    /// Answers `elicitation/create` (forms and URLs) with `answer`, given the request's params
    /// (`message`, `requestedSchema`, `mode`, `url`); it returns the `ElicitResult`
    /// (`{"action": "accept", "content": {...}}`, `{"action": "decline"}`).
    pub fn elicitation(mut self, answer: impl FnMut(&Value) -> Value + Send + 'static) -> Answers {
        self.elicitation = Some(Box::new(answer));
        self
    }

    /// Answers `sampling/createMessage` with `answer`, given the request's params; it returns
    /// the `CreateMessageResult` (`role`, `content`, `model`).
    pub fn sampling(mut self, answer: impl FnMut(&Value) -> Value + Send + 'static) -> Answers {
        self.sampling = Some(Box::new(answer));
        self
    }

    /// Answers `roots/list` with these roots.
    pub fn roots(self, roots: Vec<Root>) -> Answers {
        self.roots_with(move || roots.clone())
    }

    /// Answers `roots/list` with what `roots` returns when asked: roots that change during a
    /// test (announce a change with
    /// [`Client::notify`](super::Client::notify)`("notifications/roots/list_changed", ...)`), or a
    /// count of how often the server asked.
    pub fn roots_with(mut self, roots: impl FnMut() -> Vec<Root> + Send + 'static) -> Answers {
        self.roots = Some(Box::new(roots));
        self
    }

    /// The capabilities these answers declare in `revision`.
    pub(crate) fn capabilities(&self, revision: ProtocolVersion) -> Value {
        let mut capabilities = json!({});
        if self.elicitation.is_some() {
            capabilities["elicitation"] = match revision.has_elicitation_modes() {
                true => json!({"form": {}, "url": {}}),
                false => json!({}),
            };
        }
        if self.sampling.is_some() {
            capabilities["sampling"] = json!({});
        }
        if self.roots.is_some() {
            capabilities["roots"] = match revision.has_roots_list_changed() {
                true => json!({"listChanged": true}),
                false => json!({}),
            };
        }
        capabilities
    }

    /// The answers as the conversation's responder.
    pub(crate) fn responder(mut self) -> Responder {
        Box::new(move |method, params| {
            let answer = match method {
                "elicitation/create" => self.elicitation.as_mut().map(|f| f(params)),
                "sampling/createMessage" => self.sampling.as_mut().map(|f| f(params)),
                "roots/list" => self.roots.as_mut().map(|roots| json!({"roots": roots()})),
                _ => None,
            };
            answer.ok_or_else(|| ProtocolError::method_not_found(method))
        })
    }
}
