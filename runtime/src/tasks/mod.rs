//! Tasks: a tool call that answers at once with a handle, runs on, and is polled for its
//! result, on any replica: the task's record and its changes (`record`), how each revision
//! writes it (`wire`), and the store that keeps it (`store`, in this process by default:
//! `memory`, or in Redis for every replica with feature `redis`: `redis`), through the server's
//! `book`.

pub(crate) mod book;
pub(crate) mod memory;
pub(crate) mod record;
#[cfg(feature = "redis")]
pub(crate) mod redis;
pub(crate) mod store;
pub(crate) mod wire;
