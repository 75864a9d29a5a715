//! Reading a folder of skills once, when the server is built: finding the skills, holding each
//! to the extension's rules, and keeping every file's bytes, from which its digest and size are
//! computed, so that what the listing promises is what a read returns.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::resources::skills::disk::{self, Dir, Unread};
use crate::resources::skills::error::SkillsError;
use crate::resources::skills::frontmatter::{self, Frontmatter};
use crate::resources::skills::mime::{self, Kind};
use crate::resources::skills::uri;

/// The file at a skill's root that makes its folder a skill.
const MANIFEST: &str = "SKILL.md";
/// Where a skill's `SKILL.md` is among its files: first, as its listing entry has it.
pub(super) const MANIFEST_INDEX: usize = 0;
/// The most files a host must accept in one skill, `SKILL.md` included.
const MAX_FILES: usize = 512;
/// The most bytes a host must accept in one skill, its files together (16 MiB).
const MAX_BYTES: u64 = 16 * MIB;
const MIB: u64 = 1024 * 1024;

/// The skills served from one directory, read once when the server is built (digests and
/// sizes computed from the exact bytes served, so the listing and the contents stay in
/// lockstep).
pub(crate) struct Skills {
    /// The skills, by skill path.
    pub(super) skills: Vec<Skill>,
    /// Where each URI served leads, by the URI as this server spells it.
    pub(super) places: BTreeMap<String, Place>,
    /// What cursors of `skills/list` carry: a digest of the whole listing, so that a cursor
    /// made for other files is refused rather than read at the wrong place.
    pub(super) tag: String,
}

/// One skill, as it is served.
pub(super) struct Skill {
    /// Its `skills/list` and `skills/get` entry.
    pub(super) entry: Value,
    /// Its frontmatter `name` and `description`, for its `SKILL.md` in `resources/list`.
    pub(super) name: String,
    pub(super) description: String,
    /// Its files, `SKILL.md` first, then depth first by name.
    pub(super) files: Vec<File>,
    /// Its folders, its root among them.
    pub(super) folders: Vec<Folder>,
}

/// One file of a skill, held in memory as it was read.
pub(super) struct File {
    pub(super) uri: String,
    pub(super) kind: Kind,
    pub(super) bytes: Vec<u8>,
}

/// One folder of a skill, and what `resources/directory/read` lists of it.
pub(super) struct Folder {
    pub(super) uri: String,
    /// Its direct children, `{uri, name, mimeType}`, by name.
    pub(super) children: Vec<Value>,
    /// What the cursors of its listing carry: the listing's tag and this folder together.
    pub(super) tag: String,
}

/// What a URI leads to: a skill's file or folder, by their indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    File { skill: usize, file: usize },
    Folder { skill: usize, folder: usize },
}

/// A file or folder seen on disk.
#[derive(Clone)]
struct Entry {
    name: String,
    /// Where it is, for messages only: it is opened through its folder, by name.
    path: PathBuf,
    is_dir: bool,
    len: u64,
}

/// What a skill's folder holds, as seen on disk before its files are read: paths are lists
/// of names below the skill's root.
#[derive(Default)]
struct Tree {
    files: Vec<(Vec<String>, Entry)>,
    folders: Vec<(Vec<String>, Vec<Entry>)>,
}

impl Skills {
    /// The skills of one folder.
    #[cfg(test)]
    pub(crate) fn load(root: &Path) -> Result<Skills, SkillsError> {
        Skills::load_all(&[(root.to_owned(), Vec::new())])
    }

