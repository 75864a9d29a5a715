//! The file server's tests (with toolwright's `testing` feature: `cargo test --all-features`):
//! what it reads inside its directories, what it refuses outside, in every revision; what the
//! client's roots do; and what another local process cannot make it read (a folder swapped for
//! a link out while it reads, a FIFO, a file too large to hold).

use super::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use toolwright::ProtocolVersion;
use toolwright::asking::Root;
use toolwright::testing::{Answers, Client, Manifest};

/// A directory of its own for each test, with two files, a picture and a folder.
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

/// The server started with `dirs` on its command line.
fn serve(dirs: &[&Path]) -> Server {
    let folders = dirs.iter().map(|d| Folder::open(d).unwrap()).collect();
    server(folders, false)
}

/// The same, started with `--roots-widen`.
fn serve_widening(dirs: &[&Path]) -> Server {
    let folders = dirs.iter().map(|d| Folder::open(d).unwrap()).collect();
    server(folders, true)
}

fn root_of(dir: &Path) -> Root {
    Root::new(format!("file://{}", dir.display()).replace(' ', "%20"))
}

/// A client whose roots are `roots`.
fn with_roots(server: Server, roots: Vec<Root>) -> Client {
    let answers = Answers::new().roots(roots);
    Client::connect_answering(server, ProtocolVersion::V2025_11_25, answers).unwrap()
}

