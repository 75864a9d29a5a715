//! [`Sample`]: a completion from the client's model.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use std::time::Duration;

use crate::call::ask::client_task::AsTask;
use crate::call::context::Context;
use crate::call::inject::Inject;
use crate::tools::ToolOutput;
use crate::tools::ask_error::AskError;
use crate::tools::content::Role;

/// Asks the client's model for a completion (`sampling/createMessage`): the client may show the
/// request to the user first, and picks the model. Needs an `async` tool. On 2026-07-28 its
/// entry in `inputRequests` is `sampling`.
pub struct Sample {
    cx: Context,
    task: AsTask,
}

/// A `sampling/createMessage` request.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to sample.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// The sampling temperature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Sequences that end sampling.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
    /// Hints and priorities for the client's choice of model (`ModelPreferences`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
}

impl SamplingRequest {
    /// One user message of text, answered with at most `max_tokens`.
    pub fn user(text: impl Into<String>, max_tokens: u32) -> SamplingRequest {
        SamplingRequest {
            messages: vec![SamplingMessage::user(text)],
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: Vec::new(),
            model_preferences: None,
        }
    }

    /// The same request with a system prompt.
    pub fn system(mut self, prompt: impl Into<String>) -> SamplingRequest {
        self.system_prompt = Some(prompt.into());
        self
    }
}

/// One message of a sampling conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// The user or the model.
    pub role: Role,
    /// A content block (`{"type": "text", "text": ...}`, an image, audio).
    pub content: Value,
}

impl SamplingMessage {
    /// A user message of text.
    pub fn user(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage {
            role: Role::User,
            content: json!({"type": "text", "text": text.into()}),
        }
    }

    /// An assistant message of text.
    pub fn assistant(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage {
            role: Role::Assistant,
            content: json!({"type": "text", "text": text.into()}),
        }
    }
}

/// What the client's model answered (`CreateMessageResult`); it serializes as the client sent
/// it, so a tool can return it (in `Json`) or keep it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingResult {
    /// `assistant`, normally.
    pub role: String,
    /// The content: a block, or (2025-11-25) a list of blocks.
    pub content: Value,
    /// The model the client used.
    pub model: String,
    /// Why sampling stopped (`endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

impl SamplingResult {
    /// The text of the answer: its text block, or the first of its blocks that is text.
    pub fn text(&self) -> Option<&str> {
        fn text(block: &Value) -> Option<&str> {
            (block["type"] == "text")
                .then(|| block["text"].as_str())
                .flatten()
        }
        match &self.content {
            Value::Array(blocks) => blocks.iter().find_map(text),
            block => text(block),
        }
    }
}

/// Where a client declares that it takes a sampling request as a task.
const TASK_CAPABILITY: &str = "sampling.createMessage";

impl Inject for Sample {
    const ASKS: bool = true;

    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(Sample::new(cx))
    }

    fn require(requirements: &mut crate::call::inject::Requirements) {
        requirements.asks();
    }
}

impl Sample {
    /// Asks the model of the client of the request `cx` is: for an item made at run time
    /// ([`ToolDef`](crate::ToolDef), [`PromptDef`](crate::PromptDef),
    /// [`ResourceDef`](crate::ResourceDef)) that declared it asks (`.asks()`).
    pub fn new(cx: &Context) -> Sample {
        Sample {
            cx: cx.clone(),
            task: AsTask::default(),
        }
    }

    /// The same asks, each sent to the client as a task that lives at most `ttl`, where the
    /// client takes one (2025-11-25, `tasks.requests.sampling.createMessage`); the server
    /// follows the task until the model answered. Elsewhere they are sent as they are.
    pub fn as_task(self, ttl: Duration) -> Sample {
        Sample {
            task: AsTask(Some(ttl)),
            ..self
        }
    }

    /// Whether the client takes a sampling request as a task.
    pub fn tasks_supported(&self) -> bool {
        AsTask::supported(self.cx.record(), TASK_CAPABILITY)
    }

    /// Whether the client samples for the server.
    pub fn supported(&self) -> bool {
        self.cx.declared("sampling")
    }

    /// Asks the client's model.
    pub async fn create_message(
        &self,
        request: SamplingRequest,
    ) -> Result<SamplingResult, AskError> {
        if !self.supported() {
            return Err(AskError::Unsupported {
                capability: "sampling",
            });
        }
        let record = self.cx.record();
        let params = serde_json::to_value(&request).expect("a sampling request serializes");
        let method = "sampling/createMessage";
        let answer = (self
            .task
            .ask(record, "sampling", method, params, TASK_CAPABILITY))
        .await?;
        serde_json::from_value(answer)
            .map_err(|e| AskError::Invalid(format!("not a sampling result: {e}")))
    }

    /// Asks the client's model one question of text, answered with at most `max_tokens`.
    pub async fn prompt(
        &self,
        text: impl Into<String>,
        max_tokens: u32,
    ) -> Result<SamplingResult, AskError> {
        self.create_message(SamplingRequest::user(text, max_tokens))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_serializes_as_the_client_sent_it() {
        let sent = json!({"role": "assistant", "model": "m", "stopReason": "endTurn",
                          "content": {"type": "text", "text": "Paris"}});
        let result: SamplingResult = serde_json::from_value(sent.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), sent);
        let bare = json!({"role": "assistant", "model": "m", "content": []});
        let result: SamplingResult = serde_json::from_value(bare.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), bare);
    }
}
