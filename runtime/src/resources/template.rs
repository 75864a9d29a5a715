//! Placeholder until the template module lands (not committed).
#![allow(dead_code)]
use std::fmt;
pub(crate) struct UriTemplate { text: String, vars: Vec<String> }
#[derive(Debug)]
pub(crate) struct TemplateError(String);
impl fmt::Display for TemplateError { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(&self.0) } }
#[derive(Debug)]
pub(crate) struct Refused { pub(crate) variable: String, pub(crate) reason: &'static str }
impl fmt::Display for Refused { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "the value of `{}` is refused: {}", self.variable, self.reason) } }
impl UriTemplate {
    pub(crate) fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        let mut vars = Vec::new(); let mut rest = text;
        while let Some(i) = rest.find('{') { let j = rest[i..].find('}').ok_or(TemplateError("unclosed".into()))?; vars.push(rest[i+1..i+j].to_owned()); rest = &rest[i+j+1..]; }
        Ok(UriTemplate { text: text.to_owned(), vars })
    }
    pub(crate) fn as_str(&self) -> &str { &self.text }
    pub(crate) fn variables(&self) -> Vec<&str> { self.vars.iter().map(String::as_str).collect() }
    pub(crate) fn is_static(&self) -> bool { self.vars.is_empty() }
    pub(crate) fn matches(&self, uri: &str) -> Result<Option<Vec<(String, String)>>, Refused> {
        if self.is_static() { return Ok((uri == self.text).then(Vec::new)); }
        let mut out = Vec::new(); let mut t = self.text.as_str(); let mut u = uri;
        while let Some(i) = t.find('{') { if !u.starts_with(&t[..i]) { return Ok(None); } u = &u[i..]; let j = t[i..].find('}').unwrap(); let name = &t[i+1..i+j]; t = &t[i+j+1..]; let end = t.find('{').map_or(t, |k| &t[..k]); let stop = if end.is_empty() { u.len() } else { match u.find(end) { Some(p) => p, None => return Ok(None) } }; let v = &u[..stop]; if v.is_empty() || v.contains('/') { return Ok(None); } if v == ".." { return Err(Refused { variable: name.into(), reason: "it climbs out" }); } out.push((name.to_owned(), v.to_owned())); u = &u[stop..]; }
        Ok((u == t).then_some(out))
    }
    pub(crate) fn overlaps(&self, other: &UriTemplate) -> bool { self.text == other.text || (self.is_static() && other.matches(&self.text).map_or(true, |m| m.is_some())) || (other.is_static() && self.matches(&other.text).map_or(true, |m| m.is_some())) }
}
