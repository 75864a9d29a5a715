//! A file server confined to the directories it is given on its command line and to the
//! client's roots: it lists, reads and describes files there, and nothing outside. Every file
//! in those directories is also a resource, `file:///{+path}`, read only inside them.
//!
//! ```sh
//! cargo run --example files -- ~/projects list
//! cargo run --example files -- ~/projects call list_directory '{"path": "'$HOME'/projects"}'
//! cargo run --example files --features http -- ~/projects serve --http 8080 --max-body 1MiB
//! ```
//!
//! Its own arguments (the directories) come first, then toolwright's command. The client's
//! roots are asked for once per session (and again when the client says they changed), so the
//! check every tool makes costs no round trip after the first.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::prelude::*;
use toolwright::{Command, RootsChanged};

/// The directories given on the command line, resolved.
struct Config {
    dirs: Vec<PathBuf>,
}

/// Lists the directories this server may read: those it was started with, and the client's
/// roots.
#[mcp_tool(read_only, open_world = false)]
async fn list_allowed_directories(
    config: State<Config>,
    roots: Roots,
) -> Result<String, ToolError> {
    let dirs = allowed(&config, &roots).await?;
    let lines: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
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
    /// `file` or `directory`.
    kind: &'static str,
    /// In bytes; 0 for a directory.
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
    let dir = confined(&path, &allowed(&config, &roots).await?).await?;
    let mut reading = tokio::fs::read_dir(&dir).await.map_err(unreadable(&path))?;
    let mut entries = Vec::new();
    while let Some(entry) = reading.next_entry().await.map_err(unreadable(&path))? {
        let meta = entry.metadata().await.map_err(unreadable(&path))?;
        entries.push(Entry {
            name: entry.file_name().to_string_lossy().into_owned(),
            kind: if meta.is_dir() { "directory" } else { "file" },
            size: if meta.is_dir() { 0 } else { meta.len() },
        });
    }
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
    let file = confined(&path, &allowed(&config, &roots).await?).await?;
    let text = tokio::fs::read_to_string(&file)
        .await
        .map_err(unreadable(&path))?;
    Ok(match head {
        Some(n) => text.lines().take(n).collect::<Vec<_>>().join("\n"),
        None => text,
    })
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
    let file = confined(&path, &allowed(&config, &roots).await?).await?;
    let mime_type = mime_type(&file)
        .ok_or_else(|| ToolError::new(format!("`{path}` is not an image or audio file")))?;
    let bytes = tokio::fs::read(&file).await.map_err(unreadable(&path))?;
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
    /// `file` or `directory`.
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
    let file = confined(&path, &allowed(&config, &roots).await?).await?;
    let meta = tokio::fs::metadata(&file)
        .await
        .map_err(unreadable(&path))?;
    let modified = meta.modified().ok().and_then(|t| {
        let since = t.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(since.as_secs())
    });
    Ok(FileInfo {
        kind: if meta.is_dir() { "directory" } else { "file" },
        size: meta.len(),
        modified,
        read_only: meta.permissions().readonly(),
    })
}

/// A file inside one of the server's directories, as a resource: text when it is UTF-8, its
/// bytes otherwise. A file outside them, or one that does not exist, is not found; so is a
/// link out of them. (The template refuses a `.` or `..` segment, plain or encoded, and a path
/// that is absolute after the scheme's `/`, before this runs.)
///
/// # Arguments
/// * `path` - The file's absolute path, without its first `/`.
#[mcp_resource("file:///{+path}")]
async fn file(path: String, config: State<Config>) -> Result<Option<EmbeddedResource>, String> {
    let wanted = format!("/{path}");
    let Ok(resolved) = tokio::fs::canonicalize(&wanted).await else {
        return Ok(None);
    };
    if !config.dirs.iter().any(|dir| resolved.starts_with(dir)) || !resolved.is_file() {
        return Ok(None);
    }
    let bytes = tokio::fs::read(&resolved)
        .await
        .map_err(|e| format!("cannot read `{wanted}`: {e}"))?;
    let uri = format!("file:///{path}");
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => EmbeddedResource::text(uri, text).mime_type("text/plain"),
        Err(bytes) => {
            let mime_type = mime_type(&resolved).unwrap_or("application/octet-stream");
            EmbeddedResource::blob(uri, bytes.as_bytes()).mime_type(mime_type)
        }
    }))
}

