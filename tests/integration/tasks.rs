//! Tools that run as tasks: one attribute, the same function in every era. On 2026-07-28 a
//! call becomes a task for a request that declared the extension (polled with `tasks/get`,
//! answered with `tasks/update`, cancelled with `tasks/cancel`); on 2025-11-25 for a request
//! that asked with `params.task`; before, and for other clients, it is a call.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::context::Auth;
use toolwright::prelude::*;
use toolwright::tasks::TaskStart;
use toolwright::testing::{Answers, Client, TaskCall, TaskEnd};

const MODERN: ProtocolVersion = ProtocolVersion::V2026_07_28;
const EXPERIMENTAL: ProtocolVersion = ProtocolVersion::V2025_11_25;

/// Works for `ms` milliseconds, saying how far it got, unless cancelled.
#[mcp_tool(task = "optional")]
async fn slow(ms: u64, progress: Progress, cancel: Cancellation) -> Result<String, ToolError> {
    progress.report(1.0, Some(2.0), Some("halfway"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => Ok(format!("slept {ms} ms")),
        () = cancel.cancelled() => Err(ToolError::new("stopped")),
    }
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Deletes a file once the user confirms.
#[mcp_tool(task = "optional")]
async fn confirm_delete(file: String, ask: Elicit<Confirm>) -> Result<String, ToolError> {
    match ask.form(format!("Delete {file}?")).await? {
        Answer::Accept(Confirm { confirm: true }) => Ok(format!("deleted {file}")),
        _ => Ok(format!("kept {file}")),
    }
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// Asks for two names at once.
#[mcp_tool(task = "optional")]
async fn two_names(ask: Elicit<Name>) -> Result<String, ToolError> {
    let (a, b) = tokio::join!(ask.form("First?"), ask.form("Second?"));
    let name = |answer: Answer<Name>| match answer {
        Answer::Accept(Name { name }) => name,
        _ => "nobody".into(),
    };
    Ok(format!("{} and {}", name(a?), name(b?)))
}

/// Asks who is calling, then runs on as a task.
#[mcp_tool(task = "required", task_ttl_ms = 60000)]
async fn greet_later(who: Elicit<Name>, task: TaskStart) -> Result<String, ToolError> {
    let Answer::Accept(Name { name }) = who.form("Your name?").await? else {
        return Ok("no name".into());
    };
    let started = task.start().await;
    Ok(format!("hello {name} (a task: {started})"))
}

/// Says how far it got, then asks.
#[mcp_tool(task = "optional")]
async fn staged(progress: Progress, ask: Elicit<Name>) -> Result<String, ToolError> {
    progress.report(1.0, Some(3.0), Some("stage 1: reading"));
    progress.report(2.0, Some(3.0), Some("stage 2: waiting for a name"));
    let Answer::Accept(Name { name }) = ask.form("Your name?").await? else {
        return Ok("no name".into());
    };
    Ok(format!("hello {name}"))
}

/// Fails as a tool does.
#[mcp_tool(task = "required")]
fn failing_job() -> Result<String, ToolError> {
    Err(ToolError::new("the job failed"))
}

/// Panics.
#[mcp_tool(task = "optional")]
fn panicking_job() -> String {
    panic!("the job broke")
}

/// Never a task.
#[mcp_tool]
fn plain() -> String {
    "plain".into()
}

fn server() -> Server {
    Server::new("tasks", "1")
        .tool::<slow>()
        .tool::<confirm_delete>()
        .tool::<two_names>()
        .tool::<greet_later>()
        .tool::<staged>()
        .tool::<failing_job>()
        .tool::<panicking_job>()
        .tool::<plain>()
        .task_poll_interval(Duration::from_millis(10))
}

fn answers() -> Answers {
    Answers::new().elicitation(|request| {
        let content = match request["message"].as_str() {
            Some("Your name?" | "First?") => json!({"name": "Ada"}),
            Some("Second?") => json!({"name": "Grace"}),
            _ => json!({"confirm": true}),
        };
        json!({"action": "accept", "content": content})
    })
}

fn client(revision: ProtocolVersion) -> Client {
    Client::connect_answering(server(), revision, answers()).unwrap()
}

fn task(call: TaskCall) -> String {
    match call {
        TaskCall::Task(id) => id,
        TaskCall::Result(result) => panic!("answered at once: {}", result.text()),
        other => panic!("{other:?}"),
    }
}

/// Waits until the task's status is `status`.
fn wait_for(client: &mut Client, id: &str, status: &str) -> Value {
    for _ in 0..500 {
        let task = client.get_task(id).unwrap();
        if task["status"] == status {
            return task;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the task never became {status}");
}

#[test]
fn a_task_runs_to_its_result_in_both_revisions() {
    for revision in [MODERN, EXPERIMENTAL] {
        let mut client = client(revision);
        let id = task(client.call_as_task("slow", json!({"ms": 50})).unwrap());
        assert_eq!(id.len(), 32, "128 bits in hex");
        let working = client.get_task(&id).unwrap();
        assert_eq!(working["status"], "working", "{revision}");
        assert!(working.get("result").is_none());
        let result = client.finish_task("slow", &id).unwrap().completed();
        assert_eq!(result.text(), "slept 50 ms", "{revision}");
        let done = client.get_task(&id).unwrap();
        assert_eq!(done["status"], "completed", "{revision}");
        assert_eq!(
            done["statusMessage"], "halfway",
            "progress is the status message"
        );
    }
}

#[test]
fn the_wire_fields_follow_the_revision() {
    let mut modern = client(MODERN);
    let params = json!({"name": "slow", "arguments": {"ms": 10},
        "_meta": {"io.modelcontextprotocol/clientCapabilities":
                  {"extensions": {"io.modelcontextprotocol/tasks": {}}}}});
    let created = modern.request("tools/call", params).unwrap();
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert_eq!(created["ttlMs"], 3_600_000);
    assert_eq!(created["pollIntervalMs"], 10);
    for absent in [
        "task",
        "ttl",
        "pollInterval",
        "requestState",
        "inputRequests",
    ] {
        assert!(created.get(absent).is_none(), "{absent}: {created}");
    }
    let mut legacy = client(EXPERIMENTAL);
    let created = legacy
        .request(
            "tools/call",
            json!({"name": "slow", "arguments": {"ms": 10}, "task": {}}),
        )
        .unwrap();
    assert_eq!(created["task"]["status"], "working");
    assert_eq!(created["task"]["ttl"], 3_600_000);
    let tools = legacy.list_tools().unwrap();
    let support = |name: &str| {
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        tool["execution"]["taskSupport"].clone()
    };
    assert_eq!(support("slow"), "optional");
    assert_eq!(support("greet_later"), "required");
    assert_eq!(support("plain"), Value::Null);
}

#[test]
fn a_client_that_cannot_follow_a_task_gets_a_call_or_a_clear_error() {
    for revision in ProtocolVersion::ALL {
        let mut client = client(revision);
        let listed: Vec<Value> = client.list_tools().unwrap();
        let lists_required = listed.iter().any(|t| t["name"] == "failing_job");
        let has_tasks = revision.has_experimental_tasks() || revision.has_tasks_extension();
        assert_eq!(
            lists_required, has_tasks,
            "{revision}: a task-only tool where tasks exist"
        );
        let result = client.call("slow", json!({"ms": 1})).unwrap();
        assert_eq!(result.text(), "slept 1 ms", "{revision}");
        let error = client.call("failing_job", json!({})).unwrap_err();
        match revision.era() {
            toolwright::Era::Modern => {
                assert_eq!(error.code, -32021);
                assert_eq!(
                    error.data.unwrap(),
                    json!({"requiredCapabilities":
                           {"extensions": {"io.modelcontextprotocol/tasks": {}}}})
                );
            }
            toolwright::Era::Legacy => assert_eq!(error.code, -32601, "{revision}"),
        }
    }
}

#[test]
fn a_tool_that_never_runs_as_a_task_answers_at_once() {
    let mut modern = client(MODERN);
    match modern.call_as_task("plain", json!({})).unwrap() {
        TaskCall::Result(result) => assert_eq!(result.text(), "plain"),
        other => panic!("a task of a tool that does not run as one: {other:?}"),
    }
    let mut legacy = client(EXPERIMENTAL);
    let error = legacy.call_as_task("plain", json!({})).unwrap_err();
    assert_eq!(
        error.code, -32601,
        "2025-11-25 refuses a task of such a tool"
    );
}

#[test]
fn asks_inside_a_task_are_its_input_requests() {
    let mut client = client(MODERN);
    let id = task(
        client
            .call_as_task("confirm_delete", json!({"file": "a.txt"}))
            .unwrap(),
    );
    let waiting = wait_for(&mut client, &id, "input_required");
    let request = &waiting["inputRequests"]["confirm"];
    assert_eq!(request["method"], "elicitation/create", "{waiting}");
    assert_eq!(request["params"]["message"], "Delete a.txt?");
    let ack = client
        .update_task(
            &id,
            json!({"confirm": {"action": "accept", "content": {"confirm": true}},
                                 "unknown": {"action": "decline"}}),
        )
        .unwrap();
    assert_eq!(ack["resultType"], "complete");
    assert!(ack.get("status").is_none() && ack.get("taskId").is_none());
    let result = client
        .finish_task("confirm_delete", &id)
        .unwrap()
        .completed();
    assert_eq!(result.text(), "deleted a.txt");
}

#[test]
fn a_task_that_asks_shows_the_message_said_before_the_ask() {
    let mut client = client(MODERN);
    for _ in 0..20 {
        let id = task(client.call_as_task("staged", json!({})).unwrap());
        let waiting = wait_for(&mut client, &id, "input_required");
        assert_eq!(
            waiting["statusMessage"], "stage 2: waiting for a name",
            "{waiting}"
        );
        client.cancel_task(&id).unwrap();
    }
}

#[test]
fn asks_made_at_once_wait_until_each_is_answered() {
    let mut client = client(MODERN);
    let id = task(client.call_as_task("two_names", json!({})).unwrap());
    let mut waiting = wait_for(&mut client, &id, "input_required");
    for _ in 0..200 {
        if waiting["inputRequests"].as_object().unwrap().len() == 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        waiting = client.get_task(&id).unwrap();
    }
    let keys: Vec<&String> = waiting["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["name", "name_2"], "{waiting}");
    let first = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
    client.update_task(&id, first).unwrap();
    let partly = client.get_task(&id).unwrap();
    assert_eq!(partly["status"], "input_required");
    let left: Vec<&String> = partly["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(left, ["name_2"]);
    let second = json!({"name_2": {"action": "accept", "content": {"name": "Grace"}}});
    client.update_task(&id, second).unwrap();
    let result = client.finish_task("two_names", &id).unwrap().completed();
    assert_eq!(result.text(), "Ada and Grace");
}

#[test]
fn a_tool_asks_in_rounds_then_becomes_a_task() {
    let mut client = client(MODERN);
    let id = task(client.call_as_task("greet_later", json!({})).unwrap());
    let result = client.finish_task("greet_later", &id).unwrap().completed();
    assert_eq!(result.text(), "hello Ada (a task: true)");
    let task = client.get_task(&id).unwrap();
    assert_eq!(task["ttlMs"], 60_000, "the tool's own time to live");
}

#[test]
fn cancelling_fires_the_tools_cancellation_and_ends_the_task_once() {
    for revision in [MODERN, EXPERIMENTAL] {
        let mut client = client(revision);
        let id = task(client.call_as_task("slow", json!({"ms": 60000})).unwrap());
        client.cancel_task(&id).unwrap();
        let end = client.finish_task("slow", &id).unwrap();
        assert!(matches!(end, TaskEnd::Cancelled), "{revision}: {end:?}");
        std::thread::sleep(Duration::from_millis(50));
        let task = client.get_task(&id).unwrap();
        assert_eq!(
            task["status"], "cancelled",
            "the tool's late result changes nothing"
        );
        let again = client.cancel_task(&id);
        match revision {
            MODERN => assert_eq!(again.unwrap()["resultType"], "complete"),
            _ => assert_eq!(again.unwrap_err().code, -32602, "{revision}"),
        }
    }
}

#[test]
fn a_tool_error_completes_and_a_panic_fails() {
    let mut client = client(MODERN);
    let id = task(client.call_as_task("failing_job", json!({})).unwrap());
    let result = client.finish_task("failing_job", &id).unwrap().completed();
    assert!(result.is_error());
    assert_eq!(result.text(), "the job failed");
    let id = task(client.call_as_task("panicking_job", json!({})).unwrap());
    let TaskEnd::Failed(error) = client.finish_task("panicking_job", &id).unwrap() else {
        panic!("a panic fails the task");
    };
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("ref"), "{}", error.message);
    assert!(
        !error.message.contains("broke"),
        "masked: {}",
        error.message
    );
    let task = client.get_task(&id).unwrap();
    assert!(task.get("result").is_none(), "{task}");
}

#[test]
fn a_task_is_its_callers_alone() {
    let server = server();
    let mut ada = Client::connect_answering(server, MODERN, answers())
        .unwrap()
        .caller(Auth::new("ada"));
    let id = task(ada.call_as_task("slow", json!({"ms": 5000})).unwrap());
    let mut grace = Client::connect_answering(self::server(), MODERN, answers()).unwrap();
    // Another server instance does not share the in-process store; the same server does.
    let unknown = grace.get_task(&id).unwrap_err();
    assert_eq!(unknown.code, -32602);
    // The same connection, another subject: every method answers as for an unknown id.
    let mut ada_again = ada.caller(Auth::new("grace"));
    for error in [
        ada_again.get_task(&id).unwrap_err(),
        ada_again.cancel_task(&id).unwrap_err(),
        ada_again.update_task(&id, json!({})).unwrap_err(),
    ] {
        assert_eq!(error.code, -32602);
        assert_eq!(
            error.message,
            format!("Invalid params: unknown task `{id}`")
        );
    }
    let mut ada = ada_again.caller(Auth::new("ada"));
    assert_eq!(ada.get_task(&id).unwrap()["status"], "working");
    for tampered in ["0".repeat(32), format!("{}x", &id[..31]), String::new()] {
        assert_eq!(ada.get_task(&tampered).unwrap_err().code, -32602);
    }
}

#[test]
fn task_methods_need_the_extension_and_the_removed_ones_are_gone() {
    let mut client = client(MODERN);
    let id = task(client.call_as_task("slow", json!({"ms": 10})).unwrap());
    for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
        let error = client
            .request(method, json!({"taskId": id, "inputResponses": {}}))
            .unwrap_err();
        assert_eq!(error.code, -32021, "{method}");
    }
    for method in ["tasks/result", "tasks/list"] {
        let error = client.request(method, json!({"taskId": id})).unwrap_err();
        assert_eq!(error.code, -32601, "{method}");
    }
    let bad = client
        .update_task(&id, json!({"confirm": "yes"}))
        .unwrap_err();
    assert_eq!(bad.code, -32602);
    assert_eq!(
        client.update_task(&id, json!([1])).unwrap_err().code,
        -32602
    );
}

#[test]
fn a_session_lists_its_tasks_on_2025_11_25() {
    let mut client = client(EXPERIMENTAL);
    let first = task(client.call_as_task("slow", json!({"ms": 1})).unwrap());
    let second = task(client.call_as_task("slow", json!({"ms": 1})).unwrap());
    let listed = client.request("tasks/list", json!({})).unwrap();
    let mut ids: Vec<&str> = listed["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["taskId"].as_str().unwrap())
        .collect();
    // Latest created first: the two calls became tasks at about the same time, in either order.
    ids.sort_unstable();
    let mut made = [first.as_str(), second.as_str()];
    made.sort_unstable();
    assert_eq!(ids, made);
    let result = client
        .request("tasks/result", json!({"taskId": first}))
        .unwrap();
    assert_eq!(result["content"][0]["text"], "slept 1 ms");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        first
    );
}

#[test]
fn on_2025_11_25_tasks_result_carries_the_tasks_asks_and_progress_goes_on() {
    let mut client = client(EXPERIMENTAL);
    let id = task(
        client
            .call_as_task("confirm_delete", json!({"file": "b.txt"}))
            .unwrap(),
    );
    let waiting = wait_for(&mut client, &id, "input_required");
    assert!(
        waiting.get("inputRequests").is_none(),
        "2025-11-25 has no inputRequests"
    );
    let result = client
        .finish_task("confirm_delete", &id)
        .unwrap()
        .completed();
    assert_eq!(result.text(), "deleted b.txt");

    let params = json!({"name": "slow", "arguments": {"ms": 50}, "task": {},
                        "_meta": {"progressToken": "p"}});
    let created = client.request("tools/call", params).unwrap();
    assert_eq!(created["task"]["status"], "working");
    let line: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert_eq!(line["method"], "notifications/progress", "{line}");
    assert_eq!(line["params"]["progressToken"], "p");
    assert_eq!(line["params"]["message"], "halfway");
}

/// Notes that its call was cancelled.
#[derive(Default)]
struct Stopped(std::sync::atomic::AtomicBool);

/// Waits until cancelled, and says so.
#[mcp_tool(task = "optional")]
async fn wait_for_cancel(cancel: Cancellation, stopped: State<Stopped>) -> String {
    cancel.cancelled().await;
    stopped.0.store(true, std::sync::atomic::Ordering::SeqCst);
    "stopped".into()
}

#[test]
fn reading_a_task_does_not_wait_behind_the_running_ones() {
    let server = server().max_in_flight(1);
    let mut client = Client::connect_answering(server, MODERN, answers()).unwrap();
    let id = task(client.call_as_task("slow", json!({"ms": 60000})).unwrap());
    // The one place under the cap is the running task's; reading and cancelling it still go.
    assert_eq!(client.get_task(&id).unwrap()["status"], "working");
    client.cancel_task(&id).unwrap();
    assert_eq!(client.get_task(&id).unwrap()["status"], "cancelled");
}

#[test]
fn a_server_that_runs_no_tasks_ignores_a_request_for_one() {
    let server = Server::new("plain", "1").tool::<plain>();
    let mut client = Client::connect(server, EXPERIMENTAL).unwrap();
    let result = client
        .request(
            "tools/call",
            json!({"name": "plain", "arguments": {}, "task": {}}),
        )
        .unwrap();
    assert_eq!(result["content"][0]["text"], "plain");
}

#[test]
fn a_session_that_ends_stops_the_tasks_only_it_could_follow() {
    let stopped = std::sync::Arc::new(Stopped::default());
    let server = Server::new("waiting", "1")
        .tool::<wait_for_cancel>()
        .shared_state(std::sync::Arc::clone(&stopped));
    let mut client = Client::connect(server, EXPERIMENTAL).unwrap();
    let id = task(client.call_as_task("wait_for_cancel", json!({})).unwrap());
    assert_eq!(client.get_task(&id).unwrap()["status"], "working");
    drop(client);
    let seen = (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        stopped.0.load(std::sync::atomic::Ordering::SeqCst)
    });
    assert!(
        seen,
        "the task's tool saw its cancellation when its session ended"
    );
}

#[test]
fn task_settings_out_of_range_stop_the_server() {
    for server in [
        server().task_ttl(Duration::ZERO),
        server().task_lease(Duration::ZERO),
        server().task_lease(Duration::from_secs(86_401)),
        server().task_poll_interval(Duration::ZERO),
    ] {
        let error = Client::new(server).err().expect("refused");
        assert!(matches!(error, toolwright::Error::Setting(_)), "{error}");
    }
}

/// Answers at once, and is kept for a fifth of a second.
#[mcp_tool(task = "optional", task_ttl_ms = 200)]
fn fleeting() -> String {
    "gone soon".into()
}

#[test]
fn an_expired_task_is_unknown_and_a_finished_one_stays_finished() {
    let mut client = Client::connect_answering(server_with_fleeting(), MODERN, answers()).unwrap();
    let id = task(client.call_as_task("fleeting", json!({})).unwrap());
    let done = client.finish_task("fleeting", &id).unwrap().completed();
    assert_eq!(done.text(), "gone soon");
    // Cancelling a task that completed is acknowledged, and changes nothing.
    assert_eq!(client.cancel_task(&id).unwrap()["resultType"], "complete");
    assert_eq!(client.get_task(&id).unwrap()["status"], "completed");
    std::thread::sleep(Duration::from_millis(300));
    let expired = client.get_task(&id).unwrap_err();
    assert_eq!(expired.code, -32602, "an expired task is as unknown as any");
    assert_eq!(client.cancel_task(&id).unwrap_err().code, -32602);

    let mut legacy =
        Client::connect_answering(server_with_fleeting(), EXPERIMENTAL, answers()).unwrap();
    let id = task(legacy.call_as_task("fleeting", json!({})).unwrap());
    legacy.finish_task("fleeting", &id).unwrap().completed();
    let refused = legacy.cancel_task(&id).unwrap_err();
    assert_eq!(
        refused.code, -32602,
        "2025-11-25 refuses to cancel an ended task"
    );
    assert!(
        refused.message.contains("already ended (completed)"),
        "{}",
        refused.message
    );
}

fn server_with_fleeting() -> Server {
    server().tool::<fleeting>()
}
