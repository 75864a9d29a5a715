//! What every item made at run time shares, whatever its kind: its handler is a closure the
//! server holds as the instance its calls are made on, taking what the client sent as a JSON
//! value and the request's [`Context`]; and its header is made where the item is defined.

use std::borrow::Cow;
use std::future::Future;
use std::panic::Location;

use serde_json::Value;

use crate::call::context::Context;
use crate::call::inject::Requirements;
use crate::item::handler::BoxFuture;
use crate::item::header::Header;

/// A run-time item's closure, boxed, taking what the client sent as `I` (a JSON value, or the
/// type a typed tool's arguments bind to) and producing what its kind's run produces (`O`).
pub(crate) struct Defined<O, I = Value>(Box<dyn Fn(I, Context) -> BoxFuture<O> + Send + Sync>);

impl<O: 'static, I: 'static> Defined<O, I> {
    /// `handler`, its result made into the kind's output by `finish`.
    pub(crate) fn new<F, Fut>(handler: F, finish: fn(Fut::Output) -> O) -> Defined<O, I>
    where
        F: Fn(I, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
    {
        Defined(Box::new(move |input, context| {
            let future = handler(input, context);
            Box::pin(async move { finish(future.await) })
        }))
    }

    /// Runs the closure on `input`, for the request `context` is.
    pub(crate) fn call(&self, input: I, context: Context) -> BoxFuture<O> {
        (self.0)(input, context)
    }
}

/// The header of an item named `name`, defined at `site`: without texts, icons, tags, scopes
/// or `_meta` until its builder gives them; it takes the whole request.
pub(crate) fn header(name: Cow<'static, str>, site: &'static Location<'static>) -> Header {
    Header {
        name,
        title: None,
        description: None,
        requirements: takes_context,
        icons: &[],
        tags: &[],
        scopes: &[],
        meta: None,
        file: site.file(),
        line: site.line(),
        module: "",
        mount: None,
    }
}

/// A run-time item takes the whole request.
fn takes_context(requirements: &mut Requirements) {
    requirements.context = true;
}

/// A run-time item that asks the client takes the whole request and asks.
pub(crate) fn takes_context_and_asks(requirements: &mut Requirements) {
    requirements.context = true;
    requirements.asks();
}

/// The setters every run-time item's builder has, on its header: texts, `_meta`, tags and
/// scopes, written once for every kind.
macro_rules! header_setters {
    ($def:ty, $item:literal) => {
        /// A human-readable title.
        pub fn title(mut self, title: impl Into<std::borrow::Cow<'static, str>>) -> $def {
            self.spec.header.title = Some(title.into());
            self
        }

        #[doc = concat!("What the ", $item, " is, for the model or the user that chooses it.")]
        pub fn description(
            mut self,
            description: impl Into<std::borrow::Cow<'static, str>>,
        ) -> $def {
            self.spec.header.description = Some(description.into());
            self
        }

        /// Its `_meta`: a JSON object (2025-06-18 on).
        pub fn meta(mut self, meta: serde_json::Value) -> $def {
            self.spec.header.meta = Some(std::borrow::Cow::Owned(meta.to_string()));
            self
        }

        /// Labels the server chooses items by ([`Server::without_tags`](crate::Server::without_tags),
        /// visibility rules); not sent to clients.
        pub fn tags(mut self, tags: &'static [&'static str]) -> $def {
            self.spec.header.tags = tags;
            self
        }

        /// What a caller must have been granted to see and use it.
        pub fn scopes(mut self, scopes: &'static [&'static str]) -> $def {
            self.spec.header.scopes = scopes;
            self
        }

        /// Declares that its handler asks the client (with
        /// [`Elicit::new`](crate::Elicit::new), [`Sample::new`](crate::Sample::new) or
        /// [`Roots::new`](crate::Roots::new) on its [`Context`](crate::Context)): the server
        /// readies every request of it to ask, as for a function that takes one of those; on
        /// 2026-07-28 a request whose asks are not answered yet answers `input_required` and
        /// runs again, from the start, on the client's retry. An ask from an item that did
        /// not declare it is [`AskError::Undeclared`](crate::AskError::Undeclared).
        pub fn asks(mut self) -> $def {
            self.spec.header.requirements = $crate::item::defined::takes_context_and_asks;
            self
        }

        /// Its name, as given.
        pub fn name(&self) -> &str {
            &self.spec.header.name
        }
    };
}
pub(crate) use header_setters;
