//! The description of a resource (or a resource template) that `#[mcp_resource]` generates.

use std::borrow::Cow;

use schemars::{Schema, SchemaGenerator};

use crate::call::completion::Completers;
use crate::item::handler::Handler;
use crate::item::header::{Header, ItemInfo, ItemKind};
use crate::resources::contents::ResourceOutput;
use crate::tools::content::Role;

/// Everything `#[mcp_resource]` knows about a resource at compile time.
#[derive(Clone)]
pub struct ResourceSpec {
    /// What every item has: its name, texts, needs, icons, tags, scopes, `_meta` and where
    /// it is defined.
    pub header: Header,
    /// Its URI; with `{variables}`, an RFC 6570 template of the URIs it serves.
    pub uri: Cow<'static, str>,
    /// The MIME type of its contents, if one for all of them.
    pub mime_type: Option<Cow<'static, str>>,
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
    pub completions: Completers,
    /// How to read it.
    pub handler: Handler<ResourceOutput>,
}

impl ResourceSpec {
    /// The resource, as a visibility rule sees it.
    pub(crate) fn info(&self) -> ItemInfo<'_> {
        self.header.info(ItemKind::Resource, Some(&self.uri))
    }
}

/// Implemented by the type that `#[mcp_resource]` defines beside each resource function,
/// under the function's name: `Server::resource::<readme>()` registers it.
pub trait Resource {
    /// The resource's spec.
    fn spec() -> &'static ResourceSpec;
}
