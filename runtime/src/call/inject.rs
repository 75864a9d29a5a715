//! What a tool can ask the server for besides the client's arguments: any type that implements
//! [`Inject`], shared [`State`] among them, and what injected parameters need from the server.

use std::any::{TypeId, type_name};

use crate::call::auth::Auth;
use crate::call::cancel::Cancellation;
use crate::call::context::Context;
use crate::call::log::Log;
use crate::call::progress::Progress;
use crate::call::state::State;
use crate::call::to_client::form::{Form, Forms};
use crate::tools::ToolOutput;

/// A value a tool can take as a parameter that the server fills in, rather than the client.
///
/// The server's own injectable types are [`Context`], [`Progress`](crate::Progress),
/// [`Log`](crate::Log), [`Cancellation`](crate::Cancellation), [`State<T>`] and
/// [`Auth`](crate::Auth); `#[mcp_tool]`
/// recognises them by name. Implement this trait for a type of your own and mark the parameter
/// `#[inject]` to have it built for every call, for example a database connection taken from a
/// pool in [`State`].
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
    message = "`{Self}` cannot be injected into a tool, prompt or resource",
    label = "not injectable",
    note = "if `{Self}` is an argument the client sends, mark the parameter `#[arg]`",
    note = "the server injects `Context`, `Progress`, `Cancellation`, `Log`, `State<T>`, `Auth`, `Elicit<T>`, `Sample`, `Roots`, `TaskStart`, and types that implement `Inject`"
)]
pub trait Inject: Sized + Send {
    /// Whether the value asks the client mid-call ([`Elicit`](crate::Elicit),
    /// [`Sample`](crate::Sample), [`Roots`](crate::Roots)), which only an `async` tool can
    /// await; a sync tool that takes one does not compile.
    const ASKS: bool = false;

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
    /// The forms the tool shows: checked, and made once, when the server starts.
    pub(crate) forms: Vec<FormSource>,
    /// The tool asks the client mid-call.
    pub(crate) asks: bool,
    /// The tool says where its call becomes a task ([`TaskStart`](crate::TaskStart)).
    pub(crate) starts_task: bool,
    /// What the item returns depends on who asks: it takes the verified caller ([`Auth`]),
    /// or a value that says it reads it ([`Requirements::caller`]).
    pub(crate) caller: bool,
    /// The item takes the whole request ([`Context`]), through which it may read the caller.
    pub(crate) context: bool,
}

/// A form type a tool elicits, and how to make its form.
pub(crate) struct FormSource {
    pub(crate) id: TypeId,
    pub(crate) type_name: &'static str,
    pub(crate) make: fn() -> Result<Form, String>,
}

impl std::fmt::Debug for FormSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.type_name)
    }
}

impl Requirements {
    /// The tool asks the client mid-call.
    pub(crate) fn asks(&mut self) {
        self.asks = true;
    }

    /// The tool says where its call becomes a task.
    pub(crate) fn starts_task(&mut self) {
        self.starts_task = true;
    }

    /// The tool shows the form of `T`.
    pub(crate) fn form<T: schemars::JsonSchema + 'static>(&mut self) {
        self.asks = true;
        self.forms.push(FormSource {
            id: TypeId::of::<T>(),
            type_name: type_name::<T>(),
            make: Form::of::<T>,
        });
    }

    /// Makes each form the item shows into `forms`, or says which one cannot be a form.
    pub(crate) fn make_forms(&self, forms: &mut Forms) -> Result<(), String> {
        for source in &self.forms {
            let form = (source.make)().map_err(|problem| {
                format!(
                    "it elicits `{}`, which cannot be a form: {problem}",
                    source.type_name
                )
            })?;
            forms.insert(source.id, form);
        }
        Ok(())
    }

    /// What the value gives depends on the verified caller (it reads [`Context::auth`], or
    /// what a layer in front put into the request's extensions): a resource that takes it is
    /// never read as `public`, and `cache = "public"` on one is refused when the server is
    /// built.
    pub fn caller(&mut self) {
        self.caller = true;
    }

    /// The server must hold a state of type `T` (registered with `Server::state`).
    pub fn state<T: Send + Sync + 'static>(&mut self) {
        self.states.push((TypeId::of::<T>(), type_name::<T>()));
    }
}

/// How to build an injected parameter of type `T`, and what it needs: taken once per
/// parameter by generated code, so that a type that is not injectable is reported once.
pub struct Injector<T> {
    /// `T::inject`.
    pub inject: fn(&Context) -> Result<T, ToolOutput>,
    /// `T::require`.
    pub require: fn(&mut Requirements),
    /// `T::ASKS`.
    pub asks: bool,
}

/// Asserts that an injected parameter of a sync tool does not ask the client (its
/// [`Injector::asks`]); generated code evaluates it for each. The macro itself refuses
/// `Elicit`, `Sample` and `Roots` by name, with an ordinary error: this catches a type of the
/// author's own, marked `#[inject]`, that asks.
pub const fn sync_injectable(asks: bool) {
    assert!(
        !asks,
        "a function that asks the client (`Elicit`, `Sample`, `Roots`) must be an `async fn`: the \
         server awaits the client's answer"
    );
}

/// The injector of `T`.
pub const fn injector<T: Inject>() -> Injector<T> {
    Injector {
        inject: T::inject,
        require: T::require,
        asks: T::ASKS,
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

/// A tool that takes the caller needs one: a call that carries none (over stdio, or past no
/// authentication layer) is refused, saying so, before the tool runs. A tool for any caller
/// reads [`Context::auth`] instead.
impl Inject for Auth {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        cx.auth().cloned().ok_or_else(|| {
            ToolOutput::error("this tool needs an authenticated caller, and none reached it")
        })
    }

    fn require(requirements: &mut Requirements) {
        requirements.caller();
    }
}

impl Inject for Context {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.clone())
    }

    fn require(requirements: &mut Requirements) {
        requirements.context = true;
    }
}

impl Inject for Progress {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.progress())
    }
}

impl Inject for Log {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.log())
    }
}

impl Inject for Cancellation {
    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(cx.cancellation())
    }
}
