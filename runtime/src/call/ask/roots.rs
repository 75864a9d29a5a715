//! [`Roots`]: the folders (or other roots) the client lets the server work in.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::call::ask::{AskError, declared, record};
use crate::call::context::Context;
use crate::call::inject::Inject;
use crate::tools::ToolOutput;

/// The client's roots (`roots/list`): where the user lets the server work. Needs an `async`
/// tool. On 2026-07-28 its entry in `inputRequests` is `roots`.
pub struct Roots {
    cx: Context,
}

/// One root: a `file://` URI, and a name to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// The root's URI.
    pub uri: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Root {
    /// A root with this URI and no name.
    pub fn new(uri: impl Into<String>) -> Root {
        Root {
            uri: uri.into(),
            name: None,
        }
    }
}

impl Inject for Roots {
    const ASKS: bool = true;

    fn inject(cx: &Context) -> Result<Self, ToolOutput> {
        Ok(Roots { cx: cx.clone() })
    }

    fn require(requirements: &mut crate::call::inject::Requirements) {
        requirements.asks();
    }
}

impl Roots {
    /// Whether the client lists its roots.
    pub fn supported(&self) -> bool {
        declared(&self.cx, "roots")
    }

    /// The client's roots.
    pub async fn list(&self) -> Result<Vec<Root>, AskError> {
        if !self.supported() {
            return Err(AskError::Unsupported {
                capability: "roots",
            });
        }
        #[derive(Deserialize)]
        struct ListRootsResult {
            roots: Vec<Root>,
        }
        let record = record(&self.cx);
        let answer = record
            .asking()
            .ask(record, "roots", "roots/list", json!({}))
            .await?;
        serde_json::from_value::<ListRootsResult>(answer)
            .map(|r| r.roots)
            .map_err(|e| AskError::Invalid(format!("not a list of roots: {e}")))
    }
}
