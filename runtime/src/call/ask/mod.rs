//! Tools that ask the client mid-call: [`Elicit`] (a form for the user to fill, or a URL to
//! open), [`Sample`] (a completion from the client's model) and [`Roots`] (the client's roots).
//! Each is a parameter of an `async` tool; the server fills it in.
//!
//! One tool serves both eras. In a handshake session an ask is a real request to the client,
//! awaited. On 2026-07-28 the server may not send requests: the call answers `input_required`
//! with what it asks, the client retries with the answers, and the tool **runs again from the
//! start**, each ask returning its answer at once, until it finishes. So the code before an
//! ask may run once per round: it must not do what the user has not confirmed yet. Ask first,
//! act after:
//!
//! ```
//! use schemars::JsonSchema;
//! use serde::Deserialize;
//! use toolwright_runtime::{Answer, Elicit, ToolError};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct Confirm {
//!     confirm: bool,
//! }
//!
//! async fn delete_tagged(tag: String, ask: Elicit<Confirm>) -> Result<String, ToolError> {
//!     let n = 40; // counting is harmless: it may run once per round
//!     match ask.form(format!("Delete {n} notes tagged {tag}?")).await? {
//!         Answer::Accept(Confirm { confirm: true }) => Ok(format!("deleted {n} notes")),
//!         _ => Ok("kept them".into()),
//!     }
//! }
//! ```
//!
//! An ask the client did not declare support for fails with [`AskError::Unsupported`], which a
//! tool can handle (fall back, or explain); returned with `?`, it answers a 2026-07-28 call with
//! the protocol's `-32021` (MissingRequiredClientCapability) and is an error result before.

mod client_task;
mod elicit;
mod roots;
mod sample;

pub use elicit::{Elicit, NoForm};
pub use roots::{Roots, RootsChanged};
pub use sample::{Sample, SamplingMessage, SamplingRequest, SamplingResult};

pub use crate::call::to_client::root::Root;
pub use crate::tools::ask_error::{Answer, AskError};
