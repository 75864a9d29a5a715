//! Every schema the server emits, checked by a real JSON Schema 2020-12 validator, for every
//! tool of the fixture server and of the examples, in every revision and both profiles: each
//! schema compiles, every `$ref` resolves, every structured value validates against the schema
//! advertised for it, and structured results carry their JSON as text too.

use crate::common;
use crate::fixtures;

use common::{Client, InProcess, Process, REVISIONS};
use serde_json::{Value, json};
use toolwright::tools::SchemaProfile;

fn compile(schema: &Value, what: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("{what}: {e}\n{schema:#}"))
}

/// Every same-document `$ref` points at something.
fn assert_refs_resolve(schema: &Value, node: &Value, what: &str) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref")
                && let Some(pointer) = reference.strip_prefix('#')
                && (pointer.is_empty() || pointer.starts_with('/'))
            {
                assert!(
                    schema.pointer(pointer).is_some(),
                    "{what}: dangling $ref {reference}"
                );
            }
            map.values()
                .for_each(|v| assert_refs_resolve(schema, v, what));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| assert_refs_resolve(schema, v, what)),
        _ => {}
    }
}

fn check_schema(schema: &Value, what: &str) -> jsonschema::Validator {
    assert_refs_resolve(schema, schema, what);
    compile(schema, what)
}

/// Lists and calls every tool, checking what the revision says it may carry.
/// The conformance fixtures that cannot answer without asking the client.
fn needs_client_capabilities(tool: &str) -> bool {
    [
        "test_elicitation",
        "test_sampling",
        "test_missing_capability",
        "test_input_required_result_",
        "confirm_delete",
        "multi_input",
    ]
    .iter()
    .any(|prefix| tool.starts_with(prefix))
        && tool != "test_input_required_result_capabilities"
}

fn check_server(client: &mut Client, revision: &str, arguments: impl Fn(&str) -> Value) -> usize {
    client.open(revision);
    let list = client.ask("tools/list", json!({}));
    let tools = list["result"]["tools"]
        .as_array()
        .expect("a tool list")
        .clone();
    let structured_era = revision >= "2025-06-18";
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        let what = format!("{revision} {name}");
        let input = check_schema(&tool["inputSchema"], &format!("{what} input"));
        assert_eq!(tool["inputSchema"]["type"], "object", "{what}");
        assert!(input.is_valid(&arguments(name)), "{what}: sample arguments");

        let output = tool.get("outputSchema").map(|schema| {
            assert!(structured_era, "{what}: no outputSchema before 2025-06-18");
            if revision < "2026-07-28" {
                assert_eq!(
                    schema["type"], "object",
                    "{what}: object root before 2026-07-28"
                );
            }
            check_schema(schema, &format!("{what} output"))
        });
        let answer = client.ask(
            "tools/call",
            json!({"name": name, "arguments": arguments(name)}),
        );
        let result = &answer["result"];
        if ["failing_job", "test_tool_with_task"].contains(&name) {
            // They run only as tasks, which this client does not follow: -32021 naming the
            // extension on 2026-07-28, -32601 before.
            let code = answer["error"]["code"].as_i64();
            assert!(matches!(code, Some(-32021 | -32601)), "{what}: {answer}");
            continue;
        }
        if needs_client_capabilities(name) {
            // This client declares none: the tool says so, as a tool error in a session, or
            // -32021 on 2026-07-28.
            let refused = result["isError"] == true || answer["error"]["code"] == -32021;
            assert!(refused, "{what}: {answer}");
            continue;
        }
        let fails_on_purpose = ["test_error_handling", "protocol_error_job"].contains(&name);
        assert_eq!(
            result["isError"] == true,
            fails_on_purpose,
            "{what}: {answer}"
        );
        match (&output, result.get("structuredContent")) {
            (Some(validator), Some(structured)) => {
                let errors: Vec<String> = validator
                    .iter_errors(structured)
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{what}: {structured} does not match: {errors:?}"
                );
                // A JSON text block carries the same value (unwrapped where it travels wrapped).
                // Only a tool with text of its own may leave it out, and only for an object.
                let texts: Vec<Value> = result["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|block| block["text"].as_str())
                    .filter_map(|text| serde_json::from_str(text).ok())
                    .collect();
                for from_text in &texts {
                    assert!(
                        from_text == structured || json!({"result": from_text}) == *structured,
                        "{what}: text {from_text} against {structured}"
                    );
                }
                if texts.is_empty() {
                    let natural = structured.get("result").filter(|_| revision < "2026-07-28");
                    assert!(
                        natural.unwrap_or(structured).is_object(),
                        "{what}: no JSON text for a value that is not an object: {answer}"
                    );
                }
            }
            (Some(_), None) => panic!("{what}: an outputSchema but no structuredContent: {answer}"),
            (None, Some(_)) => {
                panic!("{what}: structuredContent without an outputSchema: {answer}")
            }
            (None, None) => {}
        }
    }
    tools.len()
}

