//! The codes of the errors the server answers with.

use serde::{Serialize, Serializer};

/// The code of an error the server answers with: JSON-RPC 2.0's own, those the protocol
/// defines, and one an author chose. It is written as its integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ErrorCode {
    /// `-32700`: invalid JSON was received.
    ParseError,
    /// `-32600`: the JSON sent is not a valid request object.
    InvalidRequest,
    /// `-32601`: the method does not exist or is not available.
    MethodNotFound,
    /// `-32602`: invalid method parameters (also: an unknown tool).
    InvalidParams,
    /// `-32603`: an internal error.
    InternalError,
    /// `-32002`: a resource that does not exist (until 2025-11-25; later revisions use
    /// `-32602`).
    ResourceNotFound,
    /// `-32020` (HeaderMismatch): a 2026-07-28 HTTP request's headers disagree with its body.
    #[allow(dead_code, reason = "the HTTP transport's alone")]
    HeaderMismatch,
    /// `-32021` (MissingRequiredClientCapability): a 2026-07-28 request needs a client
    /// capability its client did not declare.
    MissingClientCapability,
    /// `-32022` (UnsupportedProtocolVersion): the revision a 2026-07-28 request named is not
    /// one the server speaks.
    UnsupportedProtocolVersion,
    /// `-32042` (URLElicitationRequired, 2025-11-25 only): the request needs the user to
    /// open a URL first.
    UrlElicitationRequired,
    /// A code of the author's own choosing.
    Other(i64),
}

impl ErrorCode {
    const NAMED: [ErrorCode; 10] = [
        ErrorCode::ParseError,
        ErrorCode::InvalidRequest,
        ErrorCode::MethodNotFound,
        ErrorCode::InvalidParams,
        ErrorCode::InternalError,
        ErrorCode::ResourceNotFound,
        ErrorCode::HeaderMismatch,
        ErrorCode::MissingClientCapability,
        ErrorCode::UnsupportedProtocolVersion,
        ErrorCode::UrlElicitationRequired,
    ];

    /// The code as a number, as it is written.
    pub(crate) const fn as_i64(self) -> i64 {
        match self {
            ErrorCode::ParseError => -32700,
            ErrorCode::InvalidRequest => -32600,
            ErrorCode::MethodNotFound => -32601,
            ErrorCode::InvalidParams => -32602,
            ErrorCode::InternalError => -32603,
            ErrorCode::ResourceNotFound => -32002,
            ErrorCode::HeaderMismatch => -32020,
            ErrorCode::MissingClientCapability => -32021,
            ErrorCode::UnsupportedProtocolVersion => -32022,
            ErrorCode::UrlElicitationRequired => -32042,
            ErrorCode::Other(code) => code,
        }
    }

    /// The code written as `code`.
    pub(crate) fn of(code: i64) -> ErrorCode {
        Self::NAMED
            .into_iter()
            .find(|known| known.as_i64() == code)
            .unwrap_or(ErrorCode::Other(code))
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.as_i64())
    }
}
