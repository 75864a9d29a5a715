//! How a mount's namespace renames what it mounts, both ways: a tool or a prompt `search`
//! mounted under `github` is `github_search`; a resource `repo://issues/{n}` is
//! `repo://github/issues/{n}` (the namespace is the first segment after `scheme://`).
//!
//! A namespace is lowercase letters, digits and `-`: never `_`, so the first `_` of a mounted
//! name always ends its outermost namespace; never a character a URI would have to escape; and
//! never an uppercase letter, since it becomes a URI's authority, which clients may lowercase. The empty
//! namespace renames nothing: a server mounted so serves its items as they are named.

use std::fmt;

/// The longest namespace: mounts stack, and a tool's whole name has at most 128 characters.
const MAX_LEN: usize = 32;

/// A mount's namespace, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Namespace(Box<str>);

/// What separates a namespace from the name it prefixes: accepted by every client's tool-name
/// pattern (`^[a-zA-Z0-9_-]{1,64}$` is the strictest in use).
const SEPARATOR: char = '_';

impl Namespace {
    /// `namespace`, if it is one.
    pub(crate) fn new(namespace: &str) -> Result<Namespace, String> {
        let valid = namespace.len() <= MAX_LEN
            && namespace
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        match valid {
            true => Ok(Namespace(namespace.into())),
            false => Err(format!(
                "`{namespace}` cannot be a mount's namespace: it has up to {MAX_LEN} characters, \
                 each a lowercase letter, a digit or `-` (`_` separates it from the names it \
                 prefixes)"
            )),
        }
    }

    /// What an item called `local` in the mounted server is called where it is mounted.
    pub(crate) fn name(&self, local: &str) -> String {
        match self.is_empty() {
            true => local.to_owned(),
            false => format!("{}{SEPARATOR}{local}", self.0),
        }
    }

    /// Whether it renames nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What the mounted server calls an item called `name` where it is mounted; `None` for a
    /// name that is not in this namespace.
    pub(crate) fn local_name<'a>(&self, name: &'a str) -> Option<&'a str> {
        match self.is_empty() {
            true => Some(name),
            false => name.strip_prefix(&*self.0)?.strip_prefix(SEPARATOR),
        }
    }

    /// Where a resource (or template) at `local` in the mounted server is, where it is mounted;
    /// why, for one that cannot be namespaced (no `scheme://`).
    pub(crate) fn uri(&self, local: &str) -> Result<String, String> {
        if self.is_empty() {
            return Ok(local.to_owned());
        }
        match split(local) {
            Some((scheme, rest)) => Ok(format!("{scheme}://{}/{rest}", self.0)),
            None => Err(format!(
                "`{local}` cannot be namespaced: a mounted resource's URI starts with \
                 `scheme://`, and the namespace becomes its first segment"
            )),
        }
    }

    /// Where the mounted server has the resource at `uri` where it is mounted; `None` for a URI
    /// that is not in this namespace.
    pub(crate) fn local_uri(&self, uri: &str) -> Option<String> {
        if self.is_empty() {
            return Some(uri.to_owned());
        }
        let (scheme, rest) = split(uri)?;
        let rest = rest.strip_prefix(&*self.0)?.strip_prefix('/')?;
        Some(format!("{scheme}://{rest}"))
    }
}

/// A URI (or template) split at its `://`; `None` without one, or with a template expression
/// in its scheme.
fn split(uri: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = uri.split_once("://")?;
    let plain = !scheme.is_empty() && !scheme.contains(['{', '/', '?', '#']);
    plain.then_some((scheme, rest))
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns(name: &str) -> Namespace {
        Namespace::new(name).unwrap()
    }

    #[test]
    fn names_take_the_namespace_and_give_it_back() {
        let github = ns("github");
        assert_eq!(github.name("search_issues"), "github_search_issues");
        assert_eq!(
            github.local_name("github_search_issues"),
            Some("search_issues")
        );
        assert_eq!(github.local_name("githubx_search"), None);
        assert_eq!(github.local_name("gitlab_search"), None);
    }

    #[test]
    fn uris_take_the_namespace_as_their_first_segment() {
        let github = ns("github");
        let uri = github.uri("repo://issues/{n}").unwrap();
        assert_eq!(uri, "repo://github/issues/{n}");
        assert_eq!(github.local_uri(&uri).unwrap(), "repo://issues/{n}");
        // An empty authority stays empty: the rule is the same for every scheme.
        let file = github.uri("file:///etc/hosts").unwrap();
        assert_eq!(file, "file://github//etc/hosts");
        assert_eq!(github.local_uri(&file).unwrap(), "file:///etc/hosts");
        assert_eq!(github.local_uri("repo://gitlab/issues/1"), None);
        assert_eq!(github.local_uri("repo://githubissues/1"), None);
    }

    #[test]
    fn what_cannot_be_namespaced_is_refused() {
        assert!(ns("a").uri("urn:isbn:0451450523").is_err());
        assert!(ns("a").uri("{+base}://x").is_err());
        for bad in [
            "GitHub",
            "has_underscore",
            "has space",
            "slash/",
            &"x".repeat(33),
        ] {
            assert!(Namespace::new(bad).is_err(), "{bad:?}");
        }
        assert!(Namespace::new("team-2").is_ok());
    }

    #[test]
    fn the_empty_namespace_renames_nothing() {
        let none = ns("");
        assert_eq!(none.name("search"), "search");
        assert_eq!(none.local_name("search"), Some("search"));
        assert_eq!(none.uri("urn:isbn:1").unwrap(), "urn:isbn:1");
        assert_eq!(none.local_uri("docs://a").unwrap(), "docs://a");
    }
}
