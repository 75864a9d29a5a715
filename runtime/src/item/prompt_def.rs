//! [`PromptDef`]: a prompt made while the program runs, by value. It becomes the
//! [`PromptSpec`] a `#[mcp_prompt]` has, so the server checks, lists and gets it the same way.

use std::borrow::Cow;
use std::future::Future;
use std::panic::Location;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::call::completion::{Completing, IntoCompletion, set_closure};
use crate::call::context::Context;
use crate::item::defined::{self, Defined};
use crate::item::handler::{BoxFuture, Handler, Instance, Invocation};
use crate::item::prompt::PromptSpec;
use crate::prompts::output::{IntoPrompt, PromptOutput};
use crate::tools::bind_error::BindError;
use crate::tools::output::ToolOutput;

/// A prompt made at run time: its name, texts and arguments are values, and its handler an
/// async closure that takes the arguments (a JSON object of strings, only the arguments it
/// declares) and the request's [`Context`], and returns what a `#[mcp_prompt]` function may
/// return ([`IntoPrompt`]). Serve it with [`Server::prompt_def`](crate::Server::prompt_def),
/// or add it while serving with
/// [`ServerHandle::add_prompt_def`](crate::ServerHandle::add_prompt_def).
///
/// It passes the checks a `#[mcp_prompt]` passes: the name rules, `_meta` an object, a name
/// no other prompt has. A `prompts/get` without a required argument is refused (`-32602`,
/// naming it) before the handler runs.
///
/// ```
/// use serde_json::Value;
/// use toolwright_runtime::{Context, PromptDef, Server};
///
/// let greet = PromptDef::new("greet", |arguments: Value, _: Context| async move {
///     format!("Say hello to {}.", arguments["name"].as_str().unwrap_or_default())
/// })
/// .description("Greets someone.")
/// .argument("name", "Who to greet", true);
/// let server = Server::new("greeter", "1").prompt_def(greet);
/// # drop(server);
/// ```
pub struct PromptDef {
    pub(crate) spec: PromptSpec,
    run: Defined<PromptOutput>,
    /// Its arguments, in the order given: name, description, required.
    arguments: Vec<(String, Option<String>, bool)>,
    /// What is wrong with the arguments given, reported when it is served.
    problem: Option<String>,
}

/// A run-time prompt as the server holds it: its closure, and the arguments a get must give.
struct DefinedPrompt {
    run: Defined<PromptOutput>,
    required: Box<[String]>,
}

impl PromptDef {
    defined::header_setters!(PromptDef, "prompt");

    /// A prompt named `name` whose gets `handler` answers: with text (one message from the
    /// user), messages, or a `Result` of them whose error the client reads. It takes no
    /// arguments until [`argument`](Self::argument) adds them.
    #[track_caller]
    pub fn new<F, Fut>(name: impl Into<Cow<'static, str>>, handler: F) -> PromptDef
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoPrompt,
    {
        PromptDef {
            spec: PromptSpec {
                header: defined::header(name.into(), Location::caller()),
                arguments: listed_instead,
                raw_arguments: None,
                completions: Cow::Borrowed(&[]),
                handler: Handler::Async(call),
            },
            run: Defined::new(handler, IntoPrompt::into_prompt),
            arguments: Vec::new(),
            problem: None,
        }
    }

    /// An argument the prompt takes, listed in this order: its name, what it is, and whether
    /// a get must give it.
    pub fn argument(
        mut self,
        name: impl Into<String>,
        description: impl Into<String>,
        required: bool,
    ) -> PromptDef {
        let (name, description) = (name.into(), Some(description.into()));
        let taken = self.arguments.iter().any(|(n, _, _)| *n == name);
        let problem = match () {
            () if name.trim().is_empty() => Some("an argument's name cannot be empty".to_owned()),
            () if taken => Some(format!("it has two arguments named `{name}`")),
            () => None,
        };
        self.problem = self.problem.take().or(problem);
        let description = description.filter(|d| !d.is_empty());
        self.arguments.push((name, description, required));
        self
    }

    /// Suggests values of the argument `argument` (`completion/complete`) with what `complete`
    /// returns for what the user typed so far (`Completing::value`, the arguments already
    /// chosen): a `Vec` of `String`s or `&str`s, or a [`Completion`](crate::Completion). An
    /// argument without one completes from nothing. The argument must be one the prompt takes.
    ///
    /// ```
    /// use toolwright_runtime::{Completing, Context, PromptDef};
    ///
    /// let prompt = PromptDef::new("review", |args: serde_json::Value, _: Context| async move {
    ///     format!("Review the {} code.", args["language"].as_str().unwrap_or("given"))
    /// })
    /// .argument("language", "The code's language", true)
    /// .complete("language", |completing: Completing| async move {
    ///     let known = ["rust", "python", "typescript"];
    ///     known.into_iter().filter(|l| l.starts_with(completing.value())).collect::<Vec<_>>()
    /// });
    /// ```
    pub fn complete<F, Fut>(
        mut self,
        argument: impl Into<Cow<'static, str>>,
        complete: F,
    ) -> PromptDef
    where
        F: Fn(Completing) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoCompletion,
    {
        set_closure(&mut self.spec.completions, argument.into(), complete);
        self
    }

    /// The spec the server checks and serves, the instance its gets run on, and what is wrong
    /// with its arguments, if anything.
    pub(crate) fn into_parts(mut self) -> (PromptSpec, Instance, Option<String>) {
        let mut properties = Map::new();
        for (name, description, _) in &self.arguments {
            let property = match description {
                Some(description) => json!({"type": "string", "description": description}),
                None => json!({"type": "string"}),
            };
            properties.insert(name.clone(), property);
        }
        let required: Box<[String]> = (self.arguments.iter())
            .filter(|(_, _, required)| *required)
            .map(|(name, _, _)| name.clone())
            .collect();
        let schema = json!({"type": "object", "properties": properties, "required": required});
        self.spec.raw_arguments = Some(Cow::Owned(schema.to_string()));
        let run = self.run;
        let instance = Arc::new(DefinedPrompt { run, required });
        (self.spec, instance, self.problem)
    }
}

/// Never read: a run-time prompt's arguments are listed from the schema its
/// [`PromptDef::into_parts`] writes.
fn listed_instead(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object"})
}

/// The handler every run-time prompt shares: its arguments bound, the required ones present,
/// then its own closure.
fn call(invocation: Invocation) -> BoxFuture<PromptOutput> {
    let refused = |output: ToolOutput| -> BoxFuture<PromptOutput> {
        Box::pin(std::future::ready(PromptOutput::unbound(output)))
    };
    let arguments = match invocation.arguments.bind_value() {
        Ok(arguments) => arguments,
        Err(output) => return refused(output),
    };
    let defined = invocation.instance::<DefinedPrompt>();
    let missing = (defined.required.iter()).find(|name| arguments.get(name.as_str()).is_none());
    if let Some(name) = missing {
        let message = format!("missing field `{name}`");
        return refused(ToolOutput::invalid_arguments(BindError::new(".", &message)));
    }
    defined.run.call(arguments, invocation.context.clone())
}
