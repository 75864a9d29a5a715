//! `prompts/get` and `resources/read`: find the prompt or the resource, bind what the client
//! gave (a prompt's arguments, a template's values), open the request's record, and run the
//! function as a tool's runs; its output is shaped for the revision and delivered as a call's.
//!
//! Policy: an unknown prompt, or one the caller may not see, is `-32602` "Unknown prompt";
//! prompt arguments must be an object of strings (`-32602` otherwise), and arguments the
//! prompt does not take are ignored, since the specification leaves them open. A URI that no
//! resource serves, or that only one the caller may not see serves, is the revision's
//! not-found error; a value a template does not allow (`..`, a `/` in one segment) is refused
//! the same way before the function runs, saying why.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::call::context::Context;
use crate::call::record::CallRecord;
use crate::call::span::Outcome;
use crate::call::state::States;
use crate::call::to_client::Asking;
use crate::call::to_client::form::Forms;
use crate::item::handler::{BoxFuture, Handler, Instance, Invocation};
use crate::prompts::output::PromptOutput;
use crate::prompts::render::{self as prompt_render, PromptRenderer};
use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::ProtocolError;
use crate::protocol::quote::quoted;
use crate::resources::contents::ResourceOutput;
use crate::resources::render::{self as resource_render, ReadRenderer};
use crate::run::caught::Output;
use crate::run::item_call::{self, ItemCall};
use crate::run::served::Held;
use crate::run::workers::Threads;
use crate::server::batch::Batch;
use crate::server::catalog::Reached;
use crate::server::delivery::{Delivery, round_line};
use crate::server::engine::Engine;
use crate::server::methods::calls::{Request, round_arguments};
use crate::server::methods::skills::revision_fields;
use crate::server::reply::{Later, Reply};
use crate::server::session::Session;
use crate::tools::binding::Arguments;
use crate::tools::render::Rendered;

/// How a request's function is started: given its invocation and the threads to run on.
pub(crate) type Produce<O> = Box<dyn FnOnce(Invocation, Arc<Threads>) -> BoxFuture<O> + Send>;

/// How a function's output becomes the response.
pub(crate) type Render<O> = Box<dyn FnOnce(&Engine, &CallRecord, O) -> Rendered + Send>;

/// How a request's function runs and what it produces, and how its output becomes the
/// response.
pub(crate) struct Run<O> {
    /// What the request's record is named by (its log messages' logger).
    pub(crate) name: Cow<'static, str>,
    /// Whether it counts under the server's cap on calls at once (a function's run does).
    pub(crate) counted: bool,
    pub(crate) instance: Option<Instance>,
    /// The states its function's parameters take.
    pub(crate) states: Arc<States>,
    pub(crate) arguments: Arguments,
    /// The URI a `resources/read` asked for (`Invocation::resource_uri`).
    pub(crate) uri: Option<Box<str>>,
    /// How the function asks the client, for one that does.
    pub(crate) asking: Option<Box<Asking>>,
    pub(crate) produce: Produce<O>,
    pub(crate) render: Render<O>,
}

/// Runs `handler` inside the boundary every function's run has.
fn running<O: Output>(handler: Handler<O>) -> Produce<O> {
    Box::new(move |invocation, threads| Box::pin(item_call::run(handler, invocation, threads)))
}

