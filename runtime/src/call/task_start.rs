//! [`TaskStart`]: where a tool that may run as a task becomes one, when it is not from the
//! start.

use crate::call::context::Context;
use crate::call::inject::{Inject, Requirements};
use crate::tools::ToolOutput;

/// The point where a call of a tool that runs as a task (`#[mcp_tool(task = "...")]`) becomes
/// one. Without it the call is a task before the tool runs; with it the tool runs first as any
/// call (it can ask the client, in 2026-07-28 rounds or as requests, and answer at once) and
/// becomes a task when it calls [`start`](TaskStart::start): from there the request is
/// answered with the task, and the tool's result becomes the task's.
///
/// ```ignore
/// #[mcp_tool(task = "required")]
/// async fn import(who: Elicit<Name>, task: TaskStart) -> Result<String, ToolError> {
///     let Answer::Accept(name) = who.ask("Who is importing?").await? else { ... };
///     task.start().await; // the client polls from here on
///     Ok(format!("imported for {}", name.name))
/// }
/// ```
pub struct TaskStart {
    cx: Context,
}

impl Inject for TaskStart {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(TaskStart { cx: cx.clone() })
    }

    fn require(requirements: &mut Requirements) {
        requirements.starts_task();
    }
}

impl TaskStart {
    /// Makes the rest of this call a task, for a client that can follow one, and returns
    /// whether it is one. `false` means the call goes on as a call, answered with the tool's
    /// result: the client cannot follow a task (the tool says `task = "optional"`), or the
    /// task could not be stored, in which case the request is answered with that error and
    /// the call's [`Cancellation`](crate::Cancellation) fires. Calling it again changes
    /// nothing.
    pub async fn start(&self) -> bool {
        self.cx.0.escalate().await.is_some()
    }

    /// Whether the call is a task now.
    pub fn is_task(&self) -> bool {
        self.cx.0.task_run().is_some()
    }
}

impl std::fmt::Debug for TaskStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskStart")
            .field("task", &self.is_task())
            .finish()
    }
}
