//! [`Elicit`]: a form for the user to fill, or a URL for the user to open.

use std::any::{TypeId, type_name};
use std::marker::PhantomData;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::call::ask::client_task::AsTask;
use crate::call::context::Context;
use crate::call::inject::{Inject, Requirements};
use crate::call::to_client::form::{Form, key_of};
use crate::protocol::jsonrpc;
use crate::tools::ToolOutput;
use crate::tools::ask_error::{Answer, AskError};

/// Asks the user, through the client: a form whose fields are `T`'s (`elicitation/create`,
/// form mode), or a URL to open (URL mode). `T` is a struct of strings, numbers, booleans and
/// unit enums (`Option` for a field that may be left empty); the server checks that it makes a
/// form when it starts. Needs an `async` tool.
///
/// On 2026-07-28 the ask is the entry of `inputRequests` named after `T` in snake case
/// (`UserName` becomes `user_name`; a second ask of the same form in one run `user_name_2`).
pub struct Elicit<T = NoForm> {
    cx: Context,
    form: PhantomData<fn() -> T>,
    task: AsTask,
}

/// The form of an [`Elicit`] that only opens URLs.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoForm {}

impl<T: JsonSchema + DeserializeOwned + 'static> Inject for Elicit<T> {
    const ASKS: bool = true;

    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(Elicit {
            cx: cx.clone(),
            form: PhantomData,
            task: AsTask::default(),
        })
    }

    fn require(requirements: &mut Requirements) {
        requirements.form::<T>();
    }
}

impl Elicit {
    /// Asks the client of the request `cx` is: for an item made at run time
    /// ([`ToolDef`](crate::ToolDef), [`PromptDef`](crate::PromptDef),
    /// [`ResourceDef`](crate::ResourceDef)) that declared it asks (`.asks()`).
    /// Its forms are values ([`form_schema`](Elicit::form_schema)).
    pub fn new(cx: &Context) -> Elicit {
        Elicit {
            cx: cx.clone(),
            form: PhantomData,
            task: AsTask::default(),
        }
    }
}

