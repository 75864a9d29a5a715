//! [`Context`]: the request a tool is serving, and the client that sent it.

use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::call::auth::Auth;
use crate::call::cancel::Cancellation;
use crate::call::client::{ClientInfo, DeclaredClient};
use crate::call::log::Log;
use crate::call::progress::Progress;
use crate::call::record::CallRecord;
use crate::call::state::State;
use crate::protocol::meta::Kept;
use crate::protocol::{Era, ProtocolVersion};

/// The request a tool is serving: its id, its protocol revision, and the client that sent it.
///
/// The client's identity and capabilities are those of *this* request: on 2026-07-28 each
/// request carries its own in `_meta`, on earlier revisions they come from `initialize`.
#[derive(Clone)]
pub struct Context(pub(crate) Arc<CallRecord>);

impl Context {
    /// The request's id, as the client wrote it (a JSON string or number).
    pub fn request_id(&self) -> &RawValue {
        &self.0.id
    }

    /// The protocol revision of this request.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.0.version
    }

    /// Whether this request came through the handshake or stands alone.
    pub fn era(&self) -> Era {
        self.0.version.era()
    }

    /// The client's name and version, when it gave them.
    pub fn client_info(&self) -> Option<&ClientInfo> {
        self.client().info.as_ref()
    }

    /// The client's capabilities (a JSON object; empty when it declared none).
    pub fn client_capabilities(&self) -> &Value {
        &self.client().capabilities
    }

    /// The request's `params._meta`: its entries as sent, in order (the whitespace between
    /// them dropped, and a key written with escapes written without them).
    pub fn meta(&self) -> Option<&RawValue> {
        self.0.meta.as_ref().and_then(Kept::raw)
    }

    /// The server's state of type `T`, if one was registered.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.0.states.get::<T>()
    }

    /// Progress reporting for this request (a no-op when the client asked for none).
    pub fn progress(&self) -> Progress {
        Progress::of(&self.0)
    }

    /// Log messages for the client about this request.
    pub fn log(&self) -> Log {
        Log::of(&self.0)
    }

    /// This request's cancellation signal.
    pub fn cancellation(&self) -> Cancellation {
        Cancellation::of(&self.0)
    }

    /// A value the request carried in its [`Extensions`](crate::Extensions), put there by a
    /// layer in front of the HTTP endpoint (the caller an authentication layer verified, say)
    /// or by a test. `None` over stdio.
    ///
    /// ```
    /// # use toolwright_runtime::Context;
    /// #[derive(Clone)]
    /// struct Caller { subject: String }
    ///
    /// fn whoami(ctx: &Context) -> String {
    ///     ctx.extension::<Caller>().map_or("anonymous".into(), |c| c.subject.clone())
    /// }
    /// ```
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.0.outlet.extensions()?.get::<T>()
    }

    /// The caller an authentication layer verified, if one did (never over stdio).
    pub fn auth(&self) -> Option<&Auth> {
        self.extension::<Auth>()
    }

    /// Over Streamable HTTP in a 2025-11-25 session, ends this call's response stream now,
    /// while the call goes on: the client reconnects (a GET with `Last-Event-ID`) and receives
    /// the rest. A long-running call frees its connection this way (SSE polling, SEP-1699).
    /// Elsewhere it does nothing.
    pub fn close_stream(&self) {
        self.0.outlet.release();
    }

    /// The call's record.
    pub(crate) fn record(&self) -> &CallRecord {
        &self.0
    }

    /// The URI a `resources/read` asked for; `None` for a tool call or a prompt.
    pub fn resource_uri(&self) -> Option<&str> {
        self.0.resource_uri.as_deref()
    }

    /// The id of the session the request belongs to: an HTTP session's `Mcp-Session-Id`.
    /// `None` on 2026-07-28, whose requests belong to no session, and over stdio and in
    /// process, where the connection is the session.
    pub fn session_id(&self) -> Option<&str> {
        self.0.session_id.as_deref()
    }

    /// Whether the client declared `path` (`"elicitation.url"`): every step an object.
    pub(crate) fn declared(&self, path: &str) -> bool {
        self.0.declared(path)
    }

    fn client(&self) -> &DeclaredClient {
        self.0.client()
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.0.id)
            .field("protocol_version", &self.0.version)
            .finish_non_exhaustive()
    }
}
