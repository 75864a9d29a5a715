//! The skills folder as the loader sees it: folders opened once and their entries reached
//! through them, one name at a time, never by a path from the root that another process could
//! change between a check and a read.
//!
//! On Unix a [`Dir`] is an open descriptor. An entry is looked at (`fstatat` without following
//! it) and opened (`openat` with `O_NOFOLLOW`) relative to it, so a folder swapped for a link
//! after it was listed is refused when it is opened, and a folder opened stays the one that was
//! listed even if it is renamed or replaced meanwhile. A file is opened non-blocking (opening a
//! FIFO cannot wait for a writer), and its type is checked on the open descriptor before a byte
//! is read, so whatever was swapped in, only a regular file is read, and at most the bytes
//! asked for.
//!
//! Elsewhere (Windows, WebAssembly) a `Dir` is a path, and each entry is checked by its path
//! before it is opened: links are still refused and only regular files read, within the same
//! limit, but a process that can write in the skills folder could swap an entry between the
//! check and the open there.

use std::ffi::OsString;
use std::io::{self, Read};

pub(super) use imp::Dir;

/// What an entry of a folder is, as seen without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    File,
    Folder,
    Link,
    /// A FIFO, a socket, a device.
    Other,
}

/// An entry of a folder: its name, what it is and, for a file, its length.
pub(super) struct Seen {
    pub(super) name: OsString,
    pub(super) kind: Kind,
    pub(super) len: u64,
}

/// Why a file's bytes were not read.
#[derive(Debug)]
pub(super) enum Unread {
    /// It is not a regular file (any more): a link, a folder, a FIFO, a device.
    NotAFile(Kind),
    Io(io::Error),
}

impl From<io::Error> for Unread {
    fn from(error: io::Error) -> Unread {
        Unread::Io(error)
    }
}

/// At most `limit + 1` bytes of `file`, so that the caller can tell one over the limit apart.
fn read_at_most(file: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(all(
    unix,
    not(any(
        target_os = "redox",
        target_os = "horizon",
        target_os = "espidf",
        target_os = "vita"
    ))
))]
mod imp {
    use std::ffi::OsStr;
    use std::io;
    use std::os::fd::OwnedFd;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use crate::resources::skills::disk::{Kind, Seen, Unread, read_at_most};

    /// A folder, open.
    pub(crate) struct Dir(OwnedFd);

    fn kind(file_type: FileType) -> Kind {
        match file_type {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Folder,
            FileType::Symlink => Kind::Link,
            _ => Kind::Other,
        }
    }

    /// Opening a folder: never through a link, never waiting.
    const FOLDER: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);

    /// Opening a file: never through a link, never waiting (a FIFO opens at once, and is then
    /// refused by its type), never as the process's terminal.
    const FILE: OFlags = OFlags::RDONLY
        .union(OFlags::NOFOLLOW)
        .union(OFlags::NONBLOCK)
        .union(OFlags::NOCTTY)
        .union(OFlags::CLOEXEC);

    impl Dir {
        /// The folder at `path`, the root the author named (a link there is the author's own
        /// choice, and is followed).
        pub(crate) fn open(path: &Path) -> io::Result<Dir> {
            let flags = FOLDER.difference(OFlags::NOFOLLOW);
            Ok(Dir(rustix::fs::open(path, flags, Mode::empty())?))
        }

        /// Its entries, `.` and `..` aside, each seen without following it.
        pub(crate) fn entries(&self) -> io::Result<Vec<Seen>> {
            let mut seen = Vec::new();
            for entry in rustix::fs::Dir::read_from(&self.0)? {
                let entry = entry?;
                let name = entry.file_name().to_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                let stat =
                    rustix::fs::statat(&self.0, entry.file_name(), AtFlags::SYMLINK_NOFOLLOW)?;
                seen.push(Seen {
                    name: OsStr::from_bytes(name).to_owned(),
                    kind: kind(FileType::from_raw_mode(stat.st_mode)),
                    len: u64::try_from(stat.st_size).unwrap_or(0),
                });
            }
            Ok(seen)
        }

        /// Its folder `name`, refused if it is a link now.
        pub(crate) fn folder(&self, name: &OsStr) -> io::Result<Dir> {
            Ok(Dir(rustix::fs::openat(
                &self.0,
                name,
                FOLDER,
                Mode::empty(),
            )?))
        }

        /// At most `limit + 1` bytes of its file `name`, if that is a regular file now.
        pub(crate) fn read(&self, name: &OsStr, limit: u64) -> Result<Vec<u8>, Unread> {
            let fd = match rustix::fs::openat(&self.0, name, FILE, Mode::empty()) {
                Ok(fd) => fd,
                // `O_NOFOLLOW` met a link.
                Err(rustix::io::Errno::LOOP) => return Err(Unread::NotAFile(Kind::Link)),
                Err(errno) => return Err(Unread::Io(errno.into())),
            };
            let found = kind(FileType::from_raw_mode(
                rustix::fs::fstat(&fd).map_err(io::Error::from)?.st_mode,
            ));
            if found != Kind::File {
                return Err(Unread::NotAFile(found));
            }
            Ok(read_at_most(std::fs::File::from(fd), limit)?)
        }
    }
}

