//! Tools made at run time (`ToolDef`): listed and called as generated tools are in every
//! revision, in process, over the stdio transport and over HTTP; added and removed through the
//! handle; and refused for what a generated tool would be refused for, naming both sides of a
//! clash.

use crate::common;

use std::time::Duration;

use common::PipedServer;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::testing::{Client, Manifest};
use toolwright::tools::ToolDef;
use toolwright::visibility::ItemKind;
use toolwright::{Error, ProtocolVersion, Server};

/// What `shout` answers.
#[derive(Serialize, JsonSchema)]
struct Shouted {
    /// The text, louder.
    loud: String,
}

/// Says the text louder.
///
/// # Arguments
///
/// * `text` - What to say.
#[mcp_tool(read_only)]
fn shout(text: String) -> Json<Shouted> {
    Json(Shouted {
        loud: text.to_uppercase(),
    })
}

/// Answers.
#[mcp_tool]
fn answer() -> i64 {
    42
}

/// `shout`, made from values: the schemas the generated one lists, the same handler.
fn shout_def(name: &'static str, generated: &Value) -> ToolDef {
    ToolDef::new(
        name,
        |arguments: Value, _: toolwright::Context| async move {
            let text = arguments["text"]
                .as_str()
                .unwrap_or_default()
                .to_uppercase();
            Ok::<_, ToolError>(Json(json!({ "loud": text })))
        },
    )
    .description("Says the text louder.")
    .input_schema(generated["inputSchema"].clone())
    .output_schema(generated["outputSchema"].clone())
    .read_only(true)
}

/// A tool's list entry, as `revision` lists it, by name.
fn entry(client: &mut Client, name: &str) -> Value {
    let tools = client.list_tools().unwrap();
    tools
        .into_iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("`{name}` is listed"))
}

/// The generated `shout`'s entry on 2026-07-28, whose schemas the run-time one is given.
fn generated_shout() -> Value {
    let server = Server::new("defined", "1").tool::<shout>();
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    entry(&mut client, "shout")
}

fn server() -> Server {
    let generated = generated_shout();
    let answer_def = ToolDef::new("answer_def", |_: Value, _: toolwright::Context| async {
        Ok::<_, ToolError>(Json(42))
    })
    .description("Answers.")
    .output_schema(json!({"type": "integer", "format": "int64"}));
    Server::new("defined", "1")
        .tool::<shout>()
        .tool::<answer>()
        .tool_def(shout_def("shout_def", &generated))
        .tool_def(answer_def)
}

/// An entry without its name, to compare a run-time tool's with a generated one's.
fn unnamed(mut entry: Value) -> Value {
    entry.as_object_mut().unwrap().remove("name");
    entry
}

#[test]
fn listed_and_answered_as_the_generated_tool_in_every_revision() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        for (generated, defined) in [("shout", "shout_def"), ("answer", "answer_def")] {
            assert_eq!(
                unnamed(entry(&mut client, defined)),
                unnamed(entry(&mut client, generated)),
                "{revision}: `{defined}` lists as `{generated}` does"
            );
        }
        let arguments = json!({"text": "hi"});
        let made = client.call("shout_def", arguments.clone()).unwrap();
        let written = client.call("shout", arguments).unwrap();
        assert_eq!(made.json(), written.json(), "{revision}");
        let answered = client.call("answer_def", json!({})).unwrap();
        assert_eq!(
            answered.json(),
            client.call("answer", json!({})).unwrap().json(),
            "{revision}"
        );
        // The test client checks a structured result against the listed schema, as for any
        // generated tool; revisions before 2025-06-18 have none.
        if revision.has_structured_output() {
            assert_eq!(made.structured::<Value>().unwrap(), json!({"loud": "HI"}));
            assert_eq!(answered.structured::<i64>().unwrap(), 42, "{revision}");
        }
    }
}

/// What `typed_shout` takes.
#[derive(serde::Deserialize, JsonSchema)]
struct Loud {
    /// What to say.
    text: String,
    /// How many times.
    #[serde(default)]
    times: Option<u8>,
}

