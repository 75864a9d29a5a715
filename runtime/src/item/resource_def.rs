//! [`ResourceDef`]: a resource or a resource template made while the program runs, by value.
//! It becomes the [`ResourceSpec`] a `#[mcp_resource]` has, so the server checks, lists and
//! reads it the same way.

use std::borrow::Cow;
use std::future::Future;
use std::panic::Location;
use std::sync::Arc;

use serde_json::Value;

use crate::call::completion::{Completing, IntoCompletion, set_closure};
use crate::call::context::Context;
use crate::item::defined::{self, Defined};
use crate::item::handler::{BoxFuture, Handler, Instance, Invocation};
use crate::item::resource::ResourceSpec;
use crate::resources::contents::{IntoContents, Read, ResourceOutput};

/// A resource made at run time: its name, URI (or URI template) and texts are values, and its
/// handler an async closure that takes the template's values (a JSON object of strings, empty
/// for a direct resource) and the request's [`Context`] (whose
/// [`resource_uri`](Context::resource_uri) is the URI read), and returns what a
/// `#[mcp_resource]` function may return ([`IntoContents`]). Serve it with
/// [`Server::resource_def`](crate::Server::resource_def), or add it while serving with
/// [`ServerHandle::add_resource_def`](crate::ServerHandle::add_resource_def): a resource a
/// tool's call produced is served so.
///
/// It passes the checks a `#[mcp_resource]` passes: a URI template that parses, `_meta` an
/// object, no URI another resource serves (each clash names both definitions).
///
/// ```
/// use serde_json::Value;
/// use toolwright_runtime::{Context, ResourceDef, Server};
///
/// let motd = ResourceDef::new("motd", "text://motd", |_: Value, _: Context| async move {
///     "Have a good day.".to_owned()
/// })
/// .mime_type("text/plain");
/// let user = ResourceDef::new("user", "users://{id}", |values: Value, _: Context| async move {
///     format!("user {}", values["id"].as_str().unwrap_or_default())
/// });
/// let server = Server::new("notes", "1").resource_def(motd).resource_def(user);
/// # drop(server);
/// ```
pub struct ResourceDef {
    pub(crate) spec: ResourceSpec,
    run: Defined<Contents>,
}

/// What a run-time resource's closure returned, to be made into contents once the read's URI
/// and the resource's MIME type are known.
type Contents = Box<dyn FnOnce(&Read<'_>) -> ResourceOutput + Send>;

/// A run-time resource as the server holds it: its closure, and the MIME type its contents
/// carry unless they say otherwise.
struct DefinedResource {
    run: Defined<Contents>,
    mime_type: Option<Cow<'static, str>>,
}

impl ResourceDef {
    defined::header_setters!(ResourceDef, "resource");

    /// A resource named `name` at `uri` (with `{variables}`, an RFC 6570 template of the URIs
    /// it serves) whose reads `handler` answers: with text, bytes (a base64 blob),
    /// [`Json`](crate::tools::Json), embedded resources, `None` (there is no such resource),
    /// or a `Result` of them whose error the client reads.
    #[track_caller]
    pub fn new<F, Fut>(
        name: impl Into<Cow<'static, str>>,
        uri: impl Into<Cow<'static, str>>,
        handler: F,
    ) -> ResourceDef
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoContents + Send,
    {
        let contents = |value: Fut::Output| -> Contents {
            Box::new(move |read: &Read<'_>| value.into_contents(read))
        };
        ResourceDef {
            spec: ResourceSpec {
                header: defined::header(name.into(), Location::caller()),
                uri: uri.into(),
                mime_type: None,
                size: None,
                audience: &[],
                priority: None,
                last_modified: None,
                ttl_ms: None,
                cache_scope: None,
                variables: any_values,
                completions: Cow::Borrowed(&[]),
                handler: Handler::Async(call),
            },
            run: Defined::new(handler, contents),
        }
    }

    /// Its URI or URI template, as given.
    pub fn uri(&self) -> &str {
        &self.spec.uri
    }

    /// The MIME type of its contents (text is `text/plain` and bytes
    /// `application/octet-stream` without one).
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> ResourceDef {
        self.spec.mime_type = Some(mime_type.into());
        self
    }

    /// Its size in bytes, listed for a direct resource.
    pub fn size(mut self, bytes: u64) -> ResourceDef {
        self.spec.size = Some(bytes);
        self
    }

    /// How much it matters, from 0 to 1 (the `priority` annotation).
    pub fn priority(mut self, priority: f64) -> ResourceDef {
        self.spec.priority = Some(priority);
        self
    }

    /// How long a 2026-07-28 client may reuse a read, in milliseconds.
    pub fn ttl_ms(mut self, ttl_ms: u64) -> ResourceDef {
        self.spec.ttl_ms = Some(ttl_ms);
        self
    }

    /// Suggests values of the template's variable `variable` (`completion/complete`) with what
    /// `complete` returns for what the user typed so far, as
    /// [`PromptDef::complete`](crate::PromptDef::complete) does for an argument. The variable
    /// must be one of the template's.
    pub fn complete<F, Fut>(
        mut self,
        variable: impl Into<Cow<'static, str>>,
        complete: F,
    ) -> ResourceDef
    where
        F: Fn(Completing) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoCompletion,
    {
        set_closure(&mut self.spec.completions, variable.into(), complete);
        self
    }

    /// The spec the server checks and serves, and the instance its reads run on.
    pub(crate) fn into_parts(self) -> (ResourceSpec, Instance) {
        let mime_type = self.spec.mime_type.clone();
        let run = self.run;
        (self.spec, Arc::new(DefinedResource { run, mime_type }))
    }
}

/// A run-time template's values are strings of any name its URI template has.
fn any_values(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object"})
}

/// The handler every run-time resource shares: the template's values bound, its own closure,
/// and what that returned made into the read's contents.
fn call(invocation: Invocation) -> BoxFuture<ResourceOutput> {
    let values = match invocation.arguments.bind_value() {
        Ok(values) => values,
        Err(refused) => return Box::pin(std::future::ready(ResourceOutput::unbound(refused))),
    };
    let defined = invocation.instance::<DefinedResource>();
    let future = defined.run.call(values, invocation.context.clone());
    let (uri, mime_type) = (
        invocation.resource_uri().to_owned(),
        defined.mime_type.clone(),
    );
    Box::pin(async move {
        let contents = future.await;
        let mime_type = mime_type.as_deref();
        contents(&Read {
            uri: &uri,
            mime_type,
        })
    })
}
