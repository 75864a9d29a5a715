//! Prompts and resources made with `#[mcp_prompt]` and `#[mcp_resource]`, through the
//! in-process client: arguments bound from strings, descriptions from the doc comment, every
//! return shape and error, direct resources and templates, injected state, an impl block of
//! all three kinds, completion, and the clashes refused at start-up; in a handshake revision
//! (2025-11-25) and the stateless one (2026-07-28).

use std::sync::Mutex;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::testing::{Client, RpcError};
use toolwright::{ProtocolVersion, Server};

const ERAS: [ProtocolVersion; 2] = [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28];

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Formal,
    Friendly,
    Frank,
}

/// What the prompts and resources read: injected as `State<Library>`.
struct Library {
    notes: Vec<&'static str>,
}

/// Greets someone.
///
/// # Arguments
/// * `name` - Who to greet.
/// * `greeting` - The word to greet with.
#[mcp_prompt]
fn greet(name: String, greeting: Option<String>) -> String {
    format!("{} {name}", greeting.as_deref().unwrap_or("Hello"))
}

/// Counts down, in a tone.
///
/// # Arguments
/// * `from` - Where to start.
#[mcp_prompt]
async fn countdown(from: i64, tone: Tone) -> Vec<PromptMessage> {
    let tone = match tone {
        Tone::Formal => "formally",
        Tone::Friendly => "kindly",
        Tone::Frank => "plainly",
    };
    vec![
        PromptMessage::user(format!("Count down from {from}, {tone}.")),
        PromptMessage::assistant(format!("{from}")),
    ]
}

/// Two turns, described.
#[mcp_prompt]
fn conversation() -> Messages {
    Messages::new()
        .description("A greeting and its answer")
        .user("Hi")
        .assistant("Hello")
}

/// Refuses, saying why.
#[mcp_prompt]
fn refuse(reason: String) -> Result<String, String> {
    Err(format!("refused: {reason}"))
}

/// Panics.
#[mcp_prompt]
fn explode() -> String {
    panic!("the secret detail")
}

/// Summarises the library.
#[mcp_prompt]
async fn summarise(library: State<Library>) -> String {
    format!("Summarise {} notes.", library.notes.len())
}

/// The read-me.
#[mcp_resource("test://readme")]
fn readme() -> String {
    "Read me first.".to_owned()
}

/// The logo.
#[mcp_resource("test://logo", mime_type = "image/png")]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[derive(Serialize)]
struct Stats {
    notes: usize,
}

/// How many notes there are.
#[mcp_resource("test://stats")]
async fn stats(library: State<Library>) -> Json<Stats> {
    Json(Stats {
        notes: library.notes.len(),
    })
}

/// One note.
///
/// # Arguments
/// * `id` - The note's number.
#[mcp_resource("notes://{id}", mime_type = "text/markdown")]
fn note(#[arg(complete = note_ids)] id: u32, library: State<Library>) -> Option<String> {
    let note = library.notes.get(usize::try_from(id).ok()?)?;
    Some(format!("# Note {id}\n{note}"))
}

fn note_ids(completing: Completing) -> Vec<String> {
    ["0", "1", "10"]
        .into_iter()
        .filter(|id| id.starts_with(completing.value()))
        .map(str::to_owned)
        .collect()
}

/// Writes in a style.
#[mcp_prompt]
fn styled(
    tone: Tone,
    #[arg(complete = topics)] topic: String,
    #[arg(complete = levels)] level: String,
) -> String {
    let _ = tone;
    format!("{topic} at {level}")
}

/// Suggests topics for the tone already chosen.
fn topics(completing: Completing) -> Vec<String> {
    let tone = completing.get("tone").unwrap_or("any");
    vec![format!("{tone}-{}", completing.value())]
}

/// Suggests levels for the tone already chosen, asynchronously.
async fn levels(completing: Completing) -> Completion {
    tokio::task::yield_now().await;
    let tone = completing.get("tone").unwrap_or("any");
    Completion::of(
        ["beginner", "expert"]
            .into_iter()
            .filter(|level| level.starts_with(completing.value()))
            .map(|level| format!("{level} ({tone})")),
    )
}