/// Says the text louder, as often as asked.
#[mcp_tool]
fn typed_shout(loud: Args<Loud>) -> String {
    let Loud { text, times } = loud.0;
    text.to_uppercase().repeat(usize::from(times.unwrap_or(1)))
}

/// `typed_shout`, made at run time with the same argument type.
fn typed_shout_def() -> ToolDef {
    ToolDef::typed(
        "typed_shout_def",
        |loud: Loud, _: toolwright::Context| async move {
            let Loud { text, times } = loud;
            Ok::<_, ToolError>(text.to_uppercase().repeat(usize::from(times.unwrap_or(1))))
        },
    )
    .description("Says the text louder, as often as asked.")
}

/// `made` and `written` answer `arguments` alike in `revision`: the same result, or the same refusal.
fn answered_alike(
    client: &mut Client,
    revision: ProtocolVersion,
    made: &str,
    written: &str,
    arguments: Value,
) {
    match (
        client.call(made, arguments.clone()),
        client.call(written, arguments.clone()),
    ) {
        (Ok(made), Ok(written)) => {
            assert_eq!(made.json(), written.json(), "{revision} {arguments}")
        }
        (Err(made), Err(written)) => {
            assert_eq!(made.message, written.message, "{revision} {arguments}")
        }
        (made, written) => panic!("{revision} {arguments}: {made:?} against {written:?}"),
    }
}

#[test]
fn a_run_time_tool_with_typed_arguments_is_the_generated_one_with_args() {
    for revision in ProtocolVersion::ALL {
        let server = Server::new("typed", "1")
            .tool::<typed_shout>()
            .tool_def(typed_shout_def());
        let mut client = Client::connect(server, revision).unwrap();
        assert_eq!(
            unnamed(entry(&mut client, "typed_shout_def")),
            unnamed(entry(&mut client, "typed_shout")),
            "{revision}"
        );
        for arguments in [
            json!({"text": "hi", "times": 2}),
            json!({"text": "hi"}),
            json!({"text": "hi", "loud": true}),
            json!({"text": 3}),
            json!({"times": 300}),
        ] {
            answered_alike(
                &mut client,
                revision,
                "typed_shout_def",
                "typed_shout",
                arguments,
            );
        }
    }
}

/// What `strict_shout_def` takes: a type that refuses unknown fields itself.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Strict {
    text: String,
}

/// Says the text louder.
#[mcp_tool]
fn strict_shout(text: String) -> String {
    text.to_uppercase()
}

/// `strict_shout`, made at run time with a type that refuses unknown fields.
fn strict_shout_def() -> ToolDef {
    ToolDef::typed(
        "strict_shout_def",
        |strict: Strict, _: toolwright::Context| async move {
            Ok::<_, ToolError>(strict.text.to_uppercase())
        },
    )
}

#[test]
fn a_type_that_refuses_unknown_fields_binds_as_a_generated_tools_parameters_do() {
    for revision in ProtocolVersion::ALL {
        let server = Server::new("strict", "1")
            .tool::<strict_shout>()
            .tool_def(strict_shout_def());
        let mut client = Client::connect(server, revision).unwrap();
        let schema = entry(&mut client, "strict_shout_def")["inputSchema"].clone();
        assert_eq!(
            schema["additionalProperties"], false,
            "{revision}: {schema}"
        );
        for arguments in [
            json!({"text": "hi"}),
            json!({"text": "hi", "loud": true}),
            json!({"text": 3}),
            json!({}),
        ] {
            answered_alike(
                &mut client,
                revision,
                "strict_shout_def",
                "strict_shout",
                arguments,
            );
        }
    }
}

/// The message of a failed call: an `isError` result from 2025-11-25 on, a `-32602` before.
fn refusal(client: &mut Client, tool: &str, arguments: Value) -> String {
    match client.call(tool, arguments) {
        Ok(result) => {
            assert!(result.is_error(), "{}", result.json());
            result.text()
        }
        Err(error) => {
            assert_eq!(error.code, -32602, "{error:?}");
            error.message
        }
    }
}

