//! `notifications/message`: log messages a tool sends to the client, when the client asked for
//! them (`logging/setLevel` in a handshake session, `_meta` `logLevel` on a 2026-07-28 request).
//! The feature is deprecated in 2026-07-28, so it stays small: levels, a message, the tool's
//! name as the logger.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::call::CallState;
use crate::dispatch::Outbox;
use crate::jsonrpc;

/// The severity of a log message, as the protocol names them (syslog's levels).
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

/// Sends log messages about the current request to the client.
///
/// Messages below the level the client asked for are dropped, as are all messages when it asked
/// for none; messages never follow the response.
#[derive(Clone, Default)]
pub struct Log(Option<Arc<Sink>>);

struct Sink {
    threshold: Level,
    logger: &'static str,
    outbox: Outbox,
    call: Arc<CallState>,
}

#[derive(Serialize)]
struct Params<'a, T: Serialize + ?Sized> {
    level: Level,
    logger: &'a str,
    data: &'a T,
}

impl Log {
    pub(crate) fn new(
        threshold: Option<Level>,
        logger: &'static str,
        outbox: Outbox,
        call: &Arc<CallState>,
    ) -> Log {
        Log(threshold.map(|threshold| {
            Arc::new(Sink {
                threshold,
                logger,
                outbox,
                call: Arc::clone(call),
            })
        }))
    }

    /// Whether a message at `level` would be sent.
    pub fn enabled(&self, level: Level) -> bool {
        self.0.as_ref().is_some_and(|sink| level >= sink.threshold)
    }

    /// Sends `data` (a message, or any JSON) at `level`. Returns whether it was sent.
    pub fn send<T: Serialize + ?Sized>(&self, level: Level, data: &T) -> bool {
        let Some(sink) = self.0.as_ref().filter(|_| self.enabled(level)) else {
            return false;
        };
        sink.call.while_open(|| {
            let params = Params {
                level,
                logger: sink.logger,
                data,
            };
            let _ = sink
                .outbox
                .send(jsonrpc::notification_line("notifications/message", &params));
        })
    }

    /// Sends a debug message.
    pub fn debug(&self, message: &str) -> bool {
        self.send(Level::Debug, message)
    }

    /// Sends an informational message.
    pub fn info(&self, message: &str) -> bool {
        self.send(Level::Info, message)
    }

    /// Sends a warning.
    pub fn warning(&self, message: &str) -> bool {
        self.send(Level::Warning, message)
    }

    /// Sends an error message.
    pub fn error(&self, message: &str) -> bool {
        self.send(Level::Error, message)
    }
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("threshold", &self.0.as_ref().map(|s| s.threshold))
            .finish()
    }
}