fn server() -> Server {
    Server::new("prompts-and-resources", "1")
        .prompt::<greet>()
        .prompt::<countdown>()
        .prompt::<conversation>()
        .prompt::<refuse>()
        .prompt::<explode>()
        .prompt::<summarise>()
        .prompt::<styled>()
        .resource::<readme>()
        .resource::<logo>()
        .resource::<stats>()
        .resource::<note>()
        .state(Library {
            notes: vec!["milk", "eggs"],
        })
}

fn connect(revision: ProtocolVersion) -> Client {
    Client::connect(server(), revision).unwrap()
}

fn get(client: &mut Client, name: &str, arguments: Value) -> Result<Value, RpcError> {
    client.request("prompts/get", json!({"name": name, "arguments": arguments}))
}

fn read(client: &mut Client, uri: &str) -> Result<Value, RpcError> {
    client.request("resources/read", json!({"uri": uri}))
}

/// The text of each message, with its role.
fn texts(result: &Value) -> Vec<(String, String)> {
    result["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["content"]["type"], "text", "{m}");
            let text = m["content"]["text"].as_str().unwrap().to_owned();
            (m["role"].as_str().unwrap().to_owned(), text)
        })
        .collect()
}

fn user(text: &str) -> (String, String) {
    ("user".to_owned(), text.to_owned())
}

#[test]
fn prompts_list_their_arguments_with_the_doc_comments_descriptions() {
    for revision in ERAS {
        let mut client = connect(revision);
        let list = client.request("prompts/list", json!({})).unwrap();
        let prompts = list["prompts"].as_array().unwrap();
        let greet = prompts.iter().find(|p| p["name"] == "greet").unwrap();
        assert_eq!(greet["description"], "Greets someone.");
        assert_eq!(
            greet["arguments"],
            json!([
                {"name": "name", "description": "Who to greet.", "required": true},
                {"name": "greeting", "description": "The word to greet with.", "required": false},
            ]),
            "{revision}"
        );
        let countdown = prompts.iter().find(|p| p["name"] == "countdown").unwrap();
        assert_eq!(countdown["arguments"][0]["description"], "Where to start.");
        assert_eq!(countdown["arguments"][1]["name"], "tone");
    }
}

#[test]
fn sync_and_async_prompts_bind_strings_options_numbers_and_enums() {
    for revision in ERAS {
        let mut client = connect(revision);
        let plain = get(&mut client, "greet", json!({"name": "Ada"})).unwrap();
        assert_eq!(texts(&plain), [user("Hello Ada")]);
        let given = get(
            &mut client,
            "greet",
            json!({"name": "Ada", "greeting": "Hi"}),
        )
        .unwrap();
        assert_eq!(texts(&given), [user("Hi Ada")]);
        let counted = get(
            &mut client,
            "countdown",
            json!({"from": "42", "tone": "frank"}),
        );
        assert_eq!(
            texts(&counted.unwrap()),
            [
                user("Count down from 42, plainly."),
                ("assistant".to_owned(), "42".to_owned())
            ],
            "{revision}"
        );
    }
}

#[test]
fn arguments_that_do_not_bind_are_invalid_params_naming_them() {
    for revision in ERAS {
        let mut client = connect(revision);
        let missing = get(&mut client, "greet", json!({})).unwrap_err();
        assert_eq!(missing.code, -32602);
        assert!(
            missing.message.contains("missing field `name`"),
            "{}",
            missing.message
        );
        let not_a_number = get(
            &mut client,
            "countdown",
            json!({"from": "three", "tone": "formal"}),
        )
        .unwrap_err();
        assert_eq!(not_a_number.code, -32602);
        assert!(
            not_a_number.message.contains(
                "`from`: must be an integer (decimal digits, no leading zero), not `three`"
            ),
            "{}",
            not_a_number.message
        );
        let no_such_tone = get(
            &mut client,
            "countdown",
            json!({"from": "1", "tone": "rude"}),
        )
        .unwrap_err();
        assert_eq!(no_such_tone.code, -32602, "{revision}");
        // `from` is mended from its string; what is left to fix is the tone.
        assert!(
            no_such_tone.message.contains("`tone`"),
            "{revision}: {}",
            no_such_tone.message
        );
    }
}

