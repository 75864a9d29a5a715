//! The blocks of a tool result's `content`: text, image, audio, resource link, embedded
//! resource, and how each travels to a revision that cannot carry it.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Serialize;

use crate::protocol::ProtocolVersion;

/// One block of a tool result's `content`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Plain text: `{"type":"text","text":"..."}`.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded (2025-03-26 on; sent to older clients as a text note).
    Audio {
        /// The base64 data.
        data: String,
        /// Its MIME type, like `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource (2025-06-18 on; sent to older clients as text with the URI).
    ResourceLink(ResourceLink),
    /// A resource carried in the result.
    Resource {
        /// The resource.
        resource: EmbeddedResource,
    },
}

/// A link to a resource the client may fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// Its size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
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
        }
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
}

/// The contents of a resource carried in a result: text or binary.
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
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }

    /// An image from its bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: BASE64.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// Audio from its bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: BASE64.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// A link to a resource.
    pub fn resource_link(link: ResourceLink) -> Content {
        Content::ResourceLink(link)
    }

    /// A text resource carried in the result.
    pub fn text_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: Some(text.into()),
                blob: None,
            },
        }
    }

    /// A binary resource carried in the result.
    pub fn blob_resource(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: &[u8],
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: None,
                blob: Some(BASE64.encode(bytes)),
            },
        }
    }

    /// The block as `version` can carry it: audio before 2025-03-26 and resource links before
    /// 2025-06-18 become text that says what they were, so nothing vanishes unexplained.
    pub(crate) fn for_version(&self, version: ProtocolVersion) -> Cow<'_, Content> {
        match self {
            Content::Audio { data, mime_type } if !version.has_audio() => {
                Cow::Owned(Content::text(format!(
                    "[{mime_type} audio, {} bytes of base64, not shown: protocol {version} cannot carry audio]",
                    data.len()
                )))
            }
            Content::ResourceLink(link) if !version.has_resource_links() => {
                Cow::Owned(Content::text(format!("{}: {}", link.name, link.uri)))
            }
            other => Cow::Borrowed(other),
        }
    }
}
