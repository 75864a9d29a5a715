//! What every kind of item is, whatever its kind adds: the header the macros emit once for a
//! tool, a prompt, a resource or a template, and the item as a visibility rule or a middleware
//! sees it.

use std::borrow::Cow;

use crate::call::inject::Requirements;
use crate::protocol::wire::Icon;

/// What every item is, whatever its kind: its name and texts, what its injected parameters
/// need, its icons, tags, scopes and `_meta`, and where it is defined. The macros emit it once
/// for every kind, borrowing what they write; an item made at run time owns its texts.
/// Each kind's spec adds what is its own beside it.
pub struct Header {
    /// Its name: unique among the server's items of its kind.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// The description: the doc comment, without its `# Arguments` section.
    pub description: Option<Cow<'static, str>>,
    /// What its injected parameters need from the server.
    pub requirements: fn(&mut Requirements),
    /// Icons for clients to show (2025-11-25 on).
    pub icons: &'static [Icon],
    /// Labels the server chooses items by (`tags("admin")`); not sent to clients.
    pub tags: &'static [&'static str],
    /// What a caller must have been granted to see and use it (`scopes("notes:write")`).
    pub scopes: &'static [&'static str],
    /// Its `_meta`, as a JSON object text (2025-06-18 on).
    pub meta: Option<Cow<'static, str>>,
    /// The source file of the definition.
    pub file: &'static str,
    /// The line of the definition.
    pub line: u32,
    /// The module it is defined in (`module_path!()`: the crate's name, then its modules);
    /// empty for an item made at run time, which nothing discovers.
    pub module: &'static str,
}

impl Header {
    /// `file:line` of the definition.
    pub(crate) fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// Where it is defined, to order definitions by: source file, then line.
    pub(crate) fn site(&self) -> (&'static str, u32) {
        (self.file, self.line)
    }

    /// Whether it is defined in `module` or in a module inside it.
    pub(crate) fn defined_in(&self, module: &str) -> bool {
        match self.module.strip_prefix(module) {
            Some(rest) => rest.is_empty() || rest.starts_with("::"),
            None => false,
        }
    }

    /// The item, as a visibility rule sees it.
    pub(crate) fn info<'a>(&'a self, kind: ItemKind, uri: Option<&'a str>) -> ItemInfo<'a> {
        ItemInfo {
            kind,
            name: &self.name,
            uri,
            tags: self.tags,
            scopes: self.scopes,
        }
    }
}

/// What kind of item a [`ItemInfo`] describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A tool.
    Tool,
    /// A prompt.
    Prompt,
    /// A resource or a resource template.
    Resource,
}

/// A tool, a prompt or a resource, as a visibility rule or a middleware sees it: borrowed
/// from the item as the server holds it.
#[derive(Debug, Clone, Copy)]
pub struct ItemInfo<'a> {
    kind: ItemKind,
    name: &'a str,
    uri: Option<&'a str>,
    tags: &'static [&'static str],
    scopes: &'static [&'static str],
}

/// A tool, as a visibility rule or a middleware sees it.
pub type ToolInfo<'a> = ItemInfo<'a>;

impl<'a> ItemInfo<'a> {
    /// A tool, a prompt or a resource.
    pub fn kind(&self) -> ItemKind {
        self.kind
    }

    /// The item's name.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// A resource's URI or URI template; `None` for tools and prompts.
    pub fn uri(&self) -> Option<&'a str> {
        self.uri
    }

    /// Its tags (`#[mcp_tool(tags("admin"))]`).
    pub fn tags(&self) -> &'static [&'static str] {
        self.tags
    }

    /// Whether it has the tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(&tag)
    }

    /// What a caller must have been granted to see and use it (`scopes("notes:write")`).
    pub fn scopes(&self) -> &'static [&'static str] {
        self.scopes
    }
}