    /// Every folder under a root holding a SKILL.md is a skill; its path below root is the
    /// skill path (`acme/billing/refunds`), the URI `skill://<skill-path>/SKILL.md`. A SKILL.md
    /// nested inside another skill's folder is a supporting file of the enclosing skill (the
    /// listing stays flat, and each file has one URI). Hidden files and folders are skipped;
    /// a symbolic link is refused, never followed, and so is anything but a file or a folder.
    /// Every folder is opened once and its entries through it (see `disk`), so a link or a
    /// FIFO swapped in while the folder is read is refused too, never read through.
    ///
    /// Several folders are served as one: each folder's skills below its `prefix` (a mounted
    /// server's, below its namespaces: `skill://<namespace>/<skill-path>/SKILL.md`). Two
    /// folders that would serve one skill path are refused, naming both.
    pub(crate) fn load_all(folders: &[(PathBuf, Vec<String>)]) -> Result<Skills, SkillsError> {
        let mut skills = Vec::new();
        let mut roots: Vec<&Path> = Vec::new();
        for (root, prefix) in folders {
            let dir = Dir::open(root).map_err(|e| unreadable(root, e))?;
            let mut names = prefix.clone();
            let before = skills.len();
            find(&dir, root, prefix.len(), &mut names, &mut skills)?;
            roots.extend(std::iter::repeat_n(root.as_path(), skills.len() - before));
        }
        // Skills of different folders: one may not lie inside another's folder, where its
        // files would be the other's too (each URI leads to one file).
        let root_of = |skill: &Skill| {
            let manifest = &skill.files[MANIFEST_INDEX].uri;
            manifest[..manifest.len() - MANIFEST.len()].to_owned()
        };
        for (i, skill) in skills.iter().enumerate() {
            let (here, uri) = (root_of(skill), &skill.files[MANIFEST_INDEX].uri);
            let clash = (skills[..i].iter().enumerate()).find(|(j, other)| {
                let there = root_of(other);
                !std::ptr::eq(roots[*j], roots[i])
                    && (here.starts_with(&there) || there.starts_with(&here))
            });
            if let Some((j, other)) = clash {
                return Err(SkillsError::at(
                    roots[i],
                    format_args!(
                        "serves `{uri}`, and the skills folder {} serves `{}`: one skill \
                         would lie inside the other's folder; give one of them another folder \
                         name or namespace",
                        roots[j].display(),
                        other.files[MANIFEST_INDEX].uri
                    ),
                ));
            }
        }
        Ok(Skills::index(skills))
    }

    /// The skills with their URIs indexed and their listings tagged.
    fn index(mut skills: Vec<Skill>) -> Skills {
        let entries: Vec<Value> = skills.iter().map(|s| s.entry.clone()).collect();
        let tag = tag_of(&[&Value::Array(entries).to_string()]);
        let mut places = BTreeMap::new();
        for (s, skill) in skills.iter_mut().enumerate() {
            for (file, f) in skill.files.iter().enumerate() {
                places.insert(f.uri.clone(), Place::File { skill: s, file });
            }
            for (folder, f) in skill.folders.iter_mut().enumerate() {
                f.tag = tag_of(&[&tag, &f.uri]);
                places.insert(f.uri.clone(), Place::Folder { skill: s, folder });
            }
        }
        Skills {
            skills,
            places,
            tag,
        }
    }
}

/// The skills under `dir` (at `path`), whose path below the root is `names` (the first `root`
/// of them the prefix the folder is served under), read into
/// `skills`: a folder holding a `SKILL.md` is a skill, and nothing under it is searched for
/// another.
fn find(
    dir: &Dir,
    path: &Path,
    root: usize,
    names: &mut Vec<String>,
    skills: &mut Vec<Skill>,
) -> Result<(), SkillsError> {
    let entries = entries(dir, path)?;
    if entries.iter().any(|e| !e.is_dir && e.name == MANIFEST) {
        if names.len() == root {
            return Err(SkillsError::at(
                &path.join(MANIFEST),
                "a skill needs a folder of its own, named as its `name`, below the skills folder",
            ));
        }
        skills.push(read_skill(dir, path, names)?);
        return Ok(());
    }
    for entry in entries.into_iter().filter(|e| e.is_dir) {
        let child = open_folder(dir, &entry)?;
        names.push(entry.name);
        find(&child, &entry.path, root, names, skills)?;
        names.pop();
    }
    Ok(())
}

/// A symbolic link is refused, since following it could serve files from outside the skills
/// folder.
const LINK: &str = "a symbolic link, which is not followed (it could lead outside the skills \
                    folder); put the file itself here";
const NOT_A_FILE: &str = "neither a file nor a folder";

fn unreadable(path: &Path, e: std::io::Error) -> SkillsError {
    SkillsError::at(path, format_args!("cannot be read: {e}"))
}

