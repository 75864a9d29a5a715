//! One call: its record, the [`Context`] and the other injectables a tool sees, the gate that
//! orders its messages, where they go, and the threads tools run on.

pub(crate) mod ask;
pub(crate) mod cancel;
pub(crate) mod context;
pub(crate) mod inflight;
pub(crate) mod inject;
pub(crate) mod log;
pub mod middleware;
pub(crate) mod outlet;
pub(crate) mod pace;
pub(crate) mod progress;
pub(crate) mod record;
pub(crate) mod run;
pub(crate) mod span;
pub(crate) mod spec;
mod sync_pool;
#[cfg(feature = "opentelemetry")]
pub(crate) mod trace_context;
pub(crate) mod workers;

pub use ask::{
    Answer, AskError, Elicit, NoForm, Root, Roots, RootsChanged, Sample, SamplingMessage,
    SamplingRequest, SamplingResult,
};
pub use cancel::Cancellation;
pub use context::{ClientInfo, Context};
pub use inject::{Inject, Requirements, State};
pub use log::Log;
pub use progress::Progress;
pub use spec::{Tool, ToolInfo};
