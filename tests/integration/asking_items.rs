//! Prompts and resources that ask the client, as tools do: in a session each ask is a request
//! to the client (in process and over stdio); on 2026-07-28 the `prompts/get` or
//! `resources/read` answers `input_required`, sealed for that prompt or resource, and the retry
//! gets the result. HTTP is in `http_asking`.

use crate::common;

use common::PipedServer;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::asking::Root;
use toolwright::prelude::*;
use toolwright::testing::{Answers, Client};

#[derive(Deserialize, JsonSchema)]
struct UserContext {
    context: String,
}

/// A prompt made with what the user says it is about.
#[mcp_prompt]
async fn with_context(ask: Elicit<UserContext>) -> Result<String, AskError> {
    match ask.form("What context should the prompt use?").await? {
        Answer::Accept(UserContext { context }) => Ok(format!("Prompt with context: {context}")),
        _ => Ok("Prompt without context".into()),
    }
}

/// A summary of a note, written by the client's model.
#[mcp_resource("memo://summary/{id}")]
async fn summary(id: u64, sample: Sample) -> Result<String, McpError> {
    let answer = sample.prompt(format!("Summarise note {id}"), 50).await?;
    Ok(format!("note {id}: {}", answer.text().unwrap_or("nothing")))
}

/// The client's roots, as a resource.
#[mcp_resource("memo://roots")]
async fn roots(roots: Roots) -> Result<String, McpError> {
    let roots = roots.list().await?;
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(uris.join(","))
}

fn server() -> Server {
    Server::new("asking-items", "1")
        .prompt::<with_context>()
        .resource::<summary>()
        .resource::<roots>()
}

fn answers() -> Answers {
    Answers::new()
        .elicitation(|_| json!({"action": "accept", "content": {"context": "test context"}}))
        .sampling(|request| {
            let asked = request["messages"][0]["content"]["text"]
                .as_str()
                .unwrap_or("");
            json!({"role": "assistant", "model": "m",
                   "content": {"type": "text", "text": format!("summary of `{asked}`")}})
        })
        .roots(vec![Root::new("file:///work")])
}

/// The revisions whose clients can be asked for forms, samples and roots.
fn asking_revisions() -> impl Iterator<Item = ProtocolVersion> {
    ProtocolVersion::ALL
        .into_iter()
        .filter(|v| v.has_elicitation())
}

fn text_of(result: &Value) -> &str {
    result["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn a_prompt_asks_the_user_in_every_revision_that_can() {
    for revision in asking_revisions() {
        let mut client = Client::connect_answering(server(), revision, answers()).unwrap();
        let result = client.get_prompt("with_context", json!({})).unwrap();
        assert_eq!(
            text_of(&result),
            "Prompt with context: test context",
            "{revision}"
        );
    }
}

#[test]
fn a_resource_samples_and_reads_the_roots_in_every_revision_that_can() {
    for revision in asking_revisions() {
        let mut client = Client::connect_answering(server(), revision, answers()).unwrap();
        let summary = client.read_resource("memo://summary/7").unwrap();
        assert_eq!(
            summary["contents"][0]["text"], "note 7: summary of `Summarise note 7`",
            "{revision}"
        );
        let roots = client.read_resource("memo://roots").unwrap();
        assert_eq!(roots["contents"][0]["text"], "file:///work", "{revision}");
    }
}

#[test]
fn a_client_that_cannot_answer_gets_the_revisions_missing_capability_error() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        let refused = client.get_prompt("with_context", json!({})).unwrap_err();
        let read = client.read_resource("memo://summary/1").unwrap_err();
        for error in [&refused, &read] {
            if revision.missing_capability_is_protocol_error() {
                assert_eq!(error.code, -32021, "{revision}: {error:?}");
                let required = &error.data.as_ref().unwrap()["requiredCapabilities"];
                assert!(required.is_object(), "{revision}: {error:?}");
            } else {
                assert_eq!(error.code, -32603, "{revision}: {error:?}");
                assert!(
                    error.message.contains("the client does not support"),
                    "{revision}: {error:?}"
                );
            }
        }
    }
}

