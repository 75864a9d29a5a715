//! How one call asks its client, in the two ways the eras allow.
//!
//! In a handshake session an ask is a request of the server's own, sent to the client on the
//! call's way back (stdio's output, the call's HTTP stream) and awaited, with a timeout and the
//! call's cancellation; a request given up on is cancelled at the client too. On 2026-07-28 the
//! server sends no requests: an ask is answered from the client's retry (`inputResponses`,
//! and the answers of earlier rounds the `requestState` carries), and an ask with no answer yet
//! stays pending, which ends the round: the call answers `input_required` with every pending
//! ask, and the client retries. Each ask has a key in `inputRequests` (its kind's name, a
//! number from the second of a name), the same in every round, since a round runs the same
//! code up to the first ask it cannot answer.

pub(crate) mod form;
pub(crate) mod known_roots;
pub(crate) mod root;

use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::call::gate::Gate;
use crate::call::outlet::{ClientReply, NoReply, Outlet, Peer};
use crate::call::to_client::form::Forms;
use crate::call::to_client::known_roots::KnownRoots;
use crate::tools::ask_error::AskError;

/// What one call needs to ask its client.
pub(crate) struct Asking {
    pub(crate) forms: Arc<Forms>,
    how: How,
    run: Mutex<Run>,
}

enum How {
    /// Handshake era: requests through the session's peer, each awaited at most `timeout`;
    /// the roots as the session knows them.
    Requests {
        peer: Arc<Peer>,
        timeout: Duration,
        roots: Arc<KnownRoots>,
    },
    /// 2026-07-28: the answers the client has given so far, by key, and what a round's
    /// `requestState` is bound to: the item asking (a tool's name, or its kind and name for
    /// a prompt or a resource) and its arguments.
    Rounds {
        answers: Map<String, Value>,
        target: Box<str>,
        arguments: Value,
    },
}

/// What this run of the tool asked.
#[derive(Default)]
struct Run {
    /// Asks so far, by key name.
    counts: HashMap<String, u32>,
    /// Asks with no answer yet: their keys and `{method, params}`.
    pending: Vec<(String, Value)>,
    /// The answers this run used, to carry into the next round.
    used: Map<String, Value>,
}

/// The asks a round ended on, and the answers it had used.
pub(crate) struct Unanswered {
    pub(crate) requests: Vec<(String, Value)>,
    pub(crate) answers: Map<String, Value>,
}

impl Asking {
    /// Asking in a handshake session.
    pub(crate) fn requests(
        forms: Arc<Forms>,
        peer: Arc<Peer>,
        timeout: Duration,
        roots: Arc<KnownRoots>,
    ) -> Asking {
        Asking {
            forms,
            how: How::Requests {
                peer,
                timeout,
                roots,
            },
            run: Mutex::default(),
        }
    }

    /// The roots as the session knows them, where there is a session.
    pub(crate) fn known_roots(&self) -> Option<&KnownRoots> {
        match &self.how {
            How::Requests { roots, .. } => Some(roots),
            How::Rounds { .. } => None,
        }
    }

    /// Asking on 2026-07-28, with the answers the client has given to a request of `target`
    /// with `arguments`.
    pub(crate) fn rounds(
        forms: Arc<Forms>,
        answers: Map<String, Value>,
        target: Box<str>,
        arguments: Value,
    ) -> Asking {
        Asking {
            forms,
            how: How::Rounds {
                answers,
                target,
                arguments,
            },
            run: Mutex::default(),
        }
    }

    /// What a round's state is bound to: the item asking and its arguments (asking in
    /// rounds only).
    pub(crate) fn bound_to(&self) -> Option<(&str, &Value)> {
        match &self.how {
            How::Rounds {
                target, arguments, ..
            } => Some((target, arguments)),
            How::Requests { .. } => None,
        }
    }

    /// The answers this run used, for the state of a round that ends without asks of its own
    /// (an error that asks the user to open URLs).
    pub(crate) fn take_used(&self) -> Map<String, Value> {
        std::mem::take(&mut self.run().used)
    }

