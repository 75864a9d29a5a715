//! [`Elicit`]: a form for the user to fill, or a URL for the user to open.

use std::any::{TypeId, type_name};
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::call::context::Context;
use crate::call::inject::{Inject, Requirements};
use crate::call::to_client::form::key_of;
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
        })
    }

    fn require(requirements: &mut Requirements) {
        requirements.form::<T>();
    }
}

impl<T: JsonSchema + DeserializeOwned + 'static> Elicit<T> {
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
        let record = self.cx.record();
        let form = record
            .asking()
            .forms
            .get(TypeId::of::<T>())
            .expect("the server made every form when it started");
        let version = self.cx.protocol_version();
        let schema = form.schema_for(version).ok_or_else(|| {
            AskError::NotInRevision(format!(
                "the form `{}` has multi-select choices, which need protocol 2025-11-25; \
                 the client speaks {version}",
                type_name::<T>()
            ))
        })?;
        let mut params = json!({"message": message.into(), "requestedSchema": schema});
        if version.has_elicitation_modes() {
            params["mode"] = json!("form");
        }
        let name = key_of(type_name::<T>());
        let answer = record.ask(&name, "elicitation/create", params).await?;
        answered(answer, |content| {
            form.check(&content)?;
            serde_json::from_value(content).map_err(|e| e.to_string())
        })
    }

    /// Asks the user to open `url` (to sign in somewhere, to pay) and returns whether they
    /// agreed to; what happens there is between them and that site (2025-11-25 on).
    pub async fn url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<Answer<()>, AskError> {
        if !self.url_supported() {
            return Err(AskError::Unsupported {
                capability: "elicitation.url",
            });
        }
        let record = self.cx.record();
        let mut params = json!({"mode": "url", "message": message.into(), "url": url.into()});
        if self.cx.protocol_version().has_url_elicitation_id() {
            params["elicitationId"] = json!(crate::protocol::id::random_id());
        }
        let answer = record.ask("url", "elicitation/create", params).await?;
        answered(answer, |_| Ok(()))
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
