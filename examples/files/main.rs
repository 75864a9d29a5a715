//! A file server confined to the directories it is given on its command line: it lists, reads
//! and describes files there, and nothing outside. Every file in those directories is also a
//! resource, `file:///{+path}`, read only inside them.
//!
//! ```sh
//! cargo run --example files -- ~/projects list
//! cargo run --example files -- ~/projects call list_directory '{"path": "'$HOME'/projects"}'
//! cargo run --example files --features http -- ~/projects serve --http 8080 --max-body 1MiB
//! ```
//!
//! Its own arguments come first, then toolwright's command: `files [--roots-widen] [DIR...]
//! [COMMAND]`. The client's roots (asked for once per session, and again when the client says
//! they changed) narrow what a session may read: a root inside a command-line directory allows
//! that part of it, one that holds a command-line directory allows that directory, and one
//! outside them allows nothing, so no client (over HTTP, anyone who reaches the endpoint) can
//! make the server read more than its command line allows; a client without roots (or with an
//! empty list) leaves the command line's directories as they are. With `--roots-widen` the roots add
//! to the command line's directories instead, up to `/` if a client says so: for a server that
//! runs for one trusted client, over stdio.
//!
//! Every path is opened beneath the directory it is in, through a handle held open (see
//! `beneath`): a link inside is followed while it stays beneath that directory, one that leads
//! out (or is absolute) is outside, and nothing swapped in by another process between a check
//! and a read is read. A path outside is answered the same whether it exists or not. Only
//! regular files are read (a FIFO or a device is refused, never waited on), at most 8 MiB.

mod beneath;
#[cfg(all(test, feature = "testing"))]
mod tests;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::asking::RootsChanged;
use toolwright::cli::Command;
use toolwright::prelude::*;

use beneath::{Folder, MAX_READ, Refused};

/// The directories given on the command line, held open, and what the client's roots do.
struct Config {
    dirs: Vec<Folder>,
    /// The roots add directories (`--roots-widen`) rather than narrow these.
    widen: bool,
}

/// Lists the directories this server may read: those it was started with, as the client's roots
/// narrow them (or widen them, when the server allows it).
#[mcp_tool(read_only, open_world = false)]
async fn list_allowed_directories(
    config: State<Config>,
    roots: Roots,
) -> Result<String, ToolError> {
    let dirs = allowed(&config, &roots).await?;
    let lines: Vec<String> = dirs.iter().map(|d| d.path.display().to_string()).collect();
    Ok(lines.join("\n"))
}

/// How a listing is ordered.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum SortBy {
    Name,
    Size,
}

#[derive(Serialize, JsonSchema)]
struct Listing {
    entries: Vec<Entry>,
}

#[derive(Serialize, JsonSchema)]
struct Entry {
    name: String,
    /// `file`, `directory`, `link` (not followed) or `other` (a FIFO, a socket, a device).
    kind: &'static str,
    /// In bytes; 0 for anything but a file.
    size: u64,
}

/// Lists a directory's entries.
///
/// # Arguments
/// * `path` - The directory, inside an allowed one.
/// * `sort_by` - The order of the entries.
#[mcp_tool(read_only, open_world = false)]
async fn list_directory(
    path: String,
    #[arg(default = SortBy::Name)] sort_by: SortBy,
    config: State<Config>,
    roots: Roots,
) -> Result<Listing, ToolError> {
    let place = beneath::locate(&path, &allowed(&config, &roots).await?).map_err(refused(&path))?;
    let listed = blocking(move || place.list())
        .await?
        .map_err(refused(&path))?;
    let mut entries: Vec<Entry> = listed
        .into_iter()
        .map(|e| Entry {
            name: e.name.to_string_lossy().into_owned(),
            kind: e.kind,
            size: e.size,
        })
        .collect();
    match sort_by {
        SortBy::Name => entries.sort_by(|a, b| a.name.cmp(&b.name)),
        SortBy::Size => entries.sort_by(|a, b| b.size.cmp(&a.size).then(a.name.cmp(&b.name))),
    }
    Ok(Listing { entries })
}

