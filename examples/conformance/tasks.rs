//! Fixture tools of the tasks extension's scenarios (SEP-2663): each is a plain tool with
//! `task = "..."`; the server decides per request whether a call becomes a task.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::prelude::*;

/// Greets someone, at once: never a task.
///
/// # Arguments
/// * `name` - Who to greet.
#[mcp_tool(read_only)]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Computes for `seconds` seconds, then answers; stops when cancelled.
///
/// # Arguments
/// * `seconds` - How long the computation takes.
/// * `label` - A label echoed in the result.
#[mcp_tool(read_only, task = "optional")]
async fn slow_compute(
    seconds: f64,
    label: Option<String>,
    cancel: Cancellation,
) -> Result<String, ToolError> {
    let wait = Duration::from_secs_f64(seconds.clamp(0.0, 600.0));
    let label = label.as_deref().unwrap_or("no label");
    tokio::select! {
        () = tokio::time::sleep(wait) => {}
        () = cancel.cancelled() => {
            // On stderr (stdout is the protocol's): a replica's log shows that a cancellation
            // made on another replica reached it.
            eprintln!("slow_compute stopped: {label} was cancelled");
            return Err(ToolError::new("cancelled"));
        }
    }
    Ok(format!("Computed for {seconds}s ({label})"))
}

/// Runs a job that always fails, after a second: a tool error. Only as a task.
#[mcp_tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed"))
}

/// Runs a job that breaks: an internal error, which fails its task.
#[mcp_tool(task = "optional")]
async fn protocol_error_job() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("the job broke")
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Delete it?
    confirm: bool,
}

/// Deletes a file once the user confirms.
///
/// # Arguments
/// * `filename` - The file to delete.
#[mcp_tool(destructive, task = "optional")]
async fn confirm_delete(filename: String, ask: Elicit<Confirm>) -> Result<String, ToolError> {
    match ask.form(format!("Delete {filename}?")).await? {
        Answer::Accept(Confirm { confirm: true }) => Ok(format!("Deleted {filename}")),
        _ => Ok(format!("Kept {filename}")),
    }
}

#[derive(Deserialize, JsonSchema)]
struct Pick {
    /// A name.
    name: Option<String>,
    /// Go on?
    confirm: Option<bool>,
}

/// Asks two questions at once.
#[mcp_tool(task = "optional")]
async fn multi_input(ask: Elicit<Pick>) -> Result<String, ToolError> {
    let (first, second) = tokio::join!(ask.form("First choice?"), ask.form("Second choice?"));
    let name = |answer: Answer<Pick>| match answer {
        Answer::Accept(Pick { name, confirm }) => {
            format!(
                "{} ({})",
                name.unwrap_or_default(),
                confirm.unwrap_or_default()
            )
        }
        _ => "none".into(),
    };
    Ok(format!("Picked {} and {}", name(first?), name(second?)))
}

#[derive(Deserialize, JsonSchema)]
struct UserName {
    /// Your name.
    name: String,
}

/// Asks for the user's name, then goes on as a task that greets them.
#[mcp_tool(task = "required")]
async fn test_tool_with_task(ask: Elicit<UserName>, task: TaskStart) -> Result<String, ToolError> {
    let Answer::Accept(UserName { name }) = ask.form("What is your name?").await? else {
        return Ok("No name given".into());
    };
    task.start().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}, from a task"))
}
