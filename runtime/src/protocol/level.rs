//! The severities of `notifications/message`, as the protocol names them (syslog's).

use serde::{Deserialize, Serialize};

/// The severity of a log message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl Level {
    pub(crate) fn parse(name: &str) -> Option<Level> {
        serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
    }
}
