//! What a client sees of a failure, and what stderr keeps: a panic or an unexpected error
//! reaches the client as "internal error (ref X)", and stderr has the details under the same
//! reference. This file is its own test binary because it redirects the process's stderr.
#![cfg(unix)]

mod common;

use std::io::Read;
use std::os::fd::AsFd;

use common::InProcess;
use serde_json::json;
use toolwright::prelude::*;

/// Panics with a secret.
#[mcp_tool]
fn leak_by_panic() -> String {
    panic!("secret-panic-7d1e: the database password is hunter2")
}

/// Fails with an error that was never meant for the client.
#[mcp_tool]
async fn leak_by_error() -> Result<String, std::io::Error> {
    Err(std::io::Error::other(
        "secret-error-5c2a: /srv/keys unreadable",
    ))
}

/// Fails with a message meant for the client.
#[mcp_tool]
fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("no such city"))
}

#[test]
fn details_go_to_stderr_under_the_reference_the_client_sees() {
    // Point this process's stderr at a pipe for the duration of the calls.
    let (mut reader, writer) = std::io::pipe().unwrap();
    let saved = rustix::io::dup(std::io::stderr()).unwrap();
    rustix::stdio::dup2_stderr(writer.as_fd()).unwrap();
    drop(writer);

    let mut server = InProcess::start(Server::new("masking", "1").discover());
    server.client.initialize("2025-11-25");
    let mut stream = String::new();
    let mut references = Vec::new();
    for (tool, secret) in [
        ("leak_by_panic", "secret-panic-7d1e"),
        ("leak_by_error", "secret-error-5c2a"),
    ] {
        let answer = server.client.call(tool, json!({}));
        stream.push_str(&answer.to_string());
        assert_eq!(answer["result"]["isError"], true);
        let message = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        let reference = message
            .strip_prefix("internal error (ref ")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("a masked message: {message}"))
            .to_owned();
        references.push((reference, secret));
    }
    let answer = server.client.call("refuse", json!({}));
    assert_eq!(answer["result"]["content"][0]["text"], "no such city");
    server.finish().unwrap();

    rustix::stdio::dup2_stderr(saved.as_fd()).unwrap();
    drop(saved);
    let mut stderr = String::new();
    reader.read_to_string(&mut stderr).unwrap();

    assert!(
        !stream.contains("secret"),
        "the client saw a secret: {stream}"
    );
    for (reference, secret) in references {
        let line = stderr
            .lines()
            .find(|line| line.contains(&format!("(ref {reference})")))
            .unwrap_or_else(|| panic!("no stderr line for ref {reference}:\n{stderr}"));
        assert!(line.contains(secret), "{line}");
    }
}