impl Session {
    /// A `prompts/get`.
    pub(crate) fn get_prompt(
        &self,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let params = request.params;
        let name = params
            .name
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `name`"))?;
        let catalog = self.engine.catalog();
        let prompt = self
            .engine
            .prompt(&catalog, name, &request.scope.caller())?;
        let raw = strings(params.arguments)?;
        let arguments = Arguments::new(raw)
            .ignoring_unknown(Some(Arc::clone(&prompt.known)))
            .decoding(Some(Arc::clone(&prompt.schema)))
            .sent_as_strings();
        let (schema, version) = (Arc::clone(&prompt.schema), request.version);
        let name = prompt.spec.header.name.clone();
        let mount = prompt.spec.header.mount.clone();
        let asking = self.item_asking(request, &prompt.held, &prompt.forms, || {
            (format!("prompt:{name}"), round_arguments(params))
        })?;
        let run = Run {
            name: name.clone(),
            counted: true,
            instance: prompt.held.instance.clone(),
            states: Arc::clone(&prompt.held.states),
            arguments,
            uri: None,
            asking,
            produce: running(prompt.spec.handler),
            render: Box::new(
                move |engine: &Engine, record: &CallRecord, mut output: PromptOutput| {
                    if let Some(mount) = &mount {
                        output.rewrite_uris(&|uri| engine.outward(mount, uri));
                    }
                    answered(engine, record, version, output, |output, takes_urls| {
                        let renderer = PromptRenderer {
                            name: &name,
                            arguments_schema: &schema,
                            expose_internal_errors: engine.expose_internal_errors,
                            server_meta: &engine.server_meta,
                            client_takes_urls: takes_urls,
                        };
                        prompt_render::get_result(&renderer, version, &record.id, output)
                    })
                },
            ),
        };
        self.run(request, batch, run)
    }

    /// A `resources/read`.
    pub(crate) fn read_resource(
        &self,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let version = request.version;
        let uri = request
            .params
            .uri
            .as_deref()
            .ok_or_else(|| ProtocolError::invalid_params("missing field `uri`"))?;
        let catalog = self.engine.catalog();
        let caller = request.scope.caller();
        let visible = |r: &crate::server::served_items::ServedResource| {
            self.engine.visible_item(r.spec.info(), &caller)
        };
        let reached = match catalog.reach(uri, visible) {
            Reached::Resource(resource, values) => Reached::Resource(resource, values),
            // One the caller lacks scopes for, as one that does not exist, with the scopes.
            _ if let Some(scopes) = self.engine.lacking_uri(&catalog, uri, &caller) => {
                let unknown = ProtocolError::resource_not_found(version, uri, None);
                return Err(unknown.forbidden(scopes));
            }
            other => other,
        };
        let (resource, values) = match reached {
            Reached::Resource(resource, values) => (resource, values),
            Reached::Refused(refused) => {
                return Err(ProtocolError::resource_not_found(
                    version,
                    uri,
                    Some(&refused),
                ));
            }
            Reached::Nothing => return self.read_other(request, uri),
        };
        let values: Map<String, Value> = values
            .into_iter()
            .map(|(name, value)| (name, Value::String(value)))
            .collect();
        let raw = serde_json::value::to_raw_value(&values).expect("strings serialize");
        let arguments = Arguments::new(Some(raw))
            .decoding(Some(Arc::clone(&resource.schema)))
            .sent_as_strings();
        let spec = resource.spec.clone();
        let cache = self.engine.read_cache(resource);
        // A mounted resource's function reads the URI its own server knows.
        let mount = spec.header.mount.clone();
        let (local, asked): (String, Option<Box<str>>) = match &mount {
            Some(mount) => {
                let local = mount.local_uri(uri).unwrap_or_else(|| uri.to_owned());
                (local, Some(uri.into()))
            }
            None => (uri.to_owned(), None),
        };
        let asking = self.item_asking(request, &resource.held, &resource.forms, || {
            (
                format!("resource:{}", spec.header.name),
                serde_json::json!({"uri": uri}),
            )
        })?;
        let run = Run {
            name: spec.header.name.clone(),
            counted: true,
            instance: resource.held.instance.clone(),
            states: Arc::clone(&resource.held.states),
            arguments,
            uri: Some(local.into()),
            asking,
            produce: running(spec.handler),
            render: Box::new(
                move |engine: &Engine, record: &CallRecord, mut output: ResourceOutput| {
                    if let Some(mount) = &mount {
                        output.rewrite_uris(&|uri| engine.outward(mount, uri));
                    }
                    answered(engine, record, version, output, |output, takes_urls| {
                        // The URI the client read (the record has the one the function reads).
                        let read = asked.as_deref();
                        let read = read.or(record.resource_uri.as_deref()).unwrap_or_default();
                        let renderer = ReadRenderer {
                            name: &spec.header.name,
                            uri: read,
                            expose_internal_errors: engine.expose_internal_errors,
                            server_meta: &engine.server_meta,
                            cache,
                            client_takes_urls: takes_urls,
                        };
                        resource_render::read_result(&renderer, version, &record.id, output)
                    })
                },
            ),
        };
        self.run(request, batch, run)
    }

