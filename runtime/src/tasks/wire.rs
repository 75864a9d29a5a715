//! A task as each revision writes it: the 2026-07-28 extension's flat `Task` (`ttlMs`,
//! `pollIntervalMs`, `resultType`) and 2025-11-25's experimental one (`ttl`, `pollInterval`,
//! inside `task` when created).

use std::time::{Duration, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use crate::protocol::ProtocolVersion;
use crate::tasks::record::{Status, TaskRecord};

/// An instant of a task as RFC 3339 text.
fn timestamp(ms: u64) -> String {
    let at = UNIX_EPOCH + Duration::from_millis(ms);
    humantime::format_rfc3339_millis(at).to_string()
}

/// The `Task` fields of `task`, as `version` names them.
pub(crate) fn fields(task: &TaskRecord, version: ProtocolVersion) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("taskId".into(), json!(task.id));
    fields.insert("status".into(), json!(task.status.as_str()));
    if let Some(message) = &task.status_message {
        fields.insert("statusMessage".into(), json!(message));
    }
    fields.insert("createdAt".into(), json!(timestamp(task.created_at)));
    fields.insert("lastUpdatedAt".into(), json!(timestamp(task.updated_at)));
    let (ttl, poll) = match version.has_tasks_extension() {
        true => ("ttlMs", "pollIntervalMs"),
        false => ("ttl", "pollInterval"),
    };
    fields.insert(ttl.into(), json!(task.ttl_ms));
    if !task.status.is_terminal() {
        fields.insert(poll.into(), json!(task.poll_interval_ms));
    }
    fields
}

/// The result of the `tools/call` that created `task` (`CreateTaskResult`).
pub(crate) fn created(task: &TaskRecord, version: ProtocolVersion) -> Value {
    let mut fields = fields(task, version);
    match version.has_tasks_extension() {
        true => {
            fields.insert("resultType".into(), json!("task"));
            Value::Object(fields)
        }
        false => json!({"task": fields}),
    }
}

/// `tasks/get`'s answer: on 2026-07-28 the task with what the client needs next (the asks it
/// waits on, its result or its error); before, the task alone (the result comes from
/// `tasks/result`).
pub(crate) fn detailed(task: &TaskRecord, version: ProtocolVersion) -> Value {
    let mut fields = fields(task, version);
    if version.has_tasks_extension() {
        fields.insert("resultType".into(), json!("complete"));
        match task.status {
            Status::InputRequired => {
                let requests = Value::Object(task.input_requests.clone());
                fields.insert("inputRequests".into(), requests);
            }
            Status::Completed => {
                fields.insert("result".into(), task.result.clone().unwrap_or_default());
            }
            Status::Failed => {
                fields.insert("error".into(), task.error.clone().unwrap_or_default());
            }
            Status::Working | Status::Cancelled => {}
        }
    }
    Value::Object(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::record::Ending;
    use crate::tasks::record::tests::task;

    #[test]
    fn each_revision_names_the_fields_its_way() {
        let t = task(1_780_000_000_000);
        let modern = created(&t, ProtocolVersion::V2026_07_28);
        assert_eq!(
            modern,
            json!({"taskId": "t", "status": "working", "createdAt": "2026-05-28T20:26:40.000Z",
                   "lastUpdatedAt": "2026-05-28T20:26:40.000Z", "ttlMs": 60000,
                   "pollIntervalMs": 500, "resultType": "task"})
        );
        let legacy = created(&t, ProtocolVersion::V2025_11_25);
        assert_eq!(legacy["task"]["ttl"], 60000);
        assert_eq!(legacy["task"]["pollInterval"], 500);
        assert!(legacy["task"].get("ttlMs").is_none());
    }

    #[test]
    fn a_detailed_task_carries_what_comes_next() {
        let mut t = task(0);
        t.ask("elicit", json!({"method": "elicitation/create"}), 1);
        let waiting = detailed(&t, ProtocolVersion::V2026_07_28);
        assert_eq!(
            waiting["inputRequests"]["elicit"]["method"],
            "elicitation/create"
        );
        assert_eq!(waiting["resultType"], "complete");
        t.finish(Ending::Completed(json!({"content": []})), 2);
        let done = detailed(&t, ProtocolVersion::V2026_07_28);
        assert_eq!(done["result"], json!({"content": []}));
        assert!(done.get("inputRequests").is_none() && done.get("error").is_none());
        assert!(
            done.get("pollIntervalMs").is_none(),
            "nothing left to poll for"
        );
        let legacy = detailed(&t, ProtocolVersion::V2025_11_25);
        assert!(legacy.get("result").is_none() && legacy.get("resultType").is_none());
    }
}
