//! Asks shaped while the program runs: a form built from a schema value (checked against what
//! the specification allows a form), a URL elicitation whose id the tool chose and whose end it
//! announces, sampling and elicitation sent to a 2025-11-25 client as tasks it runs, and the
//! asks of a tool made at run time.

use crate::common;

use std::time::Duration;

use common::PipedServer;
use serde_json::{Value, json};
use toolwright::asking::SamplingRequest;
use toolwright::prelude::*;
use toolwright::testing::{Answers, Client};
use toolwright::tools::ToolDef;
use toolwright::{Context, ProtocolVersion, Server};

/// A tool whose form offers the choices its arguments name.
fn pick() -> ToolDef {
    ToolDef::new("pick", |arguments: Value, cx: Context| async move {
        let choices = arguments["choices"].clone();
        let form = json!({
            "type": "object",
            "properties": {"choice": {"type": "string", "title": "Choice", "enum": choices}},
            "required": ["choice"]
        });
        match Elicit::new(&cx).form_schema("Pick one", &form).await? {
            Answer::Accept(content) => Ok::<_, ToolError>(format!("picked {}", content["choice"])),
            Answer::Decline | Answer::Cancel => Ok("picked nothing".to_owned()),
        }
    })
    .input_schema(json!({
        "type": "object",
        "properties": {"choices": {"type": "array", "items": {"type": "string"}}},
        "required": ["choices"]
    }))
    .asks()
}

/// Answers every form with `choice`, after checking the choices it was offered.
fn choosing(choice: &'static str) -> Answers {
    Answers::new().elicitation(move |params| {
        let offered = &params["requestedSchema"]["properties"]["choice"]["enum"];
        assert_eq!(offered, &json!(["red", "blue"]), "{params}");
        json!({"action": "accept", "content": {"choice": choice}})
    })
}

#[test]
fn a_form_from_a_schema_value_in_every_revision_that_elicits() {
    let server = || Server::new("asking", "1").tool_def(pick());
    let arguments = json!({"choices": ["red", "blue"]});
    for revision in ProtocolVersion::ALL
        .into_iter()
        .filter(|r| r.has_elicitation())
    {
        let mut client = Client::connect_answering(server(), revision, choosing("blue")).unwrap();
        let picked = client.call("pick", arguments.clone()).unwrap();
        assert_eq!(picked.text(), "picked \"blue\"", "{revision}");
        // An answer the form does not allow never reaches the tool as a choice.
        let mut client = Client::connect_answering(server(), revision, choosing("green")).unwrap();
        let refused = client.call("pick", arguments.clone()).unwrap();
        assert!(refused.is_error(), "{revision}: {}", refused.json());
        assert!(refused.text().contains("`choice`"), "{}", refused.text());
    }
}

#[test]
fn a_schema_no_form_may_have_is_refused_saying_why() {
    let tool = |form: Value| {
        ToolDef::new("ask", move |_: Value, cx: Context| {
            let form = form.clone();
            async move {
                let answer = Elicit::new(&cx).form_schema("?", &form).await?;
                Ok::<_, ToolError>(format!("{answer:?}"))
            }
        })
        .asks()
    };
    let answers = || Answers::new().elicitation(|_| panic!("no form is sent"));
    for (form, says) in [
        (
            json!({"type": "object", "properties": {"at": {"type": "object"}}}),
            "field `at` is a struct",
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "string", "pattern": "a+"}}}),
            "field `n` has `pattern`, which forms do not define",
        ),
        (
            json!({"type": "object", "properties": {}, "required": ["gone"]}),
            "`required` names \"gone\", which is not one of its fields",
        ),
        (json!({"type": "string"}), "a form's schema is"),
    ] {
        let server = Server::new("asking", "1").tool_def(tool(form));
        let revision = ProtocolVersion::V2025_11_25;
        let mut client = Client::connect_answering(server, revision, answers()).unwrap();
        let refused = client.call("ask", json!({})).unwrap();
        assert!(refused.is_error());
        let text = refused.text();
        assert!(
            text.contains("the form cannot be shown") && text.contains(says),
            "{text}"
        );
    }
}

