//! What one `prompts/get` produced, before it is shaped for a revision.

use crate::prompts::message::Messages;
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