    fn run(&self) -> MutexGuard<'_, Run> {
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the call's asks are answered by retries (2026-07-28).
    pub(crate) fn in_rounds(&self) -> bool {
        matches!(self.how, How::Rounds { .. })
    }

    /// The asks waiting for the client's retry, if any: the round is over.
    pub(crate) fn unanswered(&self) -> Option<Unanswered> {
        let mut run = self.run();
        if run.pending.is_empty() {
            return None;
        }
        Some(Unanswered {
            requests: std::mem::take(&mut run.pending),
            answers: std::mem::take(&mut run.used),
        })
    }

    /// Asks the client `method` with `params`, as the entry `name` of a round's requests, and
    /// returns its result.
    pub(crate) async fn ask(
        &self,
        outlet: &Outlet,
        gate: &Gate,
        name: &str,
        method: &'static str,
        params: Value,
    ) -> Result<Value, AskError> {
        match &self.how {
            How::Requests { peer, timeout, .. } => {
                request(outlet, gate, peer, *timeout, method, params).await
            }
            How::Rounds { answers, .. } => {
                {
                    let mut run = self.run();
                    let count = run.counts.entry(name.to_owned()).or_default();
                    *count += 1;
                    let key = match *count {
                        1 => name.to_owned(),
                        n => format!("{name}_{n}"),
                    };
                    if let Some(answer) = answers.get(&key) {
                        run.used.insert(key, answer.clone());
                        return Ok(answer.clone());
                    }
                    let request = json!({"method": method, "params": params});
                    run.pending.push((key, request));
                }
                // Never answered in this round: the runner ends the round instead.
                std::future::pending().await
            }
        }
    }
}

impl Asking {
    /// Asks the client `method` with `params` in a handshake session whatever becomes of the
    /// call (a cancelled call's last word, such as cancelling the client's task), awaited at
    /// most the ask timeout; `None` where the server sends no requests.
    pub(crate) async fn request_regardless(
        &self,
        outlet: &Outlet,
        method: &'static str,
        params: Value,
    ) -> Option<Result<Value, AskError>> {
        match &self.how {
            How::Requests { peer, timeout, .. } => {
                let open = Gate::default();
                Some(request(outlet, &open, peer, *timeout, method, params).await)
            }
            How::Rounds { .. } => None,
        }
    }
}

/// A request to the client, awaited at most `timeout` and while the call is not cancelled.
async fn request(
    outlet: &Outlet,
    gate: &Gate,
    peer: &Arc<Peer>,
    timeout: Duration,
    method: &'static str,
    params: Value,
) -> Result<Value, AskError> {
    enum Outcome {
        Reply(Result<ClientReply, NoReply>),
        TimedOut,
        Cancelled,
    }
    let reply = peer.request(outlet, method, &params);
    let id = reply.id();
    let mut reply = pin!(reply);
    let mut timer = pin!(tokio::time::sleep(timeout));
    let mut cancelled = pin!(gate.cancelled());
    let outcome = poll_fn(|cx| {
        if let Poll::Ready(reply) = reply.as_mut().poll(cx) {
            return Poll::Ready(Outcome::Reply(reply));
        }
        if cancelled.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Outcome::Cancelled);
        }
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Outcome::TimedOut);
        }
        Poll::Pending
    })
    .await;
    let give_up = |reason: &str| {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": id, "reason": reason}});
        let mut line = serde_json::to_vec(&note).expect("a notification serializes");
        line.push(b'\n');
        outlet.send(line);
    };
    match outcome {
        Outcome::Reply(Ok(ClientReply::Result(result))) => serde_json::from_str(result.get())
            .map_err(|e| AskError::Invalid(format!("the client's answer is not JSON: {e}"))),
        Outcome::Reply(Ok(ClientReply::Error(error))) => Err(AskError::Client {
            code: error.code,
            message: error.message,
        }),
        Outcome::Reply(Err(NoReply::Closed)) => Err(AskError::Cancelled),
        Outcome::TimedOut => {
            give_up("timed out");
            Err(AskError::TimedOut)
        }
        Outcome::Cancelled => {
            give_up("the call was cancelled");
            Err(AskError::Cancelled)
        }
    }
}
