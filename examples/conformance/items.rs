//! The fixture prompts and resources the conformance suite reads: static text and binary
//! resources, a template, a resource to subscribe to, and prompts with arguments, an embedded
//! resource and an image, and one that asks the user before it is made.

use std::sync::atomic::{AtomicU64, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::prelude::*;

use crate::PNG;

/// A static text resource.
#[mcp_resource("test://static-text", mime_type = "text/plain")]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource: a 1x1 PNG.
#[mcp_resource("test://static-binary", mime_type = "image/png")]
fn static_binary() -> EmbeddedResource {
    EmbeddedResource::blob_base64("test://static-binary", PNG)
        .expect("the fixture is base64")
        .mime_type("image/png")
}

/// The data of one item, by id.
///
/// # Arguments
/// * `id` - The item's id.
#[mcp_resource("test://template/{id}/data", mime_type = "application/json")]
fn template_data(id: String) -> Json<TemplateData> {
    Json(TemplateData {
        data: format!("Data for ID: {id}"),
        id,
        template_test: true,
    })
}

/// What `test://template/{id}/data` holds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TemplateData {
    id: String,
    template_test: bool,
    data: String,
}

/// The watched resource: how often it changed, and how its subscribers hear of a change.
pub(crate) struct Watched {
    pub(crate) changes: AtomicU64,
    pub(crate) updates: ResourceUpdates,
}

/// A resource clients subscribe to.
#[mcp_resource("test://watched-resource", mime_type = "text/plain")]
fn watched_resource(watched: State<Watched>) -> String {
    let changes = watched.changes.load(Ordering::Relaxed);
    format!("This resource is watched for changes; it changed {changes} times.")
}

/// Changes the watched resource: the clients that subscribed to it hear so.
#[mcp_tool(idempotent = false)]
fn test_change_watched_resource(watched: State<Watched>) -> Result<String, ToolError> {
    let changes = watched.changes.fetch_add(1, Ordering::Relaxed) + 1;
    watched
        .updates
        .updated("test://watched-resource")
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(format!("changed {changes} times"))
}

/// A prompt without arguments.
#[mcp_prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with two required arguments.
///
/// # Arguments
/// * `arg1` - The first argument.
/// * `arg2` - The second argument.
#[mcp_prompt]
fn test_prompt_with_arguments(arg1: String, arg2: String) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that embeds a resource.
///
/// # Arguments
/// * `resource_uri` - The URI of the resource to embed.
#[mcp_prompt]
fn test_prompt_with_embedded_resource(
    #[arg(rename = "resourceUri")] resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::text_resource(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt that shows an image.
#[mcp_prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(crate::png()),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// What the user says the prompt is about.
#[derive(Deserialize, JsonSchema)]
struct UserContext {
    context: String,
}

/// A prompt that asks the user for its context first (on 2026-07-28, an `input_required`
/// round; in a session, a request to the client).
#[mcp_prompt]
async fn test_input_required_result_prompt(ask: Elicit<UserContext>) -> Result<String, AskError> {
    match ask.form("What context should the prompt use?").await? {
        Answer::Accept(UserContext { context }) => Ok(format!("Prompt with context: {context}")),
        _ => Ok("Prompt without context".into()),
    }
}
