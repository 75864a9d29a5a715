//! Tools that ask the client: one tool, both eras. In a handshake session each ask is a request
//! to the client; on 2026-07-28 each is a round of `input_required`, sealed in `requestState`.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::PipedServer;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::asking::{Root, SamplingRequest};
use toolwright::context::Auth;
use toolwright::prelude::*;
use toolwright::testing::{Answers, Client};
use toolwright::{Era, ProtocolVersion};

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Counts how often code before an ask ran.
#[derive(Default)]
struct Runs(AtomicUsize);

/// Deletes the notes with a tag, once the user confirms.
#[mcp_tool(destructive)]
async fn delete_tagged(
    tag: String,
    ask: Elicit<Confirm>,
    runs: State<Runs>,
) -> Result<String, ToolError> {
    runs.0.fetch_add(1, Ordering::SeqCst);
    match ask.form(format!("Delete every note tagged {tag}?")).await? {
        Answer::Accept(Confirm { confirm: true }) => Ok(format!("deleted the notes tagged {tag}")),
        Answer::Accept(_) | Answer::Decline => Ok("kept them".into()),
        Answer::Cancel => Ok("cancelled".into()),
    }
}

/// Asks the client's model.
#[mcp_tool]
async fn capital(sample: Sample) -> Result<String, ToolError> {
    let answer = sample.prompt("What is the capital of France?", 50).await?;
    Ok(format!(
        "the model says {}",
        answer.text().unwrap_or("nothing")
    ))
}

/// Counts the client's roots.
#[mcp_tool]
async fn count_roots(roots: Roots) -> Result<String, ToolError> {
    Ok(format!("{} roots", roots.list().await?.len()))
}

