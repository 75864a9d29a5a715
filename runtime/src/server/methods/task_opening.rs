//! Whether a `tools/call` may become a task, and making it one: the task stored, then the
//! request answered with it.
//!
//! Policy:
//!
//! - A call becomes a task only for a request that can follow one: on 2026-07-28 one that
//!   declared the extension `io.modelcontextprotocol/tasks` in its own `_meta`; on 2025-11-25
//!   one that asked with `params.task`. A tool that runs only as a task (`task = "required"`)
//!   is refused to any other: `-32021` naming the extension on 2026-07-28, `-32601` before (as
//!   2025-11-25 says). On 2025-11-25 a `params.task` for a tool that never runs as one is
//!   `-32601` too; on 2026-07-28 it is ignored, as SEP-2663 says.
//! - A task belongs to the caller that created it: the subject of the [`Auth`] an authentication
//!   layer put into the request's extensions, else (handshake era) its session; a 2026-07-28 request with
//!   neither has only the id, 128 random bits, to show.
//! - A task is kept for its tool's `task_ttl_ms`, else the server's time to live, from its
//!   creation; the request is answered only once the store has it, so that a `tasks/get` right
//!   after finds it on any replica.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::call::auth::Auth;
use crate::call::record::{CallRecord, Escalate, TaskSlot};
use crate::call::task::{Plan, TaskFuture, TaskRun};
use crate::item::tool::TaskSupport;
use crate::protocol::ProtocolVersion;
use crate::protocol::id::random_id;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::meta::Meta;
use crate::protocol::params::Params;
use crate::protocol::wire::TASKS_EXTENSION;
use crate::run::inflight::OpenRequests;
use crate::run::served::ServedTool;
use crate::server::delivery::answer;
use crate::server::engine::Engine;
use crate::server::session::{RequestScope, Session, SessionTasks};
use crate::tasks::record::{TaskRecord, millis, now_ms};
use crate::tasks::wire;
use crate::tools::render::{Rendered, masked_error};

/// The most tasks a session lists (`tasks/list`): its latest.
const LISTED: usize = 1024;

/// `-32021` naming the tasks extension.
pub(crate) fn missing_extension(what: &str) -> ProtocolError {
    ProtocolError::missing_client_capability_at(
        &["extensions", TASKS_EXTENSION],
        &format!("{what} needs the `{TASKS_EXTENSION}` extension, declared on the request"),
    )
}

impl Session {
    /// Who owns the tasks this request creates, and may see them.
    pub(crate) fn task_owner(&self, version: ProtocolVersion, scope: RequestScope<'_>) -> String {
        if let Some(auth) = scope.outlet.extensions().and_then(|e| e.get::<Auth>()) {
            return format!("subject:{}", auth.subject());
        }
        if version.has_tasks_extension() {
            return "anyone".to_owned();
        }
        let session = self.task_owner.get_or_init(random_id);
        format!("session:{session}")
    }

    /// How a call of `tool` becomes a task, if this request can follow one; a tool that runs
    /// only as a task is refused otherwise.
    pub(crate) fn task_slot(
        &self,
        version: ProtocolVersion,
        params: &Params<'_>,
        meta: &Meta<'_>,
        scope: RequestScope<'_>,
        tool: &ServedTool,
    ) -> Result<Option<Box<TaskSlot>>, ProtocolError> {
        let name = &*tool.spec.header.name;
        // A server that runs no tasks ignores `params.task`, as 2025-11-25 says.
        let asked = params.rare().task.is_some()
            && version.has_experimental_tasks()
            && self.engine.offer.tasks;
        if tool.spec.task == TaskSupport::Forbidden {
            if asked {
                return Err(ProtocolError::method_not_found_because(format_args!(
                    "the tool `{name}` does not run as a task; call it without `task`"
                )));
            }
            return Ok(None);
        }
        let follows = match version.has_tasks_extension() {
            true => declares_extension(meta),
            false => asked,
        };
        if !follows {
            return match tool.spec.task {
                TaskSupport::Required if version.has_tasks_extension() => {
                    Err(missing_extension(&format!("the tool `{name}`")))
                }
                TaskSupport::Required => {
                    Err(ProtocolError::method_not_found_because(format_args!(
                        "the tool `{name}` runs only as a task; call it with `task` (2025-11-25)"
                    )))
                }
                _ => Ok(None),
            };
        }
        let plan = match tool.held.needs.starts_task {
            true => Plan::ByTool,
            false => Plan::Start,
        };
        let tasks = &self.engine.tasks;
        let ttl = tool
            .spec
            .task_ttl_ms
            .map_or(tasks.ttl, Duration::from_millis);
        let opening = Opening {
            engine: Arc::clone(&self.engine),
            open: self.call_ids(),
            owner: self.task_owner(version, scope),
            ttl,
            listed: (!version.has_tasks_extension()).then(|| Arc::clone(self.tasks())),
        };
        Ok(Some(TaskSlot::new(plan, Box::new(opening))))
    }
}

