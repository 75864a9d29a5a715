//! The `tasks/*` methods.
//!
//! Policy:
//!
//! - A caller's request about a task it does not own is answered as for an unknown id:
//!   `-32602`, on every method (see `task_opening` for who owns a task).
//! - On 2026-07-28 `tasks/get`, `tasks/update` and `tasks/cancel` need the extension declared
//!   on the request (`-32021`); `tasks/result` and `tasks/list` are gone (`-32601`).
//!   `tasks/cancel` of an ended task is acknowledged (SEP-2663); `tasks/update` ignores answers
//!   to asks the task does not wait on, and refuses an answer that is not an object.
//! - On 2025-11-25, `tasks/cancel` of an ended task is `-32602` (as that revision says),
//!   `tasks/result` waits for the end, and `tasks/list` lists the session's latest tasks that
//!   are still kept.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::call::outlet::{ClientReply, Peer};
use crate::call::record::CallRecord;
use crate::protocol::ProtocolVersion;
use crate::protocol::id::is_random_id;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::method::Method;
use crate::protocol::quote::quoted;
use crate::server::batch::Batch;
use crate::server::engine::Engine;
use crate::server::methods::calls::Request;
use crate::server::methods::reads::Run;
use crate::server::methods::skills::revision_fields;
use crate::server::methods::task_opening::{declares_extension, missing_extension};
use crate::server::reply::Reply;
use crate::server::session::{Session, SessionTasks};
use crate::tasks::book::{TaskBook, TaskError};
use crate::tasks::record::Status;
use crate::tasks::wire;
use crate::tools::binding::Arguments;
use crate::tools::render::Rendered;

/// The `_meta` key that ties a 2025-11-25 message to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// The error for a task this caller cannot see.
fn unknown(id: &str) -> ProtocolError {
    ProtocolError::invalid_params(format_args!("unknown task `{}`", quoted(id)))
}

/// A `tasks/*` request, once its era and method are known to be served.
enum TaskMethod {
    Get,
    Update(Map<String, Value>),
    Cancel,
    Result,
    List,
}

impl Session {
    /// A `tasks/*` request (the server runs tasks).
    pub(crate) fn task_request(
        &self,
        method: &Method<'_>,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let version = request.version;
        let modern = version.has_tasks_extension();
        if !modern && !version.has_experimental_tasks() {
            return Err(ProtocolError::method_not_found(method.name()));
        }
        let known = match method {
            Method::TasksGet | Method::TasksCancel => true,
            Method::TasksUpdate => modern,
            Method::TasksResult | Method::TasksList => !modern,
            _ => false,
        };
        if !known {
            return Err(ProtocolError::method_not_found(method.name()));
        }
        if modern && !declares_extension(request.meta) {
            return Err(missing_extension("`tasks/*`"));
        }
        let method = match method {
            Method::TasksGet => TaskMethod::Get,
            Method::TasksCancel => TaskMethod::Cancel,
            Method::TasksUpdate => TaskMethod::Update(responses(request)?),
            Method::TasksResult => TaskMethod::Result,
            _ => TaskMethod::List,
        };
        let id = match method {
            TaskMethod::List => String::new(),
            _ => request
                .params
                .rare()
                .task_id
                .as_deref()
                .ok_or_else(|| ProtocolError::invalid_params("missing field `taskId`"))?
                .to_owned(),
        };
        // An id this server could not have made is unknown before anything is looked up (or
        // watched) for it.
        if !matches!(method, TaskMethod::List) && !is_random_id(&id) {
            return Err(unknown(&id));
        }
        let owner = self.task_owner(version, request.scope);
        let book = Arc::clone(&self.engine.tasks);
        let listed = Arc::clone(self.tasks());
        let peer = Arc::clone(self.peer());
        let run = Run {
            name: Cow::Borrowed("tasks"),
            // Reading or changing a task is quick, and must not wait behind the tasks running
            // (which count as calls); a `tasks/result` waits, and counts.
            counted: matches!(method, TaskMethod::Result),
            instance: None,
            states: Arc::clone(&self.engine.states),
            arguments: Arguments::new(None),
            uri: None,
            asking: None,
            produce: Box::new(move |invocation, _| {
                Box::pin(async move {
                    let answer = match method {
                        TaskMethod::List => list(&book, &owner, &listed, version).await,
                        TaskMethod::Result => {
                            let record = Arc::clone(&invocation.context.0);
                            let asker = Asker { peer, record };
                            result(&book, &id, &owner, &asker).await
                        }
                        method => one(&book, &id, &owner, method, version).await,
                    };
                    answer.map_err(|refusal| match refusal {
                        Refusal::Task(TaskError::Unknown) => unknown(&id),
                        Refusal::Task(TaskError::Store(error)) => {
                            ProtocolError::internal(format_args!("{error}"))
                        }
                        Refusal::Error(error) => error,
                    })
                })
            }),
            render: Box::new(
                move |engine: &Engine, record: &CallRecord, answer| match answer {
                    Ok(mut result) => {
                        revision_fields(&mut result, engine, version, false);
                        Rendered::result(jsonrpc::result_line(&record.id, &result))
                    }
                    Err(error) => Rendered::error(&record.id, &error),
                },
            ),
        };
        self.run(request, batch, run)
    }
}