#[derive(Deserialize, JsonSchema)]
struct Step1 {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Step2 {
    color: String,
}

/// Asks three things, one after another.
#[mcp_tool]
async fn three_steps(
    first: Elicit<Step1>,
    second: Elicit<Step2>,
    sample: Sample,
) -> Result<String, ToolError> {
    let Answer::Accept(Step1 { name }) = first.form("Your name?").await? else {
        return Ok("no name".into());
    };
    let Answer::Accept(Step2 { color }) = second.form("Your color?").await? else {
        return Ok("no color".into());
    };
    let poem = sample
        .create_message(SamplingRequest::user(
            format!("A poem for {name} in {color}"),
            20,
        ))
        .await?;
    Ok(format!(
        "{name} likes {color}: {}",
        poem.text().unwrap_or("")
    ))
}

/// Asks two things at once.
#[mcp_tool]
async fn both_at_once(ask: Elicit<Step1>, roots: Roots) -> Result<String, ToolError> {
    let (name, roots) = tokio::join!(ask.form("Your name?"), roots.list());
    let name = match name? {
        Answer::Accept(Step1 { name }) => name,
        _ => "nobody".into(),
    };
    Ok(format!("{name} with {} roots", roots?.len()))
}

/// Cannot do without sampling.
#[mcp_tool]
async fn must_sample(sample: Sample) -> Result<String, ToolError> {
    Ok(sample.prompt("hi", 5).await?.model)
}

/// Sends the user to a page (URL mode).
#[mcp_tool]
async fn sign_in(ask: Elicit) -> String {
    match ask
        .url("Sign in to the archive", "https://example.com/login")
        .await
    {
        Ok(Answer::Accept(())) => "opened".into(),
        Ok(_) => "not opened".into(),
        Err(error) => format!("failed: {error}"),
    }
}

/// Says how an ask failed.
#[mcp_tool]
async fn how_it_failed(ask: Elicit<Confirm>) -> String {
    match ask.form("Sure?").await {
        Ok(_) => "answered".into(),
        Err(error) => format!("failed: {error}"),
    }
}

#[derive(Deserialize, JsonSchema)]
enum Size {
    #[schemars(title = "Small (250 ml)")]
    Small,
    #[schemars(title = "Large (500 ml)")]
    Large,
}

#[derive(Deserialize, JsonSchema)]
struct Order {
    size: Size,
}

#[derive(Deserialize, JsonSchema)]
struct Extras {
    extras: Vec<Size>,
}

/// Asks for a choice with titles.
#[mcp_tool]
async fn order(ask: Elicit<Order>) -> String {
    match ask.form("Which size?").await {
        Ok(Answer::Accept(Order { size: Size::Large })) => "large".into(),
        Ok(Answer::Accept(Order { size: Size::Small })) => "small".into(),
        Ok(_) => "nothing".into(),
        Err(error) => format!("failed: {error}"),
    }
}

/// Asks for several choices at once.
#[mcp_tool]
async fn order_extras(ask: Elicit<Extras>) -> String {
    match ask.form("Which extras?").await {
        Ok(Answer::Accept(Extras { extras })) => format!("{} extras", extras.len()),
        Ok(_) => "nothing".into(),
        Err(error) => format!("failed: {error}"),
    }
}

fn server() -> Server {
    Server::new("asking", "1")
        .tool::<delete_tagged>()
        .tool::<capital>()
        .tool::<count_roots>()
        .tool::<three_steps>()
        .tool::<both_at_once>()
        .tool::<must_sample>()
        .tool::<sign_in>()
        .tool::<how_it_failed>()
        .tool::<order>()
        .tool::<order_extras>()
        .tool::<run_count>()
        .state(Runs::default())
}

const ASKING: [ProtocolVersion; 3] = [
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2026_07_28,
];

fn confirming(confirm: bool) -> Answers {
    Answers::new()
        .elicitation(move |_| json!({"action": "accept", "content": {"confirm": confirm}}))
        .sampling(|request| {
            let asked = request["messages"][0]["content"]["text"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            json!({"role": "assistant", "model": "test-model", "stopReason": "endTurn",
                   "content": {"type": "text", "text": format!("answer to `{asked}`")}})
        })
        .roots(vec![Root::new("file:///a"), Root::new("file:///b")])
}

#[test]
fn a_confirmation_in_every_era() {
    for revision in ASKING {
        let mut client = Client::connect_answering(server(), revision, confirming(true)).unwrap();
        let result = client.call("delete_tagged", json!({"tag": "old"})).unwrap();
        assert_eq!(result.text(), "deleted the notes tagged old", "{revision}");
        let mut client = Client::connect_answering(server(), revision, confirming(false)).unwrap();
        let result = client.call("delete_tagged", json!({"tag": "old"})).unwrap();
        assert_eq!(result.text(), "kept them", "{revision}");
        let decline = Answers::new().elicitation(|_| json!({"action": "decline"}));
        let mut client = Client::connect_answering(server(), revision, decline).unwrap();
        let result = client.call("delete_tagged", json!({"tag": "old"})).unwrap();
        assert_eq!(result.text(), "kept them", "{revision}");
    }
}

#[test]
fn sampling_and_roots_from_2024_11_05() {
    for revision in [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2026_07_28,
    ] {
        let mut client = Client::connect_answering(server(), revision, confirming(true)).unwrap();
        let result = client.call("capital", json!({})).unwrap();
        assert_eq!(
            result.text(),
            "the model says answer to `What is the capital of France?`",
            "{revision}"
        );
        assert_eq!(
            client.call("count_roots", json!({})).unwrap().text(),
            "2 roots"
        );
    }
}

#[test]
fn several_asks_in_a_row_and_at_once() {
    for revision in ASKING {
        let answers = Answers::new()
            .elicitation(|request| {
                let content = match request["message"].as_str() {
                    Some("Your name?") => json!({"name": "Ada"}),
                    _ => json!({"color": "blue"}),
                };
                json!({"action": "accept", "content": content})
            })
            .sampling(|_| json!({"role": "assistant", "model": "m", "content": {"type": "text", "text": "roses"}}))
            .roots(vec![Root::new("file:///x")]);
        let mut client = Client::connect_answering(server(), revision, answers).unwrap();
        assert_eq!(
            client.call("three_steps", json!({})).unwrap().text(),
            "Ada likes blue: roses",
            "{revision}"
        );
        assert_eq!(
            client.call("both_at_once", json!({})).unwrap().text(),
            "Ada with 1 roots"
        );
    }
}

#[test]
fn an_ask_the_client_cannot_answer() {
    for revision in ASKING {
        let mut client = Client::connect(server(), revision).unwrap();
        let answer = client.call("must_sample", json!({}));
        match revision {
            ProtocolVersion::V2026_07_28 => {
                let error = answer.unwrap_err();
                assert_eq!(error.code, -32021, "{revision}");
                assert_eq!(
                    error.data,
                    Some(json!({"requiredCapabilities": {"sampling": {}}}))
                );
            }
            _ => {
                let result = answer.unwrap();
                assert!(result.is_error(), "{revision}");
                assert_eq!(result.text(), "the client does not support `sampling`");
            }
        }
        let result = client.call("how_it_failed", json!({})).unwrap();
        assert_eq!(
            result.text(),
            "failed: the client does not support `elicitation`",
            "{revision}"
        );
    }
}

#[test]
fn an_answer_that_does_not_fit_the_form() {
    for revision in ASKING {
        let wrong = Answers::new()
            .elicitation(|_| json!({"action": "accept", "content": {"confirm": "yes"}}));
        let mut client = Client::connect_answering(server(), revision, wrong).unwrap();
        let result = client.call("how_it_failed", json!({})).unwrap();
        assert!(
            result
                .text()
                .starts_with("failed: the client's answer is invalid:"),
            "{revision}: {}",
            result.text()
        );
    }
}

#[test]
fn url_mode_from_2025_11_25() {
    for revision in ASKING {
        let answers = Answers::new().elicitation(move |request| {
            assert_eq!(request["mode"], "url", "{revision}");
            assert_eq!(request["url"], "https://example.com/login", "{revision}");
            // A session's client matches the completion notification by this id.
            let id = request["elicitationId"].as_str().unwrap_or("");
            assert_eq!(
                id.len() == 32,
                revision.era() == Era::Legacy,
                "{revision}: {id}"
            );
            json!({"action": "accept"})
        });
        let mut client = Client::connect_answering(server(), revision, answers).unwrap();
        let text = client.call("sign_in", json!({})).unwrap().text();
        let expected = match revision {
            ProtocolVersion::V2025_06_18 => "failed: the client does not support `elicitation.url`",
            _ => "opened",
        };
        assert_eq!(text, expected, "{revision}");
    }
}

#[test]
fn titled_choices_in_every_revision_with_forms() {
    for revision in ASKING {
        let answers = Answers::new().elicitation(move |request| {
            if request["message"] == "Which extras?" {
                return json!({"action": "accept", "content": {"extras": ["Small", "Large"]}});
            }
            let size = &request["requestedSchema"]["properties"]["size"];
            let expected = match revision {
                // 2025-06-18 names its choices beside them.
                ProtocolVersion::V2025_06_18 => json!({"type": "string",
                    "enum": ["Small", "Large"], "enumNames": ["Small (250 ml)", "Large (500 ml)"]}),
                _ => json!({"type": "string", "oneOf": [
                    {"const": "Small", "title": "Small (250 ml)"},
                    {"const": "Large", "title": "Large (500 ml)"}]}),
            };
            assert_eq!(size, &expected, "{revision}");
            json!({"action": "accept", "content": {"size": "Large"}})
        });
        let mut client = Client::connect_answering(server(), revision, answers).unwrap();
        assert_eq!(client.call("order", json!({})).unwrap().text(), "large");
        // Multi-selects exist from 2025-11-25 on.
        let expected = match revision {
            ProtocolVersion::V2025_06_18 => {
                "failed: the form `integration::asking::Extras` has multi-select choices, which need protocol \
                 2025-11-25; the client speaks 2025-06-18"
            }
            _ => "2 extras",
        };
        assert_eq!(
            client.call("order_extras", json!({})).unwrap().text(),
            expected,
            "{revision}"
        );
    }
}

/// The raw rounds of a 2026-07-28 call.
fn modern(params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}}
    });
    params
}

