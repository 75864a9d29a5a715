//! The Model Context Protocol as it travels: revisions and eras, JSON-RPC messages and error
//! codes, request ids, the params and `_meta` the server reads, and the result bodies of each
//! revision. Nothing here knows about tools or calls; every other layer builds on it.

pub(crate) mod code;
pub(crate) mod id;
pub(crate) mod jsonrpc;
mod level;
pub(crate) mod mcp_error;
pub(crate) mod meta;
pub(crate) mod method;
pub(crate) mod params;
pub(crate) mod quote;
pub(crate) mod version;
pub(crate) mod wire;

pub use level::Level;
pub use mcp_error::{McpError, UrlElicitation};
pub use version::{Era, ProtocolVersion};
pub use wire::CacheScope;
