//! Calling a tool as a task from the test client, and following the task: on 2026-07-28 with
//! the tasks extension declared on each request, on 2025-11-25 with `params.task`.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::protocol::meta::CLIENT_CAPABILITIES;
use crate::protocol::wire::TASKS_EXTENSION;
use crate::testing::client::{Client, RpcError, outcome};
use crate::testing::result::{CallResult, Received};

/// What a call made as a task got at once.
#[derive(Debug)]
#[non_exhaustive]
pub enum TaskCall {
    /// A task: its id, to follow with [`Client::get_task`] or [`Client::finish_task`].
    Task(String),
    /// The result: the server answered at once (the tool does not run as a task, or it
    /// answered before becoming one).
    Result(CallResult),
}

/// How a task ended.
#[derive(Debug)]
#[non_exhaustive]
pub enum TaskEnd {
    /// With its tool's result (an error result included).
    Completed(CallResult),
    /// With a protocol error (a panic in the tool, a lapsed lease).
    Failed(RpcError),
    /// Cancelled.
    Cancelled,
}

impl TaskEnd {
    /// The result of a task that completed.
    ///
    /// # Panics
    /// When it did not.
    pub fn completed(self) -> CallResult {
        match self {
            TaskEnd::Completed(result) => result,
            other => panic!("the task did not complete: {other:?}"),
        }
    }
}

impl Client {
    /// This revision's params of a request that can follow a task.
    fn following(&self, mut params: Value) -> Value {
        if self.revision().has_tasks_extension() {
            let mut capabilities = self.conversation.capabilities().clone();
            capabilities["extensions"][TASKS_EXTENSION] = json!({});
            params["_meta"][CLIENT_CAPABILITIES] = capabilities;
        }
        params
    }

    /// Calls a tool as a client that can follow a task does: on 2026-07-28 the request
    /// declares the tasks extension (the server decides whether the call becomes a task); on
    /// 2025-11-25 it asks for one with `task`. A 2026-07-28 call that asks the client before it
    /// becomes a task is answered round after round, as [`PendingCall::finish`] does.
    ///
    /// [`PendingCall::finish`]: crate::testing::PendingCall::finish
    pub fn call_as_task(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> std::result::Result<TaskCall, RpcError> {
        let mut params = json!({"name": name, "arguments": arguments});
        if self.revision().has_experimental_tasks() {
            params["task"] = json!({});
        }
        let params = self.following(params);
        let mut call = self.start_with(params, false);
        let mut answer = outcome(call.rounds())?;
        let id = if answer.get("task").is_some() {
            answer["task"]["taskId"].take()
        } else if answer["resultType"] == "task" {
            answer["taskId"].take()
        } else {
            return call.result(answer).map(TaskCall::Result);
        };
        match id {
            Value::String(id) => Ok(TaskCall::Task(id)),
            other => panic!("a task without a string id: {other}"),
        }
    }

    /// The task as `tasks/get` answers it now.
    pub fn get_task(&mut self, id: &str) -> std::result::Result<Value, RpcError> {
        let params = self.following(json!({"taskId": id}));
        self.request("tasks/get", params)
    }

    /// Answers some of the asks a task waits on (`tasks/update`, 2026-07-28): `responses` by
    /// their keys in its `inputRequests`.
    pub fn update_task(
        &mut self,
        id: &str,
        responses: Value,
    ) -> std::result::Result<Value, RpcError> {
        let params = self.following(json!({"taskId": id, "inputResponses": responses}));
        self.request("tasks/update", params)
    }

    /// Cancels a task (`tasks/cancel`).
    pub fn cancel_task(&mut self, id: &str) -> std::result::Result<Value, RpcError> {
        let params = self.following(json!({"taskId": id}));
        self.request("tasks/cancel", params)
    }

    /// Follows a task to its end, as a client does: polls `tasks/get` at the interval the
    /// server asks for, answers what the task asks with this client's
    /// [`Answers`](crate::testing::Answers) (`tasks/update`), and reads the result (inlined
    /// on 2026-07-28, from `tasks/result` on 2025-11-25).
    ///
    /// # Panics
    /// When the task has not ended within the client's timeout.
    pub fn finish_task(&mut self, name: &str, id: &str) -> std::result::Result<TaskEnd, RpcError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let task = self.get_task(id)?;
            let status = task["status"].as_str().unwrap_or_default();
            match status {
                "completed" | "failed" => return self.ended(name, id, task),
                "cancelled" => return Ok(TaskEnd::Cancelled),
                // 2025-11-25 has no `tasks/update`: `tasks/result` carries the task's asks as
                // requests, which this client answers, and waits for the end.
                "input_required" if !self.revision().has_tasks_extension() => {
                    return self.ended(name, id, task);
                }
                "input_required" => {
                    let mut responses = Map::new();
                    if let Some(Value::Object(requests)) = task.get("inputRequests") {
                        for (key, request) in requests {
                            let method = request["method"].as_str().unwrap_or_default();
                            let params = request.get("params").cloned().unwrap_or_default();
                            if let Ok(response) = self.conversation.respond(method, &params) {
                                responses.insert(key.clone(), response);
                            }
                        }
                    }
                    self.update_task(id, Value::Object(responses))?;
                    continue;
                }
                _ => {}
            }
            assert!(
                Instant::now() < deadline,
                "the task `{id}` of `{name}` did not end within {:?}",
                self.timeout
            );
            let poll = task["pollIntervalMs"]
                .as_u64()
                .or_else(|| task["pollInterval"].as_u64())
                .unwrap_or(50);
            std::thread::sleep(Duration::from_millis(poll.min(200)));
        }
    }

    /// How an ended task ended, read as this revision reads it.
    fn ended(
        &mut self,
        name: &str,
        id: &str,
        mut task: Value,
    ) -> std::result::Result<TaskEnd, RpcError> {
        let answer = match self.revision().has_tasks_extension() {
            true => match task.get_mut("error") {
                Some(error) => json!({"error": error.take()}),
                None => json!({"result": task["result"].take()}),
            },
            false => {
                let params = json!({"taskId": id});
                match self.request("tasks/result", params) {
                    Ok(result) => json!({"result": result}),
                    Err(error) => return Ok(TaskEnd::Failed(error)),
                }
            }
        };
        match outcome(answer) {
            Ok(result) => {
                let received = Received::new(None);
                Ok(TaskEnd::Completed(self.read_result(name, result, received)))
            }
            Err(error) => Ok(TaskEnd::Failed(error)),
        }
    }
}
