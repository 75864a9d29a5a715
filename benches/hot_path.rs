//! Micro-benchmarks of the pieces on every call's path: parsing a message, dispatching it,
//! binding its arguments, and shaping the result for each protocol revision.
//!
//! `cargo bench -p toolwright-tests --features testing --bench hot_path`. The servers are
//! driven in-process with `toolwright::testing`; the end-to-end comparison with other servers,
//! over real pipes, is `bench/run.sh`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use toolwright::__private::Arguments;
use toolwright::ProtocolVersion;
use toolwright::prelude::*;
use toolwright::testing::Client;

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

/// Takes 100 items.
#[mcp_tool]
fn take(items: Vec<Item>) -> usize {
    items.len()
}

fn server() -> Server {
    Server::new("bench", "0")
        .tool::<echo>()
        .tool::<add>()
        .tool::<echo_async>()
        .tool::<items>()
        .tool::<take>()
}

/// One line in, its answer out, through the in-process client's wire-level access: nothing is
/// built or parsed on the client's side.
fn exchange(client: &mut Client, line: &str) -> String {
    client.send_line(line);
    client.next_line()
}

fn dispatch(c: &mut Criterion) {
    let mut client = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    let mut group = c.benchmark_group("dispatch");
    // Every line is answered once, and each answer is checked once before timing starts.
    for (name, line, answer) in [
        ("ping", PING, "{}"),
        ("tools/list, 5 tools", LIST, "\"tools\""),
        ("tools/call add", CALL_ADD, "\"42\""),
        ("tools/call echo", CALL_ECHO, "hello"),
        ("tools/call echo, async tool", CALL_ECHO_ASYNC, "hello"),
        (
            "tools/call add, 2026-07-28",
            CALL_ADD_STATELESS,
            "\"resultType\":\"complete\"",
        ),
        ("tools/call, 100 structs in", &take_line(), "\"100\""),
    ] {
        let first = exchange(&mut client, line);
        assert!(first.contains(answer), "{name}: {first}");
        group.bench_function(name, |b| b.iter(|| exchange(&mut client, black_box(line))));
    }
    group.finish();
}

fn take_line() -> String {
    serde_json::to_string(&serde_json::json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "take", "arguments": {"items": hundred_items()}},
    }))
    .unwrap()
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

/// Binding alone, as generated handlers do it.
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

/// A structured result shaped for each revision: an integer (wrapped as `{"result": 42}` where
/// structured content must be an object) and 100 structs.
fn shape(c: &mut Criterion) {
    let mut group = c.benchmark_group("shape");
    for version in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), version).unwrap();
        let meta = match version {
            ProtocolVersion::V2026_07_28 => {
                r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
            }
            _ => "",
        };
        for (name, tool) in [
            ("integer", "add\",\"arguments\":{\"a\":40,\"b\":2}"),
            ("100 structs", "items\""),
        ] {
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{tool}{meta}}}}}"#
            );
            let first = exchange(&mut client, &line);
            assert!(first.contains("\"content\""), "{version} {name}: {first}");
            group.bench_function(format!("{name}, {version}"), |b| {
                b.iter(|| exchange(&mut client, black_box(&line)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, dispatch, bind, shape);
criterion_main!(benches);
