//! [`Log`]: `notifications/message` about the request a tool is serving, when the client asked
//! for them (`logging/setLevel` in a handshake session, `_meta` `logLevel` on a 2026-07-28
//! request). The feature is deprecated in 2026-07-28, so it stays small: levels, a message, the
//! tool's name as the logger.

use std::sync::Arc;

use serde::Serialize;

use crate::call::record::CallRecord;
use crate::protocol::{Level, jsonrpc};

/// Sends log messages about the current request to the client.
///
/// Messages below the level the client asked for are dropped, as are all messages when it asked
/// for none; messages never follow the response. `Log::default()` sends nothing.
#[derive(Clone, Default)]
pub struct Log(Option<Arc<CallRecord>>);

#[derive(Serialize)]
struct Params<'a, T: Serialize + ?Sized> {
    level: Level,
    logger: &'a str,
    data: &'a T,
}

impl Log {
    pub(crate) fn of(record: &Arc<CallRecord>) -> Log {
        Log(record.log_threshold.is_some().then(|| Arc::clone(record)))
    }

    /// Whether a message at `level` would be sent.
    pub fn enabled(&self, level: Level) -> bool {
        self.0
            .as_ref()
            .and_then(|r| r.log_threshold)
            .is_some_and(|threshold| level >= threshold)
    }

    /// Sends `data` (a message, or any JSON) at `level`. Returns whether it was sent.
    pub fn send<T: Serialize + ?Sized>(&self, level: Level, data: &T) -> bool {
        let Some(record) = self.0.as_ref().filter(|_| self.enabled(level)) else {
            return false;
        };
        record.gate.while_open(|| {
            let params = Params {
                level,
                logger: &record.name,
                data,
            };
            record
                .outlet
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
            .field("threshold", &self.0.as_ref().and_then(|r| r.log_threshold))
            .finish()
    }
}
