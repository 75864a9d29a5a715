//! The skills extension (SEP-2640, `io.modelcontextprotocol/skills`): a folder of Agent Skills,
//! read once when the server is built, and the answers to `skills/list`, `skills/get`,
//! `resources/read` of a skill's files and `resources/directory/read` of its folders, as JSON
//! values (the caller adds `resultType` and the caching fields of the request's revision).
//!
//! Every folder under the root that holds a `SKILL.md` is a skill. Its path below the root is
//! its skill path (`acme/billing/refunds`), and its files are served as
//! `skill://<skill-path>/<file-path>`, its root as `skill://<skill-path>`. A `SKILL.md` deeper
//! inside a skill is one of that skill's files, not a skill of its own: the listing stays flat
//! and every file has one URI. Files are held in memory as read, so the digest and size a
//! listing gives are those of the bytes a read returns.
//!
//! Loading refuses, naming the file or folder and the rule, what a host would refuse or could
//! not verify: a `SKILL.md` that does not begin with `---` frontmatter holding a non-empty
//! string `name` and `description`, or whose `metadata` uses the reserved
//! `io.modelcontextprotocol/` prefix; a skill folder whose name breaks the naming rules or
//! differs from its frontmatter `name`; a first folder that cannot be a URI authority; more
//! than 512 files or 16 MiB in one skill (what a host must accept, and no byte past it is read);
//! a symbolic link (never followed, so nothing outside the root is served); anything neither a
//! file nor a folder (a FIFO, a device: never opened to wait on); a name that is not UTF-8.
//! Each folder is opened once and read through its handle, so a process that swaps a folder
//! for a link, or a file for a FIFO, while the server starts gets the load refused, never a
//! file from outside served (on Unix; elsewhere each entry is checked by its path just before
//! it is opened: `disk`). Hidden files
//! and folders (`.git`, `.DS_Store`) are not served.
//!
//! Files, lowest first: `disk` (folders opened once, their entries reached through them, never
//! by a path another process could change meanwhile); `error` (what goes wrong); `mime`, `uri`
//! (media types by extension; skill URIs and their naming rules); `frontmatter` (a `SKILL.md`'s YAML as JSON); `load`
//! (reading the folder); `answer` (the methods' results).

mod disk;
pub(crate) mod error;
mod mime;
mod uri;

mod frontmatter;

pub(crate) mod load;

