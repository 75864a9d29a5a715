//! The three tools every benchmark server serves: `echo` (a string), `add` (two integers) and
//! `items` (100 structs), and the requests that call them.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

pub mod http;

/// A request as the hand-written servers read it: borrowed, nothing checked.
#[derive(Deserialize)]
pub struct Request<'a> {
    #[serde(borrow)]
    pub id: Option<&'a RawValue>,
    #[serde(borrow)]
    pub method: &'a str,
    #[serde(borrow, default)]
    pub params: Option<Params<'a>>,
}

/// A `tools/call`'s params.
#[derive(Deserialize)]
pub struct Params<'a> {
    #[serde(borrow, default)]
    pub name: Option<&'a str>,
    #[serde(borrow, default)]
    pub arguments: Option<&'a RawValue>,
}

/// `add`'s arguments.
#[derive(Deserialize)]
pub struct Add {
    pub a: i64,
    pub b: i64,
}

/// `echo`'s arguments.
#[derive(Deserialize)]
pub struct Echo {
    pub text: String,
}

/// One of the 100 structs `items` returns.
#[derive(Serialize, schemars::JsonSchema, Clone)]
pub struct Item {
    pub id: u32,
    pub name: String,
    pub price: f64,
    pub tags: Vec<String>,
}

/// The 100 items, the same in every server.
pub fn items() -> Vec<Item> {
    (0..100)
        .map(|id| Item {
            id,
            name: format!("item {id}"),
            price: f64::from(id) * 1.25,
            tags: vec!["a".into(), "b".into()],
        })
        .collect()
}

/// The request lines the driver and the instruction counts use.
pub fn request(kind: &str, id: u64) -> String {
    match kind {
        "echo" => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hello"}}}}}}"#
        ),
        "add" => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{id},"b":2}}}}}}"#
        ),
        "items" => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"items","arguments":{{}}}}}}"#
        ),
        "list" => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#),
        "in_roots" => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"in_roots","arguments":{{"path":"file:///work/project/src/main.rs"}}}}}}"#
        ),
        other => panic!("unknown request kind {other}"),
    }
}

/// The handshake of a client that lists its roots.
pub const INITIALIZE_WITH_ROOTS: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"bench","version":"0"}}}"#;

/// The handshake every run starts with.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