#[test]
fn every_return_shape_and_error_of_a_prompt() {
    for revision in ERAS {
        let mut client = connect(revision);
        let described = get(&mut client, "conversation", json!({})).unwrap();
        assert_eq!(described["description"], "A greeting and its answer");
        assert_eq!(
            texts(&described),
            [user("Hi"), ("assistant".to_owned(), "Hello".to_owned())]
        );
        let refused = get(&mut client, "refuse", json!({"reason": "too late"})).unwrap_err();
        assert_eq!(refused.code, -32603);
        assert_eq!(refused.message, "refused: too late", "sent as written");
        let panicked = get(&mut client, "explode", json!({})).unwrap_err();
        assert_eq!(panicked.code, -32603);
        assert!(!panicked.message.contains("secret"), "{}", panicked.message);
        let state = get(&mut client, "summarise", json!({})).unwrap();
        assert_eq!(texts(&state), [user("Summarise 2 notes.")], "{revision}");
    }
}

#[test]
fn resources_read_as_text_blobs_and_json_with_their_uri() {
    for revision in ERAS {
        let mut client = connect(revision);
        let readme = read(&mut client, "test://readme").unwrap();
        assert_eq!(
            readme["contents"],
            json!([{"uri": "test://readme", "mimeType": "text/plain", "text": "Read me first."}])
        );
        let logo = read(&mut client, "test://logo").unwrap();
        assert_eq!(
            logo["contents"],
            json!([{"uri": "test://logo", "mimeType": "image/png", "blob": "iVBORw=="}])
        );
        let stats = read(&mut client, "test://stats").unwrap();
        assert_eq!(stats["contents"][0]["mimeType"], "application/json");
        assert_eq!(stats["contents"][0]["text"], r#"{"notes":2}"#, "{revision}");
    }
}

#[test]
fn a_template_binds_its_variable_and_none_is_not_found() {
    for revision in ERAS {
        let mut client = connect(revision);
        let templates = client
            .request("resources/templates/list", json!({}))
            .unwrap();
        let note = &templates["resourceTemplates"][0];
        assert_eq!(note["uriTemplate"], "notes://{id}");
        assert_eq!(note["description"], "One note.");
        let found = read(&mut client, "notes://1").unwrap();
        assert_eq!(
            found["contents"],
            json!([{"uri": "notes://1", "mimeType": "text/markdown", "text": "# Note 1\neggs"}])
        );
        let missing = read(&mut client, "notes://7").unwrap_err();
        let code = match revision {
            ProtocolVersion::V2026_07_28 => -32602,
            _ => -32002,
        };
        assert_eq!(missing.code, code, "{revision}");
        assert_eq!(missing.data, Some(json!({"uri": "notes://7"})));
        // A value the parameter cannot take names no resource either.
        let not_a_number = read(&mut client, "notes://first").unwrap_err();
        assert_eq!(not_a_number.code, code, "{revision}");
        assert_eq!(not_a_number.data, Some(json!({"uri": "notes://first"})));
        assert!(
            not_a_number.message.contains("`{id}` must be an integer"),
            "{}",
            not_a_number.message
        );
    }
}

/// A shelf of books, whose tool, prompt and resource share it.
struct Shelf {
    books: Mutex<Vec<String>>,
}

#[mcp_tool_type]
impl Shelf {
    /// Puts a book on the shelf.
    #[mcp_tool]
    fn shelve(&self, title: String) -> usize {
        let mut books = self.books.lock().unwrap();
        books.push(title);
        books.len()
    }

    /// Asks for a recommendation among the books.
    #[mcp_prompt]
    async fn recommend(&self, mood: Option<String>) -> String {
        let books = self.books.lock().unwrap().join(", ");
        format!(
            "Recommend one of {books} for a {} mood.",
            mood.unwrap_or("quiet".into())
        )
    }

    /// One book, by its place.
    #[mcp_resource("shelf://{place}")]
    fn book(&self, place: usize) -> Option<String> {
        self.books.lock().unwrap().get(place).cloned()
    }
}

#[test]
fn an_impl_block_serves_a_tool_a_prompt_and_a_resource_over_one_instance() {
    for revision in ERAS {
        let shelf = Shelf {
            books: Mutex::new(vec!["Emma".to_owned()]),
        };
        let mut client = Client::connect(Server::new("shelf", "1").tools(shelf), revision).unwrap();
        let shelved = client.call("shelve", json!({"title": "Dune"})).unwrap();
        assert_eq!(shelved.text(), "2");
        let prompt = get(&mut client, "recommend", json!({})).unwrap();
        assert_eq!(
            texts(&prompt),
            [user("Recommend one of Emma, Dune for a quiet mood.")]
        );
        let book = read(&mut client, "shelf://1").unwrap();
        assert_eq!(book["contents"][0]["text"], "Dune", "{revision}");
    }
}

fn complete(client: &mut Client, reference: Value, argument: &str, value: &str) -> Vec<String> {
    complete_with(client, reference, argument, value, json!({}))
}

fn complete_with(
    client: &mut Client,
    reference: Value,
    argument: &str,
    value: &str,
    arguments: Value,
) -> Vec<String> {
    let params = json!({
        "ref": reference,
        "argument": {"name": argument, "value": value},
        "context": {"arguments": arguments},
    });
    let result = client.request("completion/complete", params).unwrap();
    serde_json::from_value(result["completion"]["values"].clone()).unwrap()
}

#[test]
fn arguments_complete_from_enum_variants_and_from_functions() {
    let styled = json!({"type": "ref/prompt", "name": "styled"});
    for revision in ERAS {
        let mut client = connect(revision);
        assert_eq!(
            complete(&mut client, styled.clone(), "tone", "fr"),
            ["friendly", "frank"]
        );
        assert_eq!(
            complete(&mut client, styled.clone(), "tone", ""),
            ["formal", "friendly", "frank"]
        );
        assert_eq!(
            complete_with(
                &mut client,
                styled.clone(),
                "topic",
                "rust",
                json!({"tone": "formal"})
            ),
            ["formal-rust"]
        );
        assert_eq!(
            complete_with(
                &mut client,
                styled.clone(),
                "level",
                "b",
                json!({"tone": "frank"})
            ),
            ["beginner (frank)"]
        );
        assert_eq!(
            complete(&mut client, styled.clone(), "level", ""),
            ["beginner (any)", "expert (any)"]
        );
        let note = json!({"type": "ref/resource", "uri": "notes://{id}"});
        assert_eq!(
            complete(&mut client, note, "id", "1"),
            ["1", "10"],
            "{revision}"
        );
    }
}

const FIRST_DRAFT: u32 = line!() + 3;
/// A draft.
#[mcp_prompt(name = "draft")]
fn first_draft() -> String {
    String::new()
}

/// A module of its own: two prompts of one name in one module are a compile error.
mod redraft {
    use toolwright::prelude::*;

    pub(super) const SECOND_DRAFT: u32 = line!() + 3;
    /// Another draft, under the same name.
    #[mcp_prompt(name = "draft")]
    pub(super) fn second_draft() -> String {
        String::new()
    }
}
use redraft::{SECOND_DRAFT, second_draft};

const ANY_PAGE: u32 = line!() + 3;
/// Any page.
#[mcp_resource("test://pages/{page}")]
fn any_page(page: String) -> String {
    page
}

const FIRST_PAGE: u32 = line!() + 3;
/// The first page, which the template serves too.
#[mcp_resource("test://pages/first")]
fn first_page() -> String {
    String::new()
}

#[test]
fn two_prompts_of_one_name_and_overlapping_resources_are_refused_at_start_up() {
    let at = |line: u32| format!("tests/integration/prompts_resources.rs:{line}");
    let prompts = Server::new("drafts", "1")
        .prompt::<second_draft>()
        .prompt::<first_draft>();
    let error = Client::new(prompts).err().unwrap().to_string();
    assert_eq!(
        error,
        format!(
            "two prompts are named `draft`: one defined at {}, one at {}; give one of them \
             another name with #[mcp_prompt(name = \"...\")]",
            at(FIRST_DRAFT),
            at(SECOND_DRAFT)
        )
    );
    let resources = Server::new("pages", "1")
        .resource::<any_page>()
        .resource::<first_page>();
    let error = Client::new(resources).err().unwrap().to_string();
    assert!(
        error.contains("`test://pages/{page}` and `test://pages/first`"),
        "{error}"
    );
    assert!(error.contains(&at(ANY_PAGE)), "{error}");
    assert!(error.contains(&at(FIRST_PAGE)), "{error}");
}

/// Written with its `_meta` over several lines.
#[mcp_prompt(meta = r#"{
    "com.example/kind": "demo"
}"#)]
fn with_meta() -> &'static str {
    "meta"
}

#[test]
fn a_multi_line_meta_is_sent_on_the_response_line() {
    let server = Server::new("meta", "1").prompt::<with_meta>();
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let prompts = client.list_prompts().unwrap();
    assert_eq!(prompts[0]["_meta"], json!({"com.example/kind": "demo"}));
}
