//! What a tool can ask the server for, besides the client's arguments: the request itself
//! ([`Context`]), progress reporting ([`Progress`]), cancellation ([`Cancellation`]), shared
//! state ([`State`]), and any type that implements [`Inject`].

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::call::CallState;
use crate::dispatch::Outbox;
use crate::log_notify::{Level, Log};
use crate::output::ToolOutput;
use crate::progress::Progress;
use crate::protocol::{Era, ProtocolVersion};

/// A value a tool can take as a parameter that the server fills in, rather than the client.
///
/// The server's own injectable types are [`Context`], [`Progress`], [`Cancellation`] and
/// [`State<T>`]; `#[mcp_tool]` recognises them by name. Implement this trait for a type of your
/// own and mark the parameter `#[inject]` to have it built for every call, for example a
/// database connection taken from a pool in [`State`].
///
/// ```
/// use toolwright_runtime::{Context, Inject, Requirements, ToolOutput};
///
/// struct Pool;
/// struct Connection;
///
/// impl Inject for Connection {
///     fn inject(cx: &Context) -> Result<Self, ToolOutput> {
///         let _pool = cx.state::<Pool>().ok_or_else(|| ToolOutput::internal("no pool"))?;
///         Ok(Connection)
///     }
///
///     fn require(requirements: &mut Requirements) {
///         requirements.state::<Pool>();
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be injected into a tool",
    label = "not injectable",
    note = "if `{Self}` is an argument the client sends, mark the parameter `#[arg]`",
    note = "the server injects `Context`, `Progress`, `Cancellation`, `Log`, `State<T>`, and types that implement `Inject`"
)]
pub trait Inject: Sized + Send {
    /// Builds the value for one call. An `Err` ends the call with that result.
    fn inject(cx: &Context) -> Result<Self, ToolOutput>;

    /// Declares what the value needs from the server, so that a missing piece is reported when
    /// the server starts rather than on the first call.
    fn require(requirements: &mut Requirements) {
        let _ = requirements;
    }
}

/// What a tool's injected parameters need from the server.
#[derive(Debug, Default)]
pub struct Requirements {
    pub(crate) states: Vec<(TypeId, &'static str)>,
}

impl Requirements {
    /// The server must hold a state of type `T` (registered with `Server::state`).
    pub fn state<T: Send + Sync + 'static>(&mut self) {
        self.states.push((TypeId::of::<T>(), type_name::<T>()));
    }
}

/// The client that sent a request, as it describes itself.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct ClientInfo {
    /// The client's name.
    pub name: String,
    /// The client's version.
    pub version: String,
    /// A human-readable name (2025-06-18 on).
    #[serde(default)]
    pub title: Option<String>,
}

/// What a legacy client declared in `initialize`, for every request of its session.
#[derive(Debug, Default)]
pub(crate) struct Handshake {
    pub(crate) info: Option<ClientInfo>,
    pub(crate) capabilities: Value,
}

/// The request a tool is serving: its id, its protocol revision, and the client that sent it.
///
/// The client's identity and capabilities are those of *this* request: on 2026-07-28 each
/// request carries its own in `_meta`, on earlier revisions they come from `initialize`.
#[derive(Clone)]
pub struct Context(pub(crate) Arc<CallInfo>);

pub(crate) struct CallInfo {
    pub(crate) id: Box<RawValue>,
    pub(crate) version: ProtocolVersion,
    pub(crate) meta: Option<Box<RawValue>>,
    pub(crate) handshake: Arc<OnceLock<Handshake>>,
    pub(crate) states: Arc<States>,
    pub(crate) call: Arc<CallState>,
    pub(crate) progress: Progress,
    pub(crate) log: LogTarget,
    /// The modern `_meta` keys, parsed on first use.
    pub(crate) modern: OnceLock<Handshake>,
}