mod answer;

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD as BASE64;
    use serde_json::{Value, json};
    use sha2::{Digest, Sha256};

    use super::error::{BadCursor, DirectoryError};
    use super::load::Skills;

    /// SHA-256 of `abc` and of nothing (FIPS 180-2's vectors).
    const ABC: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const EMPTY: &str = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    /// A folder of skills made for one test, removed when the test ends.
    struct Root(PathBuf);

    impl Root {
        fn new(label: &str) -> Root {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!(
                "toolwright-skills-{}-{label}-{n}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(&path).expect("a temporary folder");
            Root(path)
        }

        fn file(&self, rel: &str, bytes: impl AsRef<[u8]>) -> &Root {
            let path = self.0.join(rel);
            fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
            fs::write(path, bytes).expect("a file");
            self
        }

        /// A valid skill at `skill_path`, named by its last folder.
        fn skill(&self, skill_path: &str) -> &Root {
            let name = skill_path.rsplit('/').next().expect("a name");
            self.file(
                &format!("{skill_path}/SKILL.md"),
                format!("---\nname: {name}\ndescription: The {name} skill\n---\n# {name}\n"),
            )
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.0.join(rel)
        }

        fn load(&self) -> Skills {
            Skills::load(&self.0).expect("the skills load")
        }

        fn error(&self) -> String {
            match Skills::load(&self.0) {
                Ok(_) => panic!("{} loaded", self.0.display()),
                Err(error) => error.to_string(),
            }
        }
    }

    impl Drop for Root {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn sha256(bytes: &[u8]) -> String {
        let hex: String = Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    }

    fn uris(values: &Value) -> Vec<&str> {
        values
            .as_array()
            .expect("an array")
            .iter()
            .map(|v| v["uri"].as_str().expect("a uri"))
            .collect()
    }

    /// Every page of a listing, following its cursors.
    fn pages(mut next: impl FnMut(Option<&str>) -> Value) -> Vec<Value> {
        let mut pages = vec![next(None)];
        while let Some(cursor) = pages.last().and_then(|p| p["nextCursor"].as_str()) {
            assert!(!cursor.is_empty());
            let cursor = cursor.to_owned();
            pages.push(next(Some(&cursor)));
            assert!(pages.len() < 100, "the cursors loop");
        }
        pages
    }

    const DEMO_MANIFEST: &str = "---\nname: demo-skill\ndescription: Shows the way\nversion: 2.1\n\
                                 metadata:\n  owner: docs\n---\n# Demo\n";

    fn demo(label: &str) -> Root {
        let root = Root::new(label);
        root.file("demo-skill/SKILL.md", DEMO_MANIFEST)
            .file("demo-skill/references/GUIDE.md", "# Guide\n")
            .file("demo-skill/references/abc.txt", "abc")
            .file("demo-skill/empty.txt", "")
            .file("demo-skill/.DS_Store", "hidden")
            .file("demo-skill/.git/config", "hidden")
            .file("README.md", "not a skill");
        root
    }

    #[test]
    fn a_skill_is_listed_with_every_file_its_digest_and_size() {
        let root = demo("listed");
        let skills = root.load();
        let list = skills.list(None, 10).expect("the first page");
        assert_eq!(list.get("nextCursor"), None);
        let entry = &list["skills"][0];
        assert_eq!(list["skills"].as_array().map(Vec::len), Some(1));
        assert_eq!(entry["uri"], "skill://demo-skill/SKILL.md");
        assert_eq!(
            entry["frontmatter"],
            json!({"name": "demo-skill", "description": "Shows the way", "version": 2.1,
                   "metadata": {"owner": "docs"}})
        );
        assert_eq!(
            entry["resources"],
            json!([
                {"uri": "skill://demo-skill/SKILL.md", "digest": sha256(DEMO_MANIFEST.as_bytes()),
                 "size": DEMO_MANIFEST.len()},
                {"uri": "skill://demo-skill/empty.txt", "digest": EMPTY, "size": 0},
                {"uri": "skill://demo-skill/references/GUIDE.md",
                 "digest": sha256(b"# Guide\n"), "size": 8},
                {"uri": "skill://demo-skill/references/abc.txt", "digest": ABC, "size": 3},
            ])
        );
        assert_eq!(
            skills.get("skill://demo-skill/SKILL.md"),
            Some(json!({ "skill": entry }))
        );
        assert_eq!(
            skills.listed(),
            [
                json!({"uri": "skill://demo-skill/SKILL.md", "name": "demo-skill",
                    "description": "Shows the way", "mimeType": "text/markdown",
                    "size": DEMO_MANIFEST.len()})
            ]
        );
    }

    #[test]
    fn a_read_returns_the_bytes_the_listing_describes() {
        let root = demo("read");
        let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff];
        root.file("demo-skill/assets/logo.png", png)
            .file("demo-skill/assets/data.bin", [0xc3, 0x28])
            .file("demo-skill/my notes.txt", "spaced");
        let skills = root.load();
        assert_eq!(
            skills.read("skill://demo-skill/SKILL.md"),
            Some(
                json!({"uri": "skill://demo-skill/SKILL.md", "mimeType": "text/markdown",
                        "text": DEMO_MANIFEST})
            )
        );
        let logo = skills
            .read("skill://demo-skill/assets/logo.png")
            .expect("the logo");
        assert_eq!(logo["mimeType"], "image/png");
        let blob = logo["blob"].as_str().expect("a blob");
        assert_eq!(BASE64.decode(blob).expect("base64"), png);
        let data = skills
            .read("skill://demo-skill/assets/data.bin")
            .expect("the data");
        assert_eq!(data["mimeType"], "application/octet-stream");
        assert_eq!(data["blob"], "wyg=");
        // A name with a space is encoded in its URI, and found however a client encodes it.
        let entry = &skills.list(None, 1).expect("a page")["skills"][0];
        assert!(uris(&entry["resources"]).contains(&"skill://demo-skill/my%20notes.txt"));
        let notes = skills
            .read("skill://demo-skill/my%20n%6Ftes.txt")
            .expect("the notes");
        assert_eq!(notes["uri"], "skill://demo-skill/my%20notes.txt");
        assert_eq!(notes["text"], "spaced");
    }

    #[test]
    fn only_what_is_served_is_answered() {
        let root = demo("unknown");
        let skills = root.load();
        for uri in [
            "skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md",
            "skill://demo-skill/references/GUIDE.md",
            "skill://demo-skill",
            "skill://demo-skill/SKILL.md/",
            "skill://demo-skill/.DS_Store",
            "skill://demo-skill/.git/config",
            "skill://demo-skill/../README.md",
            "skill://README.md",
            "file://demo-skill/SKILL.md",
            "",
        ] {
            if uri != "skill://demo-skill/references/GUIDE.md" {
                assert_eq!(skills.read(uri), None, "{uri}");
            }
            assert_eq!(skills.get(uri), None, "{uri}");
        }
        assert_eq!(skills.read("skill://demo-skill/references"), None);
    }

    #[test]
    fn a_nested_org_path_is_the_skill_path() {
        let root = Root::new("org");
        root.skill("acme/billing/refunds")
            .file("acme/billing/notes.txt", "outside any skill");
        let skills = root.load();
        let list = skills.list(None, 10).expect("a page");
        assert_eq!(
            uris(&list["skills"]),
            ["skill://acme/billing/refunds/SKILL.md"]
        );
        let children = skills
            .directory("skill://acme/billing/refunds", None, 10)
            .expect("the skill's root");
        assert_eq!(
            uris(&children["resources"]),
            ["skill://acme/billing/refunds/SKILL.md"]
        );
        for outside in ["skill://acme", "skill://acme/billing"] {
            assert_eq!(
                skills.directory(outside, None, 10),
                Err(DirectoryError::NotADirectory)
            );
        }
        assert_eq!(skills.read("skill://acme/billing/notes.txt"), None);
    }

    #[test]
    fn a_skill_md_inside_a_skill_is_one_of_its_files() {
        let root = Root::new("nested");
        root.skill("outer").skill("outer/inner");
        let skills = root.load();
        let list = skills.list(None, 10).expect("a page");
        assert_eq!(uris(&list["skills"]), ["skill://outer/SKILL.md"]);
        assert_eq!(
            uris(&list["skills"][0]["resources"]),
            ["skill://outer/SKILL.md", "skill://outer/inner/SKILL.md"]
        );
        assert_eq!(skills.get("skill://outer/inner/SKILL.md"), None);
        assert!(skills.read("skill://outer/inner/SKILL.md").is_some());
    }

    #[test]
    fn pages_hold_whole_entries_and_cursors_lead_through_them() {
        let root = Root::new("pages");
        for name in ["a", "b", "c", "d", "e"] {
            root.skill(name).file(&format!("{name}/extra.txt"), name);
        }
        let skills = root.load();
        for size in [0, 1, 2, 4, 5, 9] {
            let pages = pages(|cursor| skills.list(cursor, size).expect("a page"));
            let mut seen = Vec::new();
            for page in &pages {
                let entries = page["skills"].as_array().expect("entries");
                assert!(!entries.is_empty() && entries.len() <= size.max(1));
                for entry in entries {
                    // Atomic: every entry has its whole set of files.
                    assert_eq!(entry["resources"].as_array().map(Vec::len), Some(2));
                    seen.push(entry["uri"].as_str().expect("a uri").to_owned());
                }
            }
            let expected: Vec<String> = ["a", "b", "c", "d", "e"]
                .iter()
                .map(|n| format!("skill://{n}/SKILL.md"))
                .collect();
            assert_eq!(seen, expected, "page size {size}");
        }
        let other = Root::new("other-pages");
        for name in ["x", "y", "z"] {
            other.skill(name);
        }
        let foreign = other.load().list(None, 1).expect("a page")["nextCursor"].clone();
        let foreign = foreign.as_str().expect("a cursor");
        let ours = skills.list(None, 2).expect("a page")["nextCursor"].clone();
        let ours = ours.as_str().expect("a cursor");
        let (tag, _) = ours.split_once('.').expect("tag.offset");
        for bad in [
            "",
            "nope",
            foreign,
            &format!("{tag}.0"),
            &format!("{tag}.5"),
            &format!("{tag}.+2"),
            &format!("{tag}.02"),
        ] {
            assert_eq!(skills.list(Some(bad), 2), Err(BadCursor), "{bad}");
        }
        assert!(skills.list(Some(&format!("{tag}.3")), 2).is_ok());
    }

    #[test]
    fn directories_list_their_direct_children() {
        let root = demo("dirs");
        fs::create_dir_all(root.path("demo-skill/assets")).expect("an empty folder");
        let skills = root.load();
        let children = skills
            .directory("skill://demo-skill", None, 10)
            .expect("the skill's root");
        assert_eq!(
            children,
            json!({"resources": [
                {"uri": "skill://demo-skill/SKILL.md", "name": "SKILL.md",
                 "mimeType": "text/markdown"},
                {"uri": "skill://demo-skill/assets", "name": "assets",
                 "mimeType": "inode/directory"},
                {"uri": "skill://demo-skill/empty.txt", "name": "empty.txt",
                 "mimeType": "text/plain"},
                {"uri": "skill://demo-skill/references", "name": "references",
                 "mimeType": "inode/directory"},
            ]})
        );
        assert_eq!(
            skills.directory("skill://demo-skill/references", None, 10),
            Ok(json!({"resources": [
                {"uri": "skill://demo-skill/references/GUIDE.md", "name": "GUIDE.md",
                 "mimeType": "text/markdown"},
                {"uri": "skill://demo-skill/references/abc.txt", "name": "abc.txt",
                 "mimeType": "text/plain"},
            ]}))
        );
        assert_eq!(
            skills.directory("skill://demo-skill/assets", None, 10),
            Ok(json!({ "resources": [] }))
        );
        for not_a_directory in [
            "skill://demo-skill/SKILL.md",
            "skill://demo-skill/references/GUIDE.md",
            "skill://demo-skill/",
            "skill://demo-skill/references/",
            "skill://demo-skill/missing",
            "skill://other",
        ] {
            assert_eq!(
                skills.directory(not_a_directory, None, 10),
                Err(DirectoryError::NotADirectory),
                "{not_a_directory}"
            );
        }
        // Paginated as the listing is, with cursors bound to their folder.
        let pages = pages(|cursor| {
            skills
                .directory("skill://demo-skill", cursor, 3)
                .expect("a page")
        });
        assert_eq!(pages.len(), 2);
        let cursor = pages[0]["nextCursor"].as_str().expect("a cursor");
        assert_eq!(
            skills.directory("skill://demo-skill/references", Some(cursor), 3),
            Err(DirectoryError::BadCursor)
        );
        assert_eq!(
            skills.directory("skill://demo-skill", Some("nope"), 3),
            Err(DirectoryError::BadCursor)
        );
    }

    #[test]
    fn a_folder_without_skills_serves_none() {
        let root = Root::new("none");
        root.file("README.md", "no skills yet");
        let skills = root.load();
        assert_eq!(skills.list(None, 10), Ok(json!({ "skills": [] })));
        assert!(skills.listed().is_empty());
    }

    #[test]
    fn a_skill_is_refused_with_what_is_wrong_and_where() {
        let root = Root::new("no-description");
        root.file("refunds/SKILL.md", "---\nname: refunds\n---\n");
        let at = root.path("refunds/SKILL.md");
        assert_eq!(
            root.error(),
            format!("{}: the frontmatter has no `description`", at.display())
        );

        let root = Root::new("bad-name");
        root.file(
            "Bad_Name/SKILL.md",
            "---\nname: Bad_Name\ndescription: d\n---\n",
        );
        assert_eq!(
            root.error(),
            format!(
                "{}: the name `Bad_Name` breaks the naming rules (lowercase letters, digits \
                 and single hyphens, 1 to 64 characters)",
                root.path("Bad_Name").display()
            )
        );

        let root = Root::new("mismatch");
        root.file("x/SKILL.md", "---\nname: y\ndescription: d\n---\n");
        assert_eq!(
            root.error(),
            format!(
                "{}: frontmatter `name` is `y`, but the folder is `x`",
                root.path("x/SKILL.md").display()
            )
        );

        let root = Root::new("authority");
        root.skill("Acme Corp/billing/refunds");
        let error = root.error();
        assert!(
            error.starts_with(&format!(
                "{}: the folder `Acme Corp` is the authority",
                root.path("Acme Corp").display()
            )),
            "{error}"
        );

        let root = Root::new("at-root");
        root.file("SKILL.md", "---\nname: x\ndescription: d\n---\n");
        assert!(root.error().contains("a skill needs a folder of its own"));

        let root = Root::new("missing");
        let gone = root.path("gone");
        let Err(error) = Skills::load(&gone) else {
            panic!("a folder that is not there loaded");
        };
        let error = error.to_string();
        assert!(error.starts_with(&format!("{}: cannot be read", gone.display())));
    }

    #[test]
    fn a_manifest_that_is_not_frontmatter_or_text_is_refused() {
        for (manifest, expected) in [
            (&b"# No frontmatter\n"[..], "first line must be `---`"),
            (b"---\nname: x\ndescription: [\n---\n", "not valid YAML"),
            (b"---\nname: x\ndescription: d\n", "no closing `---` line"),
            (
                b"---\nname: x\ndescription: \xff\n---\n",
                "is not UTF-8 text",
            ),
        ] {
            let root = Root::new("manifest");
            root.file("x/SKILL.md", manifest);
            let error = root.error();
            let at = root.path("x/SKILL.md");
            assert!(error.starts_with(&format!("{}: ", at.display())), "{error}");
            assert!(error.contains(expected), "{error}");
        }
    }

    #[test]
    fn the_limits_a_host_must_accept_are_kept() {
        let root = Root::new("files");
        root.skill("many");
        for n in 1..512 {
            root.file(&format!("many/files/{n:03}.txt"), "x");
        }
        let skills = root.load();
        let entry = &skills.list(None, 1).expect("a page")["skills"][0];
        assert_eq!(entry["resources"].as_array().map(Vec::len), Some(512));
        root.file("many/files/512.txt", "x");
        assert_eq!(
            root.error(),
            "skill `many` has over 512 files, the most a host must accept"
        );

        // Sparse files: their length counts, and they are refused before being read.
        let root = Root::new("bytes");
        root.skill("big");
        let big = fs::File::create(root.path("big/data.bin")).expect("a file");
        big.set_len(20 * 1024 * 1024).expect("a length");
        let manifest = fs::metadata(root.path("big/SKILL.md")).expect("a manifest");
        let over = 20 * 1024 * 1024 + manifest.len();
        assert_eq!(
            root.error(),
            format!("skill `big` is 20.0 MiB ({over} bytes), over the 16 MiB a host must accept")
        );
        big.set_len(16 * 1024 * 1024 - manifest.len())
            .expect("a length");
        assert!(Skills::load(&root.0).is_ok(), "exactly 16 MiB is served");
        big.set_len(20 * 1024 * 1024 - manifest.len())
            .expect("a length");
        assert_eq!(
            root.error(),
            "skill `big` is 20 MiB, over the 16 MiB a host must accept"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_refused_by_name() {
        let root = Root::new("link");
        root.skill("linked");
        let link = root.path("linked/passwd");
        std::os::unix::fs::symlink("/etc/passwd", &link).expect("a link");
        let error = root.error();
        assert!(
            error.starts_with(&format!("{}: a symbolic link", link.display())),
            "{error}"
        );

        // Outside any skill too: a linked folder could hold skills from anywhere.
        let root = Root::new("linked-folder");
        let elsewhere = Root::new("elsewhere");
        elsewhere.skill("remote");
        let link = root.path("remote");
        std::os::unix::fs::symlink(&elsewhere.0, &link).expect("a link");
        assert!(
            root.error()
                .starts_with(&format!("{}: a symbolic link", link.display()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let root = Root::new("utf8");
        root.skill("named");
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
        let path = root.path("named").join(name);
        if fs::write(&path, "x").is_err() {
            return; // a file system that refuses such names cannot hold one either
        }
        let error = root.error();
        assert!(
            error.ends_with("the name is not UTF-8, so no URI can name it"),
            "{error}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_served_and_read_through() {
        let root = Root::new("bom");
        let manifest = "\u{feff}---\nname: bom\ndescription: d\n---\n";
        root.file("bom/SKILL.md", manifest);
        let skills = root.load();
        let entry = &skills.list(None, 1).expect("a page")["skills"][0];
        assert_eq!(
            entry["frontmatter"],
            json!({"name": "bom", "description": "d"})
        );
        assert_eq!(entry["resources"][0]["size"], manifest.len());
        assert_eq!(
            skills.read("skill://bom/SKILL.md").expect("the manifest")["text"],
            manifest
        );
    }

    #[test]
    fn the_conformance_fixture_loads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/conformance/skills");
        let skills = Skills::load(&root).expect("the fixture loads");
        let list = skills.list(None, 10).expect("a page");
        let entry = &list["skills"][0];
        assert_eq!(uris(&list["skills"]), ["skill://demo-skill/SKILL.md"]);
        assert_eq!(entry["frontmatter"]["name"], "demo-skill");
        assert!(entry["frontmatter"]["description"].as_str().is_some());
        assert_eq!(
            uris(&entry["resources"]),
            [
                "skill://demo-skill/SKILL.md",
                "skill://demo-skill/references/GUIDE.md"
            ]
        );
        let root_children = skills
            .directory("skill://demo-skill", None, 10)
            .expect("the skill's root");
        assert!(
            root_children["resources"]
                .as_array()
                .expect("children")
                .iter()
                .any(|c| c["mimeType"] == "inode/directory")
        );
        assert_eq!(
            skills.get("skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md"),
            None
        );
        assert_eq!(skills.listed()[0]["name"], "demo-skill");
    }
}
