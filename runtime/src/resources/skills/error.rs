//! What can go wrong: a skills folder that cannot be served (found when it is loaded, so a
//! server never starts with skills a host would refuse), and a request naming a page or a
//! directory the server does not have (the caller answers `-32602`).

use std::fmt;
use std::path::Path;

/// Why a folder of skills cannot be served: what is wrong and where, the file or folder and
/// the rule it breaks, so the author can fix it without reading the extension's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SkillsError {
    message: String,
}

impl SkillsError {
    /// A problem with the file or folder at `path`.
    pub(crate) fn at(path: &Path, problem: impl fmt::Display) -> SkillsError {
        SkillsError {
            message: format!("{}: {problem}", path.display()),
        }
    }

    /// A problem with a whole skill (its file count, its size), named by its skill path.
    pub(crate) fn skill(skill_path: &str, problem: impl fmt::Display) -> SkillsError {
        SkillsError {
            message: format!("skill `{skill_path}` {problem}"),
        }
    }
}

impl fmt::Display for SkillsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SkillsError {}

/// A cursor this listing did not hand out (another listing's, a stale one, or made up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BadCursor;

impl fmt::Display for BadCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown `cursor`; start again without one")
    }
}

impl std::error::Error for BadCursor {}

/// Why a `resources/directory/read` has no answer; either way the caller answers `-32602`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DirectoryError {
    /// The URI names no folder of a served skill: it is unknown, or it names a file.
    NotADirectory,
    /// The cursor is not one this folder's listing handed out.
    BadCursor,
}

impl From<BadCursor> for DirectoryError {
    fn from(_: BadCursor) -> DirectoryError {
        DirectoryError::BadCursor
    }
}

impl fmt::Display for DirectoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectoryError::NotADirectory => {
                f.write_str("the `uri` names no directory of a served skill")
            }
            DirectoryError::BadCursor => BadCursor.fmt(f),
        }
    }
}

impl std::error::Error for DirectoryError {}