fn call(client: &mut common::Client, params: Value) -> Value {
    client.request("tools/call", modern(params))
}

#[test]
fn rounds_on_2026_07_28() {
    let mut server = common::InProcess::start(server());
    let client = &mut server.client;
    let first = call(client, json!({"name": "three_steps", "arguments": {}}));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"]["step1"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        result["inputRequests"]["step1"]["params"]["requestedSchema"],
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let second = call(
        client,
        json!({"name": "three_steps", "arguments": {},
        "inputResponses": {"step1": {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": state}),
    );
    let result = &second["result"];
    assert_eq!(
        result["inputRequests"].as_object().unwrap().len(),
        1,
        "{second}"
    );
    assert!(result["inputRequests"]["step2"].is_object(), "{second}");
    let state2 = result["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state, state2, "each round has its own state");

    let third = call(
        client,
        json!({"name": "three_steps", "arguments": {},
        "inputResponses": {"step2": {"action": "accept", "content": {"color": "red"}}},
        "requestState": state2}),
    );
    assert!(
        third["result"]["inputRequests"]["sampling"].is_object(),
        "{third}"
    );
    let state3 = third["result"]["requestState"].as_str().unwrap().to_owned();
    let last = call(
        client,
        json!({"name": "three_steps", "arguments": {},
        "inputResponses": {"sampling": {"role": "assistant", "model": "m",
                                         "content": {"type": "text", "text": "a poem"}}},
        "requestState": state3}),
    );
    assert_eq!(
        last["result"]["content"][0]["text"], "Ada likes red: a poem",
        "{last}"
    );
    assert_eq!(last["result"]["resultType"], "complete");

    // Two asks awaited together are one round.
    let both = call(client, json!({"name": "both_at_once", "arguments": {}}));
    let requests = both["result"]["inputRequests"].as_object().unwrap();
    assert_eq!(
        requests.keys().collect::<Vec<_>>(),
        ["step1", "roots"],
        "{both}"
    );

    // A missing answer is asked for again; answers nobody asked for are ignored.
    let again = call(
        client,
        json!({"name": "delete_tagged", "arguments": {"tag": "x"},
        "inputResponses": {"wrong_key": {"action": "accept", "content": {}}}}),
    );
    assert!(
        again["result"]["inputRequests"]["confirm"].is_object(),
        "{again}"
    );
    let done = call(
        client,
        json!({"name": "delete_tagged", "arguments": {"tag": "x"},
        "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}},
                           "extra": {"anything": 1}}}),
    );
    assert_eq!(
        done["result"]["content"][0]["text"], "deleted the notes tagged x",
        "{done}"
    );
}

#[test]
fn a_request_state_that_is_not_this_calls_is_refused() {
    let mut server = common::InProcess::start(server());
    let client = &mut server.client;
    let first = call(client, json!({"name": "three_steps", "arguments": {}}));
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let answer = json!({"step1": {"action": "accept", "content": {"name": "Ada"}}});
    let refused = |client: &mut common::Client, name: &str, state: String| {
        let response = call(
            client,
            json!({"name": name, "arguments": {},
            "inputResponses": answer.clone(), "requestState": state}),
        );
        assert_eq!(response["error"]["code"], -32602, "{response}");
        assert_eq!(response["error"]["data"]["reason"], "invalid_request_state");
        response["error"]["message"].as_str().unwrap().to_owned()
    };
    let tampered = refused(client, "three_steps", format!("{state}-TAMPERED"));
    assert!(
        tampered.ends_with("it fails its integrity check"),
        "{tampered}"
    );
    let elsewhere = refused(client, "both_at_once", state.clone());
    assert!(
        elsewhere.ends_with("it belongs to another tool or other arguments"),
        "{elsewhere}"
    );
    let garbage = refused(client, "three_steps", "garbage".into());
    assert!(garbage.ends_with("it is not a request state of this server"));
    // Malformed answers are a protocol error, not a new question.
    for responses in [json!(null), json!({"step1": 12345})] {
        let response = call(
            client,
            json!({"name": "three_steps", "arguments": {},
            "inputResponses": responses}),
        );
        assert_eq!(response["error"]["code"], -32602, "{response}");
    }
}

#[test]
fn replicas_that_share_a_key_accept_each_others_rounds() {
    let key = [42u8; 32];
    let one = || server().request_state_key(key);
    let mut a = common::InProcess::start(one());
    let mut b = common::InProcess::start(one());
    let mut stranger = common::InProcess::start(server().request_state_key([7u8; 32]));
    let first = call(
        &mut a.client,
        json!({"name": "delete_tagged", "arguments": {"tag": "t"}}),
    );
    let state = first["result"]["requestState"].clone();
    let retry = json!({"name": "delete_tagged", "arguments": {"tag": "t"},
        "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}}},
        "requestState": state});
    let on_b = call(&mut b.client, retry.clone());
    assert_eq!(
        on_b["result"]["content"][0]["text"], "deleted the notes tagged t",
        "{on_b}"
    );
    let on_stranger = call(&mut stranger.client, retry.clone());
    assert_eq!(on_stranger["error"]["code"], -32602, "{on_stranger}");
    // The state is bound to the arguments too: it does not confirm deleting another tag.
    let mut other_tag = retry;
    other_tag["arguments"]["tag"] = json!("u");
    let refused = call(&mut a.client, other_tag);
    assert_eq!(
        refused["error"]["data"]["reason"], "invalid_request_state",
        "{refused}"
    );
}

#[test]
fn a_request_state_is_refused_to_another_caller() {
    // Two replicas sharing a key: what one caller was asked does not answer for another.
    let key = [42u8; 32];
    let as_caller = |subject: &str| {
        let server = server().request_state_key(key);
        common::InProcess::start_as(server, Auth::new(subject))
    };
    let (mut ada, mut eve) = (as_caller("ada"), as_caller("eve"));
    let params = json!({"name": "delete_tagged", "arguments": {"tag": "t"}});
    let first = call(&mut ada.client, params.clone());
    let mut retry = params;
    retry["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["requestState"] = first["result"]["requestState"].clone();
    let replayed = call(&mut eve.client, retry.clone());
    let message = replayed["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with("it belongs to another caller"),
        "{replayed}"
    );
    let mut anonymous = common::InProcess::start(server().request_state_key(key));
    let replayed = call(&mut anonymous.client, retry.clone());
    let message = replayed["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with("it belongs to another caller"),
        "{replayed}"
    );
    let answered = call(&mut ada.client, retry);
    assert_eq!(
        answered["result"]["content"][0]["text"], "deleted the notes tagged t",
        "{answered}"
    );
}

#[test]
fn an_expired_request_state_is_refused() {
    let mut server = common::InProcess::start(server().request_state_ttl(Duration::ZERO));
    let first = call(
        &mut server.client,
        json!({"name": "delete_tagged", "arguments": {"tag": "t"}}),
    );
    std::thread::sleep(Duration::from_millis(5));
    let retry = call(
        &mut server.client,
        json!({"name": "delete_tagged", "arguments": {"tag": "t"},
        "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": true}}},
        "requestState": first["result"]["requestState"]}),
    );
    assert!(
        retry["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("it has expired"),
        "{retry}"
    );
}

/// Reads how often `delete_tagged` started.
#[mcp_tool]
fn run_count(runs: State<Runs>) -> usize {
    runs.0.load(Ordering::SeqCst)
}

/// The code before an ask runs once per round on 2026-07-28, once in a session.
#[test]
fn code_before_an_ask_runs_once_per_round() {
    for (revision, runs) in [
        (ProtocolVersion::V2025_11_25, 1),
        (ProtocolVersion::V2026_07_28, 2),
    ] {
        let mut client = Client::connect_answering(server(), revision, confirming(true)).unwrap();
        client.call("delete_tagged", json!({"tag": "t"})).unwrap();
        let count = client.call("run_count", json!({})).unwrap();
        assert_eq!(count.text(), runs.to_string(), "{revision}");
    }
}

/// In a session, the server's request over stdio, answered by hand: responses with unknown
/// ids or twice are ignored, and the call goes on with the right one.
#[test]
fn a_session_routes_responses_by_id() {
    let mut piped = PipedServer::start(server());
    let client = &mut piped.client;
    client.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "clientInfo": {"name": "t", "version": "0"},
        "capabilities": {"elicitation": {}}}}),
    );
    client.recv();
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    client.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "delete_tagged", "arguments": {"tag": "t"}}}));
    let request = client.recv();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    assert_eq!(request["params"]["mode"], "form");
    let id = request["id"].clone();
    let accept = json!({"action": "accept", "content": {"confirm": true}});
    client.send(&json!({"jsonrpc": "2.0", "id": 999, "result": accept}));
    client.send(&json!({"jsonrpc": "2.0", "id": id, "result": accept}));
    client.send(&json!({"jsonrpc": "2.0", "id": id, "result": {"action": "decline"}}));
    let answer = client.recv();
    assert_eq!(answer["id"], 2);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "deleted the notes tagged t"
    );
    client.expect_silence(Duration::from_millis(200));
    piped.finish().unwrap();
}

