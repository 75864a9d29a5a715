//! Which tools (prompts, resources) a caller sees: tools left out by tag when the server is built;
//! per request, those whose scopes the caller was not granted, and those a rule hides; each
//! hidden from its list and refused as unknown.
//!
//! The rule sees the tool and the caller: as the transport authenticated it (what an HTTP
//! authentication layer put into the request's extensions), and what its client declared it
//! can do (in `initialize` for a session, in the request's own `_meta` on 2026-07-28), and
//! nothing else of the connection: so every request of one caller from one client, on any
//! replica, sees the same tools, and a client that cannot sample, say, is not offered the tools
//! that would ask it to.

use crate::call::caller::Caller;
use crate::item::header::{ItemInfo, Rule};
use crate::item::tool::ToolSpec;

/// Whether `rule` lets the caller of a request that came through `outlet` see `spec`.
pub(crate) fn allows(rule: Option<&Rule>, spec: &ToolSpec, caller: &Caller<'_>) -> bool {
    allows_item(rule, spec.info(), caller)
}

/// Whether the caller of a request that came through `outlet` may see `item`: it was granted
/// every scope the item needs (none over stdio, where no caller is verified: an item that needs
/// one is not served there), and `rule` lets it.
pub(crate) fn allows_item(rule: Option<&Rule>, item: ItemInfo, caller: &Caller<'_>) -> bool {
    let granted = item.scopes().is_empty()
        || caller
            .auth()
            .is_some_and(|auth| item.scopes().iter().all(|scope| auth.has_scope(scope)));
    let mounted = item.mount().is_none_or(|mount| mount.allows(item, caller));
    granted && rule.is_none_or(|rule| rule(item, caller)) && mounted
}
