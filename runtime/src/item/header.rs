//! What every kind of item is, whatever its kind adds: the header the macros emit once for a
//! tool, a prompt, a resource or a template, where it is mounted, and the item as a visibility
//! rule or a middleware sees it.

use std::borrow::Cow;
use std::sync::Arc;

use crate::call::caller::Caller;
use crate::call::inject::Requirements;
use crate::call::state::States;
use crate::item::namespace::Namespace;
use crate::protocol::wire::{Cache, Icon};
use crate::tools::compiled::Options;

/// A per-request rule: whether `caller` may see and use the tool, prompt or resource.
pub(crate) type Rule = Arc<dyn Fn(ItemInfo<'_>, &Caller<'_>) -> bool + Send + Sync>;

/// What every item is, whatever its kind: its name and texts, what its injected parameters
/// need, its icons, tags, scopes and `_meta`, and where it is defined. The macros emit it once
/// for every kind, borrowing what they write; an item made at run time owns its texts.
/// Each kind's spec adds what is its own beside it.
#[derive(Clone)]
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
    /// The mounts it is served through (`None` where it is defined: the macros say so).
    #[doc(hidden)]
    pub mount: Option<Arc<Mount>>,
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
            mount: self.mount.as_deref(),
        }
    }

    /// The same header under another name, served through `mount`.
    pub(crate) fn mounted(&self, name: Cow<'static, str>, mount: Arc<Mount>) -> Header {
        // Every other field as it is: a field added to the header is carried through mounts
        // without a change here.
        Header {
            name,
            mount: Some(mount),
            ..self.clone()
        }
    }

    /// `file:line` of the definition, and the mounts it is served through.
    pub(crate) fn origin(&self) -> String {
        match &self.mount {
            None => self.location(),
            Some(mount) => match mount.path() {
                path if path.is_empty() => {
                    format!("{} (mounted without a namespace)", self.location())
                }
                path => format!("{} (mounted as `{path}`)", self.location()),
            },
        }
    }
}

/// One server mounted into another: the namespace its items take there, and what the mounted
/// server keeps deciding for its own items.
pub(crate) struct Level {
    pub(crate) namespace: Namespace,
    /// Its visibility rule, which sees its items as it names them.
    pub(crate) rule: Option<Rule>,
    /// Its states, which its items' parameters take before the server's.
    pub(crate) states: States,
    /// How its tools' schemas are shaped.
    pub(crate) options: Options,
    /// The cache hints of reads of its resources that give none.
    pub(crate) reads_cache: Option<Cache>,
}

/// Where an item is served: the mounts it came through, outermost first (`team`, then
/// `github`, for `team_github_search`).
#[doc(hidden)]
pub struct Mount {
    pub(crate) levels: Vec<Arc<Level>>,
}

impl std::fmt::Debug for Mount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path())
    }
}

impl Mount {
    /// The mount of an item `level` mounts, which `inner` placed before (`None`: defined there).
    pub(crate) fn outside(level: &Arc<Level>, inner: Option<&Mount>) -> Mount {
        let mut levels = vec![Arc::clone(level)];
        levels.extend(inner.into_iter().flat_map(|m| m.levels.iter().cloned()));
        Mount { levels }
    }

    /// The server the item is defined in, as mounted.
    pub(crate) fn own(&self) -> &Arc<Level> {
        self.levels.last().expect("a mount has a level")
    }

    /// Whether an item served through `inner` is the item's own server's, or one of the
    /// servers mounted into it: its mounts begin with this one's.
    pub(crate) fn holds(&self, inner: Option<&Mount>) -> bool {
        inner.is_some_and(|inner| {
            inner.levels.len() >= self.levels.len()
                && (self.levels.iter().zip(&inner.levels)).all(|(a, b)| Arc::ptr_eq(a, b))
        })
    }

    /// The namespaces, outermost first, as they prefix a tool's name: `team_github` (empty
    /// ones left out).
    pub(crate) fn path(&self) -> String {
        let named = self.levels.iter().filter(|l| !l.namespace.is_empty());
        let names: Vec<String> = named.map(|l| l.namespace.to_string()).collect();
        names.join("_")
    }

    /// Where a resource at `local` in the item's own server is served.
    pub(crate) fn uri(&self, local: &str) -> Result<String, String> {
        self.levels
            .iter()
            .rev()
            .try_fold(local.to_owned(), |uri, level| level.namespace.uri(&uri))
    }

    /// What the item's own server calls the resource at `uri`; `None` outside its namespaces.
    pub(crate) fn local_uri(&self, uri: &str) -> Option<String> {
        self.levels
            .iter()
            .try_fold(uri.to_owned(), |uri, level| level.namespace.local_uri(&uri))
    }

    /// What the server mounted `depth` levels down calls the tool or prompt called `name`
    /// here (a suffix of it).
    pub(crate) fn local_name<'a>(&self, name: &'a str, depth: usize) -> &'a str {
        let levels = self.levels.iter().take(depth);
        levels.fold(name, |name, l| l.namespace.local_name(name).unwrap_or(name))
    }

    /// Whether the rules of the servers `item` is mounted from let `caller` see it, each seeing
    /// it as that server names it.
    pub(crate) fn allows(&self, item: ItemInfo<'_>, caller: &Caller<'_>) -> bool {
        if self.levels.iter().all(|level| level.rule.is_none()) {
            return true;
        }
        self.levels.iter().enumerate().all(|(depth, level)| {
            let Some(rule) = &level.rule else {
                return true;
            };
            let uri = match item.uri {
                None => None,
                Some(uri) => {
                    let mut levels = self.levels.iter().take(depth + 1);
                    let local = levels.try_fold(uri.to_owned(), |u, l| l.namespace.local_uri(&u));
                    Some(local.unwrap_or_else(|| uri.to_owned()))
                }
            };
            let name = match item.kind {
                ItemKind::Resource => item.name,
                _ => self.local_name(item.name, depth + 1),
            };
            let local = ItemInfo {
                name,
                uri: uri.as_deref(),
                mount: None,
                ..item
            };
            rule(local, caller)
        })
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
    mount: Option<&'a Mount>,
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

    /// The mounts it is served through, in the server it is served by.
    pub(crate) fn mount(&self) -> Option<&'a Mount> {
        self.mount
    }

    /// The same item, by another name (as a server it is mounted from names it).
    pub(crate) fn named(self, name: &'a str) -> ItemInfo<'a> {
        ItemInfo { name, ..self }
    }
}
