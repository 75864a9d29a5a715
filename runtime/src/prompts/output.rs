//! What one `prompts/get` produced, before it is shaped for a revision, and the return types
//! a prompt function may have.

use std::fmt::Display;

use crate::prompts::message::{Messages, PromptMessage};
use crate::protocol::McpError;
use crate::tools::bind_error::BindError;
use crate::tools::failure::{Failure, failure};
use crate::tools::output::{InputRequired, ToolOutput};

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
    /// A JSON-RPC error the author chose, shaped for the revision.
    Chosen(Box<McpError>),
    /// A failure the client must not see in detail (a panic): `-32603`, masked.
    Internal(String),
    /// A 2026-07-28 round ended on asks only the client's retry can answer.
    InputRequired(Box<InputRequired>),
}

impl PromptOutput {
    /// The URIs of its messages' links and embedded resources, changed where `rewrite` gives
    /// another.
    pub(crate) fn rewrite_uris(&mut self, rewrite: &dyn Fn(&str) -> Option<String>) {
        if let PromptRepr::Messages(messages) = &mut self.repr {
            let contents = messages.messages.iter_mut().map(|m| &mut m.content);
            contents.for_each(|c| c.rewrite_uri(rewrite));
        }
    }

    pub(crate) fn messages(messages: Messages) -> PromptOutput {
        PromptOutput {
            repr: PromptRepr::Messages(messages),
        }
    }

    /// The output of an error the function returned.
    pub(crate) fn failed(error: Failure) -> PromptOutput {
        PromptOutput {
            repr: match error {
                Failure::Chosen(chosen) => PromptRepr::Chosen(chosen),
                Failure::Message(message) => PromptRepr::Failed(message),
            },
        }
    }

    pub(crate) fn input_required(input: InputRequired) -> PromptOutput {
        PromptOutput {
            repr: PromptRepr::InputRequired(Box::new(input)),
        }
    }

    /// The asks of a round that ended on them, or of an error that asks the user to open
    /// URLs where `version` makes it a round; the output itself otherwise.
    pub(crate) fn into_round(
        self,
        version: crate::protocol::ProtocolVersion,
        takes_urls: bool,
    ) -> Result<InputRequired, PromptOutput> {
        match self.repr {
            PromptRepr::InputRequired(input) => Ok(*input),
            PromptRepr::Chosen(chosen) => {
                match InputRequired::asked_by(&chosen, version, takes_urls) {
                    Some(input) => Ok(input),
                    None => Err(PromptOutput {
                        repr: PromptRepr::Chosen(chosen),
                    }),
                }
            }
            repr => Err(PromptOutput { repr }),
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
/// is shown to the client as it is written (its `Display`, in a `-32603` error), or, for an
/// [`McpError`] (or a [`ToolError`](crate::ToolError) made from one), is the JSON-RPC error it
/// describes.
#[diagnostic::on_unimplemented(
    message = "a prompt cannot return `{Self}`",
    label = "not a prompt's messages",
    note = "a prompt returns `String`, `PromptMessage`, `Vec<PromptMessage>`, `Messages`, or a \
            `Result` of one of these whose error implements `Display`, such as `McpError`"
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

impl<T: IntoPrompt, E: Display + 'static> IntoPrompt for Result<T, E> {
    fn into_prompt(self) -> PromptOutput {
        match self {
            Ok(value) => value.into_prompt(),
            Err(error) => PromptOutput::failed(failure(error)),
        }
    }
}
