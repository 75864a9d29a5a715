//! The server: its builder, the built service, sessions, and what each message gets.

mod batch;
mod builder;
mod calls;
mod dispatch;
mod error;
mod listeners;
mod registry;
mod request_state;
pub(crate) mod service;
pub(crate) mod session;
mod toolset;
pub(crate) mod visibility;

pub use builder::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_MESSAGE_SIZE, Server, ToolOrder};
pub use error::{Error, Result};
pub use toolset::ServerHandle;
pub use visibility::Caller;
