use toolwright::prelude::*;
use toolwright::tasks::TaskStart;

/// `task` takes one of two words.
#[mcp_tool(task = "always")]
fn export() -> String {
    String::new()
}

/// A time to live is for a tool that runs as a task.
#[mcp_tool(task_ttl_ms = 60000)]
fn build() -> String {
    String::new()
}

/// Kept for no time at all.
#[mcp_tool(task = "optional", task_ttl_ms = 0)]
fn crawl() -> String {
    String::new()
}

/// `TaskStart` needs a tool that runs as a task.
#[mcp_tool]
async fn import(task: TaskStart) -> String {
    task.start().await;
    String::new()
}

/// `TaskStart` is awaited.
#[mcp_tool(task = "optional")]
fn sync_import(task: TaskStart) -> String {
    let _ = task;
    String::new()
}

/// A prompt is never a task.
#[mcp_prompt]
async fn summarize(task: TaskStart) -> String {
    let _ = task;
    String::new()
}

fn main() {}
