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

    /// JSON-RPC batches: a line may be an array of requests and notifications, answered by an
    /// array (2025-03-26 only; removed by 2025-06-18, changelog major #1).
    pub fn has_batches(self) -> bool {
        self == ProtocolVersion::V2025_03_26
    }

    /// Elicitation modes: a request names its `mode`, `form` or the new `url`, and a client
    /// declares which it takes as `elicitation: {form, url}` (2025-11-25 on,
    /// `client/elicitation.mdx` §URL Mode).
    pub fn has_elicitation_modes(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// The `elicitationId` of a URL-mode elicitation, for `notifications/elicitation/complete`
    /// (2025-11-25, with URL mode; removed by 2026-07-28, changelog minor #11).
    pub fn has_url_elicitation_id(self) -> bool {
        self.has_elicitation_modes() && self < ProtocolVersion::V2026_07_28
    }

    /// The form schemas of 2025-11-25: titled choices as `oneOf` of `const` and `title`,
    /// multi-select arrays (SEP-1330) and a `default` on every primitive type (SEP-1034).
    /// Before, titled choices are `enum` beside `enumNames`, only booleans have a `default`,
    /// and there is no multi-select.
    pub fn has_rich_form_schemas(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// `roots.listChanged` among a client's capabilities, and
    /// `notifications/roots/list_changed` (until 2026-07-28, which deprecates roots: its clients
    /// declare `roots: {}`).
    pub fn has_roots_list_changed(self) -> bool {
        self < ProtocolVersion::V2026_07_28
    }

    /// Resumable streams over HTTP: a stream's events have ids and it opens with a priming
    /// event (an id and empty `data`), so that a client can resume it with `Last-Event-ID`
    /// (2025-11-25 on, SEP-1699). Older clients may not handle the empty event, so their
    /// streams have neither.
    pub fn has_resumable_streams(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Whether a call that needs a client capability the client did not declare is answered
    /// with the JSON-RPC error `-32021` (MissingRequiredClientCapability, with
    /// `data.requiredCapabilities`) rather than a tool error (2026-07-28 on).
    pub fn missing_capability_is_protocol_error(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// Whether the error codes from -32020 to -32099 are the specification's own, so that a
    /// server sends none of them that the revision does not define (2026-07-28 on,
    /// `basic/index.mdx` §Error Codes).
    pub fn reserves_error_codes(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// `-32042` (URLElicitationRequired), a request's answer that the user must open URLs
    /// first (2025-11-25 only: 2026-07-28 retired it for rounds that ask them).
    pub fn has_url_elicitation_required_error(self) -> bool {
        self.has_url_elicitation_id()
    }

    /// `resultType` and the server's `_meta` on every result (2026-07-28 on, changelog
    /// major #8).
    pub fn has_result_type(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// Whether an `outputSchema` may have any root and `structuredContent` be any JSON value
    /// (2026-07-28 on, SEP-2106). Before, both are objects: a schema of another root is
    /// wrapped as the `result` property of an object, and the value travels as
    /// `{"result": value}`.
    pub fn output_may_be_any_value(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// The `completions` capability (2025-03-26 on; `completion/complete` is answered before,
    /// with nothing to announce it).
    pub fn has_completions_capability(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// A resource that does not exist is `-32602` with `data.uri` (2026-07-28 on, SEP-2164,
    /// which forbids `-32002` there); before, `-32002` "Resource not found", as each of those
    /// revisions says.
    pub fn resource_not_found_is_invalid_params(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// `resources/subscribe` and `resources/unsubscribe` (until 2025-11-25; 2026-07-28 replaces
    /// them with `resourceSubscriptions` on `subscriptions/listen`).
    pub fn has_resource_subscribe_requests(self) -> bool {
        self < ProtocolVersion::V2026_07_28
    }

    /// `title` on prompts, their arguments, resources and templates (2025-06-18 on), like
    /// tools.
    pub fn has_titles(self) -> bool {
        self.has_structured_output()
    }

    /// Tasks as the extension `io.modelcontextprotocol/tasks` (2026-07-28 on, SEP-2663): the
    /// server decides per request, for a request that declared the extension; `ttlMs` and
    /// `pollIntervalMs`; `tasks/update`; the result inlined in `tasks/get`.
    pub fn has_tasks_extension(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// The experimental tasks of 2025-11-25 (SEP-1686): the client asks with `params.task`,
    /// tools say `execution.taskSupport`, the server declares `capabilities.tasks`, and the
    /// result comes from `tasks/result`. Only that revision has them.
    pub fn has_experimental_tasks(self) -> bool {
        self == ProtocolVersion::V2025_11_25
    }

    /// A server's requests to the client made as the client's tasks (`params.task`, where the
    /// client declares `tasks.requests.sampling.createMessage` or
    /// `tasks.requests.elicitation.create`): the experimental tasks of 2025-11-25 run both
    /// ways; the extension of 2026-07-28 has the client ask for tasks only.
    pub fn has_client_tasks(self) -> bool {
        self.has_experimental_tasks()
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
        assert_eq!(
            ProtocolVersion::ALL.map(ProtocolVersion::has_batches),
            [false, true, false, false, false]
        );
        assert!(!V2025_06_18.has_elicitation_modes());
        assert!(V2025_11_25.has_elicitation_modes());
        assert_eq!(
            ProtocolVersion::ALL.map(ProtocolVersion::has_url_elicitation_id),
            [false, false, false, true, false]
        );
        assert!(!V2025_06_18.has_rich_form_schemas());
        assert!(V2025_11_25.has_rich_form_schemas());
        assert!(V2025_11_25.has_roots_list_changed());
        assert!(!V2026_07_28.has_roots_list_changed());
        assert!(!V2025_06_18.has_resumable_streams());
        assert!(V2025_11_25.has_resumable_streams());
        for v in ProtocolVersion::ALL {
            let modern = v.era() == Era::Modern;
            assert_eq!(v.missing_capability_is_protocol_error(), modern);
            assert_eq!(v.has_result_type(), modern);
            assert_eq!(v.output_may_be_any_value(), modern);
        }
    }
}
