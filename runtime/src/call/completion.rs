//! Completion of a prompt argument or a template variable (`completion/complete`): what a
//! completion function sees, what it may return, and how a sync or an async function is
//! called alike.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::call::state::{State, States};

/// What a completion function sees: the argument being completed, the user's partial value,
/// the arguments already given (`context.arguments`, 2025-06-18 on), and the server's shared
/// state (what it suggests usually comes from there).
#[derive(Clone, Default)]
pub struct Completing {
    pub(crate) argument: String,
    pub(crate) value: String,
    pub(crate) arguments: BTreeMap<String, String>,
    pub(crate) states: Arc<States>,
}

impl fmt::Debug for Completing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Completing")
            .field("argument", &self.argument)
            .field("value", &self.value)
            .field("arguments", &self.arguments)
            .finish_non_exhaustive()
    }
}

impl Completing {
    /// The argument (or template variable) being completed.
    pub fn argument(&self) -> &str {
        &self.argument
    }

    /// What the user typed so far.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// An argument the user already gave.
    pub fn get(&self, argument: &str) -> Option<&str> {
        self.arguments.get(argument).map(String::as_str)
    }

    /// Every argument the user already gave.
    pub fn arguments(&self) -> &BTreeMap<String, String> {
        &self.arguments
    }

    /// The server's shared state of type `T` (`Server::state`), if it has one.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        self.states.get::<T>()
    }
}

/// Suggestions for an argument, best first: at most 100 are sent; `total` and `has_more` say
/// how many there are when it is more.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// The suggestions, best first.
    pub values: Vec<String>,
    /// How many suggestions there are in all, if known.
    pub total: Option<u64>,
    /// Whether there are more than those sent, even if `total` is unknown.
    pub has_more: bool,
}

impl Completion {
    /// The most values one answer carries.
    pub const MAX_VALUES: usize = 100;

    /// Suggestions, cut to [`Completion::MAX_VALUES`] with `total` and `has_more` saying so.
    pub fn of(values: impl IntoIterator<Item = impl Into<String>>) -> Completion {
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let total = values.len();
        values.truncate(Self::MAX_VALUES);
        Completion {
            values,
            total: Some(total as u64),
            has_more: total > Self::MAX_VALUES,
        }
    }

    /// Within the limit, whatever the function returned: a `total` below the values sent is
    /// raised to their number.
    pub(crate) fn bounded(mut self) -> Completion {
        if self.values.len() > Self::MAX_VALUES {
            self.values.truncate(Self::MAX_VALUES);
            self.has_more = true;
        }
        if let Some(total) = &mut self.total {
            *total = (*total).max(self.values.len() as u64);
        }
        self
    }
}

/// What a completion function may return: a `Vec` of `String`s or `&str`s, or a
/// [`Completion`].
#[diagnostic::on_unimplemented(
    message = "a completion function cannot return `{Self}`",
    note = "a completion function returns `Vec<String>`, `Vec<&'static str>` or `Completion`, \
            or an `async fn` returning one of these"
)]
pub trait IntoCompletion {
    /// The suggestions.
    fn into_completion(self) -> Completion;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Completion {
        self
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Completion {
        Completion::of(self)
    }
}

impl IntoCompletion for Vec<&'static str> {
    fn into_completion(self) -> Completion {
        Completion::of(self)
    }
}

/// A boxed completion future.
pub type CompletionFuture = Pin<Box<dyn Future<Output = Completion> + Send + 'static>>;

/// Where an argument's suggestions come from, as a spec holds it: a function named by
/// `#[arg(complete = path)]` (generated code wraps it), or a closure given to a `PromptDef` or a
/// `ResourceDef` at run time.
#[derive(Clone)]
pub enum Completer {
    /// A generated wrapper of a completion function.
    Fn(fn(Completing) -> CompletionFuture),
    /// A closure given at run time.
    Closure(Arc<dyn Fn(Completing) -> CompletionFuture + Send + Sync>),
}

impl Completer {
    /// A completer of `closure`, which suggests what its future resolves to.
    pub(crate) fn closure<F, Fut>(closure: F) -> Completer
    where
        F: Fn(Completing) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoCompletion,
    {
        Completer::Closure(Arc::new(move |completing| {
            let future = closure(completing);
            Box::pin(async move { future.await.into_completion() })
        }))
    }

    /// The suggestions for `completing`.
    pub(crate) fn complete(&self, completing: Completing) -> CompletionFuture {
        match self {
            Completer::Fn(function) => function(completing),
            Completer::Closure(closure) => closure(completing),
        }
    }
}

