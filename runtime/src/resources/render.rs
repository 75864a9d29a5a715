//! A resource's `resources/list` entry, a template's `resources/templates/list` entry, and a
//! `resources/read` result, as each revision expects them: `title` and `_meta` from
//! 2025-06-18, `icons` from 2025-11-25, `lastModified` in annotations from 2025-06-18, and on
//! 2026-07-28 `resultType` with the cache hints `ttlMs` and `cacheScope`, which every read
//! carries (`ReadResourceResult` is cacheable).
//!
//! Policy: a resource the function says does not exist is the revision's not-found error
//! (`-32002` until 2025-11-25, `-32602` on 2026-07-28, both with `data.uri`), and so is a URI
//! whose values the parameters cannot take (`item://abc` for a number); the function's own
//! error is `-32603` with its message; a panic is `-32603`, masked.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::protocol::ProtocolVersion;
use crate::protocol::jsonrpc::{self, ProtocolError};
use crate::protocol::wire::{Cache, Icon, Modern};
use crate::resources::contents::{ResourceOutput, ResourceRepr};
use crate::tools::content::{Annotations, EmbeddedResource};
use crate::tools::render::{OUTSIDE_ROUNDS, Rendered, chosen_error, masked_error};

/// What a list entry of a resource or a template is made of, before the revision chooses its
/// fields.
pub(crate) struct ResourceEntry<'a> {
    /// The URI, or the URI template.
    pub(crate) uri: &'a str,
    /// Whether `uri` is a template.
    pub(crate) template: bool,
    pub(crate) name: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) description: Option<&'a str>,
    pub(crate) mime_type: Option<&'a str>,
    pub(crate) size: Option<u64>,
    pub(crate) annotations: Option<&'a Annotations>,
    pub(crate) icons: &'a [Icon],
    pub(crate) meta: Option<&'a RawValue>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourceOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    uri: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_template: Option<&'a str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<std::borrow::Cow<'a, Annotations>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    icons: &'a [Icon],
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a RawValue>,
}

impl<'a> ResourceEntry<'a> {
    /// The entry as `version` lists it.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> ResourceOut<'a> {
        let modern = version.has_titles();
        let annotations = self.annotations.map(|a| match modern {
            true => std::borrow::Cow::Borrowed(a),
            false => std::borrow::Cow::Owned(Annotations {
                last_modified: None,
                ..a.clone()
            }),
        });
        ResourceOut {
            uri: (!self.template).then_some(self.uri),
            uri_template: self.template.then_some(self.uri),
            name: self.name,
            title: self.title.filter(|_| modern),
            description: self.description,
            mime_type: self.mime_type,
            size: self.size.filter(|_| !self.template),
            annotations,
            icons: if version.has_icons() { self.icons } else { &[] },
            meta: self.meta.filter(|_| modern),
        }
    }
}

#[derive(Serialize)]
struct ReadResult<'a> {
    contents: Vec<ContentsOut<'a>>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cache: Option<Cache>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    modern: Option<Modern<'a>>,
}

/// One entry of `contents`: `_meta` only where the revision has it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContentsOut<'a> {
    uri: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blob: Option<&'a str>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

fn contents_for(resource: &EmbeddedResource, version: ProtocolVersion) -> ContentsOut<'_> {
    ContentsOut {
        uri: &resource.uri,
        mime_type: resource.mime_type.as_deref(),
        // A resource is text or a blob; one with neither is empty text, never neither.
        text: resource
            .text
            .as_deref()
            .or(resource.blob.is_none().then_some("")),
        blob: resource.blob.as_deref(),
        meta: resource
            .meta
            .as_ref()
            .filter(|_| version.has_content_meta()),
    }
}

/// What shaping a read's output needs besides the output.
pub(crate) struct ReadRenderer<'a> {
    pub(crate) name: &'a str,
    /// The URI read.
    pub(crate) uri: &'a str,
    pub(crate) expose_internal_errors: bool,
    pub(crate) server_meta: &'a RawValue,
    pub(crate) cache: Cache,
    /// Whether the request's client takes URL elicitations (for an error that asks for them).
    pub(crate) client_takes_urls: bool,
}

/// The `resources/read` response for `output` under `version`.
pub(crate) fn read_result(
    renderer: &ReadRenderer<'_>,
    version: ProtocolVersion,
    id: &RawValue,
    output: ResourceOutput,
) -> Rendered {
    match output.repr {
        ResourceRepr::Contents(contents) => {
            let modern = Modern::of(renderer.server_meta, version);
            let result = ReadResult {
                contents: contents.iter().map(|c| contents_for(c, version)).collect(),
                cache: modern.map(|_| renderer.cache),
                modern,
            };
            Rendered::result(jsonrpc::result_line(id, &result))
        }
        ResourceRepr::NotFound => {
            let uri = renderer.uri;
            let error = ProtocolError::resource_not_found(version, uri, None);
            Rendered::error(id, &error)
        }
        // A URI whose values the function's parameters cannot take names no resource.
        ResourceRepr::InvalidArguments(error) => {
            let uri = renderer.uri;
            let detail = match error.path.as_str() {
                // The values as a whole: one is missing.
                "." => error.message,
                path if error.message.starts_with("must") => {
                    format!("the variable `{{{path}}}` {}", error.message)
                }
                path => format!("the variable `{{{path}}}` does not fit: {}", error.message),
            };
            let error = ProtocolError::resource_not_found(version, uri, Some(&detail));
            Rendered::error(id, &error)
        }
        ResourceRepr::Failed(message) => Rendered::error(id, &ProtocolError::failed(&message)),
        ResourceRepr::Chosen(chosen) => {
            let error = chosen_error(&chosen, version, renderer.client_takes_urls);
            Rendered::error(id, &error)
        }
        ResourceRepr::InputRequired(_) => {
            let detail = OUTSIDE_ROUNDS;
            let expose = renderer.expose_internal_errors;
            Rendered::error(id, &masked_error("resource", renderer.name, expose, detail))
        }
        ResourceRepr::Internal(detail) => {
            let error = masked_error(
                "resource",
                renderer.name,
                renderer.expose_internal_errors,
                &detail,
            );
            Rendered::error(id, &error)
        }
    }
}
