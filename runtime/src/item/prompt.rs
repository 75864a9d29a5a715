//! The description of a prompt that `#[mcp_prompt]` generates.

use std::borrow::Cow;

use schemars::{Schema, SchemaGenerator};

use crate::call::completion::Completers;
use crate::item::handler::Handler;
use crate::item::header::{Header, ItemInfo, ItemKind};
use crate::prompts::output::PromptOutput;

/// Everything `#[mcp_prompt]` knows about a prompt at compile time.
#[derive(Clone)]
pub struct PromptSpec {
    /// What every item has: its name, texts, needs, icons, tags, scopes, `_meta` and where
    /// it is defined.
    pub header: Header,
    /// The schema of its arguments (an object; each property one argument, described by its
    /// doc, required unless optional). The listed arguments are read from it.
    pub arguments: fn(&mut SchemaGenerator) -> Schema,
    /// The schema of its arguments as JSON text, when it was given as a value (a prompt made
    /// at run time); `arguments` is not read then.
    pub raw_arguments: Option<Cow<'static, str>>,
    /// The completion functions of its arguments, by argument name (`#[arg(complete = f)]`).
    pub completions: Completers,
    /// How to run it.
    pub handler: Handler<PromptOutput>,
}

impl PromptSpec {
    /// The prompt, as a visibility rule sees it.
    pub(crate) fn info(&self) -> ItemInfo<'_> {
        self.header.info(ItemKind::Prompt, None)
    }
}

/// Implemented by the type that `#[mcp_prompt]` defines beside each prompt function, under
/// the function's name: `Server::prompt::<review>()` registers the prompt of `fn review`.
pub trait Prompt {
    /// The prompt's spec.
    fn spec() -> &'static PromptSpec;
}