#[cfg(not(all(
    unix,
    not(any(
        target_os = "redox",
        target_os = "horizon",
        target_os = "espidf",
        target_os = "vita"
    ))
)))]
mod imp {
    use std::ffi::OsStr;
    use std::fs;
    use std::io;
    use std::path::{Path, PathBuf};

    use crate::resources::skills::disk::{Kind, Seen, Unread, read_at_most};

    /// A folder, by its path.
    pub(crate) struct Dir(PathBuf);

    fn kind(file_type: fs::FileType) -> Kind {
        if file_type.is_symlink() {
            Kind::Link
        } else if file_type.is_dir() {
            Kind::Folder
        } else if file_type.is_file() {
            Kind::File
        } else {
            Kind::Other
        }
    }

    impl Dir {
        pub(crate) fn open(path: &Path) -> io::Result<Dir> {
            match fs::metadata(path)?.is_dir() {
                true => Ok(Dir(path.to_path_buf())),
                false => Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder")),
            }
        }

        pub(crate) fn entries(&self) -> io::Result<Vec<Seen>> {
            let mut seen = Vec::new();
            for entry in fs::read_dir(&self.0)? {
                let entry = entry?;
                let metadata = fs::symlink_metadata(entry.path())?;
                seen.push(Seen {
                    name: entry.file_name(),
                    kind: kind(metadata.file_type()),
                    len: metadata.len(),
                });
            }
            Ok(seen)
        }

        pub(crate) fn folder(&self, name: &OsStr) -> io::Result<Dir> {
            let path = self.0.join(name);
            match kind(fs::symlink_metadata(&path)?.file_type()) {
                Kind::Folder => Ok(Dir(path)),
                _ => Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder")),
            }
        }

        pub(crate) fn read(&self, name: &OsStr, limit: u64) -> Result<Vec<u8>, Unread> {
            let path = self.0.join(name);
            let seen = kind(fs::symlink_metadata(&path)?.file_type());
            if seen != Kind::File {
                return Err(Unread::NotAFile(seen));
            }
            let file = fs::File::open(&path)?;
            let opened = kind(file.metadata()?.file_type());
            if opened != Kind::File {
                return Err(Unread::NotAFile(opened));
            }
            Ok(read_at_most(file, limit)?)
        }
    }
}

