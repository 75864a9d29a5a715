//! The server: its builder, the built server (`Engine`), sessions, and what each message gets
//! (`methods`: every method a session serves).
//! Each file imports only those above it in this list.

mod error;
mod request_state;
pub(crate) mod visibility;

mod registry;
mod served_items;

mod catalog;
mod toolset;

mod mounting;

mod listeners;

mod hooks;

pub(crate) mod engine;

mod batch;
mod delivery;
mod handle;

mod mount;

mod builder;
pub(crate) mod reply;

pub(crate) mod session;

mod methods;

pub use builder::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_SIZE, Server};
pub use error::{Error, Result};
pub use handle::{ResourceUpdates, ServerHandle, ServerLog};
pub use hooks::SessionInfo;
pub use toolset::ToolOrder;