#[test]
fn arguments_the_schema_refuses_never_reach_the_handler() {
    for revision in [ProtocolVersion::V2025_03_26, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(server(), revision).unwrap();
        for (arguments, says) in [
            (
                json!({"text": 7}),
                "`text`: must be a string, got an integer",
            ),
            (json!({}), "missing field `text`"),
            (
                json!({"text": "a", "loudness": 11}),
                "unknown field `loudness`",
            ),
        ] {
            let made = refusal(&mut client, "shout_def", arguments.clone());
            assert!(made.contains(says), "{revision}: {made}");
            // Refused the way the generated tool refuses it.
            let written = refusal(&mut client, "shout", arguments);
            assert!(!written.is_empty(), "{revision}");
        }
    }
}

#[test]
fn a_handler_sees_its_call_and_fails_as_a_tool_does() {
    let tool = ToolDef::new(
        "revision",
        |arguments: Value, cx: toolwright::Context| async move {
            match arguments["fail"].as_bool() {
                Some(true) => Err("asked to fail"),
                _ => Ok(cx.protocol_version().to_string()),
            }
        },
    )
    .input_schema(json!({"type": "object", "properties": {"fail": {"type": "boolean"}}}));
    let server = Server::new("defined", "1").tool_def(tool);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let result = client.call("revision", json!({})).unwrap();
    assert_eq!(result.text(), "2025-11-25");
    let failed = client.call("revision", json!({"fail": true})).unwrap();
    assert!(failed.is_error());
    assert_eq!(failed.text(), "asked to fail");
}

/// A tool named `name` that says `"ok"`.
#[track_caller]
fn ok_tool(name: impl Into<std::borrow::Cow<'static, str>>) -> ToolDef {
    ToolDef::new(name, |_: Value, _: toolwright::Context| async {
        Ok::<_, ToolError>("ok")
    })
}

