//! An ask sent to the client *as a task* (2025-11-25, where the client declares
//! `tasks.requests.sampling.createMessage` or `tasks.requests.elicitation.create`): the request
//! carries `task: {ttl}`, the client answers at once with the task it made, and the server polls
//! it (`tasks/get`) until it ends, then reads its result (`tasks/result`). A client that answers
//! the request itself instead is taken at its word. Elsewhere the ask is sent as any other.
//!
//! Policy: polls are spaced as the client's `pollInterval` says (between 50 ms and 5 s; 1 s
//! without one), each awaited as any ask is; the whole wait ends with the task's TTL (the one
//! asked for, or the client's if shorter), the call's cancellation (the client's task is then
//! cancelled with `tasks/cancel`, sent whatever became of the call), or a failed or cancelled
//! task. Inside a task of the server's own, an ask is that task's input request, not the
//! client's task.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::call::record::CallRecord;
use crate::tools::ask_error::AskError;

/// How an ask is sent: as itself, or as a task living at most `ttl`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AsTask(pub(crate) Option<Duration>);

impl AsTask {
    /// Whether `record`'s client takes `method` as a task (`capability`, the path under
    /// `tasks.requests`).
    pub(crate) fn supported(record: &CallRecord, capability: &str) -> bool {
        record.version.has_client_tasks()
            && record.declared(&format!("tasks.requests.{capability}"))
    }

    /// Asks `method` with `params` (as the round entry `key`), as a task when this was chosen
    /// and the client takes one.
    pub(crate) async fn ask(
        self,
        record: &CallRecord,
        key: &str,
        method: &'static str,
        mut params: Value,
        capability: &str,
    ) -> Result<Value, AskError> {
        // Inside a task of the server's own, an ask is the task's input request, which the
        // client answers when it reads the task: it is not polled as the client's task.
        let ttl = match self.0 {
            Some(ttl) if AsTask::supported(record, capability) && record.task_run().is_none() => {
                ttl
            }
            _ => return record.ask(key, method, params).await,
        };
        let ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        params["task"] = json!({"ttl": ttl_ms});
        let answer = record.ask(key, method, params).await?;
        let Some(created) = answer.get("task") else {
            return Ok(answer);
        };
        let task: Task = serde_json::from_value(created.clone())
            .map_err(|e| AskError::Invalid(format!("not a task the client made: {e}")))?;
        let id = task.task_id.clone();
        // The client may keep its task for less time than asked: its own TTL bounds the wait.
        let kept = task
            .ttl
            .map_or(ttl, |ms| ttl.min(Duration::from_millis(ms)));
        let until = Instant::now() + kept;
        match follow(record, task, until).await {
            Ok(()) => record.ask(key, "tasks/result", json!({"taskId": id})).await,
            Err(error) => {
                if matches!(error, AskError::Cancelled | AskError::TimedOut) {
                    // The client stops working on what nobody will read: sent whatever became
                    // of the call, waited for a second at most.
                    let cancel = record.request_regardless("tasks/cancel", json!({"taskId": id}));
                    let _ = tokio::time::timeout(Duration::from_secs(1), cancel).await;
                }
                Err(error)
            }
        }
    }
}

/// A task as the client describes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Task {
    task_id: String,
    status: String,
    #[serde(default)]
    status_message: Option<String>,
    #[serde(default)]
    poll_interval: Option<u64>,
    /// How long the client keeps it, in milliseconds (`null`: no limit).
    #[serde(default)]
    ttl: Option<u64>,
}

/// Polls `task` until its result can be read (it completed, or it waits for input that
/// `tasks/result` carries), or it ends otherwise.
async fn follow(record: &CallRecord, mut task: Task, until: Instant) -> Result<(), AskError> {
    loop {
        match task.status.as_str() {
            "completed" | "input_required" => return Ok(()),
            "failed" => {
                let why = task.status_message.as_deref().unwrap_or("no reason given");
                return Err(AskError::Client {
                    code: -32603,
                    message: format!("the client's task failed: {why}"),
                });
            }
            "cancelled" => {
                return Err(AskError::Client {
                    code: -32603,
                    message: "the client cancelled its task".into(),
                });
            }
            _ => {}
        }
        let wait = Duration::from_millis(task.poll_interval.unwrap_or(1000).clamp(50, 5000));
        if Instant::now() + wait > until {
            return Err(AskError::TimedOut);
        }
        if tokio::time::timeout(wait, record.gate.cancelled())
            .await
            .is_ok()
        {
            return Err(AskError::Cancelled);
        }
        let answer = (record.ask("task", "tasks/get", json!({"taskId": task.task_id}))).await?;
        task = serde_json::from_value(answer)
            .map_err(|e| AskError::Invalid(format!("not the client's task: {e}")))?;
    }
}
