//! A note-keeping MCP server: one `Notes` value holds the notes, and its `#[mcp_tool_type]`
//! methods are the tools. `export_notes` is long-running: it reports progress and stops when
//! the client cancels it. `delete_tagged` asks the user to confirm before it deletes anything.
//! `lock_notes` takes the tools that change notes away while the notes are locked, and clients
//! hear that the tool list changed. Every call goes through two middlewares: an audit log (a
//! `tracing` event per call, shown on stderr with `NOTES_LOG=info`) and a time limit, longer for
//! the tools tagged `long`.
//!
//! Each note is also a resource, `notes://{id}`, whose id completes from the notes there are;
//! a client that subscribes to one hears when it changes or goes. The `summarize` prompt asks
//! the model to summarize the notes with a tag, which completes from the tags in use.
//!
//! ```sh
//! cargo run --example notes -- call add_note '{"text": "buy milk", "tags": ["errands"]}'
//! cargo run --example notes -- get summarize '{"tag": "errands"}'
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::ServerHandle;
use toolwright::middleware::{self, Next, ToolCall};
use toolwright::prelude::*;

/// The notes, in memory; all calls share one `Notes`.
#[derive(Default)]
struct Notes {
    next_id: AtomicU64,
    notes: Mutex<BTreeMap<u64, Note>>,
}

#[derive(Clone, Serialize, Deserialize, JsonSchema, Debug, PartialEq)]
struct Note {
    id: u64,
    text: String,
    tags: Vec<String>,
}

#[derive(Serialize, Deserialize, JsonSchema, Debug)]
struct NoteList {
    notes: Vec<Note>,
}

#[derive(Serialize, JsonSchema)]
struct Export {
    path: String,
    notes: usize,
}

/// The form `delete_tagged` shows the user.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Delete them for good.
    confirm: bool,
}

/// Limits the server enforces, shared with the tools as state.
struct Limits {
    max_note_len: usize,
}

