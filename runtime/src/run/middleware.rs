//! Middleware around tool calls: tower [`Layer`]s over the service that runs a tool.
//!
//! A call goes through the layers as a [`ToolCall`] (the tool, its arguments, its
//! [`Context`](crate::Context)) and comes back as the tool's [`ToolOutput`]; a layer sees both, may answer
//! without calling the tool, and layers compose as tower's do, the first one added outermost.
//! tower's own layers (`TimeoutLayer`, `ConcurrencyLimitLayer`, `RateLimitLayer`) apply as
//! they are; [`from_fn`] writes one from an async function. An error from a layer (a timeout)
//! is answered as a tool error with the error's message.
//!
//! The stack is one service, shared by every call: each call waits for it to be ready (a rate
//! or concurrency limit holds calls there) and hands it the call, one call at a time, and then
//! runs on its own. A server without middleware takes none of this path.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use tower_layer::Layer;
use tower_service::Service;

use crate::item::header::Level;
pub use crate::run::tool_call::ToolCall;
use crate::tools::ToolOutput;
use crate::tools::error::ToolError;

/// An error a layer answers with: anything that can be said.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

type BoxFuture = Pin<Box<dyn Future<Output = Result<ToolOutput, BoxError>> + Send>>;

/// The layers and the tool, as one boxed service.
pub(crate) type BoxedService =
    Box<dyn Service<ToolCall, Response = ToolOutput, Error = BoxError, Future = BoxFuture> + Send>;

/// The innermost service: runs the tool.
struct RunTool;

impl Service<ToolCall> for RunTool {
    type Response = ToolOutput;
    type Error = BoxError;
    type Future = BoxFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, call: ToolCall) -> BoxFuture {
        Box::pin(async move { Ok(call.execute().await) })
    }
}

/// Any service of tool calls, boxed.
struct Boxed<S>(S);

impl<S> Service<ToolCall> for Boxed<S>
where
    S: Service<ToolCall, Response = ToolOutput>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    type Response = ToolOutput;
    type Error = BoxError;
    type Future = BoxFuture;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.0.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, call: ToolCall) -> BoxFuture {
        let future = self.0.call(call);
        Box::pin(async move { future.await.map_err(Into::into) })
    }
}

pub(crate) fn boxed<S>(service: S) -> BoxedService
where
    S: Service<ToolCall, Response = ToolOutput> + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    Box::new(Boxed(service))
}

/// Wraps a stack in one more layer.
pub(crate) type Wrap = Box<dyn FnOnce(BoxedService) -> BoxedService + Send>;

/// A layer as a [`Wrap`].
pub(crate) fn wrap<L>(layer: L) -> Wrap
where
    L: Layer<BoxedService> + Send + 'static,
    L::Service: Service<ToolCall, Response = ToolOutput> + Send + 'static,
    <L::Service as Service<ToolCall>>::Error: Into<BoxError>,
    <L::Service as Service<ToolCall>>::Future: Send + 'static,
{
    Box::new(move |inner| boxed(layer.layer(inner)))
}

/// The server's middleware: its layers around the tool, shared by every call.
pub(crate) struct Chain(Arc<tokio::sync::Mutex<BoxedService>>);

impl Chain {
    /// The stack of `wraps` (the first outermost) around the tool.
    pub(crate) fn new(wraps: Vec<Wrap>) -> Chain {
        let service = wraps
            .into_iter()
            .rev()
            .fold(Box::new(RunTool) as BoxedService, |inner, wrap| wrap(inner));
        Chain(Arc::new(tokio::sync::Mutex::new(service)))
    }

    /// Runs `call` through the stack.
    pub(crate) async fn call(&self, call: ToolCall) -> ToolOutput {
        through(&self.0, call).await
    }
}

/// Waits for `service` to be ready, hands it `call`, and awaits the answer without holding it.
async fn through(service: &tokio::sync::Mutex<BoxedService>, call: ToolCall) -> ToolOutput {
    let answer = {
        let mut service = service.lock().await;
        match poll_fn(|cx| service.poll_ready(cx)).await {
            Ok(()) => service.call(call),
            Err(error) => return refused(&error),
        }
    };
    answer.await.unwrap_or_else(|error| refused(&error))
}

