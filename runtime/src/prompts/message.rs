//! The messages of a prompt, and the return types a prompt function may have.

use std::fmt::Display;

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

/// What a `#[mcp_prompt]` function may return: a `String` (one message from the user), a
/// [`PromptMessage`], a `Vec` of them, [`Messages`], or a `Result` of any of these whose error
/// is shown to the client (its `Display`).
#[diagnostic::on_unimplemented(
    message = "a prompt cannot return `{Self}`",
    label = "not a prompt's messages",
    note = "a prompt returns `String`, `PromptMessage`, `Vec<PromptMessage>`, `Messages`, or a \
            `Result` of one of these whose error implements `Display`"
)]
pub trait IntoPrompt {
    /// The prompt's output.
    fn into_prompt(self) -> crate::prompts::output::PromptOutput;
}

impl IntoPrompt for Messages {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        crate::prompts::output::PromptOutput::messages(self)
    }
}

impl IntoPrompt for String {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        Messages::new().user(self).into_prompt()
    }
}

impl IntoPrompt for &'static str {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        Messages::new().user(self).into_prompt()
    }
}

impl IntoPrompt for PromptMessage {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        Messages::new().message(self).into_prompt()
    }
}

impl IntoPrompt for Vec<PromptMessage> {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        Messages {
            description: None,
            messages: self,
        }
        .into_prompt()
    }
}

impl<T: IntoPrompt, E: Display> IntoPrompt for Result<T, E> {
    fn into_prompt(self) -> crate::prompts::output::PromptOutput {
        match self {
            Ok(value) => value.into_prompt(),
            Err(error) => crate::prompts::output::PromptOutput::failed(error.to_string()),
        }
    }
}
