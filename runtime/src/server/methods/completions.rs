//! `completion/complete`: suggestions for a prompt's argument or a template's variable, from
//! the function its `#[arg(complete = f)]` names, or else from the values its type allows.
//!
//! Policy: an unknown prompt is `-32602` "Unknown prompt", as for `prompts/get`; a
//! `ref/resource` must name a template (or a resource's URI) exactly, else `-32602`; so must an
//! argument the prompt or template does not have. An argument with no suggestions completes to
//! none. At most 100 values are sent, with `total` and `hasMore` saying when there are more.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::call::completion::{self, Completing, Completion};
use crate::call::record::CallRecord;
use crate::item::handler::Invocation;
use crate::protocol::jsonrpc::{self, ProtocolError, without_position};
use crate::protocol::quote::quoted;
use crate::protocol::wire::Modern;
use crate::run::caught::caught;
use crate::server::batch::Batch;
use crate::server::engine::Engine;
use crate::server::methods::calls::Request;
use crate::server::methods::reads::Run;
use crate::server::reply::Reply;
use crate::server::served_items::{Completions, Suggestions};
use crate::server::session::Session;
use crate::tools::binding::Arguments;
use crate::tools::render::{Rendered, masked_error};

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Reference {
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

#[derive(Deserialize)]
struct Argument {
    name: String,
    value: String,
}

#[derive(Deserialize, Default)]
struct Context {
    #[serde(default)]
    arguments: BTreeMap<String, String>,
}

impl Session {
    /// A `completion/complete`.
    pub(crate) fn complete(
        &self,
        request: &Request<'_>,
        batch: Option<&Arc<Batch>>,
    ) -> Result<Reply, ProtocolError> {
        let params = request.params;
        let reference: Reference = field(params.rare().reference, "ref")?;
        let argument: Argument = field(params.rare().argument, "argument")?;
        let context: Context = match params.rare().context {
            None => Context::default(),
            Some(_) => field(params.rare().context, "context")?,
        };
        let catalog = self.engine.catalog();
        let caller = request.scope.caller();
        let (owner, completions, names, held): (Cow<'static, str>, &Completions, Vec<&str>, _) =
            match &reference {
                Reference::Prompt { name } => {
                    let prompt = self.engine.prompt(&catalog, name, &caller)?;
                    let names = prompt.arguments.iter().map(|a| a.name.as_str()).collect();
                    let held = &prompt.held;
                    (
                        prompt.spec.header.name.clone(),
                        &prompt.completions,
                        names,
                        held,
                    )
                }
                Reference::Resource { uri } => {
                    let resource = catalog
                        .resource_named(uri)
                        .filter(|r| self.engine.visible_item(r.spec.info(), &caller))
                        .ok_or_else(|| {
                            ProtocolError::invalid_params(format_args!(
                                "no resource template is `{}`",
                                quoted(uri)
                            ))
                        })?;
                    (
                        resource.spec.header.name.clone(),
                        &resource.completions,
                        resource.template.variables(),
                        &resource.held,
                    )
                }
            };
        if !names.contains(&argument.name.as_str()) {
            return Err(ProtocolError::invalid_params(format_args!(
                "`{owner}` has no argument `{}`",
                quoted(&argument.name)
            )));
        }
        let suggestions = completions
            .iter()
            .find(|(name, _)| *name == argument.name)
            .map(|(_, s)| s);
        let completing = Completing {
            argument: argument.name,
            value: argument.value,
            arguments: context.arguments,
            states: Arc::clone(&held.states),
        };
        let states = Arc::clone(&held.states);
        let version = request.version;
        let function = match suggestions {
            None => {
                let line = result_line(
                    &self.engine,
                    version,
                    request.id,
                    Completion::of(Vec::<String>::new()),
                );
                return Ok(Reply::Now(line));
            }
            Some(Suggestions::Values(values)) => {
                let completion = completion::matching(values, &completing.value);
                return Ok(Reply::Now(result_line(
                    &self.engine,
                    version,
                    request.id,
                    completion,
                )));
            }
            Some(Suggestions::Function(function)) => function.clone(),
        };
        let run = Run {
            name: owner.clone(),
            counted: true,
            instance: None,
            states,
            arguments: Arguments::default(),
            uri: None,
            asking: None,
            produce: Box::new(move |invocation: Invocation, _| {
                let future = Box::pin(async move { Ok(function.complete(completing).await) });
                Box::pin(caught(future, &invocation.context.0))
            }),
            render: Box::new(move |engine: &Engine, record: &CallRecord, completion| {
                match completion {
                    Ok(completion) => {
                        Rendered::result(result_line(engine, version, &record.id, completion))
                    }
                    Err(detail) => {
                        let expose = engine.expose_internal_errors;
                        let error = masked_error("completion of", &owner, expose, &detail);
                        Rendered::error(&record.id, &error)
                    }
                }
            }),
        };
        self.run(request, batch, run)
    }
}

/// The request's field `name`, read as `T`.
fn field<T: serde::de::DeserializeOwned>(
    raw: Option<&RawValue>,
    name: &str,
) -> Result<T, ProtocolError> {
    let raw =
        raw.ok_or_else(|| ProtocolError::invalid_params(format_args!("missing field `{name}`")))?;
    serde_json::from_str(raw.get()).map_err(|e| {
        ProtocolError::invalid_params(format_args!("`{name}`: {}", without_position(&e)))
    })
}

fn result_line(
    engine: &Engine,
    version: crate::protocol::ProtocolVersion,
    id: &RawValue,
    completion: Completion,
) -> Vec<u8> {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Values {
        values: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        total: Option<u64>,
        has_more: bool,
    }
    #[derive(Serialize)]
    struct CompleteResult<'a> {
        completion: Values,
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        modern: Option<Modern<'a>>,
    }
    let completion = completion.bounded();
    let result = CompleteResult {
        completion: Values {
            values: completion.values,
            total: completion.total,
            has_more: completion.has_more,
        },
        modern: Modern::of(&engine.server_meta, version),
    };
    jsonrpc::result_line(id, &result)
}
