//! One task as the store keeps it, and every way it changes.
//!
//! A task is `working` until it needs the client (`input_required`, while any of its asks is
//! unanswered) and ends once: `completed` (the tool's result, an error result included),
//! `failed` (a protocol error: the call's JSON-RPC error, a panic, a lapsed lease) or
//! `cancelled`. Nothing changes a task that ended, so a cancellation that arrives first wins
//! over the result that follows, and a second one changes nothing.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// What became of a task, or what it waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    #[default]
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// A task, as stored: JSON, read and written whole.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    pub(crate) id: String,
    /// Who may see it: the caller that created it.
    pub(crate) owner: String,
    pub(crate) tool: String,
    /// The revision of the request that created it: its result is shaped for that one.
    pub(crate) version: String,
    pub(crate) status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) status_message: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub(crate) created_at: u64,
    pub(crate) updated_at: u64,
    pub(crate) ttl_ms: u64,
    pub(crate) poll_interval_ms: u64,
    /// Until when the replica running it has vouched that it still does.
    pub(crate) lease_until: u64,
    /// The asks waiting for the client, by key: `{method, params}`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub(crate) input_requests: Map<String, Value>,
    /// The client's answers, by key, until the task ends.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub(crate) answers: Map<String, Value>,
    /// The asks the client answered with an error (2025-11-25, where asks are requests), by
    /// key: the error.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub(crate) refused: Map<String, Value>,
    /// The asks a 2025-11-25 `tasks/result` has sent to the client and waits on, so that
    /// another sends each no second time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) forwarded: Vec<String>,
    /// The tool's result (`completed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Value>,
    /// The JSON-RPC error (`failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<Value>,
}

/// The time now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH);
    since.map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// How a task ended, once its tool's call was answered.
#[derive(Clone)]
pub(crate) enum Ending {
    /// The call's result (a tool error is a result).
    Completed(Value),
    /// The call's JSON-RPC error.
    Failed(Value),
}

/// The error of a task whose replica stopped vouching for it.
pub(crate) const LAPSED: &str = "the server running this task stopped before it finished (its \
                                 lease lapsed); call the tool again";

impl TaskRecord {
    fn touch(&mut self, now: u64) -> bool {
        self.updated_at = self.updated_at.max(now);
        true
    }

    /// The call asks the client: `request` (`{method, params}`) waits under `key`.
    pub(crate) fn ask(&mut self, key: &str, request: Value, now: u64) -> bool {
        if self.status.is_terminal() {
            return false;
        }
        self.input_requests.insert(key.to_owned(), request);
        self.status = Status::InputRequired;
        self.touch(now)
    }

    /// The client answers: each answer to an ask still waiting is taken, and the task works
    /// again once none waits. Answers to keys that wait for nothing are ignored.
    pub(crate) fn respond(&mut self, responses: Map<String, Value>, now: u64) -> bool {
        if self.status.is_terminal() {
            return false;
        }
        let mut taken = false;
        for (key, response) in responses {
            if self.input_requests.remove(&key).is_some() {
                self.forwarded.retain(|k| *k != key);
                self.answers.insert(key, response);
                taken = true;
            }
        }
        if taken && self.input_requests.is_empty() {
            self.status = Status::Working;
        }
        taken && self.touch(now)
    }

    /// The client answered the ask `key` with `error` (a request refused, 2025-11-25).
    pub(crate) fn refuse(&mut self, key: &str, error: Value, now: u64) -> bool {
        if self.status.is_terminal() || self.input_requests.remove(key).is_none() {
            return false;
        }
        self.forwarded.retain(|k| k != key);
        self.refused.insert(key.to_owned(), error);
        if self.input_requests.is_empty() {
            self.status = Status::Working;
        }
        self.touch(now)
    }

    /// A `tasks/result` sends the ask `key` to the client (`true`), unless another already
    /// does, or it waits for nothing (`false`).
    pub(crate) fn forward(&mut self, key: &str) -> bool {
        let waiting = self.input_requests.contains_key(key);
        if !waiting || self.forwarded.iter().any(|k| k == key) {
            return false;
        }
        self.forwarded.push(key.to_owned());
        true
    }

    /// The client that was sent the ask `key` left unanswered: another may send it again.
    pub(crate) fn unforward(&mut self, key: &str) -> bool {
        let before = self.forwarded.len();
        self.forwarded.retain(|k| k != key);
        self.forwarded.len() != before
    }

    /// The client cancels it.
    pub(crate) fn cancel(&mut self, now: u64) -> bool {
        self.end(Status::Cancelled, None, None, now)
    }

    /// Its call was answered.
    pub(crate) fn finish(&mut self, ending: Ending, now: u64) -> bool {
        match ending {
            Ending::Completed(result) => self.end(Status::Completed, Some(result), None, now),
            Ending::Failed(error) => self.end(Status::Failed, None, Some(error), now),
        }
    }

