//! What a tool sees of one call: its record (the request's facts, where its messages go, how it
//! asks its client, its span, the gate that orders its messages), the [`Context`], the other
//! injectables and completion. Each file imports only those above it in this list.

pub(crate) mod auth;
pub(crate) mod client;
pub(crate) mod extensions;
pub(crate) mod gate;
pub(crate) mod outlet;
pub(crate) mod state;
#[cfg(feature = "opentelemetry")]
pub(crate) mod trace_context;

pub(crate) mod span;

pub(crate) mod caller;
pub(crate) mod task;
pub(crate) mod to_client;

pub(crate) mod record;

pub(crate) mod cancel;
pub(crate) mod log;
pub(crate) mod progress;

pub(crate) mod context;

pub(crate) mod inject;

pub(crate) mod ask;
pub(crate) mod task_start;

pub(crate) mod completion;

pub use ask::{
    Answer, AskError, Elicit, NoForm, Root, Roots, RootsChanged, Sample, SamplingMessage,
    SamplingRequest, SamplingResult,
};
pub use auth::Auth;
pub use caller::Caller;
pub use cancel::Cancellation;
pub use client::ClientInfo;
pub use completion::{Completing, Completion, IntoCompletion};
pub use context::Context;
pub use extensions::Extensions;
pub use inject::{Inject, Requirements};
pub use log::Log;
pub use progress::Progress;
pub use state::State;
pub use task_start::TaskStart;
