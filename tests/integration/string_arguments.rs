//! Arguments as language models send them: an array, object, number or boolean written as a
//! JSON string is decoded where the input schema asks for that type, and never where it allows
//! a string. One table of cases.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::testing::Client;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Filter {
    min: u32,
    label: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Fast,
    Slow,
}

/// Echoes what it was given, as bound.
#[mcp_tool]
#[allow(clippy::too_many_arguments)]
fn take(
    ids: Option<Vec<u32>>,
    filter: Option<Filter>,
    limit: Option<u32>,
    ratio: Option<f64>,
    verbose: Option<bool>,
    name: Option<String>,
    tags: Option<Vec<String>>,
    mode: Option<Mode>,
    anything: Option<Value>,
) -> Value {
    json!({"ids": ids, "filter": filter, "limit": limit, "ratio": ratio, "verbose": verbose,
           "name": name, "tags": tags, "mode": mode, "anything": anything})
}

/// The whole arguments object as one struct.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Query {
    ids: Vec<u32>,
    exact: bool,
}

/// Echoes a whole-struct argument.
#[mcp_tool]
fn whole(query: Args<Query>) -> Value {
    json!({"ids": query.ids, "exact": query.exact})
}

fn server() -> Server {
    Server::new("strings", "1").tool::<take>().tool::<whole>()
}

/// What a call of `tool` with `arguments` bound, or the error it got.
fn outcome(client: &mut Client, tool: &str, arguments: Value) -> Result<Value, String> {
    let result = client.call(tool, arguments).unwrap();
    if result.is_error() {
        return Err(result.text());
    }
    let bound: Value = serde_json::from_str(&result.text()).unwrap();
    Ok(bound)
}

#[test]
fn strings_that_hold_the_type_the_schema_asks_for() {
    // (arguments, the field to look at, what it bound to; `None` for an error)
    let cases: Vec<(Value, &str, Option<Value>)> = vec![
        (json!({"ids": "[1, 2]"}), "ids", Some(json!([1, 2]))),
        (json!({"ids": [1, 2]}), "ids", Some(json!([1, 2]))),
        (
            json!({"filter": "{\"min\": 1}"}),
            "filter",
            Some(json!({"min": 1, "label": null})),
        ),
        (
            json!({"filter": {"min": "2"}}),
            "filter",
            Some(json!({"min": 2, "label": null})),
        ),
        (json!({"limit": "3"}), "limit", Some(json!(3))),
        (json!({"limit": "3.0"}), "limit", Some(json!(3))),
        (json!({"ratio": "0.5"}), "ratio", Some(json!(0.5))),
        (json!({"ratio": "2"}), "ratio", Some(json!(2.0))),
        (json!({"verbose": "true"}), "verbose", Some(json!(true))),
        (
            json!({"tags": "[\"a\", \"b\"]"}),
            "tags",
            Some(json!(["a", "b"])),
        ),
        // A parameter that may be a string keeps the string.
        (json!({"name": "[1, 2]"}), "name", Some(json!("[1, 2]"))),
        (json!({"name": "true"}), "name", Some(json!("true"))),
        (
            json!({"filter": {"min": 1, "label": "42"}}),
            "filter",
            Some(json!({"min": 1, "label": "42"})),
        ),
        (json!({"mode": "fast"}), "mode", Some(json!("fast"))),
        (json!({"anything": "[1]"}), "anything", Some(json!("[1]"))),
        // What does not decode to a value of the type stays an error.
        (json!({"ids": "[1, \"x\"]"}), "ids", None),
        (json!({"ids": "1, 2"}), "ids", None),
        (json!({"ids": "null"}), "ids", None),
        (json!({"limit": "-1"}), "limit", None),
        (json!({"limit": "three"}), "limit", None),
        (json!({"verbose": "yes"}), "verbose", None),
        (json!({"verbose": "\"true\""}), "verbose", None),
        (json!({"mode": "\"fast\""}), "mode", None),
    ];
    let mut client = Client::new(server()).unwrap();
    for (arguments, field, expected) in cases {
        let got = outcome(&mut client, "take", arguments.clone());
        match expected {
            Some(value) => {
                let bound = got.unwrap_or_else(|e| panic!("{arguments}: {e}"));
                assert_eq!(bound[field], value, "{arguments}");
            }
            None => {
                let error = got.expect_err(&arguments.to_string());
                assert!(
                    error.starts_with("invalid arguments: `"),
                    "{arguments}: {error}"
                );
            }
        }
    }
    let whole = outcome(
        &mut client,
        "whole",
        json!({"ids": "[7]", "exact": "false"}),
    );
    assert_eq!(whole.unwrap(), json!({"ids": [7], "exact": false}));
}

#[test]
fn the_error_names_the_value_as_sent() {
    let mut client = Client::new(server()).unwrap();
    let error = outcome(&mut client, "take", json!({"limit": "-1"})).unwrap_err();
    assert_eq!(
        error,
        "invalid arguments: `limit`: invalid type: string \"-1\", expected u32"
    );
}

#[test]
fn a_server_can_turn_it_off() {
    let mut client = Client::new(server().decode_string_arguments(false)).unwrap();
    let error = outcome(&mut client, "take", json!({"ids": "[1, 2]"})).unwrap_err();
    assert!(error.contains("invalid type: string"), "{error}");
}