#[test]
fn fixture_schemas_in_every_revision_and_profile() {
    for profile in [SchemaProfile::Portable, SchemaProfile::Verbatim] {
        for revision in REVISIONS {
            let mut server = InProcess::start(fixtures::server(profile));
            let checked = check_server(&mut server.client, revision, fixtures::arguments);
            assert_eq!(checked, 20, "{revision} {profile:?}");
            server.finish().unwrap();
        }
    }
}

fn quickstart_arguments(tool: &str) -> Value {
    match tool {
        "add" => json!({"a": 1, "b": 2}),
        "convert_length" => json!({"value": 1, "from": "km", "to": "m"}),
        "head" => json!({"path": "Cargo.toml", "lines": 1}),
        "text_stats" => json!({"text": "a b"}),
        other => panic!("no sample arguments for {other}"),
    }
}

fn notes_arguments(tool: &str) -> Value {
    match tool {
        "add_note" => json!({"text": "milk", "tags": ["shop"]}),
        "delete_note" => json!({"id": 1}),
        "export_notes" => {
            json!({"path": std::env::temp_dir().join(format!("toolwright-schemas-{}.md", std::process::id()))})
        }
        "list_notes" => json!({}),
        // No note has the tag, so the tool answers without asking.
        "delete_tagged" => json!({"tag": "none"}),
        "lock_notes" => json!({"locked": false}),
        other => panic!("no sample arguments for {other}"),
    }
}

fn conformance_arguments(tool: &str) -> Value {
    match tool {
        "json_schema_2020_12_tool" => json!({"email": "a@example.com"}),
        "execute_sql" => json!({"region": "eu-west-1", "query": "SELECT 1"}),
        "test_elicitation" => json!({"message": "Who are you?"}),
        "test_sampling" => json!({"prompt": "Hello"}),
        "greet" => json!({"name": "Ada"}),
        "slow_compute" => json!({"seconds": 0}),
        "confirm_delete" => json!({"filename": "x.txt"}),
        _ => json!({}),
    }
}

#[test]
fn example_schemas_in_every_revision() {
    for revision in REVISIONS {
        let mut server = Process::spawn("quickstart");
        assert_eq!(
            check_server(&mut server.client, revision, quickstart_arguments),
            4
        );
        let mut server = Process::spawn("notes");
        assert_eq!(
            check_server(&mut server.client, revision, notes_arguments),
            6
        );
        let mut server = Process::spawn("conformance");
        // The two fixtures that run only as tasks are listed where tasks exist.
        let with_tasks = revision >= "2025-11-25";
        assert_eq!(
            check_server(&mut server.client, revision, conformance_arguments),
            if with_tasks { 34 } else { 32 }
        );
    }
}

#[test]
fn the_wrapped_array_of_shared_definitions() {
    // The case that broke another SDK: `Vec<Contact>` where `Contact` has two `Vec<Phone>`
    // fields, under the profile that keeps `$ref`s.
    let mut server = InProcess::start(fixtures::server(SchemaProfile::Verbatim));
    server.client.open("2025-11-25");
    let list = server.client.ask("tools/list", json!({}));
    let tool = common::tool(&list, "contacts");
    let schema = &tool["outputSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["result"]));
    assert_eq!(
        schema["properties"]["result"]["items"],
        json!({"$ref": "#/$defs/Contact"})
    );
    let contact = &schema["$defs"]["Contact"];
    assert_eq!(
        contact["properties"]["phones"]["items"],
        json!({"$ref": "#/$defs/Phone"})
    );
    assert_eq!(
        contact["properties"]["fax_lines"]["items"],
        json!({"$ref": "#/$defs/Phone"})
    );
    assert!(schema["$defs"]["Phone"].is_object());
    assert!(
        schema["properties"]["result"].get("$defs").is_none(),
        "definitions hoisted"
    );
    let validator = check_schema(schema, "contacts");
    let answer = server
        .client
        .ask("tools/call", json!({"name": "contacts", "arguments": {}}));
    let structured = &answer["result"]["structuredContent"];
    assert!(validator.is_valid(structured), "{structured}");
    assert_eq!(structured["result"][1]["fax_lines"][0]["number"], "3");
    // A value that breaks a `$ref`'d definition is caught, so the refs are really followed.
    let mut broken = structured.clone();
    broken["result"][0]["phones"][0]["kind"] = json!("mobile");
    assert!(!validator.is_valid(&broken));
    server.finish().unwrap();
}
