//! What a call gave a [`Client`](crate::testing::Client): its result, and the progress and log
//! messages it sent on the way.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::protocol::{Level, ProtocolVersion};

/// One `notifications/progress` of a call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ProgressUpdate {
    /// How far the call is.
    pub progress: f64,
    /// Out of how much, when the tool said.
    pub total: Option<f64>,
    /// What it is doing, when the tool said (2025-03-26 on).
    pub message: Option<String>,
}

/// One `notifications/message`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LogMessage {
    /// Its severity.
    pub level: Level,
    /// Who logged it (the tool's name, for messages from toolwright tools).
    pub logger: Option<String>,
    /// The message, or any JSON.
    pub data: Value,
}

/// The notifications that reached a call while it ran.
#[derive(Default)]
pub(crate) struct Received {
    token: Option<Value>,
    progress: Vec<ProgressUpdate>,
    logs: Vec<LogMessage>,
}

impl Received {
    pub(crate) fn new(token: Option<Value>) -> Received {
        Received {
            token,
            ..Received::default()
        }
    }

    /// Keeps `message` if it is about this call; a progress update is also returned.
    pub(crate) fn note(&mut self, message: Value) -> Option<ProgressUpdate> {
        let params = message.get("params")?;
        match message.get("method")?.as_str()? {
            "notifications/progress" if self.token.is_some() => {
                if params.get("progressToken") != self.token.as_ref() {
                    return None;
                }
                let update = ProgressUpdate {
                    progress: params.get("progress")?.as_f64()?,
                    total: params.get("total").and_then(Value::as_f64),
                    message: params
                        .get("message")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                };
                self.progress.push(update.clone());
                Some(update)
            }
            "notifications/message" => {
                self.logs.push(LogMessage {
                    level: serde_json::from_value(params.get("level")?.clone()).ok()?,
                    logger: params
                        .get("logger")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    data: params.get("data").cloned().unwrap_or(Value::Null),
                });
                None
            }
            _ => None,
        }
    }
}

/// The result of a `tools/call`, as the client received it in its revision.
#[derive(Debug)]
pub struct CallResult {
    result: Value,
    revision: ProtocolVersion,
    /// The output schema the tool advertised in this revision.
    output_schema: Option<Value>,
    /// Whether its values travel as `{"result": value}` in this revision.
    wrapped: bool,
    progress: Vec<ProgressUpdate>,
    logs: Vec<LogMessage>,
}

/// Why [`CallResult::structured`] has no value to give.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum StructuredError {
    /// The result is an error (`isError: true`); its text.
    IsError(String),
    /// The revision has no structured content (before 2025-06-18): read [`CallResult::text`].
    NotInRevision(ProtocolVersion),
    /// The tool advertises no output schema: it returns text.
    NoOutputSchema,
    /// The tool advertises an output schema but sent no structured content.
    Missing,
    /// The structured content does not match the output schema the tool advertised.
    DoesNotMatchSchema {
        /// The content.
        value: Value,
        /// What the validator found, one line each.
        errors: Vec<String>,
    },
    /// The content matches the schema but not the type asked for.
    Deserialize(String),
}

impl fmt::Display for StructuredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructuredError::IsError(text) => write!(f, "the result is an error: {text}"),
            StructuredError::NotInRevision(revision) => {
                write!(
                    f,
                    "protocol {revision} has no structured content; read the text"
                )
            }
            StructuredError::NoOutputSchema => {
                f.write_str("the tool advertises no output schema; read the text")
            }
            StructuredError::Missing => {
                f.write_str("the tool advertises an output schema but sent no structured content")
            }
            StructuredError::DoesNotMatchSchema { value, errors } => write!(
                f,
                "the structured content {value} does not match the output schema the tool \
                 advertised: {}",
                errors.join("; ")
            ),
            StructuredError::Deserialize(e) => write!(f, "the structured content: {e}"),
        }
    }
}

impl std::error::Error for StructuredError {}

impl CallResult {
    pub(crate) fn new(
        result: Value,
        revision: ProtocolVersion,
        output_schema: Option<Value>,
        wrapped: bool,
        received: Received,
    ) -> CallResult {
        CallResult {
            result,
            revision,
            output_schema,
            wrapped,
            progress: received.progress,
            logs: received.logs,
        }
    }

    /// Whether the result is an error (`isError: true`): the tool failed, or its arguments did
    /// not bind (from 2025-11-25 on).
    pub fn is_error(&self) -> bool {
        self.result.get("isError") == Some(&Value::Bool(true))
    }

    /// The text of every text block, one after another, separated by newlines.
    pub fn text(&self) -> String {
        self.content()
            .iter()
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The content blocks, as sent.
    pub fn content(&self) -> &[Value] {
        self.result
            .get("content")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// `structuredContent`, as sent (in 2025 revisions a non-object value travels as
    /// `{"result": value}`).
    pub fn structured_content(&self) -> Option<&Value> {
        self.result.get("structuredContent")
    }

    /// The structured value as a `T`, after checking it against the output schema the tool
    /// advertised in this revision (unwrapped from `{"result": ...}` where the revision wraps
    /// it).
    pub fn structured<T: DeserializeOwned>(&self) -> Result<T, StructuredError> {
        if self.is_error() {
            return Err(StructuredError::IsError(self.text()));
        }
        if !self.revision.has_structured_output() {
            return Err(StructuredError::NotInRevision(self.revision));
        }
        let schema = self
            .output_schema
            .as_ref()
            .ok_or(StructuredError::NoOutputSchema)?;
        let value = self.structured_content().ok_or(StructuredError::Missing)?;
        let validator = jsonschema::draft202012::new(schema).map_err(|e| {
            StructuredError::DoesNotMatchSchema {
                value: value.clone(),
                errors: vec![format!("the output schema does not compile: {e}")],
            }
        })?;
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| e.to_string())
            .collect();
        if !errors.is_empty() {
            return Err(StructuredError::DoesNotMatchSchema {
                value: value.clone(),
                errors,
            });
        }
        let natural = match (self.wrapped, value.get("result")) {
            (true, Some(inner)) => inner,
            _ => value,
        };
        T::deserialize(natural).map_err(|e| StructuredError::Deserialize(e.to_string()))
    }

    /// The progress notifications the call sent (only for calls made with
    /// [`Client::start`](crate::testing::Client::start)).
    pub fn progress(&self) -> &[ProgressUpdate] {
        &self.progress
    }

    /// The log messages that arrived while the call ran.
    pub fn logs(&self) -> &[LogMessage] {
        &self.logs
    }

    /// The whole `result` object, as sent.
    pub fn json(&self) -> &Value {
        &self.result
    }
}
