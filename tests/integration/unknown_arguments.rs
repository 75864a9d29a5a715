//! Argument keys a tool's schema does not list: refused by default, naming them; ignored by a
//! tool or a server that says so, whose schemas then leave `additionalProperties` open.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::prelude::*;
use toolwright::testing::Client;

/// Refuses keys it does not know (the default).
#[mcp_tool]
fn strict(count: u32) -> String {
    format!("{count}")
}

/// Ignores keys it does not know.
#[mcp_tool(ignore_unknown_arguments)]
fn lenient(count: u32, label: Option<String>) -> String {
    format!("{count} {}", label.unwrap_or_default())
}

/// Refuses them even on a server that ignores them.
#[mcp_tool(ignore_unknown_arguments = false)]
fn always_strict(count: u32) -> String {
    format!("{count}")
}

#[derive(Deserialize, JsonSchema)]
struct Booking {
    city: String,
}

/// Takes its arguments as one struct, and ignores keys it does not know.
#[mcp_tool(ignore_unknown_arguments)]
fn book(booking: Args<Booking>) -> String {
    booking.city.clone()
}

fn client(server: Server) -> Client {
    Client::connect(server, ProtocolVersion::V2025_11_25).unwrap()
}

fn call(client: &mut Client, tool: &str, arguments: Value) -> (bool, String) {
    let result = client.call(tool, arguments).unwrap();
    (result.is_error(), result.text())
}

fn input_schemas(client: &mut Client) -> serde_json::Map<String, Value> {
    client
        .list_tools()
        .unwrap()
        .into_iter()
        .map(|tool| {
            (
                tool["name"].as_str().unwrap().to_owned(),
                tool["inputSchema"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_tool_ignores_unknown_keys_when_it_says_so() {
    let mut client = client(
        Server::new("t", "1")
            .tool::<strict>()
            .tool::<lenient>()
            .tool::<always_strict>()
            .tool::<book>(),
    );
    let extra = json!({"count": 2, "verbose": true});
    assert_eq!(
        call(&mut client, "strict", extra.clone()),
        (
            true,
            "invalid arguments: `verbose`: unknown field `verbose`, expected `count`".into()
        )
    );
    assert_eq!(
        call(&mut client, "lenient", extra.clone()),
        (false, "2 ".into())
    );
    assert_eq!(
        call(&mut client, "book", json!({"city": "Oslo", "nights": 2})),
        (false, "Oslo".into())
    );
    // What it knows is still checked, and the error is about that, not the extra key.
    assert_eq!(
        call(
            &mut client,
            "lenient",
            json!({"count": "two", "verbose": true})
        ),
        (
            true,
            "invalid arguments: `count`: invalid type: string \"two\", expected u32".into()
        )
    );
    let schemas = input_schemas(&mut client);
    assert_eq!(schemas["strict"]["additionalProperties"], json!(false));
    assert_eq!(schemas["lenient"].get("additionalProperties"), None);
    assert_eq!(schemas["book"].get("additionalProperties"), None);
    assert_eq!(schemas["lenient"]["required"], json!(["count"]));
}

#[test]
fn a_server_ignores_unknown_keys_unless_a_tool_refuses_them() {
    let mut client = client(
        Server::new("t", "1")
            .tool::<strict>()
            .tool::<lenient>()
            .tool::<always_strict>()
            .tool::<book>()
            .ignore_unknown_arguments(true),
    );
    let extra = json!({"count": 2, "verbose": true});
    assert_eq!(
        call(&mut client, "strict", extra.clone()),
        (false, "2".into())
    );
    let (failed, message) = call(&mut client, "always_strict", extra);
    assert!(
        failed && message.contains("unknown field `verbose`"),
        "{message}"
    );
    let schemas = input_schemas(&mut client);
    assert_eq!(schemas["strict"].get("additionalProperties"), None);
    assert_eq!(
        schemas["always_strict"]["additionalProperties"],
        json!(false)
    );
}
