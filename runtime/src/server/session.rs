//! One session: what a transport connection (a stdio process, an HTTP session, one stateless
//! HTTP request) shares across its messages. What it does with each message is `methods/`, the
//! folder above: `messages` (the entry point every transport calls, `Session::handle`, which
//! *returns* what a message gets), `dispatch` (requests by method and era) and a file for
//! each method or kind of method.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::call::ask::RootsChanged;
use crate::call::caller::Caller;
use crate::call::client::{DeclaredClient, RequestClient};
use crate::call::outlet::{Outlet, Peer};
use crate::call::span::RequestSpan;
use crate::call::to_client::known_roots::KnownRoots;
use crate::protocol::id::IdKey;
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::{Level, ProtocolVersion};
use crate::run::inflight::OpenRequests;
use crate::server::engine::Engine;
use crate::server::hooks::{Route, SessionInfo};
use crate::server::listeners::{Heard, SharedLevel, Uris};

/// Where a request's messages go, the span it runs in, and its client (once dispatch knows the
/// request's era).
#[derive(Clone, Copy)]
pub(crate) struct RequestScope<'a> {
    pub(crate) outlet: &'a Outlet,
    pub(crate) span: &'a RequestSpan,
    pub(crate) client: Option<&'a RequestClient<'a>>,
}

impl<'a> RequestScope<'a> {
    /// The request's caller, as visibility rules see it.
    pub(crate) fn caller(&self) -> Caller<'a> {
        Caller::new(self.outlet, self.client)
    }
}

/// The tasks a handshake session created, latest last, for `tasks/list`.
pub(crate) type SessionTasks = Arc<Mutex<std::collections::VecDeque<String>>>;

/// What `initialize` settled for a session.
pub(crate) struct Handshake {
    pub(crate) version: ProtocolVersion,
    pub(crate) client: Arc<DeclaredClient>,
}

pub(crate) struct Session {
    pub(crate) engine: Arc<Engine>,
    pub(crate) handshake: OnceLock<Handshake>,
    /// The least severe log message the session wants (`logging/setLevel`); made when first
    /// wanted, as `subscribed` is.
    log_level: OnceLock<SharedLevel>,
    /// The requests in flight that the client may cancel (see [`Session::open_requests`]).
    open: OnceLock<Arc<OpenRequests>>,
    /// Its requests to the client (see [`Session::peer`]).
    peer: OnceLock<Arc<Peer>>,
    /// It serves one request (a 2026-07-28 POST): nothing else can name its calls by id, so
    /// they are not kept in `open`.
    single: bool,
    /// The client's roots, once a call has read them (made then: most sessions never do).
    pub(crate) roots: OnceLock<Arc<KnownRoots>>,
    /// The resources a handshake session subscribed to (`resources/subscribe`); made when
    /// first wanted, as `tasks` is (a 2026-07-28 request's session never wants either).
    subscribed: OnceLock<Uris>,
    /// Whose each subscription is, where mounted servers have hooks: an unsubscribe reaches the
    /// hooks its subscribe reached.
    pub(crate) routes: OnceLock<Mutex<HashMap<String, Route>>>,
    /// Who owns the tasks of a handshake session without a subject: random, made by the
    /// first task.
    pub(crate) task_owner: OnceLock<String>,
    /// The tasks a handshake session created (`tasks/list`).
    tasks: OnceLock<SessionTasks>,
    /// The id its transport gave it (an HTTP session's `Mcp-Session-Id`); none over stdio and
    /// in process, where the connection is the session.
    pub(crate) id: Option<Arc<str>>,
    /// It was closed: its end is heard once, however many ways it ends.
    ended: AtomicBool,
    /// The client said it is initialized: heard once, however often it says so.
    initialized: AtomicBool,
}

impl Session {
    pub(crate) fn new(engine: Arc<Engine>) -> Session {
        Session {
            engine,
            handshake: OnceLock::new(),
            log_level: OnceLock::new(),
            open: OnceLock::new(),
            peer: OnceLock::new(),
            single: false,
            roots: OnceLock::new(),
            subscribed: OnceLock::new(),
            routes: OnceLock::new(),
            task_owner: OnceLock::new(),
            id: None,
            tasks: OnceLock::new(),
            ended: AtomicBool::new(false),
            initialized: AtomicBool::new(false),
        }
    }

    /// A session for one request alone (a 2026-07-28 POST).
    #[allow(dead_code, reason = "made by the HTTP transport alone")]
    pub(crate) fn single(engine: Arc<Engine>) -> Session {
        Session {
            single: true,
            ..Session::new(engine)
        }
    }

