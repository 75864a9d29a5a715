//! The blocks of a tool result's `content`: text, image, audio, resource link, embedded
//! resource, each with optional annotations and `_meta`; and how each travels to a revision
//! that cannot carry it.

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::protocol::ProtocolVersion;

/// One block of a tool result's `content`. Build it with the constructors ([`Content::text`],
/// [`Content::image`], [`Content::image_base64`], [`Content::resource`], ...), then add
/// [`Annotations`] or `_meta` with [`Content::with_annotations`] and [`Content::with_meta`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Plain text: `{"type":"text","text":"..."}`.
    #[non_exhaustive]
    Text {
        /// The text.
        text: String,
        /// Who it is for and how much it matters.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
        /// The block's `_meta` (2025-06-18 on).
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// An image, base64-encoded.
    #[non_exhaustive]
    Image {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Who it is for and how much it matters.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
        /// The block's `_meta` (2025-06-18 on).
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// Audio, base64-encoded (2025-03-26 on; sent to older clients as a text note).
    #[non_exhaustive]
    Audio {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
        /// Who it is for and how much it matters.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
        /// The block's `_meta` (2025-06-18 on).
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// A link to a resource (2025-06-18 on; sent to older clients as text with the URI).
    ResourceLink(ResourceLink),
    /// A resource carried in the result.
    #[non_exhaustive]
    Resource {
        /// The resource.
        resource: EmbeddedResource,
        /// Who it is for and how much it matters.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
        /// The block's `_meta` (2025-06-18 on).
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
}

/// Who a block (or a resource) is for, how much it matters, and when it last changed.
///
/// ```
/// # use toolwright_runtime::{Annotations, Content, Role};
/// let note = Content::text("3 files changed")
///     .with_annotations(Annotations::new().audience([Role::User]).priority(0.2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who it is for: the user, the model, or both. Empty for anyone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<Role>,
    /// How much it matters, from 0 (entirely optional) to 1 (effectively required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When it last changed, in ISO 8601 (`2025-01-12T15:00:58Z`; 2025-06-18 on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// No annotations yet.
    pub fn new() -> Annotations {
        Annotations::default()
    }

    /// For these readers only.
    pub fn audience(mut self, audience: impl IntoIterator<Item = Role>) -> Annotations {
        self.audience = audience.into_iter().collect();
        self
    }

    /// How much it matters, from 0 to 1 (a value outside is brought inside; `NaN` is none).
    pub fn priority(mut self, priority: f64) -> Annotations {
        self.priority = (!priority.is_nan()).then(|| priority.clamp(0.0, 1.0));
        self
    }

    /// When it last changed, in ISO 8601.
    pub fn last_modified(mut self, at: impl Into<String>) -> Annotations {
        self.last_modified = Some(at.into());
        self
    }
}

/// A reader of a conversation: the user, or the model (`assistant`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person.
    User,
    /// The model.
    Assistant,
}

/// A link to a resource the client may fetch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes (before any base64 encoding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Who it is for and how much it matters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// The link's `_meta`.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ResourceLink {
    /// A link to `uri`, called `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> ResourceLink {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            meta: None,
        }
    }

    /// The same link, with a title for people.
    pub fn title(mut self, title: impl Into<String>) -> ResourceLink {
        self.title = Some(title.into());
        self
    }

    /// The same link, with a MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> ResourceLink {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The same link, with a description.
    pub fn description(mut self, description: impl Into<String>) -> ResourceLink {
        self.description = Some(description.into());
        self
    }

    /// The same link, with the resource's size in bytes.
    pub fn size(mut self, bytes: u64) -> ResourceLink {
        self.size = Some(bytes);
        self
    }
}

/// The contents of a resource carried in a result: text, or binary data in base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// Its MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its text, for a text resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its base64 data, for a binary resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// The contents' `_meta` (2025-06-18 on).
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl EmbeddedResource {
    /// A text resource.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> EmbeddedResource {
        EmbeddedResource::new(uri.into(), Some(text.into()), None)
    }

    /// A binary resource, from its bytes.
    pub fn blob(uri: impl Into<String>, bytes: &[u8]) -> EmbeddedResource {
        EmbeddedResource::new(uri.into(), None, Some(BASE64.encode(bytes)))
    }

    /// A binary resource, from data already in base64 (RFC 4648, with padding), sent as it is.
    pub fn blob_base64(
        uri: impl Into<String>,
        base64: impl Into<String>,
    ) -> Result<EmbeddedResource, InvalidBase64> {
        let blob = checked(base64.into())?;
        Ok(EmbeddedResource::new(uri.into(), None, Some(blob)))
    }

    fn new(uri: String, text: Option<String>, blob: Option<String>) -> EmbeddedResource {
        EmbeddedResource {
            uri,
            mime_type: None,
            text,
            blob,
            meta: None,
        }
    }

    /// The same resource, with a MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> EmbeddedResource {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The same resource, with an entry in its `_meta`.
    pub fn with_meta(
        mut self,
        key: impl Into<String>,
        value: impl Into<Value>,
    ) -> EmbeddedResource {
        self.meta
            .get_or_insert_default()
            .insert(key.into(), value.into());
        self
    }
}

