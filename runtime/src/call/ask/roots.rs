//! [`Roots`]: the folders (or other roots) the client lets the server work in.

use serde::Deserialize;
use serde_json::json;

use crate::call::client::ClientInfo;
use crate::call::context::Context;
use crate::call::inject::Inject;
use crate::call::to_client::root::Root;
use crate::tools::ToolOutput;
use crate::tools::ask_error::AskError;

/// The client's roots (`roots/list`): where the user lets the server work. Needs an `async`
/// tool.
///
/// In a handshake session with a client that announces changes to its roots
/// (`roots.listChanged`), the server asks once, at the first `list()`, and answers every later
/// one from what the client said, until it announces that its roots changed
/// (`notifications/roots/list_changed`); then the next `list()` asks again
/// ([`Server::on_roots_changed`](crate::Server::on_roots_changed) hears the announcement). So a
/// tool that checks paths against the roots on every call costs one round trip per session,
/// not per call. On 2026-07-28 nothing outlives a request: each call that reads the roots
/// takes an `input_required` round (its entry in `inputRequests` is `roots`), one more round
/// trip per call.
pub struct Roots {
    cx: Context,
}

impl Inject for Roots {
    const ASKS: bool = true;

    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(Roots::new(cx))
    }

    fn require(requirements: &mut crate::call::inject::Requirements) {
        requirements.asks();
    }
}

impl Roots {
    /// Asks for the roots of the client of the request `cx` is: for an item made at run time
    /// ([`ToolDef`](crate::ToolDef), [`PromptDef`](crate::PromptDef),
    /// [`ResourceDef`](crate::ResourceDef)) that declared it asks (`.asks()`).
    pub fn new(cx: &Context) -> Roots {
        Roots { cx: cx.clone() }
    }

    /// Whether the client lists its roots.
    pub fn supported(&self) -> bool {
        self.cx.declared("roots")
    }

    /// The client's roots: as the session knows them, or asked of the client.
    pub async fn list(&self) -> Result<Vec<Root>, AskError> {
        if !self.supported() {
            return Err(AskError::Unsupported {
                capability: "roots",
            });
        }
        let record = self.cx.record();
        // Kept only from a client that announces changes: another's could change unseen.
        let announces = self.cx.client_capabilities()["roots"]["listChanged"] == true;
        let asking = record.asking.as_deref().ok_or(AskError::Undeclared)?;
        match asking.known_roots().filter(|_| announces) {
            Some(known) => known.get(self.ask(), record.gate.cancelled()).await,
            None => self.ask().await,
        }
    }

    /// Asks the client for its roots.
    async fn ask(&self) -> Result<Vec<Root>, AskError> {
        #[derive(Deserialize)]
        struct ListRootsResult {
            roots: Vec<Root>,
        }
        let record = self.cx.record();
        let answer = record.ask("roots", "roots/list", json!({})).await?;
        serde_json::from_value::<ListRootsResult>(answer)
            .map(|r| r.roots)
            .map_err(|e| AskError::Invalid(format!("not a list of roots: {e}")))
    }
}

/// A handshake client announced that its roots changed (`notifications/roots/list_changed`),
/// as [`Server::on_roots_changed`](crate::Server::on_roots_changed) hears it. The session's next
/// [`Roots::list`] asks the client again.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RootsChanged {
    /// The client, as it described itself in `initialize`.
    pub client: Option<ClientInfo>,
    /// The roots the session knew until now, if a call had read them (and no call held them
    /// that moment): what to let go of.
    pub before: Option<Vec<Root>>,
}
