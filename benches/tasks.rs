//! What a task costs over a plain call: `tools/call` of one tool answered at once, against the
//! same call made a task (created, run, its result stored) and read back with `tasks/get`, on
//! the in-process store (and on Redis, with `TOOLWRIGHT_REDIS_URL` set and feature `redis`).
//!
//! `cargo bench -p toolwright-tests --features testing --bench tasks`, and with
//! `--features testing,redis` and `TOOLWRIGHT_REDIS_URL=redis://127.0.0.1:6379/` the Redis
//! store too.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use toolwright::ProtocolVersion;
use toolwright::prelude::*;
use toolwright::testing::Client;

/// Adds two integers, as a task for a client that can follow one.
#[mcp_tool(task = "optional")]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{CAPS}}"#;

fn line(id: &str, method: &str, params: &str, declares: bool) -> String {
    let caps = match declares {
        true => r#"{"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
        false => "{}",
    };
    let meta = META.replace("{CAPS}", caps);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params},{meta}}}}}"#)
}

fn exchange(client: &mut Client, line: &str) -> Value {
    client.send_line(line);
    serde_json::from_str(&client.next_line()).unwrap()
}

/// A task of `add`, created, then read until it completed: what a client that follows tasks
/// pays for one call, without the waits between polls.
fn task_round(client: &mut Client) -> Value {
    let call = line(
        "1",
        "tools/call",
        r#""name":"add","arguments":{"a":40,"b":2}"#,
        true,
    );
    let created = exchange(client, &call);
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();
    let get = line("2", "tasks/get", &format!(r#""taskId":"{id}""#), true);
    loop {
        let task = exchange(client, &get);
        if task["result"]["status"] == "completed" {
            return task;
        }
    }
}

fn server() -> Server {
    Server::new("bench", "0").tool::<add>()
}

fn tasks(c: &mut Criterion) {
    let mut group = c.benchmark_group("tasks");
    let plain = line(
        "1",
        "tools/call",
        r#""name":"add","arguments":{"a":40,"b":2}"#,
        false,
    );
    let mut client = Client::connect(server(), ProtocolVersion::V2026_07_28).unwrap();
    assert_eq!(
        exchange(&mut client, &plain)["result"]["content"][0]["text"],
        "42"
    );
    group.bench_function("a call answered at once", |b| {
        b.iter(|| exchange(&mut client, black_box(&plain)))
    });
    let done = task_round(&mut client);
    assert_eq!(done["result"]["result"]["content"][0]["text"], "42");
    group.bench_function("a task, in-process store", |b| {
        b.iter(|| task_round(&mut client))
    });
    #[cfg(feature = "redis")]
    if let Ok(url) = std::env::var("TOOLWRIGHT_REDIS_URL") {
        // The store's connections live on a runtime of their own, kept for the whole run.
        let runtime = Box::leak(Box::new(tokio::runtime::Runtime::new().unwrap()));
        let store = runtime
            .block_on(toolwright::tasks::RedisTaskStore::connect(&url))
            .unwrap();
        let server = server().task_store(store);
        let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
        group.bench_function("a task, Redis store", |b| {
            b.iter(|| task_round(&mut client))
        });
    }
    group.finish();
}

criterion_group!(benches, tasks);
criterion_main!(benches);