/// Another process swapping what the loader reads while it reads it: a folder for a link out,
/// a file for a FIFO, a small file for a large one. Linux's `renameat2(RENAME_EXCHANGE)` swaps
/// two names at once, so the loader sees one or the other, never neither.
#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread::JoinHandle;
    use std::time::{Duration, Instant};

    use rustix::fs::{CWD, RenameFlags};

    use crate::resources::skills::disk::Dir;
    use crate::resources::skills::load::Skills;

    /// How long each race runs, and how many loads it may take (the loader before these
    /// checks served the outside file in about 1 of 1000 loads here).
    const RACE: Duration = Duration::from_secs(5);
    const LOADS: usize = 20_000;

    struct Scratch(PathBuf);

    impl Scratch {
        fn new(label: &str) -> Scratch {
            let path = std::env::temp_dir().join(format!(
                "toolwright-skills-race-{}-{label}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(path.join("skills/racy")).expect("a folder");
            fs::write(
                path.join("skills/racy/SKILL.md"),
                "---\nname: racy\ndescription: Raced\n---\n",
            )
            .expect("a manifest");
            Scratch(path)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// Exchanges two names over and over on a thread of its own, until dropped.
    struct Swapping {
        stop: Arc<AtomicBool>,
        thread: Option<JoinHandle<usize>>,
    }

    fn exchange(a: &Path, b: &Path) -> rustix::io::Result<()> {
        rustix::fs::renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)
    }

    /// `None` (and a message) on a filesystem that cannot exchange names.
    fn swapping(a: &Path, b: &Path) -> Option<Swapping> {
        if let Err(error) = exchange(a, b).and_then(|()| exchange(a, b)) {
            eprintln!("skipped: this filesystem cannot exchange two names ({error})");
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let (a, b, stopped) = (a.to_path_buf(), b.to_path_buf(), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            let mut swaps = 0;
            while !stopped.load(Ordering::Relaxed) {
                exchange(&a, &b).expect("an exchange");
                swaps += 1;
            }
            swaps
        });
        Some(Swapping {
            stop,
            thread: Some(thread),
        })
    }

    impl Drop for Swapping {
        fn drop(&mut self) {
            self.stop.store(true, Ordering::Relaxed);
            if let Some(thread) = self.thread.take() {
                let swaps = thread.join().unwrap_or(0);
                assert!(swaps > 0, "the names were never swapped");
            }
        }
    }

    /// Every file a load served, `(uri, bytes)`.
    fn served(skills: &Skills) -> Vec<(&str, &[u8])> {
        skills
            .skills
            .iter()
            .flat_map(|skill| &skill.files)
            .map(|file| (file.uri.as_str(), file.bytes.as_slice()))
            .collect()
    }

    /// Loads while `swap` runs, until `RACE` or `LOADS`: how many loaded, and how many failed.
    fn race(root: &Path, mut each: impl FnMut(&Skills)) -> (usize, usize) {
        let (mut loaded, mut refused) = (0, 0);
        let start = Instant::now();
        while start.elapsed() < RACE && loaded + refused < LOADS {
            match Skills::load(root) {
                Ok(skills) => {
                    each(&skills);
                    loaded += 1;
                }
                Err(_) => refused += 1,
            }
        }
        (loaded, refused)
    }

    #[test]
    fn a_folder_swapped_for_a_link_out_serves_nothing_from_outside() {
        let scratch = Scratch::new("link");
        let root = scratch.0.join("skills");
        fs::create_dir_all(root.join("racy/box")).expect("a folder");
        fs::write(root.join("racy/box/notes.md"), "inside").expect("a file");
        fs::create_dir_all(scratch.0.join("outside")).expect("a folder");
        fs::write(scratch.0.join("outside/notes.md"), "OUTSIDE").expect("a file");
        // A hidden name, which a load skips, holds the link until it is swapped in.
        std::os::unix::fs::symlink(scratch.0.join("outside"), root.join("racy/.link"))
            .expect("a link");
        let Some(swap) = swapping(&root.join("racy/box"), &root.join("racy/.link")) else {
            return;
        };
        let mut outside = Vec::new();
        let mut inside = 0;
        let (loaded, refused) = race(&root, |skills| {
            for (uri, bytes) in served(skills) {
                match bytes {
                    b"OUTSIDE" => outside.push(uri.to_owned()),
                    b"inside" => inside += 1,
                    _ => {}
                }
            }
        });
        drop(swap);
        assert!(
            outside.is_empty(),
            "{} of {} loads ({refused} refused) served a file from outside: {:?}",
            outside.len(),
            loaded + refused,
            &outside[..outside.len().min(3)]
        );
        assert!(inside > 0, "no load read the folder ({refused} refused)");
    }

    #[test]
    fn a_file_swapped_for_a_fifo_is_refused_at_once() {
        let scratch = Scratch::new("fifo");
        let root = scratch.0.join("skills");
        fs::write(root.join("racy/notes.md"), "inside").expect("a file");
        rustix::fs::mknodat(
            CWD,
            root.join("racy/.fifo"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("a FIFO");
        let Some(swap) = swapping(&root.join("racy/notes.md"), &root.join("racy/.fifo")) else {
            return;
        };
        // Loads on a thread of their own: one that blocks on the FIFO fails the test in time
        // rather than hang it.
        let (done, finished) = std::sync::mpsc::channel();
        let racing = root.clone();
        std::thread::spawn(move || {
            let _ = done.send(race(&racing, |_| {}));
        });
        let outcome = finished.recv_timeout(RACE + Duration::from_secs(20));
        drop(swap);
        let (loaded, refused) = outcome.expect("a load blocked on the FIFO");
        assert!(loaded > 0, "no load read the file ({refused} refused)");
    }

    /// Bytes this process has read so far (`rchar` of `/proc/self/io`).
    fn bytes_read() -> u64 {
        let io = fs::read_to_string("/proc/self/io").expect("/proc/self/io");
        io.lines()
            .find_map(|line| line.strip_prefix("rchar: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("rchar")
    }

    #[test]
    fn a_file_that_grows_after_it_is_listed_is_read_no_further_than_the_limit() {
        let scratch = Scratch::new("large");
        let root = scratch.0.join("skills");
        fs::write(root.join("racy/notes.md"), "small").expect("a file");
        // 256 MiB of a sparse file, no disk space: what a load must not read whole.
        let large = fs::File::create(root.join("racy/.large")).expect("a file");
        large.set_len(256 << 20).expect("a length");
        let Some(swap) = swapping(&root.join("racy/notes.md"), &root.join("racy/.large")) else {
            return;
        };
        let mut most = 0;
        let start = Instant::now();
        let mut loads = 0;
        while start.elapsed() < RACE && loads < LOADS {
            let before = bytes_read();
            let _ = Skills::load(&root);
            most = most.max(bytes_read().saturating_sub(before));
            loads += 1;
        }
        drop(swap);
        // The 16 MiB a skill may hold, its manifest, and what other tests read meanwhile.
        assert!(
            most < 40 << 20,
            "a load read {} MiB of a skill of at most 16 MiB",
            most >> 20
        );
    }

    #[test]
    fn a_read_stops_past_its_limit() {
        let scratch = Scratch::new("limit");
        let large = fs::File::create(scratch.0.join("large")).expect("a file");
        large.set_len(64 << 20).expect("a length");
        let dir = Dir::open(&scratch.0).expect("the folder");
        let bytes = dir
            .read(std::ffi::OsStr::new("large"), 1 << 20)
            .expect("a read");
        assert_eq!(bytes.len(), (1 << 20) + 1);
    }
}