/// Reads a text file, or its first lines.
///
/// # Arguments
/// * `path` - The file, inside an allowed directory.
/// * `head` - Only this many lines from the start.
#[mcp_tool(read_only, open_world = false)]
async fn read_text_file(
    path: String,
    head: Option<usize>,
    config: State<Config>,
    roots: Roots,
) -> Result<String, ToolError> {
    let place = beneath::locate(&path, &allowed(&config, &roots).await?).map_err(refused(&path))?;
    let bytes = blocking(move || place.read_at_most(MAX_READ))
        .await?
        .map_err(refused(&path))?;
    // The first lines of a file of any size; the whole of one within the limit.
    let text = match head {
        Some(0) => &bytes[..0],
        Some(n) => line_ends(&bytes)
            .nth(n - 1)
            .map_or(&bytes[..], |end| &bytes[..end]),
        None => &bytes[..],
    };
    if text.len() as u64 > MAX_READ {
        return Err(refused(&path)(Refused::TooLarge));
    }
    let text = std::str::from_utf8(text)
        .map_err(|_| ToolError::new(format!("`{path}` is not UTF-8 text")))?;
    Ok(match head {
        Some(n) => text.lines().take(n).collect::<Vec<_>>().join("\n"),
        None => text.to_owned(),
    })
}

/// Where each line of `bytes` ends, its newline included.
fn line_ends(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(at, _)| at + 1)
}

#[derive(Serialize, JsonSchema)]
struct Media {
    name: String,
    mime_type: String,
    /// In bytes.
    size: u64,
}

/// Reads an image or audio file: the picture or the sound itself, and what it is.
///
/// # Arguments
/// * `path` - The file, inside an allowed directory.
#[mcp_tool(read_only, open_world = false)]
async fn read_media_file(
    path: String,
    config: State<Config>,
    roots: Roots,
) -> Result<Structured<Media>, ToolError> {
    let place = beneath::locate(&path, &allowed(&config, &roots).await?).map_err(refused(&path))?;
    let file = PathBuf::from(&path);
    let mime_type = mime_type(&file)
        .ok_or_else(|| ToolError::new(format!("`{path}` is not an image or audio file")))?;
    let bytes = blocking(move || place.read())
        .await?
        .map_err(refused(&path))?;
    let block = match mime_type.starts_with("audio/") {
        true => Content::audio(&bytes, mime_type),
        false => Content::image(&bytes, mime_type),
    };
    let media = Media {
        name: file_name(&file),
        mime_type: mime_type.to_owned(),
        size: bytes.len() as u64,
    };
    // The data travels once, in its block; clients without structured content also get the
    // few facts as JSON text.
    Ok(Structured::new(media).content(block).json_fallback())
}

#[derive(Serialize, JsonSchema)]
struct FileInfo {
    /// `file`, `directory` or `other` (a FIFO, a socket, a device).
    kind: &'static str,
    /// In bytes.
    size: u64,
    /// Seconds since the Unix epoch.
    modified: Option<u64>,
    read_only: bool,
}

/// Describes a file or directory.
///
/// # Arguments
/// * `path` - The file or directory, inside an allowed one.
#[mcp_tool(read_only, open_world = false)]
async fn get_file_info(
    path: String,
    config: State<Config>,
    roots: Roots,
) -> Result<FileInfo, ToolError> {
    let place = beneath::locate(&path, &allowed(&config, &roots).await?).map_err(refused(&path))?;
    let meta = blocking(move || place.metadata())
        .await?
        .map_err(refused(&path))?;
    let modified = meta.modified().ok().and_then(|t| {
        let since = t.into_std().duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(since.as_secs())
    });
    Ok(FileInfo {
        kind: beneath::kind(&meta),
        size: meta.len(),
        modified,
        read_only: meta.permissions().readonly(),
    })
}

/// A file inside one of the server's directories, as a resource: text when it is UTF-8, its
/// bytes otherwise. A file outside them, one that does not exist, a link out of them and
/// anything but a regular file are not found. (The template refuses a `.` or `..` segment,
/// plain or encoded, and a path that is absolute after the scheme's `/`, before this runs.)
///
/// # Arguments
/// * `path` - The file's absolute path, without its first `/`.
#[mcp_resource("file:///{+path}")]
async fn file(path: String, config: State<Config>) -> Result<Option<EmbeddedResource>, String> {
    let wanted = format!("/{path}");
    let Ok(place) = beneath::locate(&wanted, &config.dirs) else {
        return Ok(None);
    };
    let bytes = match blocking(move || place.read()).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(Refused::Outside | Refused::Unopened(_) | Refused::NotAFile)) => return Ok(None),
        Ok(Err(refusal)) => return Err(refused(&wanted)(refusal).to_string()),
        Err(error) => return Err(error.to_string()),
    };
    let uri = format!("file:///{path}");
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => EmbeddedResource::text(uri, text).mime_type("text/plain"),
        Err(bytes) => {
            let mime_type = mime_type(Path::new(&wanted)).unwrap_or("application/octet-stream");
            EmbeddedResource::blob(uri, bytes.as_bytes()).mime_type(mime_type)
        }
    }))
}