    /// The requests in flight that the client may cancel; made when first wanted (a session
    /// of one request's tool call never wants it).
    pub(crate) fn open_requests(&self) -> &Arc<OpenRequests> {
        self.open.get_or_init(Arc::default)
    }

    /// Whether it serves one request alone.
    pub(crate) fn single_request(&self) -> bool {
        self.single
    }

    /// Where a call's id is kept while it runs, so that the client can cancel it; `None` in a
    /// session of one request, where nothing else can name it.
    pub(crate) fn call_ids(&self) -> Option<Arc<OpenRequests>> {
        (!self.single_request()).then(|| Arc::clone(self.open_requests()))
    }

    /// Whether a request with this id is in flight.
    pub(crate) fn is_open(&self, id: &IdKey) -> bool {
        self.open.get().is_some_and(|open| open.contains(id))
    }

    /// Cancels the request with this id, if it is in flight (see [`OpenRequests::cancel`]).
    pub(crate) fn cancel(&self, id: &IdKey) {
        if let Some(open) = self.open.get() {
            open.cancel(id);
        }
    }

    /// Whether no request is in flight.
    #[allow(dead_code, reason = "asked by the HTTP transport alone")]
    pub(crate) fn is_idle(&self) -> bool {
        self.open.get().is_none_or(|open| open.is_empty())
    }

    /// Its requests to the client; made when first wanted.
    pub(crate) fn peer(&self) -> &Arc<Peer> {
        self.peer.get_or_init(Arc::default)
    }

    /// The client sent `notifications/initialized`: the hook hears it the first time, once
    /// `initialize` settled the session.
    pub(crate) fn initialized(&self) {
        if let Some(info) = self.info()
            && !self.initialized.swap(true, Ordering::AcqRel)
        {
            self.engine.hooks.initialized(&info);
        }
    }

    /// The session as its hooks see it, once `initialize` settled it.
    pub(crate) fn info(&self) -> Option<SessionInfo<'_>> {
        let handshake = self.handshake.get()?;
        Some(SessionInfo {
            id: self.id.as_deref(),
            version: handshake.version,
            client: &handshake.client,
            subscribed: self.subscribed.get(),
            within: &[],
        })
    }

    /// The resources the session subscribed to.
    pub(crate) fn subscribed(&self) -> &Uris {
        self.subscribed.get_or_init(Uris::default)
    }

    /// The least severe log message the session wants: `info` until `logging/setLevel`.
    pub(crate) fn log_level(&self) -> &SharedLevel {
        self.log_level
            .get_or_init(|| Arc::new(Mutex::new(Level::Info)))
    }

    /// What its listener shares with it: its subscriptions and its log level.
    pub(crate) fn heard(&self) -> Heard<'_> {
        (self.subscribed(), self.log_level())
    }

    /// The tasks the session created, for `tasks/list`.
    pub(crate) fn tasks(&self) -> &SessionTasks {
        self.tasks.get_or_init(SessionTasks::default)
    }

    /// Ends the session: the calls in flight (and the tasks it owns) see their `Cancellation`
    /// fire at once (those that still finish are answered), and requests to the client get no
    /// reply.
    pub(crate) fn close(&self) {
        if self.ended.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(info) = self.info() {
            self.engine.hooks.ended(&info);
        }
        if let Some(open) = self.open.get() {
            open.signal_all();
        }
        // The tasks only this session could follow stop too.
        if let Some(owner) = self.task_owner.get() {
            self.engine
                .running
                .signal(Some(&format!("session:{owner}")));
        }
        if let Some(peer) = self.peer.get() {
            peer.close();
        }
    }

    /// The client's roots changed: the next call that reads them asks again, and the server's
    /// hook hears of it. (2026-07-28 has no such notification: it keeps nothing to refresh.)
    pub(crate) fn roots_changed(&self) {
        let Some(handshake) = self.handshake.get() else {
            return;
        };
        let before = self.roots.get().and_then(|roots| roots.changed());
        if !self.engine.hooks.hears_roots() {
            return;
        }
        let change = RootsChanged {
            client: handshake.client.info.clone(),
            before,
        };
        self.engine.hooks.roots_changed(&change);
    }

    /// The revision `initialize` settled; a request before it is refused.
    pub(crate) fn version(&self) -> Result<ProtocolVersion, ProtocolError> {
        self.handshake.get().map(|h| h.version).ok_or_else(|| {
            ProtocolError::invalid_request(
                "the session is not initialized; send `initialize` first",
            )
        })
    }
}
