//! The `requestState` of a 2026-07-28 round: the answers a tool's earlier rounds got, carried
//! by the client to the next, and sealed so that it cannot change them.
//!
//! `tw1.<payload>.<tag>`, both base64url: the payload is JSON (the tool, a digest of its
//! arguments, a digest of the verified caller's subject when there is one, an expiry, the
//! answers), the tag its HMAC-SHA256 under the server's key. A state that fails its tag, names
//! another tool or other arguments, was sealed for another caller, or has expired is refused
//! with `-32602`; it is never taken for a new question. A state sealed for no caller (an
//! anonymous call, or a server from before states named their caller) opens for anyone, as it
//! always did: a server that verifies every caller seals none of those after an upgrade, and
//! the ones in flight then finish rather than ask their users again. The key is random for
//! each process unless the server is given one: replicas behind a load balancer share one, so
//! that any of them accepts any round.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

const PREFIX: &str = "tw1.";

/// Seals and opens request states with one key.
pub(crate) struct Sealer {
    key: Vec<u8>,
    ttl: Duration,
}

#[derive(Serialize, Deserialize)]
struct Payload {
    /// The tool.
    t: String,
    /// The SHA-256 of its arguments, canonical JSON, in base64url.
    a: String,
    /// The SHA-256 of the verified caller's subject, in base64url; none without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    /// Expiry, milliseconds since the Unix epoch.
    x: u64,
    /// The answers so far, by key.
    r: Map<String, Value>,
}

/// Why a state was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Malformed,
    Forged,
    OtherCall,
    OtherCaller,
    Expired,
}

impl Refused {
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            Refused::Malformed => "it is not a request state of this server",
            Refused::Forged => "it fails its integrity check",
            Refused::OtherCall => "it belongs to another tool or other arguments",
            Refused::OtherCaller => "it belongs to another caller",
            Refused::Expired => "it has expired",
        }
    }
}

impl Sealer {
    pub(crate) fn new(key: Vec<u8>, ttl: Duration) -> Sealer {
        Sealer { key, ttl }
    }

    /// A random key of 32 bytes.
    pub(crate) fn random_key() -> Vec<u8> {
        let mut key = vec![0u8; 32];
        getrandom::fill(&mut key).expect("the operating system provides random bytes");
        key
    }

    fn tag(&self, data: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key");
        mac.update(data);
        mac
    }

    /// The state for a call of `tool` with `arguments` by `caller` (the verified caller's
    /// subject, if there is one) that has these answers so far.
    pub(crate) fn seal(
        &self,
        tool: &str,
        arguments: &Value,
        caller: Option<&str>,
        answers: Map<String, Value>,
    ) -> String {
        let expiry = now() + u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let payload = Payload {
            t: tool.to_owned(),
            a: digest(arguments),
            c: caller.map(|subject| digest(&Value::from(subject))),
            x: expiry,
            r: answers,
        };
        let json = serde_json::to_vec(&payload).expect("a state serializes");
        let sealed = format!("{PREFIX}{}", B64.encode(json));
        let tag = self.tag(sealed.as_bytes()).finalize().into_bytes();
        format!("{sealed}.{}", B64.encode(tag))
    }

    /// The answers a state carries, if it is this server's, unchanged, for this call by this
    /// caller, in time.
    pub(crate) fn open(
        &self,
        state: &str,
        tool: &str,
        arguments: &Value,
        caller: Option<&str>,
    ) -> Result<Map<String, Value>, Refused> {
        let (sealed, tag) = state.rsplit_once('.').ok_or(Refused::Malformed)?;
        let body = sealed.strip_prefix(PREFIX).ok_or(Refused::Malformed)?;
        let tag = B64.decode(tag).map_err(|_| Refused::Forged)?;
        self.tag(sealed.as_bytes())
            .verify_slice(&tag)
            .map_err(|_| Refused::Forged)?;
        let json = B64.decode(body).map_err(|_| Refused::Malformed)?;
        let payload: Payload = serde_json::from_slice(&json).map_err(|_| Refused::Malformed)?;
        if payload.t != tool || payload.a != digest(arguments) {
            return Err(Refused::OtherCall);
        }
        if let Some(sealed_for) = payload.c {
            let caller = caller.map(|subject| digest(&Value::from(subject)));
            if caller != Some(sealed_for) {
                return Err(Refused::OtherCaller);
            }
        }
        if payload.x < now() {
            return Err(Refused::Expired);
        }
        Ok(payload.r)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The SHA-256 of `value` as canonical JSON (keys sorted), so that a client that re-encodes
/// the same arguments is still recognised.
fn digest(value: &Value) -> String {
    let mut hasher = Sha256::new();
    canonical(value, &mut hasher);
    B64.encode(hasher.finalize())
}

fn canonical(value: &Value, out: &mut Sha256) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.update(b"{");
            for key in keys {
                out.update(
                    serde_json::to_string(key)
                        .expect("a key serializes")
                        .as_bytes(),
                );
                out.update(b":");
                canonical(&map[key], out);
                out.update(b",");
            }
            out.update(b"}");
        }
        Value::Array(items) => {
            out.update(b"[");
            for item in items {
                canonical(item, out);
                out.update(b",");
            }
            out.update(b"]");
        }
        other => out.update(other.to_string().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sealer() -> Sealer {
        Sealer::new(vec![7; 32], Duration::from_secs(60))
    }

    #[test]
    fn a_state_opens_for_its_call_only() {
        let answers: Map<String, Value> = json!({"confirm": {"action": "accept"}})
            .as_object()
            .unwrap()
            .clone();
        let args = json!({"b": 1, "a": [1, {"y": 2, "x": 1}]});
        let state = sealer().seal("tool", &args, None, answers.clone());
        let reordered = json!({"a": [1, {"x": 1, "y": 2}], "b": 1});
        assert_eq!(sealer().open(&state, "tool", &reordered, None), Ok(answers));
        assert_eq!(
            sealer().open(&state, "other", &args, None),
            Err(Refused::OtherCall)
        );
        assert_eq!(
            sealer().open(&state, "tool", &json!({"b": 2}), None),
            Err(Refused::OtherCall)
        );
        let other_key = Sealer::new(vec![8; 32], Duration::from_secs(60));
        assert_eq!(
            other_key.open(&state, "tool", &args, None),
            Err(Refused::Forged)
        );
        assert_eq!(
            sealer().open(&format!("{state}-TAMPERED"), "tool", &args, None),
            Err(Refused::Forged)
        );
        assert_eq!(
            sealer().open("garbage", "tool", &args, None),
            Err(Refused::Malformed)
        );
        let expired =
            Sealer::new(vec![7; 32], Duration::ZERO).seal("tool", &args, None, Map::new());
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(
            sealer().open(&expired, "tool", &args, None),
            Err(Refused::Expired)
        );
    }

    #[test]
    fn a_state_sealed_for_a_caller_opens_for_that_caller_only() {
        let args = json!({});
        let ada = sealer().seal("tool", &args, Some("ada"), Map::new());
        assert_eq!(
            sealer().open(&ada, "tool", &args, Some("ada")),
            Ok(Map::new())
        );
        for other in [Some("eve"), None] {
            let opened = sealer().open(&ada, "tool", &args, other);
            assert_eq!(opened, Err(Refused::OtherCaller));
        }
        // Sealed for no caller: anonymous, or by a server from before states named one.
        let anyone = sealer().seal("tool", &args, None, Map::new());
        let opened = sealer().open(&anyone, "tool", &args, Some("ada"));
        assert_eq!(opened, Ok(Map::new()));
    }
}
