//! Tools that ask, over Streamable HTTP. In a handshake session the server's request travels on
//! the call's own event stream and the client POSTs its response; on 2026-07-28 each ask is a
//! round of `input_required`, and any replica that shares the key serves the next round.
#![cfg(feature = "http")]

use crate::common;

use common::http::Endpoint;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::Server;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Deletes the notes with a tag, once the user confirms.
#[mcp_tool(destructive)]
async fn delete_tagged(tag: String, ask: Elicit<Confirm>) -> Result<String, ToolError> {
    match ask.form(format!("Delete every note tagged {tag}?")).await? {
        Answer::Accept(Confirm { confirm: true }) => Ok(format!("deleted the notes tagged {tag}")),
        _ => Ok("kept them".into()),
    }
}

/// Counts the client's roots.
#[mcp_tool]
async fn count_roots(roots: Roots) -> Result<String, ToolError> {
    Ok(format!("{} roots", roots.list().await?.len()))
}

#[derive(Deserialize, JsonSchema)]
struct UserContext {
    context: String,
}

/// A prompt made with what the user says it is about.
#[mcp_prompt]
async fn with_context(ask: Elicit<UserContext>) -> Result<String, AskError> {
    match ask.form("What context?").await? {
        Answer::Accept(UserContext { context }) => Ok(format!("Prompt with context: {context}")),
        _ => Ok("Prompt without context".into()),
    }
}

/// A summary the client's model writes.
#[mcp_resource("memo://summary/{id}")]
async fn summary(id: u64, sample: Sample) -> Result<String, McpError> {
    let answer = sample.prompt(format!("Summarise note {id}"), 50).await?;
    Ok(format!("note {id}: {}", answer.text().unwrap_or("nothing")))
}

fn server() -> Server {
    Server::new("asking-http", "1")
        .tool::<delete_tagged>()
        .tool::<count_roots>()
        .prompt::<with_context>()
        .resource::<summary>()
}

/// `initialize` with the elicitation capability; the session id.
fn initialize(endpoint: &Endpoint) -> String {
    initialize_with(endpoint, json!({"elicitation": {"form": {}}}))
}

/// `initialize` with these capabilities; the session id.
fn initialize_with(endpoint: &Endpoint, capabilities: Value) -> String {
    let reply = endpoint
        .post(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities,
                "clientInfo": {"name": "toolwright-tests", "version": "0"}
            }}),
        )
        .send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let initialized = endpoint
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .session(&session, "2025-11-25")
        .send();
    assert_eq!(initialized.status, 202);
    session
}

#[test]
fn a_handshake_session_asks_on_the_call_s_stream() {
    let endpoint = Endpoint::start(server());
    let session = initialize(&endpoint);
    for (confirm, expected) in [(true, "deleted the notes tagged old"), (false, "kept them")] {
        let mut call = endpoint
            .in_session(
                &session,
                "2025-11-25",
                7,
                "tools/call",
                json!({"name": "delete_tagged", "arguments": {"tag": "old"}}),
            )
            .open();
        assert_eq!(call.status, 200);
        let request = call.next_message().expect("the server's request");
        assert_eq!(request["method"], "elicitation/create", "{request}");
        assert_eq!(
            request["params"]["requestedSchema"]["properties"]["confirm"]["type"],
            "boolean"
        );

        // A response nobody waits for is accepted and dropped; the right one resumes the call.
        let stray = endpoint
            .post(&json!({"jsonrpc": "2.0", "id": 4242, "result": {"action": "cancel"}}))
            .session(&session, "2025-11-25")
            .send();
        assert_eq!(stray.status, 202, "{}", stray.text());
        let response = endpoint
            .post(&json!({"jsonrpc": "2.0", "id": request["id"],
                "result": {"action": "accept", "content": {"confirm": confirm}}}))
            .session(&session, "2025-11-25")
            .send();
        assert_eq!(response.status, 202, "{}", response.text());

        let answer = call.next_message().expect("the call's answer");
        assert_eq!(answer["id"], 7, "{answer}");
        assert_eq!(answer["result"]["content"][0]["text"], expected, "{answer}");
        assert!(
            call.next_message().is_none(),
            "the stream ends with the answer"
        );
    }
}

/// Each HTTP session asks its client for the roots once, and again after the client's
/// `notifications/roots/list_changed`.
#[test]
fn a_session_asks_for_the_roots_once() {
    let endpoint = Endpoint::start(server());
    let sessions = [
        initialize_with(&endpoint, json!({"roots": {"listChanged": true}})),
        initialize_with(&endpoint, json!({"roots": {"listChanged": true}})),
    ];
    let mut asked = 0;
    let mut call = |session: &str, id: i64| -> String {
        let mut open = endpoint
            .in_session(
                session,
                "2025-11-25",
                id,
                "tools/call",
                json!({"name": "count_roots"}),
            )
            .open();
        if open.header("content-type") == Some("application/json") {
            // Answered at once, from the roots the session knows.
            let answer = open.finish().json();
            return answer["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .to_owned();
        }
        loop {
            let message = open.next_message().expect("a message");
            if message["method"] != "roots/list" {
                return message["result"]["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned();
            }
            asked += 1;
            let reply = endpoint
                .post(&json!({"jsonrpc": "2.0", "id": message["id"],
                    "result": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]}}))
                .session(session, "2025-11-25")
                .send();
            assert_eq!(reply.status, 202, "{}", reply.text());
        }
    };
    for id in 1..=5 {
        assert_eq!(call(&sessions[0], id), "2 roots");
    }
    assert_eq!(call(&sessions[1], 6), "2 roots");
    let changed = endpoint
        .post(&json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}))
        .session(&sessions[0], "2025-11-25")
        .send();
    assert_eq!(changed.status, 202);
    assert_eq!(call(&sessions[0], 7), "2 roots");
    assert_eq!(call(&sessions[0], 8), "2 roots");
    assert_eq!(asked, 3, "once per session, and once after the change");
}

