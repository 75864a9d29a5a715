//! How an item runs: the handler the macros generate (sync or async) and everything one run
//! hands it ([`Invocation`]).

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::call::context::Context;
use crate::call::inject::Injector;
use crate::tools::ToolOutput;
use crate::tools::binding::Arguments;

/// A boxed future of a tool (or of a prompt or a resource: `O` is what it produces).
pub type BoxFuture<O = ToolOutput> = Pin<Box<dyn Future<Output = O> + Send + 'static>>;

/// How a tool (or a prompt, or a resource) runs: sync functions run on a blocking thread,
/// async ones as tasks.
pub enum Handler<O = ToolOutput> {
    /// A plain function.
    Sync(fn(Invocation) -> O),
    /// An `async fn`.
    Async(fn(Invocation) -> BoxFuture<O>),
}

impl<O> Clone for Handler<O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for Handler<O> {}

/// The instance a `#[mcp_tool_type]` method is called on.
pub(crate) type Instance = Arc<dyn Any + Send + Sync>;

/// Everything one call hands to the generated handler.
pub struct Invocation {
    /// The client's arguments.
    pub arguments: Arguments,
    /// The request.
    pub context: Context,
    /// What a method tool is called on.
    pub(crate) instance: Option<Instance>,
}

/// Boxes a tool's future. Generated code calls it at the function's name, so a future that is
/// not `Send` (it holds an `Rc` or a `MutexGuard` across an `.await`) is reported there, with
/// the value and the `.await` that cause it.
pub fn tool_future<O, F: Future<Output = O> + Send + 'static>(future: F) -> BoxFuture<O> {
    Box::pin(future)
}

impl Invocation {
    /// Builds an injected parameter.
    pub fn inject<T>(&self, injector: Injector<T>) -> Result<T, ToolOutput> {
        (injector.inject)(&self.context)
    }

    /// The URI a `resources/read` asked for, which a resource's contents carry; empty for a
    /// tool call or a prompt.
    pub fn resource_uri(&self) -> &str {
        self.context.0.resource_uri.as_deref().unwrap_or_default()
    }

    /// The instance a `#[mcp_tool_type]` method is called on.
    pub fn instance<T: Send + Sync + 'static>(&self) -> &T {
        self.instance
            .as_ref()
            .and_then(|instance| instance.downcast_ref::<T>())
            .expect("a method tool is registered with an instance of its type")
    }
}