#[test]
fn lists_and_reads_inside_and_nothing_outside_in_every_revision() {
    let dir = sandbox("inside");
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(serve(&[&dir]), revision).unwrap();
        let listed = client
            .call("list_directory", json!({"path": dir, "sort_by": "size"}))
            .unwrap();
        assert!(!listed.is_error(), "{revision}: {}", listed.text());
        if revision.has_structured_output() {
            let names: Vec<String> = listed.structured::<Value>().unwrap()["entries"]
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
        let mut client = Client::connect(serve(&[&dir]), revision).unwrap();
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
        let (asked, root) = (Arc::clone(&asked), root_of(&dir));
        Answers::new().roots_with(move || {
            asked.fetch_add(1, Ordering::SeqCst);
            vec![root.clone()]
        })
    };
    let mut client =
        Client::connect_answering(serve(&[&dir]), ProtocolVersion::V2025_11_25, answers).unwrap();
    for _ in 0..10 {
        let info = client
            .call("get_file_info", json!({"path": path(&dir, "a.txt")}))
            .unwrap();
        assert_eq!(info.structured::<Value>().unwrap()["size"], 14);
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    let none = Client::connect(serve(&[]), ProtocolVersion::V2025_11_25)
        .unwrap()
        .call("list_allowed_directories", json!({}))
        .unwrap();
    assert!(none.text().starts_with("no directory is allowed"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A root inside a command-line directory narrows to it; one that holds it allows the
/// directory and no more; one outside allows nothing; with no command-line directory, roots
/// allow nothing. Only `--roots-widen` lets a root add what the command line did not give.
#[test]
fn roots_narrow_the_command_line_and_widen_only_when_asked() {
    let dir = sandbox("narrow");
    std::fs::write(dir.join("sub/in.txt"), "in sub").unwrap();
    let outside = sandbox("narrow-outside");
    let allowed = |client: &mut Client| client.call("list_allowed_directories", json!({})).unwrap();
    let read = |client: &mut Client, file: &Path| {
        client
            .call(
                "read_text_file",
                json!({"path": file.display().to_string()}),
            )
            .unwrap()
    };

    let mut narrowed = with_roots(serve(&[&dir]), vec![root_of(&dir.join("sub"))]);
    assert_eq!(allowed(&mut narrowed).text(), path(&dir, "sub"));
    assert_eq!(
        read(&mut narrowed, &dir.join("sub/in.txt")).text(),
        "in sub"
    );
    let above = read(&mut narrowed, &dir.join("a.txt"));
    assert!(above.is_error());
    assert!(above.text().ends_with("is outside the allowed directories"));

    let mut everything = with_roots(serve(&[&dir]), vec![Root::new("file:///")]);
    assert_eq!(allowed(&mut everything).text(), dir.display().to_string());
    assert!(read(&mut everything, &outside.join("a.txt")).is_error());
    assert_eq!(
        read(&mut everything, &dir.join("a.txt")).text(),
        "one\ntwo\nthree\n"
    );

    let mut elsewhere = with_roots(serve(&[&dir]), vec![root_of(&outside)]);
    assert!(
        allowed(&mut elsewhere)
            .text()
            .starts_with("no directory is allowed")
    );
    assert!(read(&mut elsewhere, &outside.join("a.txt")).is_error());
    assert!(read(&mut elsewhere, &dir.join("a.txt")).is_error());

    let mut no_command_line = with_roots(serve(&[]), vec![Root::new("file:///")]);
    assert!(
        allowed(&mut no_command_line)
            .text()
            .starts_with("no directory is allowed")
    );

    let mut widened = with_roots(serve_widening(&[&dir]), vec![root_of(&outside)]);
    assert_eq!(
        allowed(&mut widened).text(),
        format!("{}\n{}", dir.display(), outside.display())
    );
    assert_eq!(
        read(&mut widened, &outside.join("a.txt")).text(),
        "one\ntwo\nthree\n"
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(outside);
}

#[test]
fn keys_the_schema_does_not_list_are_ignored() {
    let dir = sandbox("extra");
    let mut client = Client::new(serve(&[&dir])).unwrap();
    let read = client
        .call(
            "read_text_file",
            json!({"path": path(&dir, "a.txt"), "encoding": "utf-8"}),
        )
        .unwrap();
    assert_eq!(read.text(), "one\ntwo\nthree\n");
    let _ = std::fs::remove_dir_all(dir);
}

/// What is outside is answered the same whether it exists or not, byte for byte but for the
/// path asked, by every tool, however the path gets out: named outright, climbing out with
/// `..`, or through a link. What is missing inside says so, and names nothing but the path.
#[test]
#[cfg(unix)]
fn outside_is_one_answer_whether_or_not_it_exists() {
    let root = sandbox("oracle");
    let dir = root.join("served");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(root.join("exists.png"), "secret").unwrap();
    std::os::unix::fs::symlink(root.join("exists.png"), dir.join("to-existing.png")).unwrap();
    std::os::unix::fs::symlink(root.join("missing.png"), dir.join("to-missing.png")).unwrap();
    std::os::unix::fs::symlink("../exists.png", dir.join("up-existing.png")).unwrap();
    std::os::unix::fs::symlink("../missing.png", dir.join("up-missing.png")).unwrap();
    let served = dir.display().to_string();
    let outer = root.display().to_string();
    let pairs = [
        (
            format!("{outer}/exists.png"),
            format!("{outer}/missing.png"),
        ),
        (
            format!("{served}/../exists.png"),
            format!("{served}/../missing.png"),
        ),
        (
            format!("{served}/to-existing.png"),
            format!("{served}/to-missing.png"),
        ),
        (
            format!("{served}/up-existing.png"),
            format!("{served}/up-missing.png"),
        ),
    ];
    let tools = [
        "read_text_file",
        "read_media_file",
        "get_file_info",
        "list_directory",
    ];
    for revision in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(serve(&[&dir]), revision).unwrap();
        for (existing, missing) in &pairs {
            for tool in tools {
                let mut answer = |path: &str| {
                    let result = client.call(tool, json!({"path": path})).unwrap();
                    assert!(
                        result.is_error(),
                        "{revision} {tool} {path}: {}",
                        result.text()
                    );
                    result.json().to_string().replace(path, "PATH")
                };
                let (for_existing, for_missing) = (answer(existing), answer(missing));
                assert_eq!(for_existing, for_missing, "{revision} {tool} {existing}");
                assert!(for_existing.contains("is outside the allowed directories"));
            }
        }
        let missing = format!("{served}/nothing-here.txt");
        let said = client
            .call("read_text_file", json!({"path": missing}))
            .unwrap()
            .text();
        assert!(
            said.starts_with(&format!("cannot read `{missing}`: ")),
            "{said}"
        );
        assert!(!said.replace(&missing, "").contains(&outer), "{said}");
    }
    let _ = std::fs::remove_dir_all(root);
}

/// A FIFO is refused at once, by every tool that reads and by the template; the server goes on
/// serving however many were asked for.
#[test]
#[cfg(unix)]
fn a_fifo_is_refused_at_once_and_the_server_goes_on() {
    let dir = sandbox("fifo");
    for name in ["pipe", "pipe.png"] {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            dir.join(name),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
    }
    let mut client = Client::connect(serve(&[&dir]), ProtocolVersion::V2025_11_25)
        .unwrap()
        .timeout(Duration::from_secs(10));
    // More than tokio's 512 blocking threads, each of which a FIFO read that waited would hold.
    for _ in 0..600 {
        let read = client
            .call("read_text_file", json!({"path": path(&dir, "pipe")}))
            .unwrap();
        assert_eq!(
            read.text(),
            format!("`{}` is not a regular file", path(&dir, "pipe"))
        );
    }
    let media = client
        .call("read_media_file", json!({"path": path(&dir, "pipe.png")}))
        .unwrap();
    assert!(
        media.text().ends_with("is not a regular file"),
        "{}",
        media.text()
    );
    let uri = format!("file://{}", path(&dir, "pipe"));
    assert_eq!(client.read_resource(&uri).unwrap_err().code, -32002);
    let info = client
        .call("get_file_info", json!({"path": path(&dir, "pipe")}))
        .unwrap();
    assert_eq!(info.structured::<Value>().unwrap()["kind"], "other");
    let listed = client.call("list_directory", json!({"path": dir})).unwrap();
    let entries = &listed.structured::<Value>().unwrap()["entries"];
    assert!(
        entries
            .as_array()
            .unwrap()
            .contains(&json!({"name": "pipe", "kind": "other", "size": 0}))
    );
    let read = client
        .call("read_text_file", json!({"path": path(&dir, "a.txt")}))
        .unwrap();
    assert_eq!(read.text(), "one\ntwo\nthree\n");
    let _ = std::fs::remove_dir_all(dir);
}

/// A file over the limit is refused, not held in memory (its first lines can still be read);
/// a device is not a file, even under a root of `/`.
#[test]
#[cfg(unix)]
fn a_file_too_large_or_a_device_is_refused() {
    let dir = sandbox("large");
    let large = std::fs::File::create(dir.join("large.txt")).unwrap();
    large.set_len(64 << 20).unwrap();
    let mut lines = "line\n".repeat(4).into_bytes();
    lines.resize(16 << 20, b'x');
    std::fs::write(dir.join("lines.txt"), lines).unwrap();
    let mut client = Client::connect(serve(&[&dir]), ProtocolVersion::V2025_11_25).unwrap();
    for (tool, name) in [
        ("read_text_file", "large.txt"),
        ("read_text_file", "lines.txt"),
    ] {
        let read = client
            .call(tool, json!({"path": path(&dir, name)}))
            .unwrap();
        let over = format!(
            "`{}` is over 8 MiB, the most this server reads",
            path(&dir, name)
        );
        // Not the text itself in the message: it would be the file.
        let said = read.text();
        assert!(said == over, "{name}: {} bytes answered", said.len());
    }
    let uri = format!("file://{}", path(&dir, "large.txt"));
    let refused = client.read_resource(&uri).unwrap_err();
    assert!(refused.message.contains("is over 8 MiB"), "{refused}");
    let head = client
        .call(
            "read_text_file",
            json!({"path": path(&dir, "lines.txt"), "head": 3}),
        )
        .unwrap();
    assert_eq!(head.text(), "line\nline\nline");
    let mut everything = Client::connect(serve(&[Path::new("/")]), ProtocolVersion::V2025_11_25)
        .unwrap()
        .timeout(Duration::from_secs(10));
    let zero = everything
        .call("read_text_file", json!({"path": "/dev/zero"}))
        .unwrap();
    assert_eq!(zero.text(), "`/dev/zero` is not a regular file");
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
    // A link that stays beneath the directory is followed.
    std::os::unix::fs::symlink("sub/in.txt", dir.join("inner.txt")).unwrap();
    let served = dir.display().to_string();
    let uri = |path: &str| format!("file://{path}");
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(serve(&[&dir]), revision).unwrap();
        for inside in ["sub/in.txt", "inner.txt"] {
            let read = client
                .read_resource(&uri(&format!("{served}/{inside}")))
                .unwrap();
            assert_eq!(read["contents"][0]["text"], "inside", "{revision}");
        }
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

/// Another local process swaps a folder inside the served directory for a link to one outside,
/// over and over, while a client reads through every tool and the template: nothing from
/// outside is ever served.
#[test]
#[cfg(target_os = "linux")]
fn a_folder_swapped_for_a_link_out_serves_nothing_from_outside() {
    let root = sandbox("race");
    let dir = root.join("served");
    std::fs::create_dir_all(dir.join("box")).unwrap();
    std::fs::write(dir.join("box/notes.txt"), "inside").unwrap();
    std::fs::create_dir_all(root.join("outside")).unwrap();
    std::fs::write(root.join("outside/notes.txt"), "OUTSIDE!").unwrap();
    std::fs::write(root.join("outside/only-outside.txt"), "OUTSIDE!").unwrap();
    std::os::unix::fs::symlink(root.join("outside"), dir.join(".link")).unwrap();
    let Some(swap) = swapping(&dir.join("box"), &dir.join(".link")) else {
        return;
    };
    let notes = path(&dir, "box/notes.txt");
    let listing = path(&dir, "box");
    let uri = format!("file://{notes}");
    let mut client = Client::connect(serve(&[&dir]), ProtocolVersion::V2025_11_25).unwrap();
    let (mut leaks, mut inside, mut attempts) = (Vec::new(), 0, 0);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(4) && attempts < 20_000 {
        attempts += 4;
        let read = client
            .call("read_text_file", json!({"path": notes}))
            .unwrap();
        let resource = client
            .read_resource(&uri)
            .map(|r| r.to_string())
            .unwrap_or_default();
        let listed = client
            .call("list_directory", json!({"path": listing}))
            .unwrap();
        let info = client
            .call("get_file_info", json!({"path": notes}))
            .unwrap();
        let size = info.structured::<Value>().ok().map(|v| v["size"].clone());
        inside += usize::from(read.text() == "inside");
        if read.text().contains("OUTSIDE") {
            leaks.push("read_text_file");
        }
        if resource.contains("OUTSIDE") {
            leaks.push("resources/read");
        }
        if listed.json().to_string().contains("only-outside") {
            leaks.push("list_directory");
        }
        if size == Some(json!(8)) {
            leaks.push("get_file_info");
        }
    }
    drop(swap);
    assert!(
        leaks.is_empty(),
        "{} of {attempts} reads served outside: {:?}",
        leaks.len(),
        &leaks[..leaks.len().min(8)]
    );
    assert!(inside > 0, "no read got the file inside in {attempts}");
    let _ = std::fs::remove_dir_all(root);
}

/// Exchanges two names over and over (Linux's `renameat2(RENAME_EXCHANGE)`, so either name
/// always exists) on a thread of its own, until dropped; `None`, with a message, on a
/// filesystem that cannot.
#[cfg(target_os = "linux")]
fn swapping(a: &Path, b: &Path) -> Option<Swapping> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    let exchange = |a: &Path, b: &Path| renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE);
    if let Err(error) = exchange(a, b).and_then(|()| exchange(a, b)) {
        eprintln!("skipped: this filesystem cannot exchange two names ({error})");
        return None;
    }
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (a, b, stopped) = (a.to_path_buf(), b.to_path_buf(), Arc::clone(&stop));
    let thread = std::thread::spawn(move || {
        let mut swaps = 0;
        while !stopped.load(Ordering::Relaxed) {
            exchange(&a, &b).unwrap();
            swaps += 1;
        }
        swaps
    });
    Some(Swapping {
        stop,
        thread: Some(thread),
    })
}

#[cfg(target_os = "linux")]
struct Swapping {
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

#[cfg(target_os = "linux")]
impl Drop for Swapping {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            assert!(
                thread.join().unwrap_or(0) > 0,
                "the names were never swapped"
            );
        }
    }
}

#[test]
fn tools_match_the_pinned_manifest() {
    Manifest::of(serve(&[]))
        .unwrap()
        .assert_matches("examples/manifests/files.json");
}
