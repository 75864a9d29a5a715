//! Transports: thin edges that carry lines to a [`Session`](crate::server::session::Session)
//! and deliver the [`Reply`](crate::server::reply::Reply) it returns: stdio (one session per
//! process), in-memory (tests, the command line), and Streamable HTTP (feature `http`).

mod framing;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod memory;
mod stdio;
mod stdout;
