//! The bearer token of a request (RFC 6750 §2.1), or why the request is malformed: tokens come
//! in one `Authorization` header and nowhere else. The specification forbids the query string,
//! so a token there is no credential: alone, the request presents none (401 with a bare
//! challenge, as the SDKs answer); beside an `Authorization` header it is a second method at
//! once (RFC 6750 §3.1, `invalid_request`).

use http::header::AUTHORIZATION;
use http::{HeaderMap, Uri};

/// The request's bearer token: `Ok(None)` when it presents none (no `Authorization`, or one of
/// another scheme, which carries no bearer credentials; a token in the query string is not
/// read); `Err` with the reason when the request is malformed.
pub(crate) fn token<'h>(
    uri: &Uri,
    headers: &'h HeaderMap,
) -> Result<Option<&'h str>, &'static str> {
    let in_query = uri.query().is_some_and(|query| {
        query
            .split('&')
            .any(|pair| pair.split('=').next() == Some("access_token"))
    });
    if in_query && headers.contains_key(AUTHORIZATION) {
        return Err(
            "credentials in the query string and in `Authorization` at once; send \
                    `Authorization: Bearer` alone",
        );
    }
    let mut values = headers.get_all(AUTHORIZATION).iter();
    let (Some(value), None) = (values.next(), values.next()) else {
        return match headers.contains_key(AUTHORIZATION) {
            true => Err("the request has more than one `Authorization` header"),
            false => Ok(None),
        };
    };
    let value = value
        .to_str()
        .map_err(|_| "the `Authorization` header is not ASCII")?;
    let (scheme, rest) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Ok(None);
    }
    let token = rest.trim_start_matches(' ');
    if token.is_empty() {
        return Err("`Authorization: Bearer` carries no token");
    }
    if !is_b64token(token) {
        return Err("the bearer token has characters a token cannot have");
    }
    Ok(Some(token))
}

/// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(uri: &str, headers: &[&str]) -> http::request::Parts {
        let mut request = http::Request::builder().uri(uri);
        for value in headers {
            request = request.header(AUTHORIZATION, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    fn token_of(parts: &http::request::Parts) -> Result<Option<&str>, &'static str> {
        token(&parts.uri, &parts.headers)
    }

    #[test]
    fn tokens() {
        assert_eq!(
            token_of(&parts("/mcp", &["Bearer abc.def-_~+/=="])),
            Ok(Some("abc.def-_~+/=="))
        );
        assert_eq!(token_of(&parts("/mcp", &["bearer  abc"])), Ok(Some("abc")));
        assert_eq!(token_of(&parts("/mcp", &[])), Ok(None));
        assert_eq!(token_of(&parts("/mcp", &["Basic YTpi"])), Ok(None));
        assert_eq!(
            token_of(&parts("/mcp?x=1", &["Bearer abc"])),
            Ok(Some("abc"))
        );
        // The query string is no place for a token: alone, it is no credential at all.
        assert_eq!(token_of(&parts("/mcp?access_token=abc", &[])), Ok(None));
        assert_eq!(token_of(&parts("/mcp?x=1&access_token=abc", &[])), Ok(None));
    }

    #[test]
    fn malformed() {
        for (uri, headers) in [
            ("/mcp", &["Bearer"][..]),
            ("/mcp", &["Bearer "]),
            ("/mcp", &["Bearer a b"]),
            ("/mcp", &["Bearer a\"b"]),
            ("/mcp", &["Bearer ==="]),
            ("/mcp", &["Bearer a", "Bearer b"]),
            // Two methods at once.
            ("/mcp?x=1&access_token=abc", &["Bearer abc"]),
            ("/mcp?access_token=abc", &["Basic YTpi"]),
        ] {
            assert!(token_of(&parts(uri, headers)).is_err(), "{uri} {headers:?}");
        }
    }
}