impl Notes {
    fn snapshot(&self) -> Vec<Note> {
        self.lock().values().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Note>> {
        self.notes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The URI of note `id`, as a resource.
    fn uri(id: u64) -> String {
        format!("notes://{id}")
    }

    /// Note ids that start with what the user typed, for the `id` of `notes://{id}`.
    fn ids(completing: Completing) -> Vec<String> {
        let Some(notes) = completing.state::<Notes>() else {
            return Vec::new();
        };
        let ids = notes.lock().keys().map(u64::to_string).collect::<Vec<_>>();
        ids.into_iter()
            .filter(|id| id.starts_with(completing.value()))
            .collect()
    }

    /// The tags in use that start with what the user typed.
    fn tags(completing: Completing) -> Vec<String> {
        let Some(notes) = completing.state::<Notes>() else {
            return Vec::new();
        };
        let tags: std::collections::BTreeSet<String> =
            notes.snapshot().into_iter().flat_map(|n| n.tags).collect();
        tags.into_iter()
            .filter(|tag| tag.starts_with(completing.value()))
            .collect()
    }
}

#[mcp_tool_type]
impl Notes {
    /// Stores a note and returns it with its id.
    ///
    /// # Arguments
    /// * `text` - The note.
    /// * `tags` - Labels to find it by later.
    #[mcp_tool(destructive = false, open_world = false)]
    fn add_note(
        &self,
        text: String,
        #[arg(default = Vec::new())] tags: Vec<String>,
        limits: State<Limits>,
    ) -> Result<Note, ToolError> {
        if text.chars().count() > limits.max_note_len {
            return Err(ToolError::new(format!(
                "a note has at most {} characters",
                limits.max_note_len
            )));
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let note = Note { id, text, tags };
        self.lock().insert(id, note.clone());
        Ok(note)
    }

    /// A note, by id.
    ///
    /// # Arguments
    /// * `id` - The note's id.
    #[mcp_resource("notes://{id}", mime_type = "application/json")]
    fn note(&self, #[arg(complete = Self::ids)] id: u64) -> Option<Json<Note>> {
        self.lock().get(&id).cloned().map(Json)
    }

    /// Asks the model to summarize the notes, or those with a tag.
    ///
    /// # Arguments
    /// * `tag` - Only the notes with this tag.
    #[mcp_prompt]
    fn summarize(&self, #[arg(complete = Self::tags)] tag: Option<String>) -> Messages {
        let notes: Vec<String> = self
            .snapshot()
            .into_iter()
            .filter(|n| tag.as_ref().is_none_or(|t| n.tags.contains(t)))
            .map(|n| format!("- {}", n.text))
            .collect();
        let which = tag.map_or("my notes".to_owned(), |t| format!("my notes tagged {t}"));
        Messages::new()
            .description(format!("A summary of {which}"))
            .user(format!(
                "Summarize {which} in two sentences:\n{}",
                notes.join("\n")
            ))
    }

    /// Lists the notes, oldest first.
    ///
    /// # Arguments
    /// * `tag` - Only the notes with this tag.
    #[mcp_tool(read_only, open_world = false)]
    fn list_notes(&self, tag: Option<String>) -> NoteList {
        let notes = self
            .snapshot()
            .into_iter()
            .filter(|n| tag.as_ref().is_none_or(|t| n.tags.contains(t)))
            .collect();
        NoteList { notes }
    }

    /// Deletes a note. Clients that subscribed to it hear that it changed.
    #[mcp_tool(destructive, idempotent, open_world = false)]
    fn delete_note(&self, id: u64, server: State<ServerHandle>) -> Result<String, ToolError> {
        let removed = self.lock().remove(&id);
        match removed {
            Some(_) => {
                // A server that stopped has no subscribers left to tell.
                let _ = server.resource_updated(&Notes::uri(id));
                Ok(format!("deleted note {id}"))
            }
            None => Err(ToolError::new(format!("there is no note {id}"))),
        }
    }
}

// A second impl block of the same type: its tools join the first block's.
#[mcp_tool_type]
impl Notes {
    /// Writes every note to a Markdown file, one at a time, reporting progress. Cancelling the
    /// request stops the export and removes the partial file. A client that can follow a task
    /// gets one: it polls for the export's progress and result.
    ///
    /// # Arguments
    /// * `path` - The file to write.
    /// * `pause_ms` - A pause after each note, to spare a slow disk.
    #[mcp_tool(
        destructive = false,
        idempotent,
        open_world = false,
        tags("long"),
        task = "optional"
    )]
    async fn export_notes(
        &self,
        path: String,
        #[arg(default = 0)] pause_ms: u64,
        progress: Progress,
        cancel: Cancellation,
    ) -> Result<Export, ToolError> {
        let notes = self.snapshot();
        let total = notes.len() as f64;
        let mut markdown = String::new();
        for (done, note) in notes.iter().enumerate() {
            markdown.push_str(&format!("- {} ({})\n", note.text, note.tags.join(", ")));
            tokio::fs::write(&path, &markdown)
                .await
                .map_err(|e| ToolError::new(format!("cannot write `{path}`: {e}")))?;
            progress.report(
                (done + 1) as f64,
                Some(total),
                Some(&format!("note {}", note.id)),
            );
            tokio::select! {
                () = cancel.cancelled() => {
                    let _ = tokio::fs::remove_file(&path).await;
                    return Err(ToolError::new("export cancelled"));
                }
                () = tokio::time::sleep(Duration::from_millis(pause_ms)) => {}
            }
        }
        // Printing is safe: while the server runs, stdout is redirected to stderr and the
        // protocol keeps its own copy of the real stdout.
        println!("exported {} notes to {path}", notes.len());
        Ok(Export {
            path,
            notes: notes.len(),
        })
    }

    /// Locks the notes against changes, or unlocks them. While they are locked, the tools
    /// that change notes are not offered at all.
    ///
    /// # Arguments
    /// * `locked` - Whether to lock them.
    #[mcp_tool(idempotent, open_world = false)]
    fn lock_notes(&self, locked: bool, server: State<ServerHandle>) -> Result<String, ToolError> {
        for tool in ["add_note", "delete_note", "delete_tagged"] {
            let changed = match locked {
                true => server.disable_tool(tool),
                false => server.enable_tool(tool),
            };
            changed.map_err(|e| ToolError::new(e.to_string()))?;
        }
        Ok(format!(
            "the notes are {}",
            if locked { "locked" } else { "unlocked" }
        ))
    }

    /// Deletes every note with a tag, once the user confirms.
    ///
    /// # Arguments
    /// * `tag` - The tag of the notes to delete.
    #[mcp_tool(destructive, idempotent, open_world = false)]
    async fn delete_tagged(
        &self,
        tag: String,
        ask: Elicit<Confirm>,
        server: State<ServerHandle>,
    ) -> Result<String, ToolError> {
        // On 2026-07-28 the code before the answer runs again in every round: it only looks.
        let count = self
            .snapshot()
            .iter()
            .filter(|n| n.tags.contains(&tag))
            .count();
        if count == 0 {
            return Ok(format!("no note is tagged {tag}"));
        }
        let question = format!("Delete {count} notes tagged {tag}?");
        match ask.form(question).await? {
            Answer::Accept(Confirm { confirm: true }) => {
                let mut gone = Vec::new();
                self.lock().retain(|&id, note| {
                    let tagged = note.tags.contains(&tag);
                    if tagged {
                        gone.push(id);
                    }
                    !tagged
                });
                for id in &gone {
                    let _ = server.resource_updated(&Notes::uri(*id));
                }
                Ok(format!("deleted {} notes tagged {tag}", gone.len()))
            }
            _ => Ok(format!("kept the notes tagged {tag}")),
        }
    }
}

/// Records every call: the tool, how it ended, how long it took.
async fn audit(call: ToolCall, next: Next) -> ToolOutput {
    // What is kept past `next.run(call)` is taken from the call first: the call moves on.
    let (tool, started) = (call.tool().name().to_owned(), Instant::now());
    let output = next.run(call).await;
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(tool, failed = output.is_error(), millis, "tool call");
    output
}

/// Stops a call that runs too long: ten seconds, ten minutes for the tools tagged `long`.
async fn time_limit(call: ToolCall, next: Next) -> ToolOutput {
    let limit = match call.tool().has_tag("long") {
        true => Duration::from_secs(600),
        false => Duration::from_secs(10),
    };
    let tool = call.tool().name().to_owned();
    match tokio::time::timeout(limit, next.run(call)).await {
        Ok(output) => output,
        Err(_) => ToolOutput::error(format!("`{tool}` took over {limit:?} and was stopped")),
    }
}

fn server() -> Server {
    let notes = Arc::new(Notes::default());
    let mut server = toolwright::server!();
    // `lock_notes` changes the tool set through the server's handle.
    let handle = server.handle();
    server
        .state(handle)
        .title("Notes")
        .instructions("Keeps short notes in memory; find them again by tag.")
        .state(Limits {
            max_note_len: 10_000,
        })
        // The notes serve the tools, the resource and the prompt, and, as state, the
        // completion functions.
        .shared_tools(Arc::clone(&notes))
        .shared_state(notes)
        .layer(middleware::from_fn(audit))
        .layer(middleware::from_fn(time_limit))
}

fn main() -> ExitCode {
    // Log lines go to stderr (stdout carries the protocol); `NOTES_LOG=info` shows the audit.
    let level = std::env::var("NOTES_LOG").ok().and_then(|l| l.parse().ok());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level.unwrap_or(tracing::Level::WARN))
        .init();
    server().run()
}

