//! Every server binary is a command line tool too: `list`, `call`, `prompts`, `get`,
//! `resources`, `read`, `help`.

use crate::common;

use std::process::{Command, Output};

use serde_json::{Value, json};

fn quickstart(args: &[&str]) -> Output {
    Command::new(common::example("quickstart"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("the example runs")
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

#[test]
fn list_prints_the_tools() {
    let output = quickstart(&["list"]);
    assert!(output.status.success());
    let list = stdout_json(&output);
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["add", "convert_length", "head", "text_stats"]);
    // The latest revision's form: titles and output schemas included.
    assert_eq!(list["tools"][3]["title"], "Text statistics");
    assert!(list["tools"][3]["outputSchema"].is_object());
}

#[test]
fn call_prints_the_result() {
    let output = quickstart(&["call", "text_stats", r#"{"text": "a b c"}"#]);
    assert!(output.status.success());
    assert_eq!(
        stdout_json(&output)["structuredContent"],
        json!({"words": 3, "lines": 1, "characters": 5})
    );
}

#[test]
fn tool_errors_exit_one() {
    let output = quickstart(&[
        "call",
        "convert_length",
        r#"{"value": 1, "from": "x", "to": "m"}"#,
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_json(&output)["isError"], true);

    let output = quickstart(&["call", "add", r#"{"a": 1}"#]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout_json(&output)["content"][0]["text"],
        "invalid arguments: missing field `b`, expected an integer"
    );

    let output = quickstart(&["call", "no_such_tool"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout_json(&output)["message"],
        "Unknown tool: no_such_tool"
    );
}

#[test]
fn usage_errors_exit_two() {
    for args in [
        &["frobnicate"][..],
        &["call"],
        &["call", "add", "not json"],
        &["call", "add", "[1]"],
    ] {
        let output = quickstart(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("usage: SERVER [COMMAND]"), "{stderr}");
        assert!(output.stdout.is_empty());
    }
    let output = quickstart(&["help"]);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("call NAME [JSON]"));
}

/// A server with arguments of its own before toolwright's command line: the `files` example
/// takes the directories it may read.
#[test]
fn a_server_with_arguments_of_its_own() {
    let files = |args: &[&str]| {
        Command::new(common::example("files"))
            .args(args)
            .current_dir(common::root())
            .output()
            .expect("the example runs")
    };
    let root = common::root().to_str().unwrap();
    let output = files(&[
        root,
        "call",
        "read_text_file",
        &json!({"path": format!("{root}/Cargo.toml"), "head": 1}).to_string(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout_json(&output)["content"][0]["text"], "[workspace]");
    let output = files(&["/no/such/dir", "list"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("`/no/such/dir` is not a directory"));
    let output = files(&[root, "serve", "--http"]);
    assert_eq!(output.status.code(), Some(2));
    let usage = "usage: files [--roots-widen] [DIR...] [COMMAND]";
    assert!(String::from_utf8_lossy(&output.stderr).contains(usage));
    let output = files(&["--roots-wide", root, "list"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown option `--roots-wide`") && stderr.contains(usage));
    // Its flag comes before the directories or among them.
    let output = files(&[root, "--roots-widen", "call", "list_allowed_directories"]);
    assert!(output.status.success());
    assert_eq!(stdout_json(&output)["content"][0]["text"], root);
    // A path outside is one answer, whether or not something is there.
    let outside = |path: &str| {
        let call = json!({"path": path}).to_string();
        let output = files(&[root, "call", "read_text_file", &call]);
        let text = stdout_json(&output)["content"][0]["text"].clone();
        text.as_str().unwrap_or_default().replace(path, "PATH")
    };
    assert_eq!(
        outside("/etc/hostname"),
        "`PATH` is outside the allowed directories"
    );
    assert_eq!(
        outside("/no/such/file"),
        "`PATH` is outside the allowed directories"
    );
}

fn example(name: &str, args: &[&str]) -> Output {
    Command::new(common::example(name))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("the example runs")
}

#[test]
fn prompts_and_resources_are_listed_got_and_read() {
    let prompts = stdout_json(&example("notes", &["prompts"]));
    assert_eq!(prompts["prompts"][0]["name"], "summarize");
    let got = example("notes", &["get", "summarize", r#"{"tag": "shop"}"#]);
    assert!(got.status.success());
    assert_eq!(
        stdout_json(&got)["description"],
        "A summary of my notes tagged shop"
    );
    let listed = stdout_json(&example("memory", &["resources"]));
    assert_eq!(listed["resources"][0]["uri"], "memory://graph");
    assert_eq!(
        listed["resourceTemplates"][0]["uriTemplate"],
        "memory://entities/{name}"
    );
    let read = example("memory", &["read", "memory://graph"]);
    assert!(read.status.success());
    let text = stdout_json(&read)["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"entities": [], "relations": []})
    );
    let missing = example("memory", &["read", "memory://entities/Nobody"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(
        stdout_json(&missing)["data"]["uri"],
        "memory://entities/Nobody"
    );
}
