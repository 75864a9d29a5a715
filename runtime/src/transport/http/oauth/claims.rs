//! What a verified token says of its caller, as an [`Auth`]: the claims of a JWT, of an
//! introspection response, or of a gateway's header.

use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use crate::call::auth::Auth;

/// The caller the claims describe: its subject (`sub`; a client acting for itself may carry
/// only `client_id`), its scopes (`scope`, space-separated, as RFC 9068 has it; or `scp`, a
/// string or an array, as several authorization servers send), and every claim.
pub(crate) fn caller(claims: Map<String, Value>) -> Result<Auth, String> {
    let subject = ["sub", "client_id"]
        .iter()
        .find_map(|name| claims.get(*name)?.as_str().filter(|s| !s.is_empty()))
        .ok_or("the token names no subject (`sub`)")?
        .to_owned();
    let scopes: Vec<String> = match claims.get("scope").or_else(|| claims.get("scp")) {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(scopes)) => scopes.split_ascii_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(scopes)) => scopes
            .iter()
            .map(|s| s.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or("the token's scopes are not strings")?,
        Some(_) => return Err("the token's scopes are not a string".to_owned()),
    };
    Ok(Auth::new(subject).with_scopes(scopes).with_claims(claims))
}

/// The wall-clock time of a claim in seconds since the Unix epoch (`exp`, `nbf`), if it is one.
pub(crate) fn time_of(claim: Option<&serde_json::Value>) -> Option<SystemTime> {
    let seconds = claim?.as_f64().filter(|s| *s >= 0.0)?;
    SystemTime::UNIX_EPOCH.checked_add(Duration::try_from_secs_f64(seconds).ok()?)
}

/// Refuses a token bound to a key of its client (`cnf`: DPoP or mutual TLS), which only its
/// holder, proving it has the key, may use: this server accepts bearer tokens, which anyone
/// holding them may use, and checks no such proof. (A gateway that does check it forwards
/// the claims through [`Authorization::behind_gateway`](super::Authorization::behind_gateway),
/// which does not ask this.)
#[cfg(feature = "oauth")]
pub(crate) fn bearer_only(claims: &Map<String, Value>) -> Result<(), String> {
    match claims.get("cnf") {
        Some(_) => Err(
            "the token is bound to a key of its client (`cnf`); only bearer tokens are accepted"
                .to_owned(),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn scopes_in_either_claim() {
        let auth = caller(claims(json!({"sub": "ada", "scope": "a b  b"}))).unwrap();
        assert_eq!(auth.subject(), "ada");
        assert_eq!(auth.scopes(), ["a", "b"]);
        let auth = caller(claims(json!({"sub": "ada", "scp": ["a", "c"]}))).unwrap();
        assert_eq!(auth.scopes(), ["a", "c"]);
        assert_eq!(auth.claim("scp"), Some(&json!(["a", "c"])));
        let auth = caller(claims(json!({"client_id": "cron"}))).unwrap();
        assert_eq!(auth.subject(), "cron");
        assert!(auth.scopes().is_empty());
    }

    #[test]
    fn refused() {
        assert!(caller(claims(json!({"scope": "a"}))).is_err());
        assert!(caller(claims(json!({"sub": ""}))).is_err());
        assert!(caller(claims(json!({"sub": "a", "scp": [1]}))).is_err());
        assert!(caller(claims(json!({"sub": "a", "scope": 3}))).is_err());
    }

    #[test]
    fn claims_as_times() {
        let at = |value| time_of(Some(&value));
        let epoch = SystemTime::UNIX_EPOCH;
        assert_eq!(
            at(serde_json::json!(10)),
            Some(epoch + Duration::from_secs(10))
        );
        assert_eq!(
            at(serde_json::json!(1.5)),
            Some(epoch + Duration::from_millis(1500))
        );
        assert_eq!(at(serde_json::json!(-1)), None);
        assert_eq!(at(serde_json::json!(1e300)), None);
        assert_eq!(at(serde_json::json!("10")), None);
        assert_eq!(time_of(None), None);
    }
}
