//! Reading a folder of skills once, when the server is built: finding the skills, holding each
//! to the extension's rules, and keeping every file's bytes, from which its digest and size are
//! computed, so that what the listing promises is what a read returns.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

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
    /// Every folder under `root` holding a SKILL.md is a skill; its path below root is the
    /// skill path (`acme/billing/refunds`), the URI `skill://<skill-path>/SKILL.md`. A SKILL.md
    /// nested inside another skill's folder is a supporting file of the enclosing skill (the
    /// listing stays flat, and each file has one URI). Hidden files and folders are skipped;
    /// a symbolic link is refused, never followed.
    pub(crate) fn load(root: &Path) -> Result<Skills, SkillsError> {
        let mut found = Vec::new();
        find(root, &mut Vec::new(), &mut found)?;
        let skills = found
            .iter()
            .map(|(dir, names)| read_skill(dir, names))
            .collect::<Result<Vec<Skill>, SkillsError>>()?;
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

/// The folders of skills under `dir`, with their paths below the root (`names`): a folder
/// holding a `SKILL.md` is a skill, and nothing under it is searched for another.
fn find(
    dir: &Path,
    names: &mut Vec<String>,
    found: &mut Vec<(PathBuf, Vec<String>)>,
) -> Result<(), SkillsError> {
    let entries = entries(dir)?;
    if entries.iter().any(|e| !e.is_dir && e.name == MANIFEST) {
        if names.is_empty() {
            return Err(SkillsError::at(
                &dir.join(MANIFEST),
                "a skill needs a folder of its own, named as its `name`, below the skills folder",
            ));
        }
        found.push((dir.to_path_buf(), names.clone()));
        return Ok(());
    }
    for entry in entries.into_iter().filter(|e| e.is_dir) {
        names.push(entry.name);
        find(&entry.path, names, found)?;
        names.pop();
    }
    Ok(())
}

/// The visible files and folders of `dir`, by name. Hidden ones (`.git`, `.DS_Store`) are
/// skipped; a symbolic link is refused, since following it could serve files from outside the
/// skills folder; a name that is not UTF-8 is refused, since no URI could name it.
fn entries(dir: &Path) -> Result<Vec<Entry>, SkillsError> {
    let unreadable =
        |path: &Path, e: std::io::Error| SkillsError::at(path, format_args!("cannot be read: {e}"));
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| unreadable(dir, e))? {
        let path = entry.map_err(|e| unreadable(dir, e))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else {
            return Err(SkillsError::at(
                &path,
                "the name is not UTF-8, so no URI can name it",
            ));
        };
        if name.starts_with('.') {
            continue;
        }
        let metadata = fs::symlink_metadata(&path).map_err(|e| unreadable(&path, e))?;
        let kind = metadata.file_type();
        if kind.is_symlink() {
            return Err(SkillsError::at(
                &path,
                "a symbolic link, which is not followed (it could lead outside the skills \
                 folder); put the file itself here",
            ));
        }
        if !kind.is_dir() && !kind.is_file() {
            return Err(SkillsError::at(&path, "neither a file nor a folder"));
        }
        entries.push(Entry {
            name,
            path,
            is_dir: kind.is_dir(),
            len: metadata.len(),
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// The skill in `dir`, whose path below the root is `names`.
fn read_skill(dir: &Path, names: &[String]) -> Result<Skill, SkillsError> {
    let skill_path = names.join("/");
    check_names(dir, names)?;
    let tree = Tree::of(dir, &skill_path)?;
    let uri_of = |rel: &[String]| uri::uri_of(names.iter().chain(rel).map(String::as_str));
    let files = tree
        .files
        .iter()
        .map(|(rel, entry)| read_file(uri_of(rel), entry))
        .collect::<Result<Vec<File>, SkillsError>>()?;
    // The files may have changed since they were listed; what was read is what is served.
    check_size(&skill_path, total(files.iter().map(|f| byte_len(&f.bytes))))?;
    let frontmatter = manifest(dir, names, &files[MANIFEST_INDEX].bytes)?;
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
    /// What the skill in `dir` holds, within the limits a host must accept, its `SKILL.md`
    /// first.
    fn of(dir: &Path, skill_path: &str) -> Result<Tree, SkillsError> {
        let mut tree = Tree::default();
        walk(dir, &mut Vec::new(), &mut tree, skill_path)?;
        check_size(skill_path, total(tree.files.iter().map(|(_, e)| e.len)))?;
        let manifest = tree
            .files
            .iter()
            .position(|(rel, _)| rel.len() == 1 && rel[0] == MANIFEST)
            .ok_or_else(|| SkillsError::at(dir, "has no SKILL.md any more"))?;
        let first = tree.files.remove(manifest);
        tree.files.insert(MANIFEST_INDEX, first);
        Ok(tree)
    }
}

/// Everything in a skill's folder, depth first, into `tree`; `rel` is the folder's path below
/// the skill's root.
fn walk(
    dir: &Path,
    rel: &mut Vec<String>,
    tree: &mut Tree,
    skill_path: &str,
) -> Result<(), SkillsError> {
    let children = entries(dir)?;
    for child in &children {
        rel.push(child.name.clone());
        if child.is_dir {
            walk(&child.path, rel, tree, skill_path)?;
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

fn read_file(uri: String, entry: &Entry) -> Result<File, SkillsError> {
    let bytes = fs::read(&entry.path)
        .map_err(|e| SkillsError::at(&entry.path, format_args!("cannot be read: {e}")))?;
    Ok(File {
        uri,
        kind: mime::of(&entry.name),
        bytes,
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
