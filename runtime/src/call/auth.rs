//! [`Auth`]: the caller an authentication layer verified, as every part of the server sees it.

use serde_json::{Map, Value};

/// The authenticated caller of a request: who it is (`sub`), what it may do (its scopes) and
/// the other claims its credentials carried. A layer in front of the server that verified the
/// caller puts it into the request's [`Extensions`](crate::Extensions) (a token-validating layer,
/// a gateway's identity header trusted explicitly, or a test through
/// `testing::Client::caller`); over stdio a request carries none.
///
/// What sees it:
/// - a tool, through [`Context::auth`](crate::Context::auth), or as a parameter `auth: Auth`,
///   which refuses a call that carries none;
/// - the per-request visibility rule, through [`Caller::auth`](crate::Caller::auth);
/// - tasks: a task belongs to the subject that created it, and is unknown to every other.
///
/// It holds no credential: a token is checked and left behind, so no log, span or error
/// message can carry it from here.
///
/// ```
/// use toolwright_runtime::Auth;
///
/// let ada = Auth::new("ada").with_scopes(["notes:read", "notes:write"]);
/// assert!(ada.has_scope("notes:write"));
/// assert_eq!(ada.subject(), "ada");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auth {
    subject: String,
    scopes: Vec<String>,
    claims: Map<String, Value>,
}

impl Auth {
    /// The caller `subject`, with no scopes and no other claims.
    pub fn new(subject: impl Into<String>) -> Auth {
        Auth {
            subject: subject.into(),
            scopes: Vec::new(),
            claims: Map::new(),
        }
    }

    /// The same caller, granted `scopes` (each once, in the order given).
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Auth
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for scope in scopes {
            let scope = scope.into();
            if !self.scopes.contains(&scope) {
                self.scopes.push(scope);
            }
        }
        self
    }

    /// The same caller, with these claims of its credentials (`iss`, `aud`, `client_id`...).
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Auth {
        self.claims = claims;
        self
    }

    /// Who the caller is: its credentials' subject.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// What the caller may do: the scopes it was granted, followed, behind an authorization
    /// with a scope hierarchy, by the narrower scopes they imply.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether the caller was granted `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The claims of its credentials.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// One claim of its credentials.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }
}
