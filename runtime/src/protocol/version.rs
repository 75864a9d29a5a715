//! Protocol revisions and what each one allows on the wire.
//!
//! Every per-version difference the server makes is a method here, so the rules live in one
//! place and read like the changelog of the specification.

use std::fmt;

/// A revision of the Model Context Protocol that the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ProtocolVersion {
    /// `2024-11-05`: the first public revision.
    V2024_11_05,
    /// `2025-03-26`: tool annotations, audio content, JSON-RPC batches.
    V2025_03_26,
    /// `2025-06-18`: structured output, `title`, resource links; batches removed.
    V2025_06_18,
    /// `2025-11-25`: icons, JSON Schema 2020-12 by default, invalid arguments as tool errors.
    V2025_11_25,
    /// `2026-07-28`: no handshake; every request carries its version and client in `_meta`.
    V2026_07_28,
}

/// The two eras of the protocol: with the `initialize` handshake, or stateless.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2025-11-25 and earlier: the revision is negotiated once, by `initialize`.
    Legacy,
    /// 2026-07-28 on: each request names its revision and client in `params._meta`.
    Modern,
}

impl ProtocolVersion {
    /// Every revision with the `initialize` handshake, oldest first.
    pub const HANDSHAKE: [ProtocolVersion; 4] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ];

    /// The revision offered to a client that asks for one the server does not know.
    pub const LATEST_HANDSHAKE: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// Every revision served per request, without a handshake.
    pub const MODERN: [ProtocolVersion; 1] = [ProtocolVersion::V2026_07_28];

    /// Every revision, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The revision's date string, as it appears on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a revision's date string; `None` for a revision this server does not speak.
    pub fn parse(s: &str) -> Option<ProtocolVersion> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The answer to an `initialize` that asked for `requested`: the same revision when the
    /// server speaks it with a handshake, else the latest one it does (the client then decides
    /// whether to stay).
    pub fn negotiate(requested: &str) -> ProtocolVersion {
        Self::parse(requested)
            .filter(|v| v.era() == Era::Legacy)
            .unwrap_or(Self::LATEST_HANDSHAKE)
    }

    /// The era the revision belongs to.
    pub fn era(self) -> Era {
        if self >= ProtocolVersion::V2026_07_28 {
            Era::Modern
        } else {
            Era::Legacy
        }
    }

    /// A dense index, for per-version caches.
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// `annotations` on tools (2025-03-26 on).
    pub fn has_tool_annotations(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// `title` on tools and server info, `outputSchema` and `structuredContent` (2025-06-18 on).
    pub fn has_structured_output(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Audio content blocks (2025-03-26 on).
    pub fn has_audio(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Resource-link content blocks (2025-06-18 on).
    pub fn has_resource_links(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// `_meta` on content blocks and resource contents, and `lastModified` in their
    /// annotations (2025-06-18 on).
    pub fn has_content_meta(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// `icons` on tools and server info (2025-11-25 on).
    pub fn has_icons(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Elicitation, a tool asking the user through the client (2025-06-18 on); URL mode
    /// comes with 2025-11-25.
    pub fn has_elicitation(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// `message` on progress notifications (2025-03-26 on).
    pub fn has_progress_message(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether arguments that fail to bind are reported as a tool error (`isError: true`) rather
    /// than as a JSON-RPC `-32602` error, so that a model can read the message and retry
    /// (2025-11-25 on, SEP-1303).
    pub fn invalid_arguments_are_tool_errors(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_versions_round_trip() {
        for v in ProtocolVersion::HANDSHAKE {
            assert_eq!(ProtocolVersion::parse(v.as_str()), Some(v));
        }
        assert_eq!(ProtocolVersion::parse("2024-10-07"), None);
        assert_eq!(ProtocolVersion::V2026_07_28.era(), Era::Modern);
        assert_eq!(ProtocolVersion::V2025_11_25.era(), Era::Legacy);
    }

    #[test]
    fn unknown_request_gets_latest() {
        assert_eq!(
            ProtocolVersion::negotiate("2025-06-18"),
            ProtocolVersion::V2025_06_18
        );
        assert_eq!(
            ProtocolVersion::negotiate("2030-01-01"),
            ProtocolVersion::V2025_11_25
        );
        assert_eq!(
            ProtocolVersion::negotiate("2026-07-28"),
            ProtocolVersion::V2025_11_25
        );
    }

    #[test]
    fn features_follow_the_changelog() {
        use ProtocolVersion::*;
        assert!(!V2024_11_05.has_tool_annotations());
        assert!(V2025_03_26.has_tool_annotations());
        assert!(!V2025_03_26.has_structured_output());
        assert!(V2025_06_18.has_structured_output());
        assert!(!V2025_06_18.invalid_arguments_are_tool_errors());
        assert!(V2025_11_25.invalid_arguments_are_tool_errors());
    }
}