/// Where this call's log messages would go; a [`Log`] is built from it only for tools that log.
pub(crate) struct LogTarget {
    pub(crate) threshold: Option<Level>,
    pub(crate) logger: &'static str,
    pub(crate) outbox: Outbox,
}

const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

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

    /// The request's `params._meta`, as sent.
    pub fn meta(&self) -> Option<&RawValue> {
        self.0.meta.as_deref()
    }

    /// The server's state of type `T`, if one was registered.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.0.states.get::<T>()
    }

    /// Progress reporting for this request (a no-op when the client asked for none).
    pub fn progress(&self) -> Progress {
        self.0.progress.clone()
    }

    /// Log messages for the client about this request.
    pub fn log(&self) -> Log {
        let target = &self.0.log;
        Log::new(
            target.threshold,
            target.logger,
            target.outbox.clone(),
            &self.0.call,
        )
    }

    /// This request's cancellation signal.
    pub fn cancellation(&self) -> Cancellation {
        self.0.call.cancellation.clone()
    }

    fn client(&self) -> &Handshake {
        if self.era() == Era::Modern {
            return self.0.modern.get_or_init(|| modern_client(self.meta()));
        }
        static NONE: OnceLock<Handshake> = OnceLock::new();
        self.0
            .handshake
            .get()
            .unwrap_or_else(|| NONE.get_or_init(Handshake::default))
    }
}

fn modern_client(meta: Option<&RawValue>) -> Handshake {
    let mut meta: serde_json::Map<String, Value> = meta
        .and_then(|m| serde_json::from_str(m.get()).ok())
        .unwrap_or_default();
    Handshake {
        info: meta
            .remove(CLIENT_INFO)
            .and_then(|v| serde_json::from_value(v).ok()),
        capabilities: meta
            .remove(CLIENT_CAPABILITIES)
            .unwrap_or_else(|| Value::Object(Default::default())),
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

impl Inject for Context {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.clone())
    }
}

impl Inject for Log {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.log())
    }
}

impl Inject for Progress {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.progress())
    }
}

/// Fires when the client cancels the request (`notifications/cancelled`).
///
/// The server sends no response for a cancelled request, whatever the tool returns; a tool that
/// watches this signal can stop early and free what it holds.
#[derive(Clone, Debug, Default)]
pub struct Cancellation(Arc<CancelInner>);

#[derive(Debug, Default)]
struct CancelInner {
    cancelled: std::sync::atomic::AtomicBool,
    notify: tokio::sync::Notify,
}

impl Cancellation {
    /// Whether the client has cancelled the request.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Completes when the client cancels the request.
    pub async fn cancelled(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }

    pub(crate) fn cancel(&self) {
        self.0
            .cancelled
            .store(true, std::sync::atomic::Ordering::Release);
        self.0.notify.notify_waiters();
    }
}

impl Inject for Cancellation {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.cancellation())
    }
}

/// Shared state of type `T`, registered on the server with `Server::state` and handed to every
/// tool that takes a `State<T>` parameter. Cloning it is cheap: all calls share one `T`.
pub struct State<T>(Arc<T>);

impl<T> State<T> {
    /// The shared pointer to the state.
    pub fn arc(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T> Deref for State<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for State<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("State").field(&self.0).finish()
    }
}

impl<T: Send + Sync + 'static> Inject for State<T> {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        cx.state::<T>().ok_or_else(|| {
            ToolOutput::internal(format!(
                "no state of type `{}` was registered",
                type_name::<T>()
            ))
        })
    }

    fn require(requirements: &mut Requirements) {
        requirements.state::<T>();
    }
}

/// The server's states, by type.
#[derive(Default)]
pub(crate) struct States(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl States {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: Arc<T>) {
        self.0.insert(TypeId::of::<T>(), value);
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains_key(&id)
    }

    fn get<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        let any = Arc::clone(self.0.get(&TypeId::of::<T>())?);
        any.downcast::<T>().ok().map(State)
    }
}