// Needs toolwright's `testing` feature (`cargo test --all-features`).
#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::json;
    use toolwright::ProtocolVersion;
    use toolwright::testing::{Answers, Client, Manifest, TaskCall};

    #[test]
    fn notes_are_found_by_tag_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(), revision).unwrap();
            for (text, tag) in [("milk", "shop"), ("call Ada", "work")] {
                let added = client
                    .call("add_note", json!({"text": text, "tags": [tag]}))
                    .unwrap();
                assert!(!added.is_error(), "{revision}: {}", added.text());
            }
            let listed = client.call("list_notes", json!({"tag": "work"})).unwrap();
            if revision.has_structured_output() {
                let list: NoteList = listed.structured().unwrap();
                let texts: Vec<&str> = list.notes.iter().map(|n| n.text.as_str()).collect();
                assert_eq!(texts, ["call Ada"], "{revision}");
            } else {
                assert!(listed.text().contains("call Ada"), "{revision}");
            }
        }
    }

    #[test]
    fn an_export_reports_progress_and_stops_when_cancelled() {
        let mut client = Client::new(server()).unwrap();
        for text in ["a", "b", "c"] {
            client.call("add_note", json!({"text": text})).unwrap();
        }
        let path = std::env::temp_dir().join(format!("notes-{}.md", std::process::id()));
        let path = path.to_str().unwrap();
        let done = client
            .start("export_notes", json!({"path": path}))
            .finish()
            .unwrap();
        assert_eq!(done.progress().len(), 3);
        assert_eq!(done.progress()[2].message.as_deref(), Some("note 3"));

        let mut slow = client.start("export_notes", json!({"path": path, "pause_ms": 10_000}));
        slow.next_progress();
        slow.cancel();
        // The tool removes its partial file when it sees the cancellation.
        let gone = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !std::path::Path::new(path).exists()
        });
        assert!(gone, "the partial export was removed");
    }

    #[test]
    fn an_export_runs_as_a_task_for_a_client_that_follows_one() {
        for revision in [ProtocolVersion::V2026_07_28, ProtocolVersion::V2025_11_25] {
            let mut client = Client::connect(server(), revision).unwrap();
            for text in ["a", "b"] {
                client.call("add_note", json!({"text": text})).unwrap();
            }
            let path = std::env::temp_dir().join(format!("notes-task-{}.md", std::process::id()));
            let path = path.to_str().unwrap();
            let TaskCall::Task(id) = client
                .call_as_task("export_notes", json!({"path": path}))
                .unwrap()
            else {
                panic!("{revision}: the export is a task");
            };
            let done = client.finish_task("export_notes", &id).unwrap().completed();
            let export: serde_json::Value = done.structured().unwrap();
            assert_eq!(export["notes"], 2, "{revision}");
            let task = client.get_task(&id).unwrap();
            assert_eq!(
                task["statusMessage"], "note 2",
                "progress is the task's status"
            );

            let TaskCall::Task(id) = client
                .call_as_task("export_notes", json!({"path": path, "pause_ms": 10_000}))
                .unwrap()
            else {
                panic!("{revision}: the export is a task");
            };
            while client.get_task(&id).unwrap().get("statusMessage").is_none() {
                std::thread::sleep(Duration::from_millis(10));
            }
            client.cancel_task(&id).unwrap();
            let gone = (0..100).any(|_| {
                std::thread::sleep(Duration::from_millis(20));
                !std::path::Path::new(path).exists()
            });
            assert!(
                gone,
                "{revision}: the cancelled export removed its partial file"
            );
            assert_eq!(client.get_task(&id).unwrap()["status"], "cancelled");
        }
    }

    #[test]
    fn tagged_notes_go_only_when_the_user_confirms() {
        let asking = ProtocolVersion::ALL
            .into_iter()
            .filter(|r| r.has_elicitation());
        for revision in asking {
            for confirm in [false, true] {
                let answers = Answers::new().elicitation(move |request| {
                    assert_eq!(request["message"], "Delete 2 notes tagged old?");
                    json!({"action": "accept", "content": {"confirm": confirm}})
                });
                let mut client = Client::connect_answering(server(), revision, answers).unwrap();
                for text in ["a", "b"] {
                    client
                        .call("add_note", json!({"text": text, "tags": ["old"]}))
                        .unwrap();
                }
                let done = client.call("delete_tagged", json!({"tag": "old"})).unwrap();
                let left = client.call("list_notes", json!({"tag": "old"})).unwrap();
                if confirm {
                    assert_eq!(done.text(), "deleted 2 notes tagged old", "{revision}");
                    assert!(!left.text().contains("\"a\""), "{revision}");
                } else {
                    assert_eq!(done.text(), "kept the notes tagged old", "{revision}");
                    assert!(left.text().contains("\"a\""), "{revision}");
                }
            }
        }
    }

    #[test]
    fn locked_notes_offer_no_tools_that_change_them() {
        let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
        let names = |client: &mut Client| -> Vec<String> {
            let tools = client.list_tools().unwrap();
            tools
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names(&mut client).len(), 6);
        let locked = client.call("lock_notes", json!({"locked": true})).unwrap();
        assert_eq!(locked.text(), "the notes are locked");
        assert_eq!(
            names(&mut client),
            ["export_notes", "list_notes", "lock_notes"]
        );
        assert!(client.call("add_note", json!({"text": "x"})).is_err());
        client.call("lock_notes", json!({"locked": false})).unwrap();
        assert_eq!(names(&mut client).len(), 6);
    }

    #[test]
    fn each_note_is_a_resource_and_the_summary_a_prompt_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(), revision).unwrap();
            for (text, tag) in [("milk", "shop"), ("call Ada", "work")] {
                client
                    .call("add_note", json!({"text": text, "tags": [tag]}))
                    .unwrap();
            }
            let templates = client.list_resource_templates().unwrap();
            assert_eq!(templates[0]["uriTemplate"], "notes://{id}", "{revision}");
            let read = client.read_resource("notes://2").unwrap();
            let note: Note =
                serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(note.text, "call Ada", "{revision}");
            let missing = client.read_resource("notes://9").unwrap_err();
            assert_eq!(
                missing.data,
                Some(json!({"uri": "notes://9"})),
                "{revision}"
            );
            let summary = client
                .get_prompt("summarize", json!({"tag": "work"}))
                .unwrap();
            assert_eq!(summary["description"], "A summary of my notes tagged work");
            let text = summary["messages"][0]["content"]["text"].as_str().unwrap();
            assert!(text.ends_with("\n- call Ada"), "{revision}: {text}");
        }
    }

    #[test]
    fn ids_and_tags_complete_from_the_notes() {
        let mut client = Client::new(server()).unwrap();
        for (text, tag) in [("a", "shop"), ("b", "school"), ("c", "work")] {
            client
                .call("add_note", json!({"text": text, "tags": [tag]}))
                .unwrap();
        }
        let tags = client
            .complete_prompt_argument("summarize", "tag", "s", json!({}))
            .unwrap();
        assert_eq!(tags["values"], json!(["school", "shop"]));
        let ids = client
            .complete_template_variable("notes://{id}", "id", "", json!({}))
            .unwrap();
        assert_eq!(ids["values"], json!(["1", "2", "3"]));
    }

    #[test]
    fn a_subscriber_hears_that_its_note_went() {
        for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let mut client = Client::connect(server(), revision).unwrap();
            client.call("add_note", json!({"text": "a"})).unwrap();
            client.subscribe("notes://1").unwrap();
            client.call("delete_note", json!({"id": 1})).unwrap();
            let heard: serde_json::Value = serde_json::from_str(&client.next_line()).unwrap();
            assert_eq!(
                heard["method"], "notifications/resources/updated",
                "{revision}"
            );
            assert_eq!(heard["params"]["uri"], "notes://1", "{revision}");
            // On 2026-07-28 it comes on the listen stream the subscription opened, tagged.
            let tagged = heard["params"]["_meta"]
                .get("io.modelcontextprotocol/subscriptionId")
                .is_some();
            assert_eq!(tagged, revision == ProtocolVersion::V2026_07_28);
        }
    }

    #[test]
    fn tools_match_the_pinned_manifest() {
        Manifest::of(server())
            .unwrap()
            .assert_matches("examples/manifests/notes.json");
    }
}