/// The visible files and folders of `dir` (at `path`), by name. Hidden ones (`.git`,
/// `.DS_Store`) are skipped; a symbolic link is refused, and so is what is neither a file nor a
/// folder (a FIFO, a device); a name that is not UTF-8 is refused, since no URI could name it.
fn entries(dir: &Dir, path: &Path) -> Result<Vec<Entry>, SkillsError> {
    let mut entries = Vec::new();
    for seen in dir.entries().map_err(|e| unreadable(path, e))? {
        let at = path.join(&seen.name);
        let Ok(name) = seen.name.into_string() else {
            return Err(SkillsError::at(
                &at,
                "the name is not UTF-8, so no URI can name it",
            ));
        };
        if name.starts_with('.') {
            continue;
        }
        let is_dir = match seen.kind {
            disk::Kind::Folder => true,
            disk::Kind::File => false,
            disk::Kind::Link => return Err(SkillsError::at(&at, LINK)),
            disk::Kind::Other => return Err(SkillsError::at(&at, NOT_A_FILE)),
        };
        entries.push(Entry {
            name,
            path: at,
            is_dir,
            len: seen.len,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// The folder `entry` of `dir`, refused if it is a link by now.
fn open_folder(dir: &Dir, entry: &Entry) -> Result<Dir, SkillsError> {
    dir.folder(OsStr::new(&entry.name))
        .map_err(|e| unreadable(&entry.path, e))
}

/// The skill in `dir` (at `path`), whose path below the root is `names`.
fn read_skill(dir: &Dir, path: &Path, names: &[String]) -> Result<Skill, SkillsError> {
    let skill_path = names.join("/");
    check_names(path, names)?;
    let tree = Tree::of(dir, path, &skill_path)?;
    let uri_of = |rel: &[String]| uri::uri_of(names.iter().chain(rel).map(String::as_str));
    let mut files = Vec::with_capacity(tree.files.len());
    let mut read = 0;
    for (rel, entry) in &tree.files {
        // The files may have grown since they were listed: what is read stops past the size a
        // host must accept, and what was read is what is served.
        let bytes = read_file(dir, rel, entry, MAX_BYTES.saturating_sub(read))?;
        read = read.saturating_add(byte_len(&bytes));
        check_size(&skill_path, read)?;
        files.push(File {
            uri: uri_of(rel),
            kind: mime::of(&entry.name),
            bytes,
        });
    }
    let frontmatter = manifest(path, names, &files[MANIFEST_INDEX].bytes)?;
    let folders = tree
        .folders
        .iter()
        .map(|(rel, children)| folder(uri_of(rel), children))
        .collect();
    Ok(Skill {
        entry: entry(&files, frontmatter.fields),
        name: frontmatter.name,
        description: frontmatter.description,
        files,
        folders,
    })
}

/// The frontmatter of a skill's `SKILL.md`, whose `name` must be its folder's.
fn manifest(dir: &Path, names: &[String], bytes: &[u8]) -> Result<Frontmatter, SkillsError> {
    let path = dir.join(MANIFEST);
    let text =
        std::str::from_utf8(bytes).map_err(|_| SkillsError::at(&path, "is not UTF-8 text"))?;
    let frontmatter = frontmatter::read(text).map_err(|problem| SkillsError::at(&path, problem))?;
    let folder_name = names.last().map_or("", String::as_str);
    if frontmatter.name != folder_name {
        return Err(SkillsError::at(
            &path,
            format_args!(
                "frontmatter `name` is `{}`, but the folder is `{folder_name}`",
                frontmatter.name
            ),
        ));
    }
    Ok(frontmatter)
}

/// The rules on a skill path: its last folder keeps the naming rules (it must also equal the
/// frontmatter `name`), and its first sits in the URI's authority.
fn check_names(dir: &Path, names: &[String]) -> Result<(), SkillsError> {
    let last = names.last().map_or("", String::as_str);
    if !uri::is_skill_name(last) {
        return Err(SkillsError::at(
            dir,
            format_args!(
                "the name `{last}` breaks the naming rules (lowercase letters, digits and single \
                 hyphens, 1 to 64 characters)"
            ),
        ));
    }
    let first = names.first().map_or("", String::as_str);
    if !uri::is_authority(first) {
        let first_dir = dir
            .ancestors()
            .nth(names.len().saturating_sub(1))
            .unwrap_or(dir);
        return Err(SkillsError::at(
            first_dir,
            format_args!(
                "the folder `{first}` is the authority of its skills' URIs (`skill://{first}/...`), \
                 so it may hold only lowercase letters, digits, `-`, `.`, `_` and `~`"
            ),
        ));
    }
    Ok(())
}

impl Tree {
    /// What the skill in `dir` (at `path`) holds, within the limits a host must accept, its
    /// `SKILL.md` first.
    fn of(dir: &Dir, path: &Path, skill_path: &str) -> Result<Tree, SkillsError> {
        let mut tree = Tree::default();
        walk(dir, path, &mut Vec::new(), &mut tree, skill_path)?;
        check_size(skill_path, total(tree.files.iter().map(|(_, e)| e.len)))?;
        let manifest = tree
            .files
            .iter()
            .position(|(rel, _)| rel.len() == 1 && rel[0] == MANIFEST)
            .ok_or_else(|| SkillsError::at(path, "has no SKILL.md any more"))?;
        let first = tree.files.remove(manifest);
        tree.files.insert(MANIFEST_INDEX, first);
        Ok(tree)
    }
}

/// Everything in a skill's folder `dir` (at `path`), depth first, into `tree`; `rel` is the
/// folder's path below the skill's root.
fn walk(
    dir: &Dir,
    path: &Path,
    rel: &mut Vec<String>,
    tree: &mut Tree,
    skill_path: &str,
) -> Result<(), SkillsError> {
    let children = entries(dir, path)?;
    for child in &children {
        rel.push(child.name.clone());
        if child.is_dir {
            walk(
                &open_folder(dir, child)?,
                &child.path,
                rel,
                tree,
                skill_path,
            )?;
        } else {
            tree.files.push((rel.clone(), child.clone()));
        }
        rel.pop();
        if tree.files.len() > MAX_FILES {
            return Err(SkillsError::skill(
                skill_path,
                format_args!("has over {MAX_FILES} files, the most a host must accept"),
            ));
        }
    }
    tree.folders.push((rel.clone(), children));
    Ok(())
}

/// Refuses a skill over the size a host must accept.
fn check_size(skill_path: &str, bytes: u64) -> Result<(), SkillsError> {
    if bytes <= MAX_BYTES {
        return Ok(());
    }
    let size = if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{:.1} MiB ({bytes} bytes)", bytes as f64 / MIB as f64)
    };
    Err(SkillsError::skill(
        skill_path,
        format_args!("is {size}, over the 16 MiB a host must accept"),
    ))
}

/// At most `limit + 1` bytes of the file `entry`, at `rel` below the skill's folder `dir`:
/// each folder on the way opened through the one before it, and the file only if it is a
/// regular file now.
fn read_file(dir: &Dir, rel: &[String], entry: &Entry, limit: u64) -> Result<Vec<u8>, SkillsError> {
    let Some((_, folders)) = rel.split_last() else {
        return Err(SkillsError::at(&entry.path, NOT_A_FILE));
    };
    let mut opened: Option<Dir> = None;
    for (depth, name) in folders.iter().enumerate() {
        let at = opened.as_ref().unwrap_or(dir);
        let next = at.folder(OsStr::new(name)).map_err(|e| {
            let folder = entry.path.ancestors().nth(folders.len() - depth);
            unreadable(folder.unwrap_or(&entry.path), e)
        })?;
        opened = Some(next);
    }
    let at = opened.as_ref().unwrap_or(dir);
    at.read(OsStr::new(&entry.name), limit)
        .map_err(|unread| match unread {
            Unread::NotAFile(disk::Kind::Link) => SkillsError::at(&entry.path, LINK),
            Unread::NotAFile(_) => SkillsError::at(&entry.path, NOT_A_FILE),
            Unread::Io(e) => unreadable(&entry.path, e),
        })
}

/// A folder's listing: its children's URIs, names and types.
fn folder(uri: String, children: &[Entry]) -> Folder {
    let children = children
        .iter()
        .map(|child| {
            let mime = if child.is_dir {
                mime::DIRECTORY
            } else {
                mime::of(&child.name).mime
            };
            json!({
                "uri": format!("{uri}/{}", uri::encode_segment(&child.name)),
                "name": child.name,
                "mimeType": mime,
            })
        })
        .collect();
    Folder {
        uri,
        children,
        tag: String::new(),
    }
}

/// A skill's listing entry: its `SKILL.md`, its frontmatter, and every file with the digest
/// and size of the bytes held.
fn entry(files: &[File], frontmatter: serde_json::Map<String, Value>) -> Value {
    let resources: Vec<Value> = files
        .iter()
        .map(|file| {
            json!({
                "uri": file.uri,
                "digest": format!("sha256:{}", hex(&Sha256::digest(&file.bytes))),
                "size": file.bytes.len(),
            })
        })
        .collect();
    json!({
        "uri": files[MANIFEST_INDEX].uri,
        "frontmatter": frontmatter,
        "resources": resources,
    })
}

/// A short digest of `parts`, which a listing's cursors carry.
fn tag_of(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update(b"\n");
    }
    hex(&hasher.finalize()[..8])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sum of sizes, which cannot wrap around to a small one.
fn total(sizes: impl Iterator<Item = u64>) -> u64 {
    sizes.fold(0, u64::saturating_add)
}

fn byte_len(bytes: &[u8]) -> u64 {
    u64::try_from(bytes.len()).unwrap_or(u64::MAX)
}