/// The completers of a spec's arguments, by name: borrowed from the program by generated
/// code, owned by an item made at run time.
pub type Completers = Cow<'static, [(Cow<'static, str>, Completer)]>;

/// `completers` with `closure` completing `name`: a second closure for one name takes the
/// first's place.
pub(crate) fn set_closure<F, Fut>(completers: &mut Completers, name: Cow<'static, str>, closure: F)
where
    F: Fn(Completing) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoCompletion,
{
    let completers = completers.to_mut();
    completers.retain(|(n, _)| *n != name);
    completers.push((name, Completer::closure(closure)));
}

/// Marks a completion function that returns its suggestions.
pub struct Returned<R>(std::marker::PhantomData<R>);

/// Marks a completion function that is `async`.
pub struct Awaited<F>(std::marker::PhantomData<F>);

/// A function that completes an argument: `fn(Completing) -> R` or
/// `async fn(Completing) -> R`, for any `R: IntoCompletion`. `M` tells the two apart.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot complete an argument",
    note = "a completion function is `fn(Completing) -> Vec<String>` (or `Completion`), sync or \
            async"
)]
pub trait CompleteFn<M> {
    /// Calls it.
    fn complete(&self, completing: Completing) -> CompletionFuture;
}

impl<F, R> CompleteFn<Returned<R>> for F
where
    F: Fn(Completing) -> R + Copy + Send + 'static,
    R: IntoCompletion + Send + 'static,
{
    /// On a thread meant for blocking, as a plain `fn` tool runs: a completion function may
    /// read a file or a database, and the async workers serve every other request.
    fn complete(&self, completing: Completing) -> CompletionFuture {
        let function = *self;
        Box::pin(async move {
            let suggested = tokio::task::spawn_blocking(move || function(completing)).await;
            match suggested {
                Ok(suggestions) => suggestions.into_completion(),
                // Its panic, surfaced where the caller catches panics.
                Err(failed) if failed.is_panic() => std::panic::resume_unwind(failed.into_panic()),
                // The runtime is shutting down: nothing to suggest.
                Err(_) => Completion::default(),
            }
        })
    }
}

impl<F, Fut> CompleteFn<Awaited<Fut>> for F
where
    F: Fn(Completing) -> Fut,
    Fut: Future + Send + 'static,
    Fut::Output: IntoCompletion,
{
    fn complete(&self, completing: Completing) -> CompletionFuture {
        let future = self(completing);
        Box::pin(async move { future.await.into_completion() })
    }
}

/// Calls a completion function, sync or async. Generated code wraps each
/// `#[arg(complete = path)]` in a `fn(Completing) -> CompletionFuture` that calls this.
pub fn complete_with<M, F: CompleteFn<M>>(function: F, completing: Completing) -> CompletionFuture {
    function.complete(completing)
}

/// `values` that start with `partial`, ignoring case, in their order: how the values of an
/// enum complete when no function is named.
pub(crate) fn matching(values: &[String], partial: &str) -> Completion {
    let partial = partial.to_lowercase();
    Completion::of(
        values
            .iter()
            .filter(|value| value.to_lowercase().starts_with(&partial))
            .cloned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sync_colours(completing: Completing) -> Vec<String> {
        vec![format!("{}-red", completing.value())]
    }

    async fn async_colours(completing: Completing) -> Completion {
        Completion::of([format!("{}-blue", completing.value())])
    }

    fn run(future: CompletionFuture) -> Completion {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    fn partial(value: &str) -> Completing {
        Completing {
            value: value.into(),
            ..Completing::default()
        }
    }

    #[test]
    fn sync_and_async_functions_are_called_alike() {
        assert_eq!(
            run(complete_with(sync_colours, partial("x"))).values,
            ["x-red"]
        );
        assert_eq!(
            run(complete_with(async_colours, partial("y"))).values,
            ["y-blue"]
        );
    }

    #[test]
    fn at_most_a_hundred_values_with_the_total_and_more_said() {
        let many: Vec<String> = (0..250).map(|i| format!("v{i}")).collect();
        let completion = Completion::of(many);
        assert_eq!(completion.values.len(), 100);
        assert_eq!(completion.total, Some(250));
        assert!(completion.has_more);
        let raised = Completion {
            values: vec!["a".into(), "b".into()],
            total: Some(1),
            has_more: false,
        }
        .bounded();
        assert_eq!(raised.total, Some(2));
    }

    #[test]
    fn enum_values_complete_by_prefix_ignoring_case() {
        let values = ["Red", "green", "grey"].map(String::from);
        assert_eq!(matching(&values, "GR").values, ["green", "grey"]);
        assert_eq!(matching(&values, "").values.len(), 3);
        assert!(matching(&values, "blue").values.is_empty());
    }
}