/// The middleware of a server mounted through `level`, around its own tools only: a call of
/// any other tool goes on inward. Every split is innermost in its server's stack (below it is
/// only another split, or the tool), so what it passes on is always ready.
pub(crate) fn split(level: Arc<Level>, chain: Arc<Chain>) -> Wrap {
    Box::new(move |inner| {
        boxed(Split {
            level,
            chain,
            inner,
        })
    })
}

/// The service [`split`] makes.
struct Split {
    level: Arc<Level>,
    chain: Arc<Chain>,
    inner: BoxedService,
}

impl Service<ToolCall> for Split {
    type Response = ToolOutput;
    type Error = BoxError;
    type Future = BoxFuture;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut call: ToolCall) -> BoxFuture {
        match depth_in(&call, &self.level) {
            Some(depth) => {
                let chain = Arc::clone(&self.chain);
                call.depth = depth;
                Box::pin(async move { Ok(chain.call(call).await) })
            }
            None => self.inner.call(call),
        }
    }
}

/// How deep in the mounts of the tool `call` calls the server mounted through `level` is (its
/// layers see the tool by the name that server gives it), if the tool is served through it.
pub(crate) fn depth_in(call: &ToolCall, level: &Arc<Level>) -> Option<usize> {
    let mount = call.tool.spec.header.mount.as_ref()?;
    let position = mount.levels.iter().position(|l| Arc::ptr_eq(l, level))?;
    Some(position + 1)
}

/// A layer's error, as the call's result: a [`ToolError`]'s message as it is, any other error's
/// message too (a layer's errors are about the call, like "request timed out", not the tool's
/// internals, which never get this far).
fn refused(error: &BoxError) -> ToolOutput {
    match error.downcast_ref::<ToolError>() {
        Some(error) => ToolOutput::error(error.message()),
        None => ToolOutput::error(error.to_string()),
    }
}

/// A layer from an async function of the call and the rest of the stack:
///
/// ```
/// use toolwright_runtime::middleware::{self, Next, ToolCall};
/// use toolwright_runtime::Server;
///
/// let server = Server::new("audited", "1").layer(middleware::from_fn(
///     |call: ToolCall, next: Next| async move {
///         let tool = call.tool().name().to_owned();
///         let output = next.run(call).await;
///         eprintln!("{tool}: {}", if output.is_error() { "failed" } else { "ok" });
///         output
///     },
/// ));
/// ```
pub fn from_fn<F, Fut>(f: F) -> FromFnLayer<F>
where
    F: Fn(ToolCall, Next) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ToolOutput> + Send + 'static,
{
    FromFnLayer(f)
}

/// The layer [`from_fn`] makes.
#[derive(Clone)]
pub struct FromFnLayer<F>(F);

impl<F, Fut, S> Layer<S> for FromFnLayer<F>
where
    F: Fn(ToolCall, Next) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ToolOutput> + Send + 'static,
    S: Service<ToolCall, Response = ToolOutput> + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    type Service = FromFn<F>;

    fn layer(&self, inner: S) -> FromFn<F> {
        FromFn {
            f: self.0.clone(),
            inner: Arc::new(tokio::sync::Mutex::new(boxed(inner))),
        }
    }
}

/// The service [`from_fn`]'s layer makes.
pub struct FromFn<F> {
    f: F,
    inner: Arc<tokio::sync::Mutex<BoxedService>>,
}

impl<F, Fut> Service<ToolCall> for FromFn<F>
where
    F: Fn(ToolCall, Next) -> Fut,
    Fut: Future<Output = ToolOutput> + Send + 'static,
{
    type Response = ToolOutput;
    type Error = BoxError;
    type Future = BoxFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        // The layers below are made ready when `Next::run` calls them.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, call: ToolCall) -> BoxFuture {
        let next = Next(Arc::clone(&self.inner));
        let output = (self.f)(call, next);
        Box::pin(async move { Ok(output.await) })
    }
}

/// The rest of the stack, for a [`from_fn`] middleware to call (or not).
pub struct Next(Arc<tokio::sync::Mutex<BoxedService>>);

impl Next {
    /// Runs `call` through the layers below, and the tool.
    pub async fn run(self, call: ToolCall) -> ToolOutput {
        through(&self.0, call).await
    }
}
