//! The authorization flags of `serve --http` (`--auth-*`): any server binary an OAuth 2.1
//! resource server, with no code. A secret never comes from the command line, which `ps`
//! shows to every user of the machine: the introspection client's is read from the
//! environment or from a file.

use std::time::Duration;

use http::HeaderName;

use crate::cli::flags::duration;
use crate::transport::http::oauth::Authorization;
#[cfg(feature = "oauth")]
use crate::transport::http::oauth::{Introspection, Jwt};

/// The environment variable the introspection client's secret is read from (unless
/// `--auth-client-secret-file` names a file).
#[cfg(feature = "oauth")]
const SECRET_VARIABLE: &str = "TOOLWRIGHT_AUTH_CLIENT_SECRET";

/// The flags that take no value.
pub(crate) const SWITCHES: &[&str] = &["--auth-any-token-type"];

/// The flags of JWT checks, and of introspection.
const JWT_FLAGS: &[&str] = &[
    "--auth-jwks-uri",
    "--auth-jwt-leeway",
    "--auth-jwks-refetch-floor",
    "--auth-any-token-type",
];
const INTROSPECTION_FLAGS: &[&str] = &[
    "--auth-client-id",
    "--auth-client-secret-file",
    "--auth-introspection-endpoint",
    "--auth-introspection-cache",
];

/// The `--auth-*` flags of a command line, as they come.
#[derive(Default)]
pub(crate) struct AuthFlags<'a> {
    /// Every `--auth-*` flag given, in order.
    seen: Vec<&'a str>,
    issuer: Option<&'a str>,
    resource: Option<&'a str>,
    scopes: Vec<&'a str>,
    tokens: Option<&'a str>,
    gateway_header: Option<&'a str>,
    resource_name: Option<&'a str>,
    jwks_uri: Option<&'a str>,
    leeway: Option<Duration>,
    refetch_floor: Option<Duration>,
    any_type: bool,
    client_id: Option<&'a str>,
    secret_file: Option<&'a str>,
    introspection_endpoint: Option<&'a str>,
    introspection_cache: Option<Duration>,
}

impl<'a> AuthFlags<'a> {
    /// Takes `flag` and its `value` if it is an `--auth-*` flag (`Ok(false)` if it is not).
    pub(crate) fn take(&mut self, flag: &'a str, value: &'a str) -> Result<bool, String> {
        let text = Some(value);
        match flag {
            "--auth-issuer" => self.issuer = text,
            "--auth-resource" => self.resource = text,
            "--auth-scope" => self.scopes.extend(value.split_ascii_whitespace()),
            "--auth-tokens" => self.tokens = text,
            "--auth-gateway-header" => self.gateway_header = text,
            "--auth-resource-name" => self.resource_name = text,
            "--auth-jwks-uri" => self.jwks_uri = text,
            "--auth-jwt-leeway" => self.leeway = Some(duration(flag, value)?),
            "--auth-jwks-refetch-floor" => self.refetch_floor = Some(duration(flag, value)?),
            "--auth-any-token-type" => self.any_type = true,
            "--auth-client-id" => self.client_id = text,
            "--auth-client-secret-file" => self.secret_file = text,
            "--auth-introspection-endpoint" => self.introspection_endpoint = text,
            "--auth-introspection-cache" => {
                self.introspection_cache = Some(duration(flag, value)?);
            }
            _ => return Ok(false),
        }
        self.seen.push(flag);
        Ok(true)
    }