impl<T: JsonSchema + DeserializeOwned + 'static> Elicit<T> {
    /// The same asks, each sent to the client as a task that lives at most `ttl`, where the
    /// client takes one (2025-11-25, `tasks.requests.elicitation.create`); the server follows
    /// the task until the user answered. Elsewhere they are sent as they are.
    pub fn as_task(self, ttl: Duration) -> Elicit<T> {
        Elicit {
            task: AsTask(Some(ttl)),
            ..self
        }
    }

    /// Whether the client takes an elicitation as a task.
    pub fn tasks_supported(&self) -> bool {
        AsTask::supported(self.cx.record(), TASK_CAPABILITY)
    }

    /// Whether the client takes forms.
    pub fn supported(&self) -> bool {
        self.cx.protocol_version().has_elicitation()
            && self.cx.declared("elicitation")
            && match self.cx.client_capabilities()["elicitation"].as_object() {
                // A bare `elicitation: {}` means forms only.
                Some(modes) => modes.is_empty() || modes.contains_key("form"),
                None => false,
            }
    }

    /// Whether the client opens URLs for the server (2025-11-25 on).
    pub fn url_supported(&self) -> bool {
        self.cx.protocol_version().has_elicitation_modes() && self.cx.declared("elicitation.url")
    }

    /// Shows the user a form of `T`'s fields with `message`, and returns what they did.
    pub async fn form(&self, message: impl Into<String>) -> Result<Answer<T>, AskError> {
        if !self.supported() {
            return Err(AskError::Unsupported {
                capability: "elicitation",
            });
        }
        let asking = self.cx.record().asking.as_deref();
        let form = (asking.ok_or(AskError::Undeclared)?.forms)
            .get(TypeId::of::<T>())
            .ok_or_else(|| {
                AskError::Form(format!(
                    "`{}` is not a form of this item's (made with `Elicit::new`, it shows \
                     forms given as values: `form_schema`)",
                    type_name::<T>()
                ))
            })?;
        let name = format!("the form `{}`", type_name::<T>());
        let content = self
            .show(&form, &key_of(type_name::<T>()), &name, message.into())
            .await?;
        content.map_content(|content| serde_json::from_value(content).map_err(|e| e.to_string()))
    }

    /// Shows the user the form `schema` describes, a JSON Schema made while the program runs
    /// (choices that depend on the arguments, say), and returns what they did, the values
    /// checked against it. The schema must be one the specification allows a form: an object
    /// of flat fields, each a string (`minLength`, `maxLength`, `format` of `email`, `uri`,
    /// `date`, `date-time`), a number or an integer (`minimum`, `maximum`), a boolean, an enum
    /// (`enum`, or `oneOf` of `{const, title}`) or a multi-select (`type: array` of an enum),
    /// with a `title`, a `description` and a `default`; anything else is
    /// [`AskError::Form`], saying what. On 2026-07-28 the ask is the `inputRequests` entry
    /// `form` (`form_2` for a second one in a run).
    pub async fn form_schema(
        &self,
        message: impl Into<String>,
        schema: &Value,
    ) -> Result<Answer<Value>, AskError> {
        if !self.supported() {
            return Err(AskError::Unsupported {
                capability: "elicitation",
            });
        }
        let form = Form::from_value(schema).map_err(AskError::Form)?;
        let answer = self.show(&form, "form", "the form", message.into());
        answer.await?.map_content(Ok)
    }

    /// Sends `form` as the ask `key` and reads the answer, its content checked against the
    /// form.
    async fn show(
        &self,
        form: &Form,
        key: &str,
        name: &str,
        message: String,
    ) -> Result<Answer<Value>, AskError> {
        let version = self.cx.protocol_version();
        let schema = form.schema_for(version).ok_or_else(|| {
            AskError::NotInRevision(format!(
                "{name} has multi-select choices, which need protocol 2025-11-25; the client \
                 speaks {version}"
            ))
        })?;
        let mut params = json!({"message": message, "requestedSchema": schema});
        if version.has_elicitation_modes() {
            params["mode"] = json!("form");
        }
        let record = self.cx.record();
        let method = "elicitation/create";
        let answer = (self.task.ask(record, key, method, params, TASK_CAPABILITY)).await?;
        answered(answer, |content| form.check(&content).map(|()| content))
    }

    /// Asks the user to open `url` (to sign in somewhere, to pay) and returns whether they
    /// agreed to; what happens there is between them and that site (2025-11-25 on).
    pub async fn url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<Answer<()>, AskError> {
        let id = crate::protocol::id::random_id();
        self.url_with_id(message, url, id).await
    }

    /// [`url`](Self::url) with the `elicitationId` the tool chose (2025-11-25, the one
    /// revision that has it: the site the user opens names the same id, and
    /// [`completed`](Self::completed) tells the client it is done).
    pub async fn url_with_id(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
        id: impl Into<String>,
    ) -> Result<Answer<()>, AskError> {
        if !self.url_supported() {
            return Err(AskError::Unsupported {
                capability: "elicitation.url",
            });
        }
        let record = self.cx.record();
        let mut params = json!({"mode": "url", "message": message.into(), "url": url.into()});
        if self.cx.protocol_version().has_url_elicitation_id() {
            params["elicitationId"] = json!(id.into());
        }
        let answer = record.ask("url", "elicitation/create", params).await?;
        answered(answer, |_| Ok(()))
    }

    /// Tells the client that the interaction behind the URL elicitation `id` is over
    /// (`notifications/elicitation/complete`, 2025-11-25), while the call goes on, so that it
    /// can retry what waited on it; elsewhere it sends nothing. Whether it was sent.
    pub fn completed(&self, id: &str) -> bool {
        let record = self.cx.record();
        if !record.version.has_url_elicitation_id() || !self.url_supported() {
            return false;
        }
        let params = json!({"elicitationId": id});
        let line = jsonrpc::notification_line("notifications/elicitation/complete", &params);
        record.gate.while_open(|| record.outlet.send(line))
    }
}

/// Where a client declares that it takes an elicitation as a task.
const TASK_CAPABILITY: &str = "elicitation.create";

impl Answer<Value> {
    /// The same answer, its content read by `read`.
    fn map_content<T>(
        self,
        read: impl FnOnce(Value) -> Result<T, String>,
    ) -> Result<Answer<T>, AskError> {
        match self {
            Answer::Accept(content) => read(content).map(Answer::Accept).map_err(AskError::Invalid),
            Answer::Decline => Ok(Answer::Decline),
            Answer::Cancel => Ok(Answer::Cancel),
        }
    }
}

/// An `ElicitResult` as an [`Answer`], its content read by `accept`.
fn answered<T>(
    answer: Value,
    accept: impl FnOnce(Value) -> Result<T, String>,
) -> Result<Answer<T>, AskError> {
    #[derive(Deserialize)]
    struct ElicitResult {
        action: String,
        #[serde(default)]
        content: Option<Value>,
    }
    let result: ElicitResult = serde_json::from_value(answer)
        .map_err(|e| AskError::Invalid(format!("not an elicitation result: {e}")))?;
    match result.action.as_str() {
        "accept" => accept(result.content.unwrap_or_else(|| json!({})))
            .map(Answer::Accept)
            .map_err(AskError::Invalid),
        "decline" => Ok(Answer::Decline),
        "cancel" => Ok(Answer::Cancel),
        other => Err(AskError::Invalid(format!("unknown action `{other}`"))),
    }
}
