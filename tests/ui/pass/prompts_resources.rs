//! Prompts and resources in every accepted shape: sync and async, free and methods, every
//! argument type a string can hold, every return type, injected parameters, completion
//! functions, and every key.

use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::content::EmbeddedResource;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
enum Language {
    Rust,
    Python,
}

struct Db;

fn languages(completing: Completing) -> Vec<String> {
    vec![completing.value().to_owned()]
}

async fn ids(completing: Completing) -> Completion {
    Completion::of([completing.argument().to_owned()])
}

/// Reviews code.
///
/// # Arguments
/// * `code` - The code.
#[mcp_prompt(
    name = "review_code",
    title = "Review",
    icon = "https://example.com/i.png",
    tags("code"),
    meta = r#"{"k": 1}"#
)]
fn review(
    code: String,
    focus: Option<String>,
    #[arg(complete = languages)] style: Option<String>,
    depth: u32,
    ratio: f64,
    strict: bool,
    language: Language,
    #[arg(rename = "type", default = 1)] kind: i64,
    db: State<Db>,
    ctx: &Context,
) -> String {
    let _ = (focus, style, depth, ratio, strict, language, kind, db, ctx);
    code
}

/// Returns messages.
#[mcp_prompt]
async fn messages(log: Log, cancel: Cancellation) -> Vec<PromptMessage> {
    let _ = (log, cancel);
    vec![PromptMessage::user("hi")]
}

#[mcp_prompt(description = "With a description.")]
fn described() -> Messages {
    Messages::new().description("d").assistant("a")
}

#[mcp_prompt]
fn fallible() -> Result<PromptMessage, std::fmt::Error> {
    Err(std::fmt::Error)
}

#[mcp_prompt]
fn text() -> &'static str {
    "text"
}

#[mcp_prompt]
fn opaque() -> impl IntoPrompt {
    String::new()
}

/// A direct resource.
#[mcp_resource(
    "test://readme",
    name = "readme",
    title = "Read me",
    mime_type = "text/markdown",
    size = 12,
    audience("user", "assistant"),
    priority = 0.5,
    last_modified = "2025-01-12T15:00:58Z",
    icon(src = "https://example.com/r.png", mime_type = "image/png", sizes = "48x48"),
    tags("docs"),
    meta = r#"{"k": 1}"#
)]
fn readme() -> &'static str {
    "# Read me"
}

/// A template.
#[mcp_resource("test://notes/{id}{?lang}")]
async fn note(
    #[arg(complete = ids)] id: u32,
    lang: Option<Language>,
    db: State<Db>,
) -> Option<Json<Vec<u32>>> {
    let _ = (lang, db);
    Some(Json(vec![id]))
}

#[mcp_resource("test://bytes/{name}")]
fn bytes(name: String) -> Result<Vec<u8>, String> {
    Ok(name.into_bytes())
}

#[mcp_resource("test://embedded")]
fn embedded() -> Vec<EmbeddedResource> {
    vec![EmbeddedResource::text("test://embedded", "x")]
}

struct Notes;

#[mcp_tool_type]
impl Notes {
    /// Adds a note.
    #[mcp_tool]
    fn add(&self, text: String) -> String {
        text
    }

    /// Drafts a note.
    #[mcp_prompt]
    async fn draft(&self, #[arg(complete = Self::topics)] topic: String) -> String {
        topic
    }

    fn topics(_: Completing) -> Vec<&'static str> {
        vec!["groceries"]
    }

    /// One note.
    #[mcp_resource("test://notes/by-self/{id}")]
    fn one(&self, id: u32) -> String {
        id.to_string()
    }

    /// A method's prompt that refers to `Self`.
    #[mcp_prompt]
    fn itself(&self) -> String {
        let _ = Self::helper();
        String::new()
    }

    fn helper() {}
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Asks the user before it is made (an async prompt may ask, as a tool may).
#[mcp_prompt]
async fn confirmed(ask: Elicit<Confirm>, roots: Roots) -> Result<String, AskError> {
    let _ = roots;
    match ask.form("Go on?").await? {
        Answer::Accept(Confirm { confirm }) => Ok(format!("confirmed: {confirm}")),
        _ => Ok("declined".into()),
    }
}

/// Summarises with the client's model; refuses with an error of its choosing.
#[mcp_resource("notes://sampled/{id}")]
async fn sampled(id: u64, sample: &Sample) -> Result<String, McpError> {
    if id == 0 {
        return Err(McpError::resource_not_found(format!("notes://sampled/{id}")));
    }
    Ok(sample.prompt("Summarise", 100).await?.text().unwrap_or_default().to_owned())
}

fn main() {
    let _server = Server::new("shapes", "1")
        .prompt::<confirmed>()
        .resource::<sampled>()
        .prompt::<review>()
        .prompt::<messages>()
        .prompt::<described>()
        .prompt::<fallible>()
        .prompt::<text>()
        .prompt::<opaque>()
        .resource::<readme>()
        .resource::<note>()
        .resource::<bytes>()
        .resource::<embedded>()
        .tools(Notes)
        .state(Db);
}
