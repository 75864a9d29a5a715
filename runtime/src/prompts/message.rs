//! The messages of a prompt.

use serde::Serialize;

use crate::tools::content::{Content, Role};

/// One message of a prompt: who says it, and one block of content (text, image, audio, an
/// embedded resource, or a resource link).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptMessage {
    /// The user or the model (`assistant`).
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the model.
    pub fn assistant(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// A prompt's messages, with a description of this rendering of it (optional): what a prompt
/// function returns when it wants more than a list of messages.
///
/// ```
/// use toolwright_runtime::{Content, Messages};
///
/// let messages = Messages::new()
///     .description("A review of one file")
///     .user("Review this file:")
///     .user(Content::text_resource("file:///src/main.rs", "text/x-rust", "fn main() {}"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Messages {
    pub(crate) description: Option<String>,
    pub(crate) messages: Vec<PromptMessage>,
}

impl Messages {
    /// No messages yet.
    pub fn new() -> Messages {
        Messages::default()
    }

    /// The same messages, with a description of the result (`GetPromptResult.description`).
    pub fn description(mut self, description: impl Into<String>) -> Messages {
        self.description = Some(description.into());
        self
    }

    /// The same messages, and one more from the user.
    pub fn user(self, content: impl Into<Content>) -> Messages {
        self.message(PromptMessage::user(content))
    }

    /// The same messages, and one more from the model.
    pub fn assistant(self, content: impl Into<Content>) -> Messages {
        self.message(PromptMessage::assistant(content))
    }

    /// The same messages, and `message`.
    pub fn message(mut self, message: PromptMessage) -> Messages {
        self.messages.push(message);
        self
    }
}
