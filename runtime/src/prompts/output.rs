//! What one `prompts/get` produced, before it is shaped for a revision, and the return types
//! a prompt function may have.

use std::fmt::Display;

use crate::prompts::message::{Messages, PromptMessage};
use crate::tools::bind_error::BindError;
use crate::tools::output::ToolOutput;

/// The outcome of one prompt function's run. Generated code makes it; a server shapes it.
#[derive(Debug)]
pub struct PromptOutput {
    pub(crate) repr: PromptRepr,
}

#[derive(Debug)]
pub(crate) enum PromptRepr {
    Messages(Messages),
    /// The arguments did not bind: `-32602` with what is wrong.
    InvalidArguments(BindError),
    /// The function's own error, shown as it wrote it: `-32603`.
    Failed(String),
    /// A failure the client must not see in detail (a panic): `-32603`, masked.
    Internal(String),
}

impl PromptOutput {
    pub(crate) fn messages(messages: Messages) -> PromptOutput {
        PromptOutput {
            repr: PromptRepr::Messages(messages),
        }
    }

    pub(crate) fn failed(message: String) -> PromptOutput {
        PromptOutput {
            repr: PromptRepr::Failed(message),
        }
    }

    pub(crate) fn internal(message: String) -> PromptOutput {
        PromptOutput {
            repr: PromptRepr::Internal(message),
        }
    }

    /// The output of arguments that did not bind (what [`Arguments::bind`] refused with).
    ///
    /// [`Arguments::bind`]: crate::private::Arguments::bind
    pub fn unbound(refused: ToolOutput) -> PromptOutput {
        PromptOutput {
            repr: match refused.into_bind_error() {
                Ok(error) => PromptRepr::InvalidArguments(error),
                Err(other) => PromptRepr::Internal(format!("{other:?}")),
            },
        }
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
    fn into_prompt(self) -> PromptOutput;
}

impl IntoPrompt for Messages {
    fn into_prompt(self) -> PromptOutput {
        PromptOutput::messages(self)
    }
}

impl IntoPrompt for String {
    fn into_prompt(self) -> PromptOutput {
        Messages::new().user(self).into_prompt()
    }
}

impl IntoPrompt for &'static str {
    fn into_prompt(self) -> PromptOutput {
        Messages::new().user(self).into_prompt()
    }
}

impl IntoPrompt for PromptMessage {
    fn into_prompt(self) -> PromptOutput {
        Messages::new().message(self).into_prompt()
    }
}

impl IntoPrompt for Vec<PromptMessage> {
    fn into_prompt(self) -> PromptOutput {
        Messages {
            description: None,
            messages: self,
        }
        .into_prompt()
    }
}

impl<T: IntoPrompt, E: Display> IntoPrompt for Result<T, E> {
    fn into_prompt(self) -> PromptOutput {
        match self {
            Ok(value) => value.into_prompt(),
            Err(error) => PromptOutput::failed(error.to_string()),
        }
    }
}
