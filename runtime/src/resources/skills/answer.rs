//! The answers of the extension's methods, as JSON values the caller wraps in the result of
//! the request's revision (`resultType`, `ttlMs`, `cacheScope`): `skills/list` and
//! `resources/directory/read` a page at a time, `skills/get`, `resources/read` of any file of
//! a skill, and the `resources/list` entries of the `SKILL.md` files.
//!
//! Cursors are opaque to clients: here a listing's tag (a digest of what it lists, and of the
//! folder for a folder's listing) and the offset of the page. Any server holding the same files
//! honours a cursor, with no state kept between requests; one made for other files or another
//! folder is refused rather than read at the wrong place. None is ever `""`, which clients may
//! take for the end.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value, json};

use crate::resources::skills::error::{BadCursor, DirectoryError};
use crate::resources::skills::load::{File, MANIFEST_INDEX, Place, Skills};
use crate::resources::skills::uri;

impl Skills {
    /// `skills/list` page: `{"skills":[entry..], "nextCursor"?}` (no resultType/ttl; the
    /// caller adds the revision's fields). Entries are atomic across pages: a page holds
    /// `page_size` whole entries (at least one). An unknown cursor is `Err`.
    pub(crate) fn list(&self, cursor: Option<&str>, page_size: usize) -> Result<Value, BadCursor> {
        let (entries, next) = page(&self.skills, &self.tag, cursor, page_size, |skill| {
            skill.entry.clone()
        })?;
        Ok(paged("skills", entries, next))
    }

    /// `skills/get`: `{"skill": entry}`, or `None` for a URI that is not a served skill's
    /// `SKILL.md`.
    pub(crate) fn get(&self, uri: &str) -> Option<Value> {
        match self.place(uri)? {
            Place::File {
                skill,
                file: MANIFEST_INDEX,
            } => Some(json!({ "skill": self.skills[skill].entry })),
            _ => None,
        }
    }

    /// `resources/read` of any file of any skill: its contents entry, `{uri, mimeType, text}`
    /// for a text file whose bytes are UTF-8, `{uri, mimeType, blob}` (base64) otherwise;
    /// `None` for a URI that is not a served file.
    pub(crate) fn read(&self, uri: &str) -> Option<Value> {
        match self.place(uri)? {
            Place::File { skill, file } => Some(contents(&self.skills[skill].files[file])),
            Place::Folder { .. } => None,
        }
    }

    /// `resources/directory/read`: the direct children of a folder of a skill (its root
    /// `skill://<skill-path>` too), each `{uri, name, mimeType}` (a folder is
    /// `inode/directory`, its URI without a trailing slash), paginated as [`Skills::list`].
    /// `Err(NotADirectory)` for an unknown URI or a file.
    pub(crate) fn directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Value, DirectoryError> {
        let Some(Place::Folder { skill, folder }) = self.place(uri) else {
            return Err(DirectoryError::NotADirectory);
        };
        let folder = &self.skills[skill].folders[folder];
        let (children, next) = page(&folder.children, &folder.tag, cursor, page_size, |child| {
            child.clone()
        })?;
        Ok(paged("resources", children, next))
    }

    /// The `resources/list` entries of the skills' `SKILL.md` files: `{uri, name, description,
    /// mimeType, size}`, named and described by their frontmatter, as hosts check.
    pub(crate) fn listed(&self) -> Vec<Value> {
        self.skills
            .iter()
            .map(|skill| {
                let manifest = &skill.files[MANIFEST_INDEX];
                json!({
                    "uri": manifest.uri,
                    "name": skill.name,
                    "description": skill.description,
                    "mimeType": manifest.kind.mime,
                    "size": manifest.bytes.len(),
                })
            })
            .collect()
    }

    /// What a URI leads to, however the client percent-encoded it.
    fn place(&self, uri: &str) -> Option<Place> {
        self.places.get(&uri::canonical(uri)?).copied()
    }
}

/// A file's contents entry: text when it is a text file and its bytes are UTF-8 (so its bytes
/// are the UTF-8 of the text), a blob otherwise; either way the bytes the digest covers.
fn contents(file: &File) -> Value {
    match std::str::from_utf8(&file.bytes) {
        Ok(text) if file.kind.text => {
            json!({ "uri": file.uri, "mimeType": file.kind.mime, "text": text })
        }
        _ => json!({
            "uri": file.uri,
            "mimeType": file.kind.mime,
            "blob": BASE64.encode(&file.bytes),
        }),
    }
}

/// The page of `items` a cursor points at (the first without one), rendered, and the cursor
/// of the next page if there is one.
fn page<T>(
    items: &[T],
    tag: &str,
    cursor: Option<&str>,
    size: usize,
    render: impl Fn(&T) -> Value,
) -> Result<(Vec<Value>, Option<String>), BadCursor> {
    let start = match cursor {
        None => 0,
        Some(cursor) => offset_of(cursor, tag, items.len()).ok_or(BadCursor)?,
    };
    let end = start.saturating_add(size.max(1)).min(items.len());
    let next = (end < items.len()).then(|| format!("{tag}.{end}"));
    Ok((items[start..end].iter().map(render).collect(), next))
}

/// The offset a cursor of this listing points at: one it could have handed out.
fn offset_of(cursor: &str, tag: &str, len: usize) -> Option<usize> {
    let offset: usize = cursor.strip_prefix(tag)?.strip_prefix('.')?.parse().ok()?;
    // Spelt exactly as handed out (no `+3`, no `03`), and short of the end.
    let handed_out = cursor == format!("{tag}.{offset}") && offset > 0 && offset < len;
    handed_out.then_some(offset)
}

/// `{key: items, "nextCursor"?}`.
fn paged(key: &str, items: Vec<Value>, next: Option<String>) -> Value {
    let mut result = Map::new();
    result.insert(key.to_owned(), Value::Array(items));
    if let Some(next) = next {
        result.insert("nextCursor".to_owned(), Value::String(next));
    }
    Value::Object(result)
}
