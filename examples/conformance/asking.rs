//! Fixture tools that ask the client: in a 2025 session each ask is a request to the client; on
//! 2026-07-28 each is a round of `input_required` (the `test_input_required_result_*` tools).
//! The key of an ask in `inputRequests` is its form's type name in snake case (`UserName` is
//! `user_name`), `sampling` or `roots`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::prelude::*;

/// What an accepted answer holds, as JSON; otherwise the action.
fn described<T: Serialize>(answer: &Answer<T>) -> String {
    match answer {
        Answer::Accept(content) => format!(
            "action=accept, content={}",
            serde_json::to_string(content).unwrap_or_default()
        ),
        Answer::Decline => "action=decline".into(),
        Answer::Cancel => "action=cancel".into(),
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the user for their name and email.
///
/// # Arguments
/// * `message` - What to tell the user.
#[mcp_tool]
async fn test_elicitation(message: String, ask: Elicit<UserInfo>) -> Result<String, ToolError> {
    let answer = ask.form(message).await?;
    Ok(format!("User response: {}", described(&answer)))
}

/// Asks the client's model.
///
/// # Arguments
/// * `prompt` - The prompt.
#[mcp_tool]
async fn test_sampling(prompt: String, sample: Sample) -> Result<String, ToolError> {
    let reply = sample
        .create_message(SamplingRequest::user(prompt, 100))
        .await?;
    Ok(format!("LLM response: {}", reply.text().unwrap_or("")))
}

#[derive(Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct WithDefaults {
    /// User name
    #[serde(default = "john_doe")]
    name: String,
    /// User age
    #[serde(default = "thirty")]
    age: i64,
    /// User score
    #[serde(default = "high_score")]
    score: f64,
    /// User status
    #[serde(default)]
    status: Status,
    /// Verification status
    #[serde(default = "yes")]
    verified: bool,
}

fn john_doe() -> String {
    "John Doe".into()
}

fn thirty() -> i64 {
    30
}

fn high_score() -> f64 {
    95.5
}

fn yes() -> bool {
    true
}

/// Shows a form whose every field has a default (SEP-1034).
#[mcp_tool]
async fn test_elicitation_sep1034_defaults(ask: Elicit<WithDefaults>) -> Result<String, ToolError> {
    let answer = ask.form("Please review and update the form fields").await?;
    Ok(format!("Elicitation completed: {}", described(&answer)))
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Titled {
    #[serde(rename = "value1")]
    #[schemars(title = "First Option")]
    First,
    #[serde(rename = "value2")]
    #[schemars(title = "Second Option")]
    Second,
    #[serde(rename = "value3")]
    #[schemars(title = "Third Option")]
    Third,
}

/// Titles the way 2025-06-18 clients read them.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

#[derive(Serialize, Deserialize, JsonSchema)]
enum Choice {
    #[serde(rename = "value1")]
    #[schemars(title = "First Choice")]
    First,
    #[serde(rename = "value2")]
    #[schemars(title = "Second Choice")]
    Second,
    #[serde(rename = "value3")]
    #[schemars(title = "Third Choice")]
    Third,
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Enums {
    /// Pick one
    untitled_single: Untitled,
    /// Pick one
    titled_single: Titled,
    /// Pick one
    legacy_enum: Legacy,
    /// Pick some
    #[schemars(length(min = 1, max = 3))]
    untitled_multi: Vec<Untitled>,
    /// Pick some
    #[schemars(length(min = 1, max = 3))]
    titled_multi: Vec<Choice>,
}

/// Shows a form with every kind of enum (SEP-1330).
#[mcp_tool]
async fn test_elicitation_sep1330_enums(ask: Elicit<Enums>) -> Result<String, ToolError> {
    let answer = ask.form("Please pick from the options").await?;
    Ok(format!("Elicitation completed: {}", described(&answer)))
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct UserName {
    name: String,
}

/// Greets the user by the name they give.
#[mcp_tool]
async fn test_input_required_result_elicitation(
    ask: Elicit<UserName>,
) -> Result<String, ToolError> {
    Ok(match ask.form("What is your name?").await? {
        Answer::Accept(UserName { name }) => format!("Hello, {name}!"),
        _ => "Hello, whoever you are!".into(),
    })
}

/// Asks the client's model a question.
#[mcp_tool]
async fn test_input_required_result_sampling(sample: Sample) -> Result<String, ToolError> {
    let reply = sample.prompt("What is the capital of France?", 100).await?;
    Ok(format!("Sampling result: {}", reply.text().unwrap_or("")))
}

/// Counts the client's roots.
#[mcp_tool]
async fn test_input_required_result_list_roots(roots: Roots) -> Result<String, ToolError> {
    Ok(format!("Found {} root(s)", roots.list().await?.len()))
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Asks for a confirmation; the round's state travels sealed in `requestState`.
#[mcp_tool]
async fn test_input_required_result_request_state(
    ask: Elicit<Confirm>,
) -> Result<String, ToolError> {
    confirmed(ask).await
}

/// The same confirmation: a tampered `requestState` is refused.
#[mcp_tool]
async fn test_input_required_result_tampered_state(
    ask: Elicit<Confirm>,
) -> Result<String, ToolError> {
    confirmed(ask).await
}

async fn confirmed(ask: Elicit<Confirm>) -> Result<String, ToolError> {
    Ok(match ask.form("Please confirm").await? {
        Answer::Accept(Confirm { ok }) => format!("state-ok: confirmed={ok}"),
        answer => format!("state-ok: {}", described(&answer)),
    })
}

/// Asks for a name, a model's greeting and the roots, all at once.
#[mcp_tool]
async fn test_input_required_result_multiple_inputs(
    ask: Elicit<UserName>,
    sample: Sample,
    roots: Roots,
) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        ask.form("What is your name?"),
        sample.prompt("Generate a greeting", 50),
        roots.list()
    );
    let name = match name? {
        Answer::Accept(UserName { name }) => name,
        _ => "someone".into(),
    };
    Ok(format!(
        "{} {name}; {} root(s)",
        greeting?.text().unwrap_or("Hello"),
        roots?.len()
    ))
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Step1 {
    name: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Step2 {
    color: String,
}

/// Asks two questions, one round each.
#[mcp_tool]
async fn test_input_required_result_multi_round(
    first: Elicit<Step1>,
    second: Elicit<Step2>,
) -> Result<String, ToolError> {
    let Answer::Accept(Step1 { name }) = first.form("Step 1: What is your name?").await? else {
        return Ok("Multi-round stopped at step 1".into());
    };
    let Answer::Accept(Step2 { color }) =
        second.form("Step 2: What is your favorite color?").await?
    else {
        return Ok("Multi-round stopped at step 2".into());
    };
    Ok(format!("Multi-round complete for {name} who likes {color}"))
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct ElicitInput {
    value: String,
}

/// Asks only what the client declared it can answer.
#[mcp_tool]
async fn test_input_required_result_capabilities(
    ask: Elicit<ElicitInput>,
    sample: Sample,
) -> Result<String, ToolError> {
    let form = async {
        match ask.supported() {
            true => ask.form("Enter a value").await.map(|a| described(&a)),
            false => Ok("no elicitation".into()),
        }
    };
    let model = async {
        match sample.supported() {
            true => sample.prompt("Say something", 50).await.map(|r| {
                let text = r.text().unwrap_or("");
                format!("model said {text}")
            }),
            false => Ok("no sampling".into()),
        }
    };
    let (form, model) = tokio::join!(form, model);
    Ok(format!("capabilities-ok: received {}; {}", form?, model?))
}

/// Cannot work without sampling: a client that did not declare it gets -32021 on 2026-07-28.
#[mcp_tool]
async fn test_missing_capability(sample: Sample) -> Result<String, ToolError> {
    let reply = sample.prompt("Say hello", 50).await?;
    Ok(format!("LLM response: {}", reply.text().unwrap_or("")))
}
