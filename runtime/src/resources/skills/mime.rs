//! The media type of a skill's file, guessed from its extension, and whether its content is
//! served as text: a small table of what skills hold (instructions, scripts, data, images).

/// The media type of a folder, as `resources/directory/read` lists it.
pub(crate) const DIRECTORY: &str = "inode/directory";

/// What a file's extension says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kind {
    /// Its `mimeType`.
    pub(crate) mime: &'static str,
    /// Whether it is text, served as `text` (when its bytes are UTF-8) rather than a `blob`.
    pub(crate) text: bool,
}

/// Extensions, lowercase, and what they say; anything else is `application/octet-stream`.
const TABLE: &[(&str, &str, bool)] = &[
    ("md", "text/markdown", true),
    ("txt", "text/plain", true),
    ("json", "application/json", true),
    ("yaml", "application/yaml", true),
    ("yml", "application/yaml", true),
    ("py", "text/x-python", true),
    ("sh", "application/x-sh", true),
    ("js", "text/javascript", true),
    ("ts", "text/x-typescript", true),
    ("html", "text/html", true),
    ("css", "text/css", true),
    ("csv", "text/csv", true),
    ("svg", "image/svg+xml", true),
    ("png", "image/png", false),
    ("jpg", "image/jpeg", false),
    ("jpeg", "image/jpeg", false),
    ("pdf", "application/pdf", false),
];

/// What a file named `name` is, by its extension (in any case).
pub(crate) fn of(name: &str) -> Kind {
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    TABLE
        .iter()
        .find(|(known, _, _)| extension.as_deref() == Some(*known))
        .map_or(
            Kind {
                mime: "application/octet-stream",
                text: false,
            },
            |&(_, mime, text)| Kind { mime, text },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_name_a_type_in_any_case() {
        assert_eq!(of("SKILL.md").mime, "text/markdown");
        assert_eq!(of("GUIDE.MD").mime, "text/markdown");
        assert_eq!(of("run.sh").mime, "application/x-sh");
        assert_eq!(of("photo.JPG").mime, "image/jpeg");
        assert!(of("config.yml").text);
        assert!(!of("logo.png").text);
        assert_eq!(of("Makefile").mime, "application/octet-stream");
        assert!(!of("data.bin").text);
    }
}
