//! Which tools (prompts, resources) a caller sees: tools left out by tag when the server is built;
//! per request, those whose scopes the caller was not granted, and those a rule hides; each
//! hidden from its list and refused as unknown.
//!
//! The rule sees the tool and the caller as the transport authenticated it (what an HTTP
//! authentication layer put into the request's extensions), and nothing of the connection or
//! the session: only authorization may vary the list, so that every request of one caller,
//! on any replica and in any session, sees the same tools.

use std::sync::Arc;

use crate::call::auth::Auth;
use crate::call::extensions::Extensions;
use crate::call::outlet::Outlet;
use crate::item::header::ItemInfo;
use crate::item::tool::ToolSpec;

/// The caller of one request, as far as choosing its tools goes.
pub struct Caller<'a> {
    extensions: Option<&'a http::Extensions>,
}

impl<'a> Caller<'a> {
    pub(crate) fn new(outlet: &'a Outlet) -> Caller<'a> {
        Caller {
            extensions: outlet.extensions().map(Extensions::as_http),
        }
    }

    /// A value the request carried in its [`Extensions`](crate::Extensions): put there by a
    /// layer in front of the HTTP endpoint (the caller an authentication layer verified, its
    /// claims or scopes) or by a test; `None` over stdio.
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&'a T> {
        self.extensions?.get::<T>()
    }

    /// The caller an authentication layer verified, if one did: its subject, scopes and claims.
    pub fn auth(&self) -> Option<&'a Auth> {
        self.extension::<Auth>()
    }
}

/// A per-request rule: whether `caller` may see and use the tool, prompt or resource.
pub(crate) type Rule = Arc<dyn Fn(ItemInfo<'_>, &Caller<'_>) -> bool + Send + Sync>;

/// Whether `rule` lets the caller of a request that came through `outlet` see `spec`.
pub(crate) fn allows(rule: Option<&Rule>, spec: &ToolSpec, outlet: &Outlet) -> bool {
    allows_item(rule, spec.info(), outlet)
}

/// Whether the caller of a request that came through `outlet` may see `item`: it was granted
/// every scope the item needs (none over stdio, where no caller is verified: an item that needs
/// one is not served there), and `rule` lets it.
pub(crate) fn allows_item(rule: Option<&Rule>, item: ItemInfo, outlet: &Outlet) -> bool {
    let caller = Caller::new(outlet);
    let granted = item.scopes().is_empty()
        || caller
            .auth()
            .is_some_and(|auth| item.scopes().iter().all(|scope| auth.has_scope(scope)));
    granted && rule.is_none_or(|rule| rule(item, &caller))
}