/// Data handed to a constructor as base64 that is not base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidBase64 {
    /// Where the problem is, in bytes from the start.
    at: usize,
}

impl fmt::Display for InvalidBase64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the data is not base64 (RFC 4648, with padding): unexpected at byte {}",
            self.at
        )
    }
}

impl std::error::Error for InvalidBase64 {}

/// `data` if it is base64 in the standard alphabet with padding, as MCP's `data` and `blob`
/// fields are: checked without decoding it.
fn checked(data: String) -> Result<String, InvalidBase64> {
    let bytes = data.as_bytes();
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    let body = &bytes[..bytes.len() - padding];
    let alphabet = |b: &u8| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/';
    if let Some(at) = body.iter().position(|b| !alphabet(b)) {
        return Err(InvalidBase64 { at });
    }
    if padding > 2 || !bytes.len().is_multiple_of(4) {
        return Err(InvalidBase64 { at: body.len() });
    }
    Ok(data)
}

impl From<String> for Content {
    fn from(text: String) -> Content {
        Content::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Content {
        Content::text(text)
    }
}

impl Content {
    /// The URI of a link or an embedded resource, changed where `rewrite` gives another (a
    /// mounted server's own resources, as the server it is mounted into serves them).
    pub(crate) fn rewrite_uri(&mut self, rewrite: &dyn Fn(&str) -> Option<String>) {
        let uri = match self {
            Content::ResourceLink(link) => &mut link.uri,
            Content::Resource { resource, .. } => &mut resource.uri,
            _ => return,
        };
        if let Some(rewritten) = rewrite(uri) {
            *uri = rewritten;
        }
    }

    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }

