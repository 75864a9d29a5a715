//! Errors the author chooses (`McpError`: a code of their own, the specification's named ones,
//! shaped for each revision), errors sent as written, errors that keep their size whatever the
//! client sent, and values refused for what they must look like.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::asking::UrlElicitation;
use toolwright::prelude::*;
use toolwright::testing::{Answers, Client, RpcError};

const MODERN: ProtocolVersion = ProtocolVersion::V2026_07_28;
const LATEST_LEGACY: ProtocolVersion = ProtocolVersion::V2025_11_25;

/// Refuses with a code of its own.
#[mcp_tool]
fn closed() -> Result<String, McpError> {
    Err(McpError::new(-1, "the catalogue is closed").with_data(json!({"retry": 60})))
}

/// Says a memo is gone with the code 2025 revisions use for it.
#[mcp_resource("memo://gone")]
fn gone() -> Result<String, McpError> {
    Err(McpError::new(-32002, "the memo is gone"))
}

/// Refuses with a code the specification reserves.
#[mcp_tool]
fn reserved() -> Result<String, ToolError> {
    Err(McpError::new(-32050, "an undefined reserved code").into())
}

/// Whether the user has signed in at the URL the tool sent them to.
#[derive(Default)]
struct SignedIn(Arc<AtomicBool>);

/// Needs the user to sign in first.
#[mcp_tool]
fn archive(signed_in: State<SignedIn>) -> Result<String, McpError> {
    if signed_in.0.load(Ordering::SeqCst) {
        return Ok("the archive".into());
    }
    Err(McpError::url_elicitation_required(
        "Sign in to the archive first.",
        [UrlElicitation::new(
            "Sign in",
            "https://archive.example/connect",
        )],
    ))
}

/// Refuses its argument.
#[mcp_prompt]
fn strict(style: String) -> Result<String, McpError> {
    Err(McpError::invalid_params(format!("no style `{style}`")))
}

/// Refuses, in its own words.
#[mcp_prompt]
fn refusing() -> Result<String, String> {
    Err("not today".into())
}

/// A note, if it exists.
#[mcp_resource("memo://note/{id}")]
fn note(id: u64) -> Result<String, McpError> {
    match id {
        1 => Ok("the first note".into()),
        _ => Err(McpError::resource_not_found(format!("memo://note/{id}"))
            .with_data(json!({"known": [1]}))),
    }
}

/// A page of a note, in a size.
#[mcp_prompt]
fn page(number: u32, large: bool) -> String {
    format!("page {number}, large: {large}")
}

/// Takes a number.
#[mcp_tool]
fn square(n: u64) -> u64 {
    n * n
}

fn server() -> Server {
    server_signing_in(SignedIn::default())
}

fn server_signing_in(signed_in: SignedIn) -> Server {
    Server::new("errors", "1")
        .tool::<closed>()
        .tool::<reserved>()
        .tool::<archive>()
        .tool::<square>()
        .prompt::<strict>()
        .prompt::<refusing>()
        .prompt::<page>()
        .resource::<note>()
        .resource::<gone>()
        .state(signed_in)
}

fn client(revision: ProtocolVersion) -> Client {
    Client::connect(server(), revision).unwrap()
}

#[test]
fn a_code_of_the_authors_own_answers_the_request_in_every_revision() {
    for revision in ProtocolVersion::ALL {
        let error = client(revision).call("closed", json!({})).unwrap_err();
        assert_eq!(error.code, -1, "{revision}");
        assert_eq!(error.message, "the catalogue is closed");
        assert_eq!(error.data, Some(json!({"retry": 60})));
    }
    let reserved = client(MODERN).call("reserved", json!({})).unwrap_err();
    assert_eq!(
        reserved.code, -32603,
        "2026-07-28 sends no undefined reserved code"
    );
    let reserved = client(LATEST_LEGACY)
        .call("reserved", json!({}))
        .unwrap_err();
    assert_eq!(reserved.code, -32050);
    // -32002 is resource not found before 2026-07-28, which says it with -32602 and forbids it.
    let gone = client(LATEST_LEGACY)
        .read_resource("memo://gone")
        .unwrap_err();
    assert_eq!(gone.code, -32002);
    let gone = client(MODERN).read_resource("memo://gone").unwrap_err();
    assert_eq!(
        (gone.code, gone.message.as_str()),
        (-32602, "the memo is gone")
    );
}

#[test]
fn named_errors_follow_each_revision() {
    for revision in ProtocolVersion::ALL {
        let mut client = client(revision);
        let missing = client.read_resource("memo://note/2").unwrap_err();
        let code = match revision.resource_not_found_is_invalid_params() {
            true => -32602,
            false => -32002,
        };
        assert_eq!(missing.code, code, "{revision}");
        assert_eq!(
            missing.data,
            Some(json!({"known": [1], "uri": "memo://note/2"}))
        );
        let strict = client
            .get_prompt("strict", json!({"style": "loud"}))
            .unwrap_err();
        assert_eq!(
            (strict.code, strict.message.as_str()),
            (-32602, "no style `loud`")
        );
        let refusing = client.get_prompt("refusing", json!({})).unwrap_err();
        assert_eq!(
            (refusing.code, refusing.message.as_str()),
            (-32603, "not today"),
            "{revision}: an error is sent as written"
        );
    }
}

