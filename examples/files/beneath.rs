//! Where a path leads: the folders a call may read (the command line's, narrowed by the
//! client's roots, or widened by them with `--roots-widen`), and what a path names beneath one
//! of them, opened through the folder's handle and never outside it.
//!
//! Each folder is held open, and a path below it is opened through that handle with cap-std:
//! `openat2` with `RESOLVE_BENEATH` on Linux, one component at a time elsewhere. A link is
//! followed while it stays beneath the folder; one that leads out (or is absolute) is refused
//! as outside, whatever it points at and whether that exists, and so is a `..` that climbs out.
//! What the path names is checked on the handle that was opened, so nothing swapped in between
//! a check and a read is read. Files are opened non-blocking (a FIFO cannot hold the open) and
//! read only when regular, at most `MAX_READ` bytes.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, Metadata, OpenOptions};

/// The most bytes read of one file; a larger one is refused rather than held in memory.
pub const MAX_READ: u64 = 8 << 20;

/// A folder the server may read, held open.
#[derive(Clone)]
pub struct Folder {
    /// Its path, as calls name it and `list_allowed_directories` shows it.
    pub path: PathBuf,
    /// Its path as given, when that is not the resolved one (a link on the way to it).
    alias: Option<PathBuf>,
    dir: Arc<Dir>,
}

impl Folder {
    /// The folder at `path`, which the person running the server (or, with `--roots-widen`, the
    /// client) named: resolved, then held open.
    pub fn open(path: &Path) -> io::Result<Folder> {
        let resolved = std::fs::canonicalize(path)?;
        let dir = Dir::open_ambient_dir(&resolved, ambient_authority())?;
        let given = std::path::absolute(path)?;
        Ok(Folder {
            alias: (given != resolved).then_some(given),
            path: resolved,
            dir: Arc::new(dir),
        })
    }

    /// What `path` names below this folder, read as written (nothing is looked up).
    fn below<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        let alias = self.alias.as_deref();
        path.strip_prefix(&self.path)
            .ok()
            .or_else(|| path.strip_prefix(alias?).ok())
    }

    /// Whether the folder lies within `root`.
    fn within(&self, root: &Path) -> bool {
        self.path.starts_with(root) || self.alias.as_ref().is_some_and(|a| a.starts_with(root))
    }
}

/// The folders a call may read, given the command line's (`dirs`) and the paths of the
/// client's roots. No roots: the command line's. By default a root narrows: one inside a
/// command-line folder allows that part of it (opened beneath the folder, so a link there
/// cannot lead out), one that holds a command-line folder allows that folder, and one outside
/// them all allows nothing. With `widen`, the command line's folders are all allowed and each
/// root outside them is added as it is.
pub fn allowed(dirs: &[Folder], roots: &[PathBuf], widen: bool) -> Vec<Folder> {
    let roots: Vec<&PathBuf> = roots.iter().filter(|r| r.is_absolute()).collect();
    if roots.is_empty() {
        return dirs.to_vec();
    }
    let mut folders = match widen {
        true => dirs.to_vec(),
        false => Vec::new(),
    };
    for root in roots {
        let mut meets = false;
        for dir in dirs {
            if let Some(rel) = dir.below(root) {
                meets = true;
                let narrowed = dir.dir.open_dir(dot(rel)).ok().map(|inner| Folder {
                    path: root.clone(),
                    alias: None,
                    dir: Arc::new(inner),
                });
                folders.extend(narrowed.filter(|_| !widen));
            } else if dir.within(root) {
                meets = true;
                if !widen {
                    folders.push(dir.clone());
                }
            }
        }
        if widen && !meets {
            folders.extend(Folder::open(root).ok());
        }
    }
    let mut seen = Vec::new();
    folders.retain(|f| {
        let new = !seen.contains(&f.path);
        seen.push(f.path.clone());
        new
    });
    folders
}

/// A path beneath one of the allowed folders.
pub struct Beneath {
    folder: Folder,
    rel: PathBuf,
}

