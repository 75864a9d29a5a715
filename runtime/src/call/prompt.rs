//! The description of a prompt that `#[mcp_prompt]` generates.

use schemars::{Schema, SchemaGenerator};

use crate::call::completion::Completer;
use crate::call::inject::Requirements;
use crate::call::spec::{Handler, ItemInfo, ItemKind};
use crate::prompts::output::PromptOutput;
use crate::protocol::wire::Icon;

/// Everything `#[mcp_prompt]` knows about a prompt at compile time.
pub struct PromptSpec {
    /// The prompt's name, unique in a server.
    pub name: &'static str,
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The description: the doc comment, without its `# Arguments` section.
    pub description: Option<&'static str>,
    /// The schema of its arguments (an object; each property one argument, described by its
    /// doc, required unless optional). The listed arguments are read from it.
    pub arguments: fn(&mut SchemaGenerator) -> Schema,
    /// The completion functions of its arguments, by argument name (`#[arg(complete = f)]`).
    pub completions: &'static [(&'static str, Completer)],
    /// How to run it.
    pub handler: Handler<PromptOutput>,
    /// What its injected parameters need from the server.
    pub requirements: fn(&mut Requirements),
    /// Icons for clients to show (2025-11-25 on).
    pub icons: &'static [Icon],
    /// Labels the server chooses prompts by; not sent to clients.
    pub tags: &'static [&'static str],
    /// What a caller must have been granted to see and use it (`scopes("...")`).
    pub scopes: &'static [&'static str],
    /// The prompt's `_meta`, as a JSON object text (2025-06-18 on).
    pub meta: Option<&'static str>,
    /// The source file of the definition.
    pub file: &'static str,
    /// The line of the definition.
    pub line: u32,
}

impl PromptSpec {
    /// The prompt, as a visibility rule sees it.
    pub(crate) fn info(&'static self) -> ItemInfo {
        ItemInfo::of(ItemKind::Prompt, self.name, None, self.tags, self.scopes)
    }

    /// `file:line` of the definition.
    pub(crate) fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Implemented by the type that `#[mcp_prompt]` defines beside each prompt function, under
/// the function's name: `Server::prompt::<review>()` registers the prompt of `fn review`.
pub trait Prompt {
    /// The prompt's spec.
    fn spec() -> &'static PromptSpec;
}