/// Answers a URL elicitation by signing in, as a user who opens the URL does.
fn signing_in(signed_in: Arc<AtomicBool>) -> Answers {
    Answers::new().elicitation(move |request| {
        assert_eq!(request["mode"], "url", "{request}");
        assert_eq!(request["url"], "https://archive.example/connect");
        signed_in.store(true, Ordering::SeqCst);
        json!({"action": "accept"})
    })
}

#[test]
fn url_elicitation_required_is_32042_on_2025_11_25_and_a_round_on_2026() {
    let flag = Arc::new(AtomicBool::new(false));
    let on_2025 = Client::connect_answering(server(), LATEST_LEGACY, signing_in(Arc::clone(&flag)))
        .unwrap()
        .call("archive", json!({}))
        .unwrap_err();
    assert_eq!(on_2025.code, -32042, "{on_2025:?}");
    assert_eq!(on_2025.message, "Sign in to the archive first.");
    let asked = &on_2025.data.as_ref().unwrap()["elicitations"][0];
    assert_eq!(asked["mode"], "url");
    assert_eq!(asked["url"], "https://archive.example/connect");
    assert!(asked["elicitationId"].is_string(), "{asked}");
    assert!(
        !flag.load(Ordering::SeqCst),
        "the client opens the URL itself"
    );

    // On 2026-07-28 the same error is a round asking for the URL; the retry, once the user
    // signed in, gets the result.
    let flag = Arc::new(AtomicBool::new(false));
    let server = server_signing_in(SignedIn(Arc::clone(&flag)));
    let mut client =
        Client::connect_answering(server, MODERN, signing_in(Arc::clone(&flag))).unwrap();
    let result = client.call("archive", json!({})).unwrap();
    assert_eq!(result.text(), "the archive");
    assert!(flag.load(Ordering::SeqCst));
}

#[test]
fn a_client_that_takes_no_urls_gets_the_revisions_missing_capability_answer() {
    let error = client(MODERN).call("archive", json!({})).unwrap_err();
    assert_eq!(error.code, -32021, "{error:?}");
    let result = client(LATEST_LEGACY).call("archive", json!({})).unwrap();
    assert!(result.is_error());
    assert_eq!(
        result.text(),
        "Sign in to the archive first.\nSign in: https://archive.example/connect"
    );
    let older = client(ProtocolVersion::V2025_06_18)
        .call("archive", json!({}))
        .unwrap();
    assert!(older.is_error(), "2025-06-18 has no URL elicitation");
}

fn rpc_error(answer: Result<impl std::fmt::Debug, RpcError>) -> RpcError {
    answer.expect_err("an error")
}

#[test]
fn errors_keep_their_size_whatever_the_client_sent() {
    let long = "x".repeat(1 << 20);
    for revision in [LATEST_LEGACY, MODERN] {
        let mut client = client(revision);
        let unknown = rpc_error(client.call(&long, json!({})));
        assert!(
            unknown.message.len() < 400,
            "{revision}: {} bytes",
            unknown.message.len()
        );
        assert!(
            unknown.message.contains("(1048576 bytes)"),
            "{}",
            unknown.message
        );
        let uri = format!("memo://{long}");
        let missing = rpc_error(client.read_resource(&uri));
        let size = serde_json::to_string(&missing.data).unwrap().len() + missing.message.len();
        assert!(
            size < 1000,
            "{revision}: an error of {size} bytes for a URI of 1 MiB"
        );
        // A URI of ordinary length is in `data.uri`, whole.
        let missing = rpc_error(client.read_resource("memo://nothing/here"));
        assert_eq!(missing.data, Some(json!({"uri": "memo://nothing/here"})));
        let prompt = rpc_error(client.get_prompt(&long, json!({})));
        assert!(prompt.message.len() < 400, "{revision}");
        // A value quoted by the binding's message.
        let bound = client.call("square", json!({"n": long}));
        let text = match bound {
            Ok(result) => result.text().to_owned(),
            Err(error) => error.message,
        };
        assert!(text.len() < 600, "{revision}: {} bytes", text.len());
        let key = client.call("square", json!({"n": 1, long.clone(): 1}));
        let text = match key {
            Ok(result) => result.text().to_owned(),
            Err(error) => error.message,
        };
        assert!(text.len() < 600, "{revision}: {} bytes", text.len());
    }
}

#[test]
fn values_sent_as_strings_are_refused_for_what_they_must_look_like() {
    for revision in [LATEST_LEGACY, MODERN] {
        let mut client = client(revision);
        let leading_zero = rpc_error(client.read_resource("memo://note/01"));
        assert_eq!(
            leading_zero.message,
            "Resource not found: memo://note/01: the variable `{id}` must be an integer of at \
             least 0 (decimal digits, no leading zero), not `01`",
            "{revision}"
        );
        let word = rpc_error(client.get_prompt("page", json!({"number": "ten", "large": "yes"})));
        assert_eq!(word.code, -32602);
        assert!(
            word.message
                .contains("`number`: must be an integer from 0 to 4294967295")
                && word.message.ends_with("not `ten`"),
            "{revision}: {}",
            word.message
        );
        let flag = rpc_error(client.get_prompt("page", json!({"number": "2", "large": "yes"})));
        assert!(
            flag.message
                .ends_with("`large`: must be `true` or `false`, not `yes`"),
            "{revision}: {}",
            flag.message
        );
        let value: Value = client
            .get_prompt("page", json!({"number": "2", "large": "true"}))
            .unwrap();
        assert_eq!(
            value["messages"][0]["content"]["text"],
            "page 2, large: true"
        );
    }
}
