//! How calls run: the threads tools run on (started by the first call), the pool sync tools
//! share and which of them are quick enough for the async workers, the calls in flight, the
//! tool as served, middleware, and one call from its start to its answer (a prompt's or a resource's runs
//! beside tools', without middleware). Each file imports
//! only those above it in this list.

pub(crate) mod caught;
pub(crate) mod sync_pool;
pub(crate) mod workers;

pub(crate) mod inflight;
pub(crate) mod pace;

pub(crate) mod served;

pub(crate) mod once;

pub(crate) mod item_call;
pub(crate) mod tool_call;

pub mod middleware;

pub(crate) mod call;