/// Where a call may read: the command line's directories and, when the client has them, its
/// roots (asked once per session).
async fn allowed(config: &Config, roots: &Roots) -> Result<Vec<PathBuf>, ToolError> {
    let mut dirs = config.dirs.clone();
    if roots.supported() {
        for root in roots.list().await? {
            let Some(path) = file_path(&root.uri) else {
                continue;
            };
            if let Ok(dir) = tokio::fs::canonicalize(path).await {
                dirs.push(dir);
            }
        }
    }
    if dirs.is_empty() {
        return Err(ToolError::new(
            "no directory is allowed: start the server with some, or use a client that shares \
             its roots",
        ));
    }
    Ok(dirs)
}

/// `path`, resolved (links followed, `..` gone), if it is inside one of `dirs`.
async fn confined(path: &str, dirs: &[PathBuf]) -> Result<PathBuf, ToolError> {
    let resolved = tokio::fs::canonicalize(path)
        .await
        .map_err(unreadable(path))?;
    match dirs.iter().any(|dir| resolved.starts_with(dir)) {
        true => Ok(resolved),
        false => Err(ToolError::new(format!(
            "`{path}` is outside the allowed directories"
        ))),
    }
}

fn unreadable(path: &str) -> impl Fn(std::io::Error) -> ToolError + '_ {
    move |e| ToolError::new(format!("cannot read `{path}`: {e}"))
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

fn server(dirs: Vec<PathBuf>) -> Server {
    toolwright::server!()
        .title("Files")
        .state(Config { dirs })
        .discover()
        // Models add keys of their own; the server this one replaces ignored them.
        .ignore_unknown_arguments(true)
        .on_roots_changed(|change: RootsChanged| {
            let before = change.before.map_or(0, |roots| roots.len());
            eprintln!("files: the client's roots changed (it had {before})");
        })
}

fn main() -> ExitCode {
    // `files DIR... [COMMAND]`: the directories first, then toolwright's command line.
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
    let (dirs, rest) = args.split_at(split.unwrap_or(args.len()));
    let command = match Command::parse(rest) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!(
                "error: {usage}\n\nusage: files [DIR...] [COMMAND]\n\n{}",
                Command::usage()
            );
            return ExitCode::from(2);
        }
    };
    let mut resolved = Vec::new();
    for dir in dirs {
        match std::fs::canonicalize(dir) {
            Ok(dir) if dir.is_dir() => resolved.push(dir),
            _ => {
                eprintln!("error: `{dir}` is not a directory");
                return ExitCode::from(2);
            }
        }
    }
    server(resolved).execute(command)
}