#[test]
fn a_run_time_tool_that_did_not_declare_asking_is_told_so() {
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let sneaky = ToolDef::new("sneaky", |_: Value, cx: Context| async move {
            Sample::new(&cx).prompt("hello?", 5).await?;
            Ok::<_, ToolError>("asked")
        });
        let server = Server::new("asking", "1").tool_def(sneaky);
        let answers = Answers::new().sampling(|_| panic!("nothing is asked"));
        let mut client = Client::connect_answering(server, revision, answers).unwrap();
        let refused = client.call("sneaky", json!({})).unwrap();
        assert!(refused.text().contains("did not declare it"), "{revision}");
    }
}

/// Samples as a task where the client takes one.
#[mcp_tool]
async fn ask_model(sample: Sample) -> Result<String, ToolError> {
    let sample = sample.as_task(Duration::from_secs(30));
    let tasks = sample.tasks_supported();
    let answer = sample
        .create_message(SamplingRequest::user("What is 2 + 2?", 10))
        .await?;
    Ok(format!(
        "{} (as a task: {tasks})",
        answer.text().unwrap_or("?")
    ))
}

/// Asks for a name as a task where the client takes one.
#[mcp_tool]
async fn ask_name(elicit: Elicit) -> Result<String, ToolError> {
    let form = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let answer = elicit
        .as_task(Duration::from_secs(30))
        .form_schema("Name?", &form)
        .await?;
    Ok(format!("{answer:?}"))
}

fn initialize(client: &mut common::Client, capabilities: Value) {
    client.request(
        "initialize",
        json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "tasks-client", "version": "0"}
        }),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

/// The next request the server sends, answered with `result`: its method and params.
fn answer_next(client: &mut common::Client, result: Value) -> (String, Value) {
    let request = client.recv();
    let method = request["method"].as_str().expect("a request").to_owned();
    client.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    (method, request["params"].clone())
}

fn task(status: &str) -> Value {
    json!({
        "taskId": "t-1", "status": status, "createdAt": "2026-12-03T00:00:00Z",
        "lastUpdatedAt": "2026-12-03T00:00:00Z", "ttl": 30000, "pollInterval": 50
    })
}

#[test]
fn sampling_and_elicitation_run_as_the_clients_tasks_on_2025_11_25() {
    let server = Server::new("asking", "1")
        .tool::<ask_model>()
        .tool::<ask_name>();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    initialize(
        client,
        json!({
            "sampling": {}, "elicitation": {"form": {}},
            "tasks": {"requests": {"sampling": {"createMessage": {}}, "elicitation": {"create": {}}}}
        }),
    );
    let sampled =
        json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "4"}});
    for (tool, method, result) in [
        ("ask_model", "sampling/createMessage", sampled),
        (
            "ask_name",
            "elicitation/create",
            json!({"action": "accept", "content": {"name": "Ada"}}),
        ),
    ] {
        client.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                            "params": {"name": tool, "arguments": {}}}));
        let (asked, params) = answer_next(client, json!({"task": task("working")}));
        assert_eq!(asked, method);
        assert_eq!(params["task"], json!({"ttl": 30000}), "{params}");
        let (polled, params) = answer_next(client, task("working"));
        assert_eq!(
            (polled.as_str(), &params),
            ("tasks/get", &json!({"taskId": "t-1"}))
        );
        let (polled, _) = answer_next(client, task("completed"));
        assert_eq!(polled, "tasks/get");
        let (read, params) = answer_next(client, result);
        assert_eq!(
            (read.as_str(), &params),
            ("tasks/result", &json!({"taskId": "t-1"}))
        );
        let answer = client.recv();
        assert_eq!(answer["id"], 9, "{answer}");
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        match tool {
            "ask_model" => assert_eq!(text, "4 (as a task: true)"),
            _ => assert_eq!(text, "Accept(Object {\"name\": String(\"Ada\")})"),
        }
    }
    // A task the client failed fails the ask, with its reason.
    client.send(&json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
                        "params": {"name": "ask_model", "arguments": {}}}));
    answer_next(client, json!({"task": task("working")}));
    let mut failed = task("failed");
    failed["statusMessage"] = json!("the model is down");
    let (polled, _) = answer_next(client, failed);
    assert_eq!(polled, "tasks/get");
    let answer = client.recv();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let said = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(said.contains("the model is down"), "{said}");
    piped.finish().unwrap();
}