fn build_error(server: Server) -> String {
    match Client::new(server) {
        Ok(_) => panic!("the server starts"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn what_a_generated_tool_is_refused_for_a_run_time_one_is_too() {
    let server = |tool: ToolDef| Server::new("defined", "1").tool_def(tool);
    let named = build_error(server(ok_tool("two words")));
    assert!(
        named.contains("tool `two words`") && named.contains("naming rules"),
        "{named}"
    );
    assert!(build_error(server(ok_tool("n".repeat(129)))).contains("naming rules"));
    let input = build_error(server(ok_tool("t").input_schema(json!({"type": "string"}))));
    assert!(input.contains("must describe an object"), "{input}");
    let output = build_error(server(ok_tool("t").output_schema(json!(5))));
    assert!(
        output.contains("its output schema is not a JSON Schema"),
        "{output}"
    );
    let meta = build_error(server(ok_tool("t").meta(json!([1]))));
    assert!(meta.contains("`meta` must be a JSON object"), "{meta}");
    let pattern = build_error(server(ok_tool("t").input_schema(json!({
        "type": "object", "properties": {"x": {"type": "string", "pattern": "(?<=a)b"}}
    }))));
    assert!(pattern.contains("pattern"), "{pattern}");
}

#[test]
fn a_clash_with_a_generated_tool_names_both_definitions() {
    let (made, line) = (ok_tool("answer"), line!());
    let server = Server::new("defined", "1").tool::<answer>().tool_def(made);
    let Err(Error::Clash {
        kind: ItemKind::Tool,
        detail,
        first,
        second,
    }) = Client::new(server).map(drop)
    else {
        panic!("a clash")
    };
    assert_eq!(detail, "two tools are named `answer`");
    let here = format!("{}:{line}", file!());
    assert!(
        [&first, &second].contains(&&here),
        "{first} / {second} / {here}"
    );
    assert!(first.contains("defined_tools.rs") && second.contains("defined_tools.rs"));
}

fn is_list_changed(message: &Value) -> bool {
    message["method"] == "notifications/tools/list_changed"
}

#[test]
fn the_handle_adds_and_removes_them_while_serving_over_stdio() {
    let mut server = Server::new("defined", "1").tool::<answer>();
    let handle = server.handle();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.initialize("2025-11-25");

    handle.add_tool_def(ok_tool("made")).unwrap();
    assert!(is_list_changed(&client.recv()));
    let call = client.ask("tools/call", json!({"name": "made", "arguments": {}}));
    assert_eq!(call["result"]["content"][0]["text"], "ok", "{call}");

    let clash = handle.add_tool_def(ok_tool("made")).unwrap_err();
    assert!(
        matches!(
            clash,
            Error::Clash {
                kind: ItemKind::Tool,
                ..
            }
        ),
        "{clash}"
    );
    let invalid = handle.add_tool_def(ok_tool("")).unwrap_err();
    assert!(
        matches!(
            invalid,
            Error::InvalidItem {
                kind: ItemKind::Tool,
                ..
            }
        ),
        "{invalid}"
    );
    client.expect_silence(Duration::from_millis(100));

    handle.remove_tool("made").unwrap();
    assert!(is_list_changed(&client.recv()));
    let call = client.ask("tools/call", json!({"name": "made", "arguments": {}}));
    assert_eq!(call["error"]["message"], "Unknown tool: made", "{call}");
    // The name is free again.
    handle.add_tool_def(ok_tool("made")).unwrap();
    assert!(is_list_changed(&client.recv()));
    piped.finish().unwrap();
}

#[test]
fn the_manifest_pins_them_as_generated_ones() {
    let manifest = Manifest::of(server()).unwrap().to_json();
    let pinned: Value = serde_json::from_str(&manifest).unwrap();
    let text = pinned.to_string();
    assert!(
        text.contains("shout_def") && text.contains("answer_def"),
        "{manifest}"
    );
}

#[cfg(feature = "http")]
#[test]
fn over_http_in_both_eras() {
    use common::http::Endpoint;
    let endpoint = Endpoint::start(server());
    let call = json!({"name": "shout_def", "arguments": {"text": "hi"}});
    let modern = endpoint
        .modern(1, "tools/call", call.clone())
        .send()
        .answer();
    assert_eq!(
        modern["result"]["structuredContent"],
        json!({"loud": "HI"}),
        "{modern}"
    );
    let session = endpoint.initialize("2025-11-25");
    let legacy = endpoint
        .in_session(&session, "2025-11-25", 2, "tools/call", call)
        .send()
        .answer();
    assert_eq!(
        legacy["result"]["structuredContent"],
        json!({"loud": "HI"}),
        "{legacy}"
    );
    let refused = endpoint
        .modern(
            3,
            "tools/call",
            json!({"name": "shout_def", "arguments": {"text": 1}}),
        )
        .send()
        .answer();
    assert_eq!(refused["result"]["isError"], true, "{refused}");
}

#[test]
fn a_run_time_tool_runs_as_a_task_in_both_revisions_that_have_them() {
    use toolwright::tasks::TaskSupport;
    use toolwright::testing::TaskCall;
    let slow = ToolDef::new(
        "slow",
        |arguments: Value, _: toolwright::Context| async move {
            let ms = arguments["ms"].as_u64().unwrap_or_default();
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok::<_, ToolError>(format!("slept {ms} ms"))
        },
    )
    .input_schema(json!({"type": "object", "properties": {"ms": {"type": "integer"}}}))
    .task(TaskSupport::Optional)
    .task_ttl_ms(60_000);
    let server = Server::new("defined", "1").tool_def(slow);
    let listed = Client::connect(server, ProtocolVersion::V2025_11_25)
        .unwrap()
        .list_tools()
        .unwrap();
    assert_eq!(
        listed[0]["execution"]["taskSupport"], "optional",
        "{listed:?}"
    );
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let slow = ToolDef::new("slow", |_: Value, _: toolwright::Context| async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok::<_, ToolError>("slept")
        })
        .task(TaskSupport::Required);
        let server = Server::new("defined", "1").tool_def(slow);
        let mut client = Client::connect(server, revision).unwrap();
        let TaskCall::Task(id) = client.call_as_task("slow", json!({})).unwrap() else {
            panic!("{revision}: a task")
        };
        let result = client.finish_task("slow", &id).unwrap().completed();
        assert_eq!(result.text(), "slept", "{revision}");
    }
}
