//! The public in-process client and the manifest: they catch what they promise to catch.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use serde_json::json;
use toolwright::ProtocolVersion;
use toolwright::context::Level;
use toolwright::prelude::*;
use toolwright::testing::{Client, Compatibility, Manifest, StructuredError};

/// A return type whose schema lies: it says a string, and the value is a number.
struct Liar;

impl IntoToolOutput for Liar {
    fn output_schema(generator: &mut schemars::SchemaGenerator) -> Option<schemars::Schema> {
        Some(generator.subschema_for::<String>())
    }

    fn into_tool_output(self) -> ToolOutput {
        ToolOutput::structured(&42)
    }
}

/// Returns a value its schema does not describe.
#[mcp_tool]
fn lie() -> Liar {
    Liar
}

/// Counts to three, reporting each step, and logs.
#[mcp_tool]
async fn count(progress: Progress, log: Log) -> u32 {
    for step in 1..=3 {
        progress.report(f64::from(step), Some(3.0), Some(&format!("step {step}")));
        log.info(&format!("counted {step}"));
    }
    3
}

/// Waits until cancelled, after one progress report.
#[mcp_tool]
async fn wait(progress: Progress, cancel: Cancellation) -> String {
    progress.report(1.0, None, None);
    cancel.cancelled().await;
    "cancelled".into()
}

fn server() -> Server {
    Server::new("testing", "1")
        .tool::<lie>()
        .tool::<count>()
        .tool::<wait>()
}

#[test]
fn a_schema_that_lies_fails_the_test_in_every_revision_that_has_one() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        let result = client.call("lie", json!({})).unwrap();
        match (
            revision.has_structured_output(),
            result.structured::<serde_json::Value>(),
        ) {
            (true, Err(StructuredError::DoesNotMatchSchema { errors, .. })) => {
                assert!(!errors.is_empty(), "{revision}")
            }
            (false, Err(StructuredError::NotInRevision(_))) => {}
            (_, other) => panic!("{revision}: {other:?}"),
        }
    }
}

#[test]
fn progress_logs_and_cancellation() {
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(server(), revision).unwrap();
        client.log_level(Level::Info).unwrap();
        let result = client.start("count", json!({})).finish().unwrap();
        assert_eq!(result.structured::<u32>().unwrap(), 3, "{revision}");
        let steps: Vec<Option<String>> = result
            .progress()
            .iter()
            .map(|p| p.message.clone())
            .collect();
        assert_eq!(
            steps,
            [
                Some("step 1".into()),
                Some("step 2".into()),
                Some("step 3".into())
            ]
        );
        assert_eq!(result.logs().len(), 3, "{revision}");
        assert_eq!(result.logs()[0].data, json!("counted 1"));

        let mut waiting = client.start("wait", json!({}));
        assert_eq!(waiting.next_progress().progress, 1.0);
        waiting.cancel();
        // No answer comes for a cancelled call, and the client goes on.
        client.expect_silence(Duration::from_millis(100));
        assert!(client.list_tools().unwrap().len() == 3);
    }
}

#[test]
fn a_manifest_is_written_once_then_compared_change_by_change() {
    let dir = std::env::temp_dir().join(format!("toolwright-manifest-{}", std::process::id()));
    let path = dir.join("manifest.json");
    let _ = std::fs::remove_file(&path);
    let manifest = Manifest::of(server()).unwrap();
    manifest.assert_matches(&path);
    assert!(path.exists(), "written on the first run");
    manifest.assert_matches(&path);

    // Pin a manifest in which `count` took a required argument and `gone` existed.
    let mut earlier: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for tools in earlier.as_object_mut().unwrap().values_mut() {
        let tools = tools.as_array_mut().unwrap();
        let mut gone = tools[0].clone();
        gone["name"] = json!("gone");
        tools.push(gone);
        for tool in tools.iter_mut().filter(|t| t["name"] == "count") {
            tool["inputSchema"]["properties"] = json!({"to": {"type": "integer"}});
            tool["inputSchema"]["required"] = json!(["to"]);
            tool["description"] = json!("Counts.");
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&earlier).unwrap()).unwrap();
    let changes = manifest
        .changes_since(&Manifest::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap());
    let described: Vec<(Compatibility, String)> = changes
        .iter()
        .map(|c| (c.compatibility, c.to_string()))
        .collect();
    assert!(
        described.contains(&(
            Compatibility::Breaking,
            "`gone`: removed (or renamed)".into()
        )),
        "{described:?}"
    );
    assert!(
        described.contains(&(
            Compatibility::Breaking,
            "`count`: argument `to` removed".into()
        )),
        "{described:?}"
    );
    assert!(
        described.contains(&(
            Compatibility::Compatible,
            "`count`: description changed".into()
        )),
        "{described:?}"
    );

    let failure = catch_unwind(AssertUnwindSafe(|| manifest.assert_matches(&path))).unwrap_err();
    let message = failure.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("breaking:\n  - `count`: argument `to` removed"),
        "{message}"
    );
    assert!(
        message.contains("TOOLWRIGHT_MANIFEST=overwrite"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