    /// A note on how far it got (a progress message).
    pub(crate) fn say(&mut self, message: String, now: u64) -> bool {
        if self.status.is_terminal() || self.status_message.as_ref() == Some(&message) {
            return false;
        }
        self.status_message = Some(message);
        self.touch(now)
    }

    /// Its replica vouches that it runs it until `until`.
    pub(crate) fn renew(&mut self, until: u64) -> bool {
        if self.status.is_terminal() || self.lease_until >= until {
            return false;
        }
        self.lease_until = until;
        true
    }

    /// Fails it if its replica stopped vouching for it.
    pub(crate) fn lapse(&mut self, now: u64) -> bool {
        if !self.lapsed(now) {
            return false;
        }
        let error = json!({"code": -32603, "message": LAPSED});
        self.end(Status::Failed, None, Some(error), now)
    }

    /// Whether its replica stopped vouching for it.
    pub(crate) fn lapsed(&self, now: u64) -> bool {
        !self.status.is_terminal() && now > self.lease_until
    }

    fn end(
        &mut self,
        status: Status,
        result: Option<Value>,
        error: Option<Value>,
        now: u64,
    ) -> bool {
        if self.status.is_terminal() {
            return false;
        }
        self.status = status;
        self.result = result;
        self.error = error;
        self.input_requests.clear();
        self.answers.clear();
        self.refused.clear();
        self.forwarded.clear();
        self.touch(now)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn task(now: u64) -> TaskRecord {
        TaskRecord {
            id: "t".into(),
            owner: "o".into(),
            tool: "slow".into(),
            version: "2026-07-28".into(),
            created_at: now,
            updated_at: now,
            ttl_ms: 60_000,
            poll_interval_ms: 500,
            lease_until: now + 30_000,
            ..TaskRecord::default()
        }
    }

    fn answers(keys: &[&str]) -> Map<String, Value> {
        keys.iter()
            .map(|k| (k.to_string(), json!({"action": "accept"})))
            .collect()
    }

    #[test]
    fn a_task_waits_until_every_ask_is_answered() {
        let mut t = task(1);
        assert!(t.ask("elicit", json!({"method": "elicitation/create"}), 2));
        assert!(t.ask("elicit_2", json!({"method": "elicitation/create"}), 2));
        assert_eq!(t.status, Status::InputRequired);
        assert!(
            !t.respond(answers(&["nope"]), 3),
            "unknown keys are ignored"
        );
        assert!(t.respond(answers(&["elicit", "nope"]), 3));
        assert_eq!(t.status, Status::InputRequired, "one still waits");
        assert_eq!(t.input_requests.keys().collect::<Vec<_>>(), ["elicit_2"]);
        assert!(t.respond(answers(&["elicit_2"]), 4));
        assert_eq!(t.status, Status::Working);
        assert_eq!(t.answers.len(), 2);
        assert_eq!(t.updated_at, 4);
    }

    #[test]
    fn a_task_ends_once() {
        let mut t = task(1);
        assert!(t.cancel(2));
        assert!(!t.finish(Ending::Completed(json!({"content": []})), 3));
        assert!(!t.cancel(4), "a second cancel changes nothing");
        assert_eq!(
            (t.status, t.result.clone(), t.updated_at),
            (Status::Cancelled, None, 2)
        );
        let mut t = task(1);
        t.ask("elicit", json!({}), 1);
        assert!(t.finish(Ending::Failed(json!({"code": -32603, "message": "x"})), 2));
        assert!(
            t.input_requests.is_empty(),
            "an ended task waits for nothing"
        );
        assert!(!t.respond(answers(&["elicit"]), 3));
    }

    #[test]
    fn an_ask_is_sent_once_and_a_refusal_ends_its_wait() {
        let mut t = task(0);
        t.ask("elicit", json!({}), 1);
        assert!(t.forward("elicit"));
        assert!(!t.forward("elicit"), "sent once");
        assert!(!t.forward("other"), "nothing waits under that key");
        assert!(t.unforward("elicit"));
        assert!(
            t.forward("elicit"),
            "a client that left: another may send it"
        );
        assert!(t.refuse("elicit", json!({"code": -1, "message": "no"}), 2));
        assert_eq!(t.status, Status::Working);
        assert!(t.forwarded.is_empty() && t.input_requests.is_empty());
        assert!(!t.refuse("elicit", json!({}), 3), "answered once");
    }

    #[test]
    fn a_lease_lapses_only_while_the_task_runs() {
        let mut t = task(0);
        assert!(!t.lapse(30_000));
        assert!(t.renew(60_000));
        assert!(!t.renew(50_000), "a lease never shortens");
        assert!(t.lapsed(60_001));
        assert!(t.lapse(60_001));
        assert_eq!(t.status, Status::Failed);
        assert_eq!(t.error.as_ref().unwrap()["message"], LAPSED);
        let mut done = task(0);
        done.finish(Ending::Completed(json!({})), 1);
        assert!(!done.lapse(u64::MAX));
    }
}
