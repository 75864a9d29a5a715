//! What [`Authorization`] does to each request in front of the endpoint: serve the metadata,
//! or check the caller and put it into the request's extensions.

use std::sync::Arc;
use std::time::SystemTime;

use http::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN, ALLOW,
    CONTENT_TYPE,
};
use http::{Extensions, HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use serde_json::{Map, Value, json};

use crate::call::auth::Auth;
use crate::transport::http::oauth::authorization::{Authorization, Settings, Source};
use crate::transport::http::oauth::bearer;
use crate::transport::http::oauth::challenge::{Challenger, Refusal};
use crate::transport::http::oauth::claims;
use crate::transport::http::oauth::verifier::TokenError;
use crate::transport::http::stream::ResponseBody;

/// Put into a request's extensions next to its [`Auth`]: the endpoint's 403 for an item's
/// scopes points at the same metadata as the layer's challenges.
#[derive(Clone)]
pub(crate) struct Protected(Arc<Settings>);

impl Authorization {
    /// Where the metadata is served, below the resource's origin
    /// (`/.well-known/oauth-protected-resource/mcp`); it is also served at the root form,
    /// `/.well-known/oauth-protected-resource`. `None` when the resource is not a URI.
    pub fn metadata_path(&self) -> Option<&str> {
        let resource = self.inner.resource.as_ref().ok()?;
        Some(&resource.metadata_path)
    }

    /// The path of the resource URI, where clients will send their requests.
    pub(crate) fn resource_path(&self) -> Option<&str> {
        Some(self.inner.resource.as_ref().ok()?.path())
    }

    /// Whether `path` is one of the metadata's.
    pub(crate) fn is_metadata_path(&self, path: &str) -> bool {
        self.inner
            .resource
            .as_ref()
            .is_ok_and(|r| r.is_metadata(path))
    }

    /// The metadata document, if `parts` asks for it (a GET or a CORS preflight of one of its
    /// paths). It is public: no token, and any web page may read it.
    pub(crate) fn metadata(&self, method: &Method, uri: &Uri) -> Option<Response<ResponseBody>> {
        let resource = self.inner.resource.as_ref().ok()?;
        if !resource.is_metadata(uri.path()) {
            return None;
        }
        let mut response = match *method {
            Method::GET | Method::HEAD => {
                let body = self.inner.document().to_string().into_bytes();
                let mut response = Response::new(ResponseBody::full(body));
                let headers = response.headers_mut();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                response
            }
            Method::OPTIONS => {
                let mut response = Response::new(ResponseBody::empty());
                *response.status_mut() = StatusCode::NO_CONTENT;
                let headers = response.headers_mut();
                let methods = HeaderValue::from_static("GET, OPTIONS");
                headers.insert(ACCESS_CONTROL_ALLOW_METHODS, methods);
                let allowed = HeaderValue::from_static("mcp-protocol-version");
                headers.insert(ACCESS_CONTROL_ALLOW_HEADERS, allowed);
                response
            }
            _ => {
                let mut response = Response::new(ResponseBody::empty());
                *response.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
                let allow = HeaderValue::from_static("GET, OPTIONS");
                response.headers_mut().insert(ALLOW, allow);
                response
            }
        };
        let any = HeaderValue::from_static("*");
        response
            .headers_mut()
            .insert(ACCESS_CONTROL_ALLOW_ORIGIN, any);
        Some(response)
    }

    /// Puts the request's caller into its extensions, or answers it: `None` lets it through.
    pub(crate) async fn admit(
        &self,
        uri: &Uri,
        headers: &HeaderMap,
        extensions: &mut Extensions,
    ) -> Option<Response<ResponseBody>> {
        let settings = &self.inner;
        let refused = |refusal: Refusal| {
            tracing::debug!(
                status = refusal.status().as_u16(),
                ?refusal,
                "request refused"
            );
            Some(refusal.response(&settings.challenger()))
        };
        let resource = match &settings.resource {
            Ok(resource) => resource,
            Err(e) => return refused(Refusal::Unavailable(e.clone())),
        };
        let caller = match &settings.source {
            Source::Tokens(verifier) => match bearer::token(uri, headers) {
                Err(reason) => return refused(Refusal::Malformed(reason.to_owned())),
                Ok(None) => return refused(Refusal::Missing),
                Ok(Some(token)) => match verifier.verify(token, &resource.uri).await {
                    Ok(caller) => caller,
                    Err(TokenError::Invalid(reason)) => return refused(Refusal::Invalid(reason)),
                    Err(TokenError::Unavailable(reason)) => {
                        tracing::warn!(%reason, "a token could not be checked");
                        return refused(Refusal::Unavailable(reason));
                    }
                },
            },
            Source::Gateway(header) => match headers.get(header) {
                None => return refused(Refusal::Missing),
                // One of them did not come from the gateway.
                Some(_) if headers.get_all(header).iter().nth(1).is_some() => {
                    let reason = format!("the request has more than one `{header}` header");
                    return refused(Refusal::Malformed(reason));
                }
                Some(value) => match gateway_claims(value.as_bytes()).and_then(claims::caller) {
                    Ok(caller) => caller,
                    Err(reason) => return refused(Refusal::Malformed(reason)),
                },
            },
        };
        let caller = settings.widen(caller);
        if let Some(missing) = settings.required.iter().find(|s| !caller.has_scope(s)) {
            tracing::debug!(subject = caller.subject(), scope = %missing, "scope missing");
            return refused(Refusal::Insufficient(settings.required.clone()));
        }
        extensions.insert(caller);
        extensions.insert(Protected(Arc::clone(&self.inner)));
        None
    }
}

impl Settings {
    /// The Protected Resource Metadata (RFC 9728 §2); empty members left out (§3.2).
    fn document(&self) -> Value {
        let mut document = Map::new();
        if let Ok(resource) = &self.resource {
            document.insert("resource".into(), json!(resource.uri));
        }
        document.insert(
            "authorization_servers".into(),
            json!(self.authorization_servers),
        );
        let supported = self.scopes_supported.as_ref().unwrap_or(&self.required);
        if !supported.is_empty() {
            document.insert("scopes_supported".into(), json!(supported));
        }
        // The specification forbids tokens anywhere else.
        document.insert("bearer_methods_supported".into(), json!(["header"]));
        if let Some(name) = &self.name {
            document.insert("resource_name".into(), json!(name));
        }
        if let Some(url) = &self.documentation {
            document.insert("resource_documentation".into(), json!(url));
        }
        Value::Object(document)
    }

    fn challenger(&self) -> Challenger<'_> {
        Challenger {
            metadata_url: self.metadata_url.as_deref(),
            scopes: &self.required,
        }
    }
}