/// Where a call may read: the command line's directories as the client's roots narrow them (or
/// widen them, with `--roots-widen`); the roots are asked for once per session.
async fn allowed(config: &Config, roots: &Roots) -> Result<Vec<Folder>, ToolError> {
    let mut listed = Vec::new();
    if roots.supported() {
        listed.extend(roots.list().await?.iter().filter_map(|r| file_path(&r.uri)));
    }
    let (dirs, widen) = (config.dirs.clone(), config.widen);
    let folders = blocking(move || beneath::allowed(&dirs, &listed, widen)).await?;
    if folders.is_empty() {
        return Err(ToolError::new(match (config.dirs.is_empty(), widen) {
            (true, false) => {
                "no directory is allowed: start the server with some (the client's roots only \
                 narrow them, unless it is started with `--roots-widen`)"
            }
            (true, true) => {
                "no directory is allowed: start the server with some, or use a client that \
                 shares its roots"
            }
            (false, _) => {
                "no directory is allowed: none of the client's roots is inside one of \
                 the server's directories"
            }
        }));
    }
    Ok(folders)
}

/// Runs `work` on a thread meant for blocking: opening and reading files. A panic there goes on
/// where the tool's own panics are caught.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ToolError> {
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => Ok(value),
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => Err(ToolError::new("the server is shutting down")),
    }
}

/// What a tool answers for a path that gives it nothing. Outside is one answer, whether or not
/// something is there.
fn refused(path: &str) -> impl Fn(Refused) -> ToolError + '_ {
    move |refusal| {
        ToolError::new(match refusal {
            Refused::Outside => format!("`{path}` is outside the allowed directories"),
            Refused::NotAFile => format!("`{path}` is not a regular file"),
            Refused::TooLarge => format!(
                "`{path}` is over {} MiB, the most this server reads",
                MAX_READ >> 20
            ),
            Refused::Unopened(e) | Refused::Unread(e) => format!("cannot read `{path}`: {e}"),
        })
    }
}

/// The local path of a `file://` URI (no host, or `localhost`), its `%XX` escapes decoded.
fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let encoded = rest.strip_prefix('/').map(|_| rest.as_bytes())?;
    let mut bytes = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while i < encoded.len() {
        let hex = || std::str::from_utf8(encoded.get(i + 1..i + 3)?).ok();
        match (
            encoded[i],
            hex().and_then(|h| u8::from_str_radix(h, 16).ok()),
        ) {
            (b'%', Some(byte)) => {
                bytes.push(byte);
                i += 3;
            }
            (byte, _) => {
                bytes.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(bytes).ok().map(PathBuf::from)
}

fn mime_type(file: &Path) -> Option<&'static str> {
    let extension = file.extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        _ => return None,
    })
}

fn file_name(file: &Path) -> String {
    file.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

fn server(dirs: Vec<Folder>, widen: bool) -> Server {
    toolwright::server!()
        .title("Files")
        .state(Config { dirs, widen })
        .discover()
        // Models add keys of their own; the server this one replaces ignored them.
        .ignore_unknown_arguments(true)
        .on_roots_changed(|change: RootsChanged| {
            let before = change.before.map_or(0, |roots| roots.len());
            eprintln!("files: the client's roots changed (it had {before})");
        })
}

const USAGE: &str = "usage: files [--roots-widen] [DIR...] [COMMAND]";

fn main() -> ExitCode {
    // `files [--roots-widen] DIR... [COMMAND]`: its own arguments first, then toolwright's.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let commands = [
        "serve",
        "list",
        "call",
        "prompts",
        "get",
        "resources",
        "read",
        "help",
        "--help",
        "-h",
    ];
    let split = args.iter().position(|a| commands.contains(&a.as_str()));
    let (own, rest) = args.split_at(split.unwrap_or(args.len()));
    let command = match Command::parse(rest) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!("error: {usage}\n\n{USAGE}\n\n{}", Command::usage());
            return ExitCode::from(2);
        }
    };
    let widen = own.iter().any(|a| a == "--roots-widen");
    let mut dirs = Vec::new();
    for dir in own.iter().filter(|a| *a != "--roots-widen") {
        if dir.starts_with("--") {
            eprintln!("error: unknown option `{dir}`\n\n{USAGE}");
            return ExitCode::from(2);
        }
        match Folder::open(Path::new(dir)) {
            Ok(folder) => dirs.push(folder),
            Err(_) => {
                eprintln!("error: `{dir}` is not a directory");
                return ExitCode::from(2);
            }
        }
    }
    server(dirs, widen).execute(command)
}