/// Whether a 2026-07-28 request declared the tasks extension in its `_meta`.
pub(crate) fn declares_extension(meta: &Meta<'_>) -> bool {
    let Some(capabilities) = meta.client_capabilities else {
        return false;
    };
    let capabilities: Value = serde_json::from_str(capabilities.get()).unwrap_or_default();
    capabilities["extensions"][TASKS_EXTENSION].is_object()
}

/// Makes a call a task.
struct Opening {
    engine: Arc<Engine>,
    open: Option<Arc<OpenRequests>>,
    owner: String,
    ttl: Duration,
    /// The session's list of tasks, on 2025-11-25.
    listed: Option<SessionTasks>,
}

impl Escalate for Opening {
    fn escalate<'a>(&'a self, record: &'a Arc<CallRecord>) -> TaskFuture<'a, Option<Arc<TaskRun>>> {
        Box::pin(async move {
            let tasks = &self.engine.tasks;
            let now = now_ms();
            let task = TaskRecord {
                id: random_id(),
                owner: self.owner.clone(),
                tool: record.name.to_string(),
                version: record.version.as_str().to_owned(),
                created_at: now,
                updated_at: now,
                ttl_ms: millis(self.ttl),
                poll_interval_ms: millis(tasks.poll_interval),
                lease_until: now.saturating_add(millis(tasks.lease)),
                ..TaskRecord::default()
            };
            let span = record.span.take();
            let outcome = crate::call::span::Outcome::Ok;
            if let Err(error) = tasks.create(&task).await {
                let expose = self.engine.expose_internal_errors;
                let detail = format!("the task could not be created: {error}");
                let error = masked_error("tool", &record.name, expose, &detail);
                let rendered = Rendered::error(&record.id, &error);
                answer(self.open.as_deref(), None, record, &span, rendered, outcome);
                return None;
            }
            // Watched before the client can know of it, so that no change it makes is missed.
            let watch = tasks.watch(&task.id).await.ok();
            let mut result = wire::created(&task, record.version);
            server_meta(&mut result, &self.engine, record.version);
            let line = jsonrpc::result_line(&record.id, &result);
            // Listed before the answer leaves: a client may list its tasks as soon as it has it.
            if let Some(listed) = &self.listed {
                let mut listed = listed.lock().unwrap_or_else(|e| e.into_inner());
                if listed.len() == LISTED {
                    listed.pop_front();
                }
                listed.push_back(task.id.clone());
            }
            if !answer(
                self.open.as_deref(),
                None,
                record,
                &span,
                Rendered::result(line),
                outcome,
            ) {
                // The request was cancelled meanwhile: nobody can follow the task.
                if let Some(listed) = &self.listed {
                    let mut listed = listed.lock().unwrap_or_else(|e| e.into_inner());
                    listed.retain(|id| *id != task.id);
                }
                let _ = tasks
                    .change(&task.id, &task.owner, |t, now| t.cancel(now))
                    .await;
                return None;
            }
            self.engine.running.insert(&task.id, &task.owner, record);
            let book = Arc::clone(tasks);
            Some(Arc::new(TaskRun::new(task.id, task.owner, book, watch)))
        })
    }
}

/// Adds the server's `_meta` to a 2026-07-28 result that already says its type.
fn server_meta(result: &mut Value, engine: &Engine, version: ProtocolVersion) {
    if version.has_result_type() {
        result["_meta"] = serde_json::from_str(engine.server_meta.get()).unwrap_or_default();
    }
}