    /// An image from its bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::image_unchecked(BASE64.encode(bytes), mime_type.into())
    }

    /// An image from data already in base64 (RFC 4648, with padding), sent as it is, without
    /// decoding and encoding it again.
    pub fn image_base64(
        base64: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> Result<Content, InvalidBase64> {
        Ok(Content::image_unchecked(
            checked(base64.into())?,
            mime_type.into(),
        ))
    }

    fn image_unchecked(data: String, mime_type: String) -> Content {
        Content::Image {
            data,
            mime_type,
            annotations: None,
            meta: None,
        }
    }

    /// Audio from its bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::audio_unchecked(BASE64.encode(bytes), mime_type.into())
    }

    /// Audio from data already in base64 (RFC 4648, with padding), sent as it is.
    pub fn audio_base64(
        base64: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> Result<Content, InvalidBase64> {
        Ok(Content::audio_unchecked(
            checked(base64.into())?,
            mime_type.into(),
        ))
    }

    fn audio_unchecked(data: String, mime_type: String) -> Content {
        Content::Audio {
            data,
            mime_type,
            annotations: None,
            meta: None,
        }
    }

    /// A link to a resource.
    pub fn resource_link(link: ResourceLink) -> Content {
        Content::ResourceLink(link)
    }

    /// A resource carried in the result.
    pub fn resource(resource: EmbeddedResource) -> Content {
        Content::Resource {
            resource,
            annotations: None,
            meta: None,
        }
    }

    /// A text resource carried in the result.
    pub fn text_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::resource(EmbeddedResource::text(uri, text).mime_type(mime_type))
    }

    /// A binary resource carried in the result.
    pub fn blob_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: &[u8],
    ) -> Content {
        Content::resource(EmbeddedResource::blob(uri, bytes).mime_type(mime_type))
    }

    /// The same block, with these annotations.
    pub fn with_annotations(mut self, annotations: Annotations) -> Content {
        *self.parts().0 = Some(annotations);
        self
    }

    /// The same block, with an entry in its `_meta` (a key of your own, prefixed with a domain
    /// you control: `com.example/source`). Sent from 2025-06-18 on.
    pub fn with_meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Content {
        self.parts()
            .1
            .get_or_insert_default()
            .insert(key.into(), value.into());
        self
    }

    /// The block's annotations and `_meta`.
    fn parts(&mut self) -> (&mut Option<Annotations>, &mut Option<Map<String, Value>>) {
        match self {
            Content::Text {
                annotations, meta, ..
            }
            | Content::Image {
                annotations, meta, ..
            }
            | Content::Audio {
                annotations, meta, ..
            }
            | Content::Resource {
                annotations, meta, ..
            } => (annotations, meta),
            Content::ResourceLink(link) => (&mut link.annotations, &mut link.meta),
        }
    }

    /// The block as `version` can carry it: audio before 2025-03-26 and resource links before
    /// 2025-06-18 become text that says what they were, so nothing vanishes unexplained; `_meta`
    /// and `lastModified` are left out before 2025-06-18.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> Cow<'_, Content> {
        let note = match self {
            Content::Audio {
                data, mime_type, ..
            } if !version.has_audio() => Some(format!(
                "[{mime_type} audio, {} bytes of base64, not shown: protocol {version} cannot carry audio]",
                data.len()
            )),
            Content::ResourceLink(link) if !version.has_resource_links() => {
                Some(format!("{}: {}", link.name, link.uri))
            }
            _ => None,
        };
        let mut block = match note {
            Some(note) => {
                let mut text = Content::text(note);
                *text.parts().0 = self.extras().0.cloned();
                Cow::Owned(text)
            }
            None => Cow::Borrowed(self),
        };
        if !version.has_content_meta() && block.has_newer_fields() {
            block.to_mut().drop_newer_fields();
        }
        block
    }

    /// The block's annotations and `_meta`, to read.
    fn extras(&self) -> (Option<&Annotations>, Option<&Map<String, Value>>) {
        match self {
            Content::Text {
                annotations, meta, ..
            }
            | Content::Image {
                annotations, meta, ..
            }
            | Content::Audio {
                annotations, meta, ..
            }
            | Content::Resource {
                annotations, meta, ..
            } => (annotations.as_ref(), meta.as_ref()),
            Content::ResourceLink(link) => (link.annotations.as_ref(), link.meta.as_ref()),
        }
    }

    /// Whether it has what only 2025-06-18 and later define: `_meta`, `lastModified`.
    fn has_newer_fields(&self) -> bool {
        let (annotations, meta) = self.extras();
        let resource_meta =
            matches!(self, Content::Resource { resource, .. } if resource.meta.is_some());
        meta.is_some() || resource_meta || annotations.is_some_and(|a| a.last_modified.is_some())
    }

    fn drop_newer_fields(&mut self) {
        if let Content::Resource { resource, .. } = self {
            resource.meta = None;
        }
        let (annotations, meta) = self.parts();
        *meta = None;
        if let Some(annotations) = annotations {
            annotations.last_modified = None;
        }
    }

    /// The block's text, when it is a plain text block with nothing beside it: what a result
    /// writes without serde.
    pub(crate) fn plain_text(&self) -> Option<&str> {
        match self {
            Content::Text {
                text,
                annotations: None,
                meta: None,
            } => Some(text),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_is_checked_not_decoded() {
        assert!(Content::image_base64("iVBORw0KGgo=", "image/png").is_ok());
        assert!(Content::audio_base64("", "audio/wav").is_ok());
        let error = Content::image_base64("iVBO Rw0K", "image/png").unwrap_err();
        assert_eq!(
            error.to_string(),
            "the data is not base64 (RFC 4648, with padding): unexpected at byte 4"
        );
        assert_eq!(checked("abc".into()), Err(InvalidBase64 { at: 3 }));
        assert_eq!(checked("a===".into()), Err(InvalidBase64 { at: 1 }));
        assert_eq!(checked("ab=c".into()), Err(InvalidBase64 { at: 2 }));
        assert!(EmbeddedResource::blob_base64("file:///a", "AAEC").is_ok());
    }

    #[test]
    fn every_block_with_annotations_and_meta() {
        let annotations = Annotations::new()
            .audience([Role::User, Role::Assistant])
            .priority(1.5)
            .last_modified("2025-01-12T15:00:58Z");
        let block = Content::resource(
            EmbeddedResource::blob_base64("file:///a.bin", "AAEC")
                .unwrap()
                .mime_type("application/octet-stream")
                .with_meta("com.example/origin", "disk"),
        )
        .with_annotations(annotations)
        .with_meta("com.example/source", 3);
        let full = json!({"type": "resource",
            "resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream",
                         "blob": "AAEC", "_meta": {"com.example/origin": "disk"}},
            "annotations": {"audience": ["user", "assistant"], "priority": 1.0,
                            "lastModified": "2025-01-12T15:00:58Z"},
            "_meta": {"com.example/source": 3}});
        let shaped = |v| serde_json::to_value(&*block.for_version(v)).unwrap();
        assert_eq!(shaped(ProtocolVersion::V2025_06_18), full);
        assert_eq!(
            shaped(ProtocolVersion::V2025_03_26),
            json!({"type": "resource",
                "resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream",
                             "blob": "AAEC"},
                "annotations": {"audience": ["user", "assistant"], "priority": 1.0}})
        );
        let link = Content::resource_link(
            ResourceLink::new("file:///r.md", "r.md")
                .title("Readme")
                .size(12),
        )
        .with_annotations(Annotations::new().priority(0.5));
        assert_eq!(
            serde_json::to_value(&*link.for_version(ProtocolVersion::V2025_03_26)).unwrap(),
            json!({"type": "text", "text": "r.md: file:///r.md", "annotations": {"priority": 0.5}})
        );
        assert!(matches!(
            Content::text("a").for_version(ProtocolVersion::V2024_11_05),
            Cow::Borrowed(_)
        ));
    }
}