/// Why a path gives nothing to read.
#[derive(Debug)]
pub enum Refused {
    /// It is outside the folders, or leads out of them (a `..`, a link): whatever is there,
    /// and whether it exists, is not looked at.
    Outside,
    /// It cannot be opened beneath its folder (it does not exist, say).
    Unopened(io::Error),
    /// It is not a regular file: a folder, a FIFO, a socket, a device.
    NotAFile,
    /// It is a file of over `MAX_READ` bytes.
    TooLarge,
    /// Reading it failed.
    Unread(io::Error),
}

/// Where `path` leads: beneath the deepest of `folders` that it names, or outside.
pub fn locate(path: &str, folders: &[Folder]) -> Result<Beneath, Refused> {
    let path = std::path::absolute(path).map_err(|_| Refused::Outside)?;
    folders
        .iter()
        .filter_map(|folder| Some((folder, folder.below(&path)?)))
        .max_by_key(|(folder, _)| folder.path.as_os_str().len())
        .map(|(folder, rel)| Beneath {
            folder: folder.clone(),
            rel: rel.to_path_buf(),
        })
        .ok_or(Refused::Outside)
}

/// An entry of a listed folder: its name, what it is (a link not followed), its size.
pub struct Listed {
    pub name: OsString,
    pub kind: &'static str,
    pub size: u64,
}

impl Beneath {
    /// Its bytes, if it is a regular file of at most `MAX_READ` bytes.
    pub fn read(&self) -> Result<Vec<u8>, Refused> {
        let bytes = self.read_at_most(MAX_READ)?;
        match bytes.len() as u64 > MAX_READ {
            true => Err(Refused::TooLarge),
            false => Ok(bytes),
        }
    }

    /// At most `limit + 1` of its bytes, if it is a regular file: so a caller that needs only
    /// its start (`head`) can take it from a file of any size.
    pub fn read_at_most(&self, limit: u64) -> Result<Vec<u8>, Refused> {
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use cap_std::fs::OpenOptionsExt;
            use rustix::fs::OFlags;
            options.custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32);
        }
        let file = self
            .folder
            .dir
            .open_with(dot(&self.rel), &options)
            .map_err(refused)?;
        if !file.metadata().map_err(Refused::Unread)?.is_file() {
            return Err(Refused::NotAFile);
        }
        let mut bytes = Vec::new();
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Refused::Unread)?;
        Ok(bytes)
    }

    /// The entries of the folder it names, by name.
    pub fn list(&self) -> Result<Vec<Listed>, Refused> {
        let dir = self.folder.dir.open_dir(dot(&self.rel)).map_err(refused)?;
        let mut listed = Vec::new();
        for entry in dir.entries().map_err(Refused::Unread)? {
            let entry = entry.map_err(Refused::Unread)?;
            let meta = entry.metadata().map_err(Refused::Unread)?;
            listed.push(Listed {
                name: entry.file_name(),
                kind: kind(&meta),
                size: if meta.is_file() { meta.len() } else { 0 },
            });
        }
        Ok(listed)
    }

    /// What it is, links beneath the folder followed.
    pub fn metadata(&self) -> Result<Metadata, Refused> {
        match self.rel.as_os_str().is_empty() {
            true => self.folder.dir.dir_metadata(),
            false => self.folder.dir.metadata(&self.rel),
        }
        .map_err(refused)
    }
}

/// `file`, `directory`, `link` or `other`.
pub fn kind(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_file() {
        "file"
    } else if kind.is_dir() {
        "directory"
    } else if kind.is_symlink() {
        "link"
    } else {
        "other"
    }
}

/// The folder itself for an empty path below it.
fn dot(rel: &Path) -> &Path {
    match rel.as_os_str().is_empty() {
        true => Path::new("."),
        false => rel,
    }
}

/// Why an open beneath a folder failed. cap-std refuses a path that would lead out with an
/// error of its own, which carries no OS error code (a real `EACCES` does).
fn refused(error: io::Error) -> Refused {
    match error.kind() == io::ErrorKind::PermissionDenied && error.raw_os_error().is_none() {
        true => Refused::Outside,
        false => Refused::Unopened(error),
    }
}
