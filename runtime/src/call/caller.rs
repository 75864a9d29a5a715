//! [`Caller`]: the caller of one request, as a visibility rule sees it.

use serde_json::Value;

use crate::call::auth::Auth;
use crate::call::client::{ClientInfo, RequestClient};
use crate::call::extensions::Extensions;
use crate::call::outlet::Outlet;
use crate::protocol::ProtocolVersion;

/// The caller of one request, as far as choosing its tools goes: who it is (what the transport
/// authenticated), and what its client can do (the revision it speaks, the capabilities and
/// the name it declared: in `initialize` for a handshake session, in the request's own
/// `_meta` on 2026-07-28).
pub struct Caller<'a> {
    extensions: Option<&'a http::Extensions>,
    client: Option<&'a RequestClient<'a>>,
}

/// The capabilities of a client that declared none.
static NONE_DECLARED: Value = Value::Null;

impl<'a> Caller<'a> {
    pub(crate) fn new(outlet: &'a Outlet, client: Option<&'a RequestClient<'a>>) -> Caller<'a> {
        Caller {
            extensions: outlet.extensions().map(Extensions::as_http),
            client,
        }
    }

    /// The revision the client speaks in this request.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.client.map(|client| client.version)
    }

    /// The client's name and version, as it declared them.
    pub fn client_info(&self) -> Option<&'a ClientInfo> {
        self.client?.declared().info.as_ref()
    }

    /// The capabilities the client declared (a JSON object; `null` before it declared any).
    pub fn client_capabilities(&self) -> &'a Value {
        self.client
            .map_or(&NONE_DECLARED, |client| &client.declared().capabilities)
    }

    /// Whether the client declared the capability at `path`, each step an object:
    /// `"sampling"`, `"roots"`, `"elicitation"`, `"elicitation.url"`, `"tasks.requests"`.
    /// A tool that asks for what the client cannot give can be hidden from it:
    /// `rule(|tool, caller| !tool.has_tag("samples") || caller.declares("sampling"))`.
    pub fn declares(&self, path: &str) -> bool {
        self.client
            .is_some_and(|client| client.declared().declares(path))
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
