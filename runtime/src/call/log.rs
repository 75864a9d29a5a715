//! [`Log`]: `notifications/message` about the request a tool is serving, when the client asked
//! for them (`logging/setLevel` in a handshake session, `_meta` `logLevel` on a 2026-07-28
//! request). The feature is deprecated in 2026-07-28, so it stays small: levels, a message, and
//! a logger: the item's name unless the author names another, or none.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;

use crate::call::record::CallRecord;
use crate::protocol::{Level, jsonrpc};

/// Sends log messages about the current request to the client.
///
/// Messages below the level the client asked for are dropped, as are all messages when it asked
/// for none; messages never follow the response. `Log::default()` sends nothing.
#[derive(Clone, Default)]
pub struct Log {
    record: Option<Arc<CallRecord>>,
    logger: Logger,
}

/// Whom a message says it comes from.
#[derive(Clone, Default)]
enum Logger {
    /// The item the request is for (a tool's, a prompt's, a resource's name).
    #[default]
    Item,
    Named(Cow<'static, str>),
    None,
}

#[derive(Serialize)]
struct Params<'a, T: Serialize + ?Sized> {
    level: Level,
    #[serde(skip_serializing_if = "Option::is_none")]
    logger: Option<&'a str>,
    data: &'a T,
}

impl Log {
    pub(crate) fn of(record: &Arc<CallRecord>) -> Log {
        Log {
            record: record.log_threshold.is_some().then(|| Arc::clone(record)),
            logger: Logger::Item,
        }
    }

    /// The same log, its messages from `logger` (`"db"`, `"cache"`) instead of the item's name.
    pub fn logger(self, logger: impl Into<Cow<'static, str>>) -> Log {
        Log {
            logger: Logger::Named(logger.into()),
            ..self
        }
    }

    /// The same log, its messages naming no logger (the field is optional).
    pub fn without_logger(self) -> Log {
        Log {
            logger: Logger::None,
            ..self
        }
    }

    /// Whether a message at `level` would be sent.
    pub fn enabled(&self, level: Level) -> bool {
        self.record
            .as_ref()
            .and_then(|r| r.log_threshold)
            .is_some_and(|threshold| level >= threshold)
    }

    /// Sends `data` (a message, or any JSON) at `level`. Returns whether it was sent.
    pub fn send<T: Serialize + ?Sized>(&self, level: Level, data: &T) -> bool {
        let Some(record) = self.record.as_ref().filter(|_| self.enabled(level)) else {
            return false;
        };
        record.gate.while_open(|| {
            let params = Params {
                level,
                logger: match &self.logger {
                    Logger::Item => Some(&record.name),
                    Logger::Named(name) => Some(name),
                    Logger::None => None,
                },
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
            .field(
                "threshold",
                &self.record.as_ref().and_then(|r| r.log_threshold),
            )
            .finish()
    }
}