    /// The authorization the flags describe; none without flags. `env` reads the environment.
    pub(crate) fn build(
        self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Authorization>, String> {
        let Some(first) = self.seen.first() else {
            return Ok(None);
        };
        let issuer = self.issuer.ok_or_else(|| {
            format!("`{first}` needs `--auth-issuer`, the authorization server whose tokens are accepted")
        })?;
        let resource = self.resource.ok_or(
            "`--auth-issuer` needs `--auth-resource`, this server's URI as clients reach it and \
             tokens name it (`https://mcp.example.com/mcp`)",
        )?;
        let authorization = match self.gateway_header {
            Some(header) => {
                let checks = self.given(JWT_FLAGS).or(self.given(INTROSPECTION_FLAGS));
                if let Some(check) = checks.or(self.tokens.map(|_| "--auth-tokens")) {
                    return Err(format!(
                        "`{check}` is about checking tokens, which behind \
                         `--auth-gateway-header` the gateway does"
                    ));
                }
                let name = HeaderName::try_from(header).map_err(|_| {
                    format!("`--auth-gateway-header` takes a header name, not `{header}`")
                })?;
                Authorization::behind_gateway(resource, issuer, name)
            }
            None => self.tokens(issuer, resource, env)?,
        };
        let mut authorization = authorization.require_scopes(self.scopes.iter().copied());
        if let Some(name) = self.resource_name {
            authorization = authorization.resource_name(name);
        }
        authorization.check()?;
        Ok(Some(authorization))
    }

    /// The first of `flags` given.
    fn given(&self, flags: &[&'static str]) -> Option<&'static str> {
        let given = |flag: &&&str| self.seen.contains(*flag);
        flags.iter().find(given).copied()
    }

    /// The authorization of tokens checked here: JWTs, introspection, or both.
    #[cfg(feature = "oauth")]
    fn tokens(
        &self,
        issuer: &str,
        resource: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Authorization, String> {
        let kind = match (self.tokens, self.client_id) {
            (Some(kind), _) => kind,
            (None, Some(_)) => "jwt-or-introspection",
            (None, None) => "jwt",
        };
        let not_with = |flag: &str| format!("`{flag}` does not go with `--auth-tokens {kind}`");
        let verifier = match kind {
            "jwt" => match self.given(INTROSPECTION_FLAGS) {
                Some(flag) => return Err(not_with(flag)),
                None => Authorization::new(resource, self.jwt(issuer)),
            },
            "introspection" => match self.given(JWT_FLAGS) {
                Some(flag) => return Err(not_with(flag)),
                None => Authorization::new(resource, self.introspection(issuer, kind, env)?),
            },
            "jwt-or-introspection" => {
                let opaque = self.introspection(issuer, kind, env)?;
                Authorization::new(resource, self.jwt(issuer).or_introspection(opaque))
            }
            other => {
                return Err(format!(
                    "`--auth-tokens` takes `jwt`, `introspection` or `jwt-or-introspection`, \
                     not `{other}`"
                ));
            }
        };
        Ok(verifier)
    }

    #[cfg(not(feature = "oauth"))]
    fn tokens(
        &self,
        _: &str,
        _: &str,
        _: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Authorization, String> {
        Err(
            "this server was built without token checks (toolwright's `oauth` feature); \
             `--auth-gateway-header` trusts a gateway that checks them"
                .to_owned(),
        )
    }

    #[cfg(feature = "oauth")]
    fn jwt(&self, issuer: &str) -> Jwt {
        let mut jwt = Jwt::new(issuer);
        if let Some(uri) = self.jwks_uri {
            jwt = jwt.jwks_uri(uri);
        }
        if let Some(leeway) = self.leeway {
            jwt = jwt.leeway(leeway);
        }
        if let Some(floor) = self.refetch_floor {
            jwt = jwt.refetch_floor(floor);
        }
        if self.any_type {
            jwt = jwt.accept_any_type();
        }
        jwt
    }

    #[cfg(feature = "oauth")]
    fn introspection(
        &self,
        issuer: &str,
        kind: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Introspection, String> {
        let client_id = self.client_id.ok_or_else(|| {
            format!("`--auth-tokens {kind}` needs `--auth-client-id`, the client the server introspects as")
        })?;
        let secret = match self.secret_file {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the client's secret from `{path}`: {e}"))?,
            None => env(SECRET_VARIABLE).unwrap_or_default(),
        };
        let secret = secret.trim_end_matches(['\r', '\n']);
        if secret.is_empty() {
            return Err(format!(
                "`--auth-client-id` needs the client's secret, in the environment variable \
                 {SECRET_VARIABLE} or in the file `--auth-client-secret-file` names (never on \
                 the command line, which any user of the machine can read)"
            ));
        }
        let mut introspection = Introspection::new(issuer, client_id, secret);
        if let Some(endpoint) = self.introspection_endpoint {
            introspection = introspection.endpoint(endpoint);
        }
        if let Some(time) = self.introspection_cache {
            introspection = introspection.cache_for(time);
        }
        Ok(introspection)
    }
}