    /// How the function of an item that `asks` asks, for `request`: bound to the item and the
    /// arguments `target` names (made only for an item that asks).
    fn item_asking(
        &self,
        request: &Request<'_>,
        held: &Held,
        forms: &Arc<Forms>,
        target: impl FnOnce() -> (String, Value),
    ) -> Result<Option<Box<Asking>>, ProtocolError> {
        if !held.needs.asks {
            return Ok(None);
        }
        let (target, arguments) = target();
        let forms = Arc::clone(forms);
        let asking = self.asking(request, &target, arguments, forms)?;
        Ok(Some(Box::new(asking)))
    }

    /// Runs a prompt's or a resource's function for `request`: admitted under the server's
    /// cap, its record open, its answer delivered as a call's.
    pub(crate) fn run<O: Send + 'static>(
        &self,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
        run: Run<O>,
    ) -> Result<Reply, ProtocolError> {
        let (threads, admitted) = match run.counted {
            true => {
                let (threads, admitted) = self.admit()?;
                (threads, Some(admitted))
            }
            false => (self.threads()?, None),
        };
        let record = self.open_record(request, run.name, run.states, run.asking, run.uri, None)?;
        let delivery = Delivery {
            engine: Arc::clone(&self.engine),
            open: self.call_ids(),
            batch: batch.cloned(),
            _admitted: admitted,
        };
        let invocation = Invocation {
            arguments: run.arguments,
            context: Context(Arc::clone(&record)),
            instance: run.instance,
        };
        let (job_record, job_threads) = (Arc::clone(&record), Arc::clone(&threads));
        let job = Box::pin(async move {
            let output = (run.produce)(invocation, job_threads).await;
            let span = job_record.span.take();
            let _in_span = span.span().enter();
            let rendered = (run.render)(&delivery.engine, &job_record, output);
            delivery.send(&job_record, &span, rendered, Outcome::Ok);
        });
        Ok(Reply::Later(Later::Item(ItemCall {
            record,
            threads,
            job,
        })))
    }
}

/// A function's output as its request's answer: the round it ended on, or what `render` makes
/// of it for a client that takes URL elicitations or not.
fn answered<O: Output>(
    engine: &Engine,
    record: &CallRecord,
    version: ProtocolVersion,
    output: O,
    render: impl FnOnce(O, bool) -> Rendered,
) -> Rendered {
    let takes_urls = output.is_chosen() && record.declared("elicitation.url");
    match output.into_round(version, takes_urls) {
        Ok(input) => Rendered::result(round_line(engine, record, input)),
        Err(output) => render(output, takes_urls),
    }
}

/// Prompt arguments as sent: an object whose values are strings, or none.
fn strings(arguments: Option<&RawValue>) -> Result<Option<Box<RawValue>>, ProtocolError> {
    let Some(raw) = arguments.filter(|a| a.get() != "null") else {
        return Ok(None);
    };
    let object: Map<String, Value> = serde_json::from_str(raw.get())
        .map_err(|_| ProtocolError::invalid_params("`arguments` must be an object of strings"))?;
    if let Some((name, _)) = object.iter().find(|(_, v)| !v.is_string()) {
        return Err(ProtocolError::invalid_params(format_args!(
            "the argument `{}` must be a string: prompt arguments are strings",
            quoted(name)
        )));
    }
    Ok(Some(raw.to_owned()))
}

impl Session {
    /// A read of a URI no resource function serves: a skill's file, or nothing.
    fn read_other(&self, request: &Request<'_>, uri: &str) -> Result<Reply, ProtocolError> {
        let engine = &self.engine;
        let contents = engine.skills.as_ref().and_then(|skills| skills.read(uri));
        let Some(contents) = contents else {
            return Err(ProtocolError::resource_not_found(
                request.version,
                uri,
                None,
            ));
        };
        let mut result = serde_json::json!({"contents": [contents]});
        revision_fields(&mut result, engine, request.version, true);
        Ok(Reply::Now(crate::protocol::jsonrpc::result_line(
            request.id, &result,
        )))
    }
}