/// On 2026-07-28 the round's state belongs to the prompt (or the resource) that sealed it:
/// retried against another, it is refused.
#[test]
fn a_round_of_a_prompt_is_sealed_for_that_prompt() {
    let mut server = common::InProcess::start(server());
    let client = &mut server.client;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}}
    });
    let first = client.request(
        "prompts/get",
        json!({"name": "with_context", "_meta": meta}),
    );
    let round = &first["result"];
    assert_eq!(round["resultType"], "input_required", "{first}");
    let request = &round["inputRequests"]["user_context"];
    assert_eq!(request["method"], "elicitation/create", "{first}");
    assert_eq!(
        request["params"]["requestedSchema"],
        json!({"type": "object", "properties": {"context": {"type": "string"}},
               "required": ["context"]})
    );
    assert!(
        round.get("ttlMs").is_none(),
        "an interim result has no cache hints"
    );
    let state = round["requestState"].clone();
    assert!(state.is_string(), "{first}");
    let answer = json!({"user_context": {"action": "accept", "content": {"context": "c"}}});
    let done = client.request(
        "prompts/get",
        json!({"name": "with_context", "_meta": meta, "inputResponses": answer,
               "requestState": state}),
    );
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(text_of(&done["result"]), "Prompt with context: c");
    // The same state, on a read: refused, never taken for a new question.
    let other = client.request(
        "resources/read",
        json!({"uri": "memo://summary/1", "_meta": meta, "requestState": state}),
    );
    assert_eq!(other["error"]["code"], -32602, "{other}");
    assert_eq!(other["error"]["data"]["reason"], "invalid_request_state");
    // A read's own round is answered by its retry, whose result carries the cache hints.
    let first = client.request(
        "resources/read",
        json!({"uri": "memo://summary/3", "_meta": meta}),
    );
    let round = &first["result"];
    assert_eq!(round["resultType"], "input_required", "{first}");
    // Its state opens for that URI alone, not for another the same template serves.
    let elsewhere = client.request(
        "resources/read",
        json!({"uri": "memo://summary/4", "_meta": meta,
               "requestState": round["requestState"]}),
    );
    assert_eq!(elsewhere["error"]["code"], -32602, "{elsewhere}");
    let sampled = json!({"role": "assistant", "model": "m",
                         "content": {"type": "text", "text": "short"}});
    let done = client.request(
        "resources/read",
        json!({"uri": "memo://summary/3", "_meta": meta,
               "inputResponses": {"sampling": sampled},
               "requestState": round["requestState"]}),
    );
    assert_eq!(
        done["result"]["contents"][0]["text"], "note 3: short",
        "{done}"
    );
    assert!(done["result"]["ttlMs"].is_u64(), "{done}");
}

/// Over stdio, in a session: the prompt's ask is a request to the client on the same
/// connection, and the answer to it finishes the `prompts/get`.
#[test]
fn over_stdio_a_prompts_ask_is_a_request_to_the_client() {
    let mut piped = PipedServer::start(server());
    let client = &mut piped.client;
    client.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "clientInfo": {"name": "t", "version": "0"},
        "capabilities": {"elicitation": {}}}}),
    );
    client.recv();
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    client.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get",
        "params": {"name": "with_context"}}));
    let request = client.recv();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    assert_eq!(
        request["params"]["message"],
        "What context should the prompt use?"
    );
    let accept = json!({"action": "accept", "content": {"context": "from stdio"}});
    client.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": accept}));
    let answer = client.recv();
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(
        text_of(&answer["result"]),
        "Prompt with context: from stdio"
    );
    piped.finish().unwrap();
}

/// A `prompts/get` the client cancels while its ask waits: the ask is cancelled at the client
/// too, and the request is not answered.
#[test]
fn cancelling_a_prompt_that_asks_cancels_its_ask() {
    let mut piped = PipedServer::start(server());
    let client = &mut piped.client;
    client.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "clientInfo": {"name": "t", "version": "0"},
        "capabilities": {"elicitation": {}}}}),
    );
    client.recv();
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    client.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get",
        "params": {"name": "with_context"}}));
    let request = client.recv();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}),
    );
    let cancelled = client.recv();
    assert_eq!(
        cancelled["method"], "notifications/cancelled",
        "{cancelled}"
    );
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    client.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "decline"}}));
    client.expect_silence(std::time::Duration::from_millis(300));
    piped.finish().unwrap();
}
