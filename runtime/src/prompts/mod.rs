//! What a prompt is, apart from any request: its messages, what a prompt function may return,
//! and its `prompts/get` result as each revision expects it.

pub(crate) mod message;
pub(crate) mod output;
pub(crate) mod render;

pub use message::{Messages, PromptMessage};
pub use output::{IntoPrompt, PromptOutput};
