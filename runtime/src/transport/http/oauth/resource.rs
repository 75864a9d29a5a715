//! The protected resource: this server's canonical URI (the audience its tokens must name),
//! and where its Protected Resource Metadata (RFC 9728) is served.

/// A canonical server URI, checked: absolute `http` or `https`, with a host, and neither a
/// query nor a fragment (RFC 8707 §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resource {
    /// The URI as configured, but for a trailing `/`: what tokens carry in `aud` and the
    /// metadata carries in `resource`.
    pub(crate) uri: String,
    /// `scheme://authority`.
    origin: String,
    /// The path of the metadata with the resource's path inserted
    /// (`/.well-known/oauth-protected-resource/mcp`), or the root one for a resource at `/`.
    pub(crate) metadata_path: String,
}

/// The root of every metadata path.
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

impl Resource {
    pub(crate) fn parse(uri: &str) -> Result<Resource, String> {
        let bad = |why: &str| Err(format!("the resource URI `{uri}` {why}"));
        if uri.contains('#') {
            return bad("has a fragment");
        }
        let Ok(parsed) = uri.parse::<http::Uri>() else {
            return bad("is not a URI");
        };
        let (Some(scheme), Some(authority)) = (parsed.scheme_str(), parsed.authority()) else {
            return bad("is not absolute (`https://host/mcp`)");
        };
        if !scheme.eq_ignore_ascii_case("https") && !scheme.eq_ignore_ascii_case("http") {
            return bad("is neither `https` nor `http`");
        }
        if parsed.query().is_some() {
            return bad("has a query");
        }
        if authority.as_str().contains('@') {
            return bad("has user information");
        }
        let origin = format!("{}://{}", scheme.to_ascii_lowercase(), authority);
        let path = parsed.path().trim_end_matches('/');
        let metadata_path = format!("{WELL_KNOWN}{path}");
        // Without a trailing `/`, as the specification advises: clients ask for tokens for
        // exactly what the metadata says, and the metadata's path is built from the same path.
        let uri = format!("{origin}{path}");
        Ok(Resource {
            uri,
            origin,
            metadata_path,
        })
    }

    /// The URI's path (`/mcp`; empty for a resource at the root).
    pub(crate) fn path(&self) -> &str {
        &self.uri[self.origin.len()..]
    }

    /// The absolute URL of the metadata, for `resource_metadata` in challenges.
    pub(crate) fn metadata_url(&self) -> String {
        format!("{}{}", self.origin, self.metadata_path)
    }

    /// Whether a request for `path` asks for the metadata: at its path-inserted place or at the
    /// root, which clients of 2025-11-25 on try second.
    pub(crate) fn is_metadata(&self, path: &str) -> bool {
        path == self.metadata_path || path == WELL_KNOWN
    }
}

/// That the claims' `aud` names `resource`, or why not.
#[cfg(feature = "oauth")]
pub(crate) fn check_audience(
    claims: &serde_json::Map<String, serde_json::Value>,
    resource: &str,
) -> Result<(), &'static str> {
    match claims.get("aud") {
        Some(aud) if audience_names(aud, resource) => Ok(()),
        Some(_) => Err("the token was issued for another resource"),
        None => Err("the token names no audience (`aud`)"),
    }
}

#[cfg(feature = "oauth")]
/// Whether `aud` (a string or an array of them) names `resource`: exactly, or but for the
/// case of the scheme and host and one trailing `/`, which the specification says to accept.
/// Never a prefix: a token for `/mcp` is not one for `/mcp-admin`.
pub(crate) fn audience_names(aud: &serde_json::Value, resource: &str) -> bool {
    let names = |value: &serde_json::Value| {
        value
            .as_str()
            .is_some_and(|aud| aud == resource || normal(aud) == normal(resource))
    };
    match aud {
        serde_json::Value::Array(values) => values.iter().any(names),
        value => names(value),
    }
}

/// `uri` with its scheme and host lowercase and no trailing `/`.
#[cfg(feature = "oauth")]
fn normal(uri: &str) -> String {
    let uri = uri.strip_suffix('/').unwrap_or(uri);
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_owned();
    };
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    format!(
        "{}://{}{path}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_paths() {
        let r = Resource::parse("https://mcp.example.com/mcp").unwrap();
        assert_eq!(
            r.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert!(r.is_metadata("/.well-known/oauth-protected-resource/mcp"));
        assert!(r.is_metadata("/.well-known/oauth-protected-resource"));
        assert!(!r.is_metadata("/mcp"));
        assert_eq!(r.path(), "/mcp");
        let r = Resource::parse("https://host:8443/tenant/a/mcp/").unwrap();
        assert_eq!(r.uri, "https://host:8443/tenant/a/mcp");
        assert_eq!(r.path(), "/tenant/a/mcp");
        assert_eq!(
            r.metadata_path,
            "/.well-known/oauth-protected-resource/tenant/a/mcp"
        );
        let r = Resource::parse("https://host/").unwrap();
        assert_eq!(r.uri, "https://host");
        assert_eq!(r.path(), "");
        assert_eq!(
            r.metadata_url(),
            "https://host/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn refused_uris() {
        for uri in [
            "mcp.example.com/mcp",
            "/mcp",
            "ftp://host/mcp",
            "https://host/mcp#x",
            "https://host/mcp?tenant=a",
            "https://user@host/mcp",
        ] {
            assert!(Resource::parse(uri).is_err(), "{uri}");
        }
    }

    #[test]
    #[cfg(feature = "oauth")]
    fn audiences() {
        use serde_json::json;
        let r = "https://mcp.example.com/mcp";
        assert!(audience_names(&json!(r), r));
        assert!(audience_names(&json!(["other", r]), r));
        assert!(audience_names(&json!("HTTPS://MCP.example.com/mcp/"), r));
        assert!(!audience_names(&json!("https://mcp.example.com/MCP"), r));
        assert!(!audience_names(
            &json!("https://mcp.example.com/mcp-admin"),
            r
        ));
        assert!(!audience_names(&json!("https://mcp.example.com"), r));
        assert!(!audience_names(&json!(7), r));
        assert!(!audience_names(&json!([]), r));
    }
}
