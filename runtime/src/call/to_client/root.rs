//! [`Root`]: one of the places a client lets the server work in.

use serde::{Deserialize, Serialize};

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
