//! The description of a resource (or a resource template) that `#[mcp_resource]` generates.

use schemars::{Schema, SchemaGenerator};

use crate::call::completion::Completer;
use crate::call::inject::Requirements;
use crate::call::spec::{Handler, ItemInfo, ItemKind};
use crate::protocol::wire::Icon;
use crate::resources::contents::ResourceOutput;
use crate::tools::content::Role;

/// Everything `#[mcp_resource]` knows about a resource at compile time.
pub struct ResourceSpec {
    /// Its URI; with `{variables}`, an RFC 6570 template of the URIs it serves.
    pub uri: &'static str,
    /// Its name.
    pub name: &'static str,
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The description: the doc comment, without its `# Arguments` section.
    pub description: Option<&'static str>,
    /// The MIME type of its contents, if one for all of them.
    pub mime_type: Option<&'static str>,
    /// Its size in bytes, if known (direct resources only).
    pub size: Option<u64>,
    /// Who it is for (`audience`).
    pub audience: &'static [Role],
    /// How much it matters, from 0 to 1.
    pub priority: Option<f64>,
    /// When it last changed, in ISO 8601.
    pub last_modified: Option<&'static str>,
    /// How long a 2026-07-28 client may reuse a read, in milliseconds (the server's list TTL
    /// when `None`).
    pub ttl_ms: Option<u64>,
    /// `"public"` or `"private"`: with whom a read may be shared (the server's choice when
    /// `None`; always `private` under a per-caller rule).
    pub cache_scope: Option<&'static str>,
    /// The schema of the template's variables (an object; each property one variable).
    pub variables: fn(&mut SchemaGenerator) -> Schema,
    /// The completion functions of its variables, by name (`#[arg(complete = f)]`).
    pub completions: &'static [(&'static str, Completer)],
    /// How to read it.
    pub handler: Handler<ResourceOutput>,
    /// What its injected parameters need from the server.
    pub requirements: fn(&mut Requirements),
    /// Icons for clients to show (2025-11-25 on).
    pub icons: &'static [Icon],
    /// Labels the server chooses resources by; not sent to clients.
    pub tags: &'static [&'static str],
    /// What a caller must have been granted to see and use it (`scopes("...")`).
    pub scopes: &'static [&'static str],
    /// The resource's `_meta`, as a JSON object text (2025-06-18 on).
    pub meta: Option<&'static str>,
    /// The source file of the definition.
    pub file: &'static str,
    /// The line of the definition.
    pub line: u32,
}

impl ResourceSpec {
    /// The resource, as a visibility rule sees it.
    pub(crate) fn info(&'static self) -> ItemInfo {
        ItemInfo::of(
            ItemKind::Resource,
            self.name,
            Some(self.uri),
            self.tags,
            self.scopes,
        )
    }

    /// `file:line` of the definition.
    pub(crate) fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Implemented by the type that `#[mcp_resource]` defines beside each resource function,
/// under the function's name: `Server::resource::<readme>()` registers it.
pub trait Resource {
    /// The resource's spec.
    fn spec() -> &'static ResourceSpec;
}