/// Why a `tasks/*` request is refused.
enum Refusal {
    Task(TaskError),
    /// The error it is answered with (`tasks/result` of a failed task: the task's).
    Error(ProtocolError),
}

impl From<TaskError> for Refusal {
    fn from(error: TaskError) -> Refusal {
        Refusal::Task(error)
    }
}

impl From<crate::tasks::store::StoreError> for Refusal {
    fn from(error: crate::tasks::store::StoreError) -> Refusal {
        Refusal::Task(TaskError::Store(error))
    }
}

/// The answers of a `tasks/update`: an object of result objects.
fn responses(request: &Request<'_>) -> Result<Map<String, Value>, ProtocolError> {
    let Some(raw) = request.params.input_responses else {
        return Err(ProtocolError::invalid_params(
            "missing field `inputResponses`",
        ));
    };
    let responses: Map<String, Value> = serde_json::from_str(raw.get())
        .map_err(|_| ProtocolError::invalid_params("`inputResponses` must be an object"))?;
    if let Some((key, _)) = responses.iter().find(|(_, r)| !r.is_object()) {
        return Err(ProtocolError::invalid_params(format_args!(
            "`inputResponses.{}` must be a result object",
            quoted(key)
        )));
    }
    Ok(responses)
}

/// `tasks/get`, `tasks/update`, `tasks/cancel` or `tasks/result` of the task `id`.
async fn one(
    book: &TaskBook,
    id: &str,
    owner: &str,
    method: TaskMethod,
    version: ProtocolVersion,
) -> Result<Value, Refusal> {
    let acknowledged = || json!({});
    match method {
        TaskMethod::Get => Ok(wire::detailed(&book.get(id, owner).await?, version)),
        TaskMethod::Update(responses) => {
            // Cloned for each try: a try that lost to another replica's change runs again.
            book.change(id, owner, |task, now| task.respond(responses.clone(), now))
                .await?;
            Ok(acknowledged())
        }
        TaskMethod::Cancel => {
            let mut ended = None;
            let task = book
                .change(id, owner, |task, now| {
                    ended = task.status.is_terminal().then_some(task.status);
                    task.cancel(now)
                })
                .await?;
            match ended {
                Some(status) if !version.has_tasks_extension() => {
                    Err(Refusal::Error(ProtocolError::invalid_params(format_args!(
                        "the task `{}` already ended ({})",
                        quoted(id),
                        status.as_str()
                    ))))
                }
                _ if version.has_tasks_extension() => Ok(acknowledged()),
                _ => Ok(Value::Object(wire::fields(&task, version))),
            }
        }
        TaskMethod::Result | TaskMethod::List => unreachable!("answered apart"),
    }
}