// Needs toolwright's `testing` feature (`cargo test --all-features`).
#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use toolwright::testing::{Answers, Client, Manifest};
    use toolwright::{ProtocolVersion, Root};

    /// A directory of its own for each test, with two files and a picture.
    fn sandbox(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.txt"), "one\ntwo\nthree\n").unwrap();
        std::fs::write(dir.join("big.txt"), "x".repeat(1000)).unwrap();
        std::fs::write(dir.join("dot.png"), b"\x89PNG\r\n\x1a\n").unwrap();
        std::fs::canonicalize(dir).unwrap()
    }

    fn path(dir: &Path, name: &str) -> String {
        dir.join(name).display().to_string()
    }

    #[test]
    fn lists_and_reads_inside_and_nothing_outside_in_every_revision() {
        let dir = sandbox("inside");
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(vec![dir.clone()]), revision).unwrap();
            let listed = client
                .call("list_directory", json!({"path": dir, "sort_by": "size"}))
                .unwrap();
            assert!(!listed.is_error(), "{revision}: {}", listed.text());
            if revision.has_structured_output() {
                let names: Vec<String> =
                    listed.structured::<serde_json::Value>().unwrap()["entries"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| e["name"].as_str().unwrap().to_owned())
                        .collect();
                assert_eq!(names, ["big.txt", "a.txt", "dot.png", "sub"], "{revision}");
            }
            let head = client
                .call(
                    "read_text_file",
                    json!({"path": path(&dir, "a.txt"), "head": 2}),
                )
                .unwrap();
            assert_eq!(head.text(), "one\ntwo", "{revision}");
            let outside = client
                .call(
                    "read_text_file",
                    json!({"path": path(&dir, "sub/../../..")}),
                )
                .unwrap();
            assert!(outside.is_error(), "{revision}");
            assert!(
                outside
                    .text()
                    .ends_with("is outside the allowed directories")
            );
        }
    }

    #[test]
    fn a_picture_travels_once() {
        let dir = sandbox("media");
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(vec![dir.clone()]), revision).unwrap();
            let read = client
                .call("read_media_file", json!({"path": path(&dir, "dot.png")}))
                .unwrap();
            let content = read.content();
            assert_eq!(content[0]["type"], "image", "{revision}");
            assert_eq!(content[0]["data"], "iVBORw0KGgo=", "{revision}");
            let line = read.json().to_string();
            assert_eq!(
                line.matches("iVBORw0KGgo=").count(),
                1,
                "{revision}: {line}"
            );
        }
    }

    #[test]
    fn the_client_roots_are_asked_for_once_per_session() {
        let dir = sandbox("roots");
        let asked = Arc::new(AtomicUsize::new(0));
        let answers = {
            let asked = Arc::clone(&asked);
            let uri = format!("file://{}", dir.display()).replace(' ', "%20");
            Answers::new().roots_with(move || {
                asked.fetch_add(1, Ordering::SeqCst);
                vec![Root::new(uri.clone())]
            })
        };
        let mut client =
            Client::connect_answering(server(Vec::new()), ProtocolVersion::V2025_11_25, answers)
                .unwrap();
        for _ in 0..10 {
            let info = client
                .call("get_file_info", json!({"path": path(&dir, "a.txt")}))
                .unwrap();
            assert_eq!(info.structured::<serde_json::Value>().unwrap()["size"], 14);
        }
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        let none = Client::connect(server(Vec::new()), ProtocolVersion::V2025_11_25)
            .unwrap()
            .call("list_allowed_directories", json!({}))
            .unwrap();
        assert!(none.text().starts_with("no directory is allowed"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn keys_the_schema_does_not_list_are_ignored() {
        let dir = sandbox("extra");
        let mut client = Client::new(server(vec![dir.clone()])).unwrap();
        let read = client
            .call(
                "read_text_file",
                json!({"path": path(&dir, "a.txt"), "encoding": "utf-8"}),
            )
            .unwrap();
        assert_eq!(read.text(), "one\ntwo\nthree\n");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    #[cfg(unix)]
    fn files_are_resources_read_inside_the_directories_and_nowhere_else() {
        let root = sandbox("resources");
        let dir = root.join("served");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/in.txt"), "inside").unwrap();
        std::fs::write(root.join("secret.txt"), "outside").unwrap();
        std::os::unix::fs::symlink(root.join("secret.txt"), dir.join("link.txt")).unwrap();
        let served = dir.display().to_string();
        let uri = |path: &str| format!("file://{path}");
        for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let mut client = Client::connect(server(vec![dir.clone()]), revision).unwrap();
            let read = client
                .read_resource(&uri(&format!("{served}/sub/in.txt")))
                .unwrap();
            assert_eq!(read["contents"][0]["text"], "inside", "{revision}");
            let secret = root.join("secret.txt").display().to_string();
            let attempts = [
                // Plain and encoded climbs, refused by the template before the function runs.
                (format!("{served}/../secret.txt"), "climbs"),
                (format!("{served}/sub/../../secret.txt"), "climbs"),
                (format!("{served}/%2e%2e/secret.txt"), "climbs"),
                (format!("{served}/%2E%2e/secret.txt"), "climbs"),
                (format!("{served}/sub/..%2f..%2fsecret.txt"), "climbs"),
                // An absolute path after the scheme's `/`.
                (format!("/{secret}"), "absolute"),
                // A real file outside, and a link from inside to it: not found.
                (secret.clone(), "not found"),
                (format!("{served}/link.txt"), "not found"),
                (format!("{served}/missing.txt"), "not found"),
                (format!("{served}/sub"), "not found"),
            ];
            for (path, why) in attempts {
                let refused = client.read_resource(&uri(&path)).unwrap_err();
                let not_found = match revision {
                    ProtocolVersion::V2026_07_28 => -32602,
                    _ => -32002,
                };
                assert_eq!(refused.code, not_found, "{revision} {path}: {refused}");
                let said = format!("{refused}");
                assert!(
                    why == "not found" || said.contains(why),
                    "{revision} {path}: {said}"
                );
                assert!(!said.contains("outside\""), "{said}");
            }
        }
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn tools_match_the_pinned_manifest() {
        Manifest::of(server(Vec::new()))
            .unwrap()
            .assert_matches("examples/manifests/files.json");
    }
}
