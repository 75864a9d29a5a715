//! [`Progress`]: `notifications/progress` for the request a tool is serving.

use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::call::record::CallRecord;
use crate::protocol::jsonrpc;

/// Reports the progress of the current request to the client.
///
/// Notifications are sent only when the client asked for them (with a `progressToken`), only
/// while the request is open, and only for values larger than the last one sent; anything else
/// is dropped, so a tool can report freely. Once the call is a task, whose client polls rather
/// than listens, a report becomes the task's `statusMessage` (its message, else
/// `progress/total`); on 2025-11-25, whose progress tokens last as long as their task, the
/// notifications go on too where the connection outlives the request (stdio).
/// `Progress::default()` reports nothing.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<CallRecord>>);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Params<'a> {
    progress_token: &'a RawValue,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

impl Progress {
    pub(crate) fn of(record: &Arc<CallRecord>) -> Progress {
        let reported = record.progress_token.is_some() || record.task.is_some();
        Progress(reported.then(|| Arc::clone(record)))
    }

    /// Whether reports go anywhere: the client asked for progress notifications, or the call
    /// is a task (whose status message they become).
    pub fn is_enabled(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|record| record.progress_token.is_some() || record.task_run().is_some())
    }

    /// Reports `progress` (of `total`, when known) with an optional message. Returns whether a
    /// notification was sent.
    pub fn report(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        let Some(record) = &self.0 else {
            return false;
        };
        // A task's client polls: the progress is its status message. On 2025-11-25 the
        // progress token lasts as long as the task, so notifications go on where the
        // connection outlives the request (stdio, in process).
        let task = record.task_run();
        if let Some(run) = task {
            let note = match (message, total) {
                (Some(message), _) => message.to_owned(),
                (None, Some(total)) => format!("{progress}/{total}"),
                (None, None) => format!("{progress}"),
            };
            run.say(note);
            if record.version.has_tasks_extension() || !record.outlet.lasting() {
                return true;
            }
        }
        let Some(token) = record.progress_token.as_deref() else {
            return task.is_some();
        };
        let message = message.filter(|_| record.version.has_progress_message());
        record.gate.progress(progress, task.is_some(), || {
            let params = Params {
                progress_token: token,
                progress,
                total,
                message,
            };
            record.outlet.send(jsonrpc::notification_line(
                "notifications/progress",
                &params,
            ));
        })
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("enabled", &self.is_enabled())
            .finish()
    }
}