impl Protected {
    /// The 403 for a request whose item needs `scopes` the caller lacks: every scope the
    /// request needs, the server's own first.
    pub(crate) fn insufficient(
        this: Option<&Protected>,
        scopes: &[&str],
    ) -> Response<ResponseBody> {
        let settings = this.map(|p| &*p.0);
        let mut needed: Vec<String> = settings.map(|s| s.required.clone()).unwrap_or_default();
        for scope in scopes {
            if !needed.iter().any(|s| s == scope) {
                needed.push((*scope).to_owned());
            }
        }
        let challenger = match settings {
            Some(settings) => settings.challenger(),
            None => Challenger {
                metadata_url: None,
                scopes: &[],
            },
        };
        Refusal::Insufficient(needed).response(&challenger)
    }
}

/// How long a stream a request opens (a session's GET stream, a `subscriptions/listen`) may
/// last: until the token that opened it expires (the `exp` of the caller's claims, behind an
/// [`Authorization`]), or without end. A token already past its `exp` (still accepted, within
/// the leeway) opens none: 401 `invalid_token`, so that the client gets a new token instead of
/// opening, again and again, a stream that ends at once.
pub(crate) fn stream_deadline(
    extensions: &http::Extensions,
) -> Result<Option<tokio::time::Instant>, Box<Response<ResponseBody>>> {
    let (Some(Protected(settings)), Some(caller)) =
        (extensions.get::<Protected>(), extensions.get::<Auth>())
    else {
        return Ok(None);
    };
    let Some(expires) = claims::time_of(caller.claim("exp")) else {
        return Ok(None);
    };
    match expires.duration_since(SystemTime::now()) {
        Ok(left) if !left.is_zero() => Ok(tokio::time::Instant::now().checked_add(left)),
        _ => {
            let why = "the token expired; a stream needs one that has not";
            let refusal = Refusal::Invalid(why.to_owned());
            Err(Box::new(refusal.response(&settings.challenger())))
        }
    }
}

/// The claims a gateway forwarded: a JSON object, or the base64url (padded or not) of one.
fn gateway_claims(value: &[u8]) -> Result<Map<String, Value>, String> {
    use base64::Engine as _;
    let json = match value.first() {
        Some(b'{') => value.to_vec(),
        _ => {
            let trimmed = value
                .strip_suffix(b"==")
                .or(value.strip_suffix(b"="))
                .unwrap_or(value);
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(trimmed)
                .map_err(|_| {
                    "the gateway's claims header is neither JSON nor base64url".to_owned()
                })?
        }
    };
    serde_json::from_slice(&json)
        .map_err(|_| "the gateway's claims are not a JSON object".to_owned())
}