/// A client that never answers: the ask times out, the server cancels its request at the
/// client, and the tool sees why. A cancelled call cancels its ask the same way.
#[test]
fn asks_time_out_and_follow_the_call_s_cancellation() {
    let mut piped = PipedServer::start(server().ask_timeout(Duration::from_millis(200)));
    let client = &mut piped.client;
    client.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "clientInfo": {"name": "t", "version": "0"},
        "capabilities": {"elicitation": {}}}}),
    );
    client.recv();
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    client.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "how_it_failed", "arguments": {}}}));
    let request = client.recv();
    assert_eq!(request["method"], "elicitation/create");
    let cancelled = client.recv();
    assert_eq!(
        cancelled["method"], "notifications/cancelled",
        "{cancelled}"
    );
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    let answer = client.recv();
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "failed: the client did not answer in time"
    );

    client.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "delete_tagged", "arguments": {"tag": "t"}}}));
    let request = client.recv();
    client.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
    );
    let cancelled = client.recv();
    assert_eq!(
        cancelled["method"], "notifications/cancelled",
        "{cancelled}"
    );
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    // A late answer to the cancelled ask is ignored, and the call sends nothing more.
    client.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "decline"}}));
    client.expect_silence(Duration::from_millis(300));
    piped.finish().unwrap();
}