#[test]
fn a_call_cancelled_while_the_clients_task_runs_cancels_that_task() {
    let server = Server::new("asking", "1").tool::<ask_model>();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    initialize(
        client,
        json!({"sampling": {}, "tasks": {"requests": {"sampling": {"createMessage": {}}}}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                        "params": {"name": "ask_model", "arguments": {}}}));
    answer_next(client, json!({"task": task("working")}));
    let (polled, _) = answer_next(client, task("working"));
    assert_eq!(polled, "tasks/get");
    client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": 5}}),
    );
    // The server's last word on it is `tasks/cancel`, not withdrawn at once.
    let cancel = loop {
        let message = client.recv();
        if message["method"] == "tasks/cancel" {
            break message;
        }
        assert_ne!(message["method"], "notifications/cancelled", "{message}");
    };
    assert_eq!(cancel["params"], json!({"taskId": "t-1"}));
    client.send(&json!({"jsonrpc": "2.0", "id": cancel["id"], "result": task("cancelled")}));
    client.expect_silence(Duration::from_millis(200));
    piped.finish().unwrap();
}

#[test]
fn a_typed_form_from_a_run_time_tool_is_an_error_not_a_panic() {
    let tool = ToolDef::new("typed", |_: Value, cx: Context| async move {
        let answer = Elicit::new(&cx).form("?").await?;
        Ok::<_, ToolError>(format!("{answer:?}"))
    })
    .asks();
    let server = Server::new("asking", "1").tool_def(tool);
    let answers = Answers::new().elicitation(|_| panic!("no form is sent"));
    let revision = ProtocolVersion::V2025_11_25;
    let mut client = Client::connect_answering(server, revision, answers).unwrap();
    let refused = client.call("typed", json!({})).unwrap();
    assert!(refused.is_error());
    assert!(refused.text().contains("form_schema"), "{}", refused.text());
}

/// A prompt that asks for its topic.
fn topic_prompt() -> toolwright::prompts::PromptDef {
    toolwright::prompts::PromptDef::new("pick", |_: Value, cx: Context| async move {
        let form = json!({"type": "object", "properties": {"topic": {"type": "string"}}});
        match Elicit::new(&cx).form_schema("Topic?", &form).await {
            Ok(Answer::Accept(content)) => Ok(format!("write about {}", content["topic"])),
            Ok(_) => Ok("write anything".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    })
    .asks()
}

#[test]
fn a_run_time_prompt_asks_too() {
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let answers = Answers::new()
            .elicitation(|_| json!({"action": "accept", "content": {"topic": "owls"}}));
        let server = Server::new("asking", "1").prompt_def(topic_prompt());
        let mut client = Client::connect_answering(server, revision, answers).unwrap();
        let got = client.get_prompt("pick", json!({})).unwrap();
        assert_eq!(
            got["messages"][0]["content"]["text"], "write about \"owls\"",
            "{revision}"
        );
    }
}

#[test]
fn a_client_without_task_support_is_asked_plainly() {
    let server = Server::new("asking", "1").tool::<ask_model>();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    initialize(client, json!({"sampling": {}}));
    client.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": {"name": "ask_model", "arguments": {}}}));
    let sampled =
        json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "4"}});
    let (method, params) = answer_next(client, sampled);
    assert_eq!(method, "sampling/createMessage");
    assert!(params.get("task").is_none(), "{params}");
    let answer = client.recv();
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "4 (as a task: false)"
    );
    piped.finish().unwrap();
}

/// Asks the user to open a page, under an id of its own, and says when it is done.
#[mcp_tool]
async fn connect(elicit: Elicit) -> Result<String, ToolError> {
    let id = "connect-42";
    let answer = elicit
        .url_with_id(
            "Connect your account",
            "https://example.com/connect?id=connect-42",
            id,
        )
        .await?;
    let told = elicit.completed(id);
    Ok(format!("{answer:?}, told: {told}"))
}

#[test]
fn a_url_elicitation_under_the_tools_own_id_and_its_completion() {
    let server = Server::new("asking", "1").tool::<connect>();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    initialize(client, json!({"elicitation": {"url": {}}}));
    client.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                        "params": {"name": "connect", "arguments": {}}}));
    let (method, params) = answer_next(client, json!({"action": "accept"}));
    assert_eq!(method, "elicitation/create");
    assert_eq!(params["elicitationId"], "connect-42", "{params}");
    assert_eq!(params["mode"], "url");
    let complete = client.recv();
    assert_eq!(
        complete,
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
               "params": {"elicitationId": "connect-42"}})
    );
    let answer = client.recv();
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "Accept(()), told: true"
    );
    piped.finish().unwrap();
}
