//! A prompt's `prompts/list` entry and its `prompts/get` result as each revision expects
//! them: `title` from 2025-06-18, `icons` from 2025-11-25, message blocks a revision cannot
//! carry sent as it can (audio before 2025-03-26 and resource links before 2025-06-18 as a
//! text note), and `resultType` on 2026-07-28, which caches neither.
//!
//! Policy: arguments that do not bind are `-32602` naming the argument; the function's own
//! error is `-32603` with its message (the author wrote it for the client); a panic is
//! `-32603`, masked as tools mask theirs.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::prompts::message::PromptMessage;
use crate::prompts::output::{PromptOutput, PromptRepr};
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::wire::{Icon, Modern};
use crate::tools::content::Content;
use crate::tools::render::{OUTSIDE_ROUNDS, Rendered, chosen_error, masked_error};

/// One argument of a prompt, as listed.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ArgumentEntry {
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    pub(crate) required: bool,
}

/// What a prompt's list entry is made of, before the revision chooses its fields.
pub(crate) struct PromptEntry<'a> {
    pub(crate) name: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) arguments: &'a [ArgumentEntry],
    pub(crate) icons: &'a [Icon],
    pub(crate) meta: Option<&'a RawValue>,
}

#[derive(Serialize)]
pub(crate) struct PromptOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    arguments: Vec<ArgumentOut<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    icons: &'a [Icon],
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a RawValue>,
}

#[derive(Serialize)]
struct ArgumentOut<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    required: bool,
}

impl<'a> PromptEntry<'a> {
    /// The entry as `version` lists it.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> PromptOut<'a> {
        let titles = version.has_titles();
        PromptOut {
            name: self.name,
            title: self.title.filter(|_| titles),
            description: self.description,
            arguments: self
                .arguments
                .iter()
                .map(|a| ArgumentOut {
                    name: &a.name,
                    title: a.title.as_deref().filter(|_| titles),
                    description: a.description.as_deref(),
                    required: a.required,
                })
                .collect(),
            icons: if version.has_icons() { self.icons } else { &[] },
            meta: self.meta.filter(|_| titles),
        }
    }
}

#[derive(Serialize)]
struct GetPromptResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    messages: Vec<MessageOut<'a>>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    modern: Option<Modern<'a>>,
}

#[derive(Serialize)]
struct MessageOut<'a> {
    role: crate::tools::content::Role,
    content: std::borrow::Cow<'a, Content>,
}

fn message_for(message: &PromptMessage, version: ProtocolVersion) -> MessageOut<'_> {
    MessageOut {
        role: message.role,
        content: message.content.for_version(version),
    }
}

/// What shaping a prompt's output needs besides the output.
pub(crate) struct PromptRenderer<'a> {
    pub(crate) name: &'a str,
    /// The schema of the prompt's arguments, to say what a missing one should be.
    pub(crate) arguments_schema: &'a Value,
    pub(crate) expose_internal_errors: bool,
    pub(crate) server_meta: &'a RawValue,
    /// Whether the request's client takes URL elicitations (for an error that asks for them).
    pub(crate) client_takes_urls: bool,
}

/// The `prompts/get` response for `output` under `version`.
pub(crate) fn get_result(
    renderer: &PromptRenderer<'_>,
    version: ProtocolVersion,
    id: &RawValue,
    output: PromptOutput,
) -> Rendered {
    match output.repr {
        PromptRepr::Messages(messages) => {
            let result = GetPromptResult {
                description: messages.description.as_deref(),
                messages: messages
                    .messages
                    .iter()
                    .map(|m| message_for(m, version))
                    .collect(),
                modern: Modern::of(renderer.server_meta, version),
            };
            Rendered::result(jsonrpc::result_line(id, &result))
        }
        PromptRepr::InvalidArguments(error) => {
            let message = error.describe(renderer.arguments_schema);
            Rendered::error(id, &ProtocolError::invalid_arguments(message))
        }
        PromptRepr::Failed(message) => Rendered::error(id, &ProtocolError::failed(&message)),
        PromptRepr::Chosen(chosen) => {
            let error = chosen_error(&chosen, version, renderer.client_takes_urls);
            Rendered::error(id, &error)
        }
        PromptRepr::InputRequired(_) => {
            let detail = OUTSIDE_ROUNDS;
            let expose = renderer.expose_internal_errors;
            Rendered::error(id, &masked_error("prompt", renderer.name, expose, detail))
        }
        PromptRepr::Internal(detail) => {
            let error = masked_error(
                "prompt",
                renderer.name,
                renderer.expose_internal_errors,
                &detail,
            );
            Rendered::error(id, &error)
        }
    }
}