/// Where 2025-11-25's `tasks/result` asks the client what its task asks: the request's record
/// (its way back, and its cancellation).
struct Asker {
    peer: Arc<Peer>,
    record: Arc<CallRecord>,
}

/// 2025-11-25's `tasks/result`: the call's result once the task ends (with the related-task
/// `_meta`), or its error. Meanwhile what the task asks the client goes to the client as
/// requests on this request's way back (2025-11-25 has no `tasks/update`), each once, and
/// each answer is the task's.
async fn result(book: &TaskBook, id: &str, owner: &str, asker: &Asker) -> Result<Value, Refusal> {
    book.get(id, owner).await?;
    let mut watch = book.watch(id).await?;
    loop {
        if asker.record.gate.is_cancelled() {
            // The client left: nobody waits for this answer.
            return Err(Refusal::Error(ProtocolError::internal(
                "the request was cancelled",
            )));
        }
        let task = book.get(id, owner).await?;
        match task.status {
            Status::Completed => {
                let mut result = task.result.unwrap_or_default();
                result["_meta"][RELATED_TASK] = json!({"taskId": id});
                return Ok(result);
            }
            Status::Failed => {
                let error = task.error.unwrap_or_default();
                return Err(Refusal::Error(ProtocolError::written(&error)));
            }
            Status::Cancelled => {
                return Err(Refusal::Error(ProtocolError::internal(format_args!(
                    "the task `{id}` was cancelled"
                ))));
            }
            Status::InputRequired => {
                let mut forwarded = false;
                for (key, request) in task.input_requests {
                    forwarded |= forward(book, id, owner, asker, &key, request).await?;
                }
                if forwarded {
                    continue;
                }
            }
            Status::Working => {}
        }
        let poll = Duration::from_millis(task.poll_interval_ms.max(1));
        let _ = tokio::time::timeout(poll, watch.woken()).await;
    }
}

/// Asks the client what the task `id` asks under `key`, unless another `tasks/result` does, and
/// gives the task its answer, or its refusal; `false` when another sends it.
async fn forward(
    book: &TaskBook,
    id: &str,
    owner: &str,
    asker: &Asker,
    key: &str,
    request: Value,
) -> Result<bool, Refusal> {
    let mut mine = false;
    book.change(id, owner, |task, _| {
        mine = task.forward(key);
        mine
    })
    .await?;
    if !mine {
        return Ok(false);
    }
    let method = request["method"].as_str().unwrap_or_default().to_owned();
    let mut params = request.get("params").cloned().unwrap_or_else(|| json!({}));
    params["_meta"][RELATED_TASK] = json!({"taskId": id});
    let reply = asker.peer.request(&asker.record.outlet, &method, &params);
    match reply.await {
        Ok(ClientReply::Result(result)) => {
            let answer: Value = serde_json::from_str(result.get()).unwrap_or_default();
            let answers = Map::from_iter([(key.to_owned(), answer)]);
            book.change(id, owner, |task, now| task.respond(answers.clone(), now))
                .await?;
        }
        Ok(ClientReply::Error(error)) => {
            let error = json!({"code": error.code, "message": error.message});
            book.change(id, owner, |task, now| task.refuse(key, error.clone(), now))
                .await?;
        }
        // The client left unanswered: a later `tasks/result` may send it again.
        Err(_) => {
            book.change(id, owner, |task, _| task.unforward(key))
                .await?;
        }
    }
    Ok(true)
}

/// 2025-11-25's `tasks/list`: the session's tasks that are still kept, latest first.
async fn list(
    book: &TaskBook,
    owner: &str,
    listed: &SessionTasks,
    version: ProtocolVersion,
) -> Result<Value, Refusal> {
    let ids: Vec<String> = listed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .rev()
        .cloned()
        .collect();
    let mut tasks = Vec::new();
    for id in ids {
        match book.get(&id, owner).await {
            Ok(task) => tasks.push(Value::Object(wire::fields(&task, version))),
            Err(TaskError::Unknown) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(json!({"tasks": tasks}))
}
