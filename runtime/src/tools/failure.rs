//! What an error a prompt or a resource returned stands for: the JSON-RPC error an author
//! chose ([`McpError`], a [`ToolError`] made from one, an [`AskError`] for a capability the
//! client lacks), or a message to show as it is written.

use std::any::Any;
use std::fmt::Display;

use crate::protocol::McpError;
use crate::tools::ask_error::AskError;
use crate::tools::error::ToolError;

/// An error as a request's answer sees it.
pub(crate) enum Failure {
    /// The JSON-RPC error to answer with, shaped for the request's revision.
    Chosen(Box<McpError>),
    /// A message the author wrote, sent as written.
    Message(String),
}

/// What `error` stands for. A type the author returns is looked at as itself, so that
/// `Result<T, McpError>` answers with the error it holds while any other `Display` error keeps
/// its message.
pub(crate) fn failure<E: Display + 'static>(error: E) -> Failure {
    let any: &dyn Any = &error;
    if let Some(chosen) = any.downcast_ref::<McpError>() {
        return Failure::Chosen(Box::new(chosen.clone()));
    }
    if let Some(chosen) = any.downcast_ref::<ToolError>().and_then(ToolError::chosen) {
        return Failure::Chosen(Box::new(chosen.clone()));
    }
    if let Some(ask @ AskError::Unsupported { .. }) = any.downcast_ref::<AskError>() {
        return Failure::Chosen(Box::new(McpError::from(ask.clone())));
    }
    Failure::Message(error.to_string())
}
