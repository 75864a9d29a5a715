//! Micro-benchmarks of the pieces on every call's path: parsing a message, dispatching it,
//! binding its arguments, and shaping the result for each protocol revision.
//!
//! `cargo bench --features bench --bench hot_path`. The end-to-end comparison with other
//! servers, over real pipes, is `bench/run.sh`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolwright::prelude::*;
use toolwright_runtime::bench::Harness;
use toolwright_runtime::jsonrpc::classify;
use toolwright_runtime::{Arguments, ProtocolVersion};

/// Echoes the text.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Adds two integers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Echoes the text from an async tool.
#[mcp_tool]
async fn echo_async(text: String) -> String {
    text
}

/// One of the structs `items` returns.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone)]
struct Item {
    id: u32,
    name: String,
    price: f64,
    tags: Vec<String>,
}

fn hundred_items() -> Vec<Item> {
    (0..100)
        .map(|id| Item {
            id,
            name: format!("item {id}"),
            price: f64::from(id) * 1.25,
            tags: vec!["a".into(), "b".into()],
        })
        .collect()
}

/// Returns 100 items.
#[mcp_tool]
fn items() -> Vec<Item> {
    hundred_items()
}

const CALL_ADD: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2}}}"#;
const CALL_ECHO: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}"#;
const CALL_ECHO_ASYNC: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo_async","arguments":{"text":"hello"}}}"#;
const CALL_ADD_STATELESS: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":40,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
const CANCELLED: &str =
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;

fn server() -> Server {
    Server::new("bench", "0")
        .tool::<echo>()
        .tool::<add>()
        .tool::<echo_async>()
        .tool::<items>()
}

/// A connection after the 2025-11-25 handshake.
fn connected() -> Harness {
    let harness = Harness::new(server()).expect("the server builds");
    let answer = harness.exchange(INITIALIZE.as_bytes());
    assert!(answer.starts_with(br#"{"jsonrpc":"2.0","id":0,"result":"#));
    harness
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    let items_line = serde_json::to_string(&serde_json::json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "take", "arguments": {"items": hundred_items()}},
    }))
    .unwrap();
    for (name, line) in [
        ("tools/call add", CALL_ADD),
        ("tools/call stateless", CALL_ADD_STATELESS),
        ("tools/call 100 structs", &items_line),
        ("notification", CANCELLED),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| black_box(classify(black_box(line.as_bytes()))))
        });
    }
    group.finish();
}

fn dispatch(c: &mut Criterion) {
    let harness = connected();
    let mut group = c.benchmark_group("dispatch");
    // Every line is answered once, and each answer is checked once before timing starts.
    for (name, line, answer) in [
        ("ping", PING, "{}"),
        ("tools/list, 4 tools", LIST, "\"tools\""),
        ("tools/call add", CALL_ADD, "\"42\""),
        ("tools/call echo", CALL_ECHO, "hello"),
        ("tools/call echo, async tool", CALL_ECHO_ASYNC, "hello"),
        (
            "tools/call add, 2026-07-28",
            CALL_ADD_STATELESS,
            "\"resultType\":\"complete\"",
        ),
    ] {
        let first = String::from_utf8(harness.exchange(line.as_bytes())).unwrap();
        assert!(first.contains(answer), "{name}: {first}");
        group.bench_function(name, |b| {
            b.iter(|| harness.exchange(black_box(line.as_bytes())))
        });
    }
    group.finish();
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AddArgs {
    #[allow(dead_code)]
    a: i64,
    #[allow(dead_code)]
    b: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeArgs {
    #[allow(dead_code)]
    items: Vec<Item>,
}

fn bind(c: &mut Criterion) {
    let mut group = c.benchmark_group("bind");
    let raw = |json: String| Arguments::new(Some(RawValue::from_string(json).unwrap()));
    let add_args = raw(r#"{"a":40,"b":2}"#.into());
    group.bench_function("two integers", |b| {
        b.iter(|| add_args.bind::<AddArgs>().ok().unwrap())
    });
    let items_args = raw(serde_json::json!({"items": hundred_items()}).to_string());
    group.bench_function("100 structs", |b| {
        b.iter(|| items_args.bind::<TakeArgs>().ok().unwrap())
    });
    let unknown = raw(r#"{"a":40,"b":2,"c":3}"#.into());
    group.bench_function("an unknown field (error)", |b| {
        b.iter(|| unknown.bind::<AddArgs>().err().unwrap())
    });
    group.finish();
}

fn shape(c: &mut Criterion) {
    let harness = Harness::new(server()).expect("the server builds");
    let mut group = c.benchmark_group("shape");
    let items = hundred_items();
    for version in ProtocolVersion::ALL {
        // The integer is wrapped as {"result": 42} where structured content must be an object.
        group.bench_function(format!("integer, {version}"), |b| {
            b.iter_batched(
                || ToolOutput::structured(&42),
                |output| harness.shape("add", version, output),
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("100 structs, {version}"), |b| {
            b.iter_batched(
                || ToolOutput::structured(&items),
                |output| harness.shape("items", version, output),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, parse, dispatch, bind, shape);
criterion_main!(benches);