/// A 2026-07-28 `tools/call` with the elicitation capability declared.
fn modern_call(endpoint: &Endpoint, id: i64, mut params: Value) -> Value {
    params["_meta"] = json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}});
    let reply = endpoint.modern(id, "tools/call", params).send();
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.answer()
}

#[test]
fn rounds_over_http_cross_replicas_that_share_a_key() {
    let key = [7u8; 32];
    let first = Endpoint::start(server().request_state_key(key));
    let second = Endpoint::start(server().request_state_key(key));
    let stranger = Endpoint::start(server());

    let call = json!({"name": "delete_tagged", "arguments": {"tag": "old"}});
    let round = modern_call(&first, 1, call.clone());
    assert_eq!(round["result"]["resultType"], "input_required", "{round}");
    let state = round["result"]["requestState"].clone();
    let mut retry = call.clone();
    retry["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = state;

    let done = modern_call(&second, 2, retry.clone());
    assert_eq!(
        done["result"]["content"][0]["text"], "deleted the notes tagged old",
        "{done}"
    );
    let refused = modern_call(&stranger, 3, retry);
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["data"]["reason"], "invalid_request_state",
        "{refused}"
    );

    // Without the capability, the call cannot proceed: -32021 names what is missing.
    let reply = first.modern(4, "tools/call", call).send();
    assert_eq!(reply.status, 400, "{}", reply.text());
    let missing = reply.answer();
    assert_eq!(missing["error"]["code"], -32021, "{missing}");
    assert_eq!(
        missing["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}}),
        "{missing}"
    );
    for endpoint in [first, second, stranger] {
        endpoint.stop().unwrap();
    }
}

/// A prompt's ask, and a resource's, travel on their request's own event stream in a session;
/// the client POSTs each response.
#[test]
fn a_session_asks_on_a_prompts_and_a_resources_stream() {
    let endpoint = Endpoint::start(server());
    let session = initialize_with(
        &endpoint,
        json!({"elicitation": {"form": {}}, "sampling": {}}),
    );
    let asks = [
        (
            "prompts/get",
            json!({"name": "with_context"}),
            json!({"action": "accept", "content": {"context": "over http"}}),
        ),
        (
            "resources/read",
            json!({"uri": "memo://summary/2"}),
            json!({"role": "assistant", "model": "m",
                   "content": {"type": "text", "text": "short"}}),
        ),
    ];
    let mut answers = Vec::new();
    for (id, (method, params, response)) in (10..).zip(asks) {
        let mut request = endpoint
            .in_session(&session, "2025-11-25", id, method, params)
            .open();
        assert_eq!(request.status, 200);
        let ask = request.next_message().expect("the server's request");
        let expected = match method {
            "prompts/get" => "elicitation/create",
            _ => "sampling/createMessage",
        };
        assert_eq!(ask["method"], expected, "{ask}");
        let reply = endpoint
            .post(&json!({"jsonrpc": "2.0", "id": ask["id"], "result": response}))
            .session(&session, "2025-11-25")
            .send();
        assert_eq!(reply.status, 202, "{}", reply.text());
        let answer = request.next_message().expect("the answer");
        assert_eq!(answer["id"], id, "{answer}");
        answers.push(answer);
    }
    assert_eq!(
        answers[0]["result"]["messages"][0]["content"]["text"],
        "Prompt with context: over http"
    );
    assert_eq!(answers[1]["result"]["contents"][0]["text"], "note 2: short");
}

/// On 2026-07-28 a `prompts/get` and a `resources/read` that ask answer `input_required`, and
/// their retries, on another replica that shares the key, the result.
#[test]
fn rounds_of_a_prompt_and_a_resource_over_http() {
    let key = [9u8; 32];
    let first = Endpoint::start(server().request_state_key(key));
    let second = Endpoint::start(server().request_state_key(key));
    let capabilities = json!({"io.modelcontextprotocol/clientCapabilities":
                              {"elicitation": {}, "sampling": {}}});
    let cases = [
        (
            "prompts/get",
            json!({"name": "with_context"}),
            json!({"user_context": {"action": "accept", "content": {"context": "c"}}}),
        ),
        (
            "resources/read",
            json!({"uri": "memo://summary/3"}),
            json!({"sampling": {"role": "assistant", "model": "m",
                                "content": {"type": "text", "text": "brief"}}}),
        ),
    ];
    let mut done = Vec::new();
    for (id, (method, params, responses)) in (20..).zip(cases) {
        let mut asked = params.clone();
        asked["_meta"] = capabilities.clone();
        let reply = first.modern(id, method, asked.clone()).send();
        assert_eq!(reply.status, 200, "{}", reply.text());
        let round = reply.answer();
        assert_eq!(round["result"]["resultType"], "input_required", "{round}");
        let mut retry = asked;
        retry["inputResponses"] = responses;
        retry["requestState"] = round["result"]["requestState"].clone();
        let reply = second.modern(id + 10, method, retry).send();
        assert_eq!(reply.status, 200, "{}", reply.text());
        done.push(reply.answer());
    }
    assert_eq!(
        done[0]["result"]["messages"][0]["content"]["text"], "Prompt with context: c",
        "{}",
        done[0]
    );
    assert_eq!(done[1]["result"]["contents"][0]["text"], "note 3: brief");
    assert!(done[1]["result"]["ttlMs"].is_u64(), "{}", done[1]);
    for endpoint in [first, second] {
        endpoint.stop().unwrap();
    }
}
