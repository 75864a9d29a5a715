//! Prompts, resources and templates made at run time (`PromptDef`, `ResourceDef`): listed,
//! got and read as generated ones are in every revision, in process, over stdio and over
//! HTTP; added and removed through the handle, by a tool's call among others; refused for
//! what a generated one would be refused for, naming both sides of a clash.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{PipedServer, start_error};
use serde_json::{Value, json};
use toolwright::completion::Completing;
use toolwright::content::{Content, ResourceLink};
use toolwright::prelude::*;
use toolwright::prompts::PromptDef;
use toolwright::resources::ResourceDef;
use toolwright::testing::Client;
use toolwright::tools::ToolDef;
use toolwright::visibility::ItemKind;
use toolwright::{Context, Error, ProtocolVersion, Server, ServerHandle};

/// Greets someone.
///
/// # Arguments
///
/// * `name` - Who to greet
/// * `mood` - How
#[mcp_prompt]
fn greet(name: String, mood: Option<String>) -> String {
    format!(
        "Say hello to {name}, {}.",
        mood.as_deref().unwrap_or("warmly")
    )
}

/// The message of the day.
#[mcp_resource("text://motd", mime_type = "text/plain")]
fn motd() -> String {
    "Have a good day.".to_owned()
}

/// A user.
#[mcp_resource("users://{id}")]
fn user(id: String) -> String {
    format!("user {id}")
}

fn greet_def() -> PromptDef {
    PromptDef::new("greet_def", |arguments: Value, _: Context| async move {
        let name = arguments["name"].as_str().unwrap_or_default();
        let mood = arguments["mood"].as_str().unwrap_or("warmly");
        format!("Say hello to {name}, {mood}.")
    })
    .description("Greets someone.")
    .argument("name", "Who to greet", true)
    .argument("mood", "How", false)
}

fn motd_def() -> ResourceDef {
    ResourceDef::new(
        "motd_def",
        "text://motd-def",
        |_: Value, _: Context| async { "Have a good day.".to_owned() },
    )
    .description("The message of the day.")
    .mime_type("text/plain")
}

#[test]
fn a_definition_says_what_it_was_given() {
    assert_eq!(motd_def().name(), "motd_def");
    assert_eq!(motd_def().uri(), "text://motd-def");
    assert_eq!(greet_def().name(), "greet_def");
}

fn user_def() -> ResourceDef {
    ResourceDef::new(
        "user_def",
        "people://{id}",
        |values: Value, _: Context| async move {
            format!("user {}", values["id"].as_str().unwrap_or_default())
        },
    )
    .description("A user.")
}

fn server() -> Server {
    Server::new("defined", "1")
        .prompt::<greet>()
        .resource::<motd>()
        .resource::<user>()
        .prompt_def(greet_def())
        .resource_def(motd_def())
        .resource_def(user_def())
}

/// The entry named `name`, without the fields that differ between the two definitions.
fn entry(entries: Vec<Value>, name: &str) -> Value {
    let mut entry = entries
        .into_iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("`{name}` is listed"));
    let object = entry.as_object_mut().unwrap();
    for key in ["name", "uri", "uriTemplate"] {
        object.remove(key);
    }
    entry
}

#[test]
fn listed_got_and_read_as_generated_ones_in_every_revision() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        let prompts = client.list_prompts().unwrap();
        assert_eq!(
            entry(prompts.clone(), "greet_def"),
            entry(prompts, "greet"),
            "{revision}"
        );
        for arguments in [
            json!({"name": "Ada"}),
            json!({"name": "Ada", "mood": "shyly"}),
        ] {
            let made = client.get_prompt("greet_def", arguments.clone()).unwrap();
            let written = client.get_prompt("greet", arguments).unwrap();
            assert_eq!(made["messages"], written["messages"], "{revision}");
        }
        let resources = client.list_resources().unwrap();
        assert_eq!(
            entry(resources.clone(), "motd_def"),
            entry(resources, "motd"),
            "{revision}"
        );
        let templates = client.list_resource_templates().unwrap();
        assert_eq!(
            entry(templates.clone(), "user_def"),
            entry(templates, "user"),
            "{revision}"
        );
        let read = |client: &mut Client, uri: &str| {
            let mut contents = client.read_resource(uri).unwrap()["contents"][0].clone();
            assert_eq!(contents["uri"], uri, "{revision}: the URI read");
            contents.as_object_mut().unwrap().remove("uri");
            contents
        };
        assert_eq!(
            read(&mut client, "text://motd-def"),
            read(&mut client, "text://motd")
        );
        assert_eq!(
            read(&mut client, "people://7"),
            read(&mut client, "users://7")
        );
    }
}

#[test]
fn a_get_without_a_required_argument_is_refused_before_the_handler_runs() {
    let prompt = PromptDef::new("strict", |_: Value, _: Context| async {
        panic!("the handler runs");
        #[allow(unreachable_code)]
        String::new()
    })
    .argument("name", "", true);
    let server = Server::new("defined", "1").prompt_def(prompt);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let refused = client.get_prompt("strict", json!({})).unwrap_err();
    assert_eq!(refused.code, -32602, "{refused:?}");
    assert!(
        refused.message.contains("missing field `name`"),
        "{refused:?}"
    );
    let not_strings = client
        .request(
            "prompts/get",
            json!({"name": "strict", "arguments": {"name": 1}}),
        )
        .unwrap_err();
    assert_eq!(not_strings.code, -32602, "{not_strings:?}");
}

#[test]
fn a_handler_sees_its_request_and_fails_as_a_function_does() {
    let who = PromptDef::new("who", |arguments: Value, cx: Context| async move {
        match arguments.get("fail") {
            Some(_) => Err("asked to fail".to_owned()),
            None => Ok(cx.protocol_version().to_string()),
        }
    })
    .argument("fail", "", false);
    let file = ResourceDef::new(
        "file",
        "files:///{name}",
        |values: Value, cx: Context| async move {
            match values["name"].as_str() {
                Some("missing") => None,
                _ => Some(cx.resource_uri().unwrap_or_default().as_bytes().to_vec()),
            }
        },
    )
    .mime_type("application/gzip");
    let server = Server::new("defined", "1")
        .prompt_def(who)
        .resource_def(file);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let got = client.get_prompt("who", json!({})).unwrap();
    assert_eq!(got["messages"][0]["content"]["text"], "2025-11-25");
    let failed = client
        .get_prompt("who", json!({"fail": "yes"}))
        .unwrap_err();
    assert_eq!(failed.code, -32603, "{failed:?}");
    assert!(failed.message.contains("asked to fail"), "{failed:?}");

    let read = client.read_resource("files:///a.gz").unwrap();
    let contents = &read["contents"][0];
    assert_eq!(contents["mimeType"], "application/gzip", "{read}");
    use base64::Engine as _;
    let blob = base64::engine::general_purpose::STANDARD
        .decode(contents["blob"].as_str().unwrap())
        .unwrap();
    assert_eq!(blob, b"files:///a.gz");
    let missing = client.read_resource("files:///missing").unwrap_err();
    assert_eq!(missing.code, -32002, "{missing:?}");
}

#[test]
fn what_a_generated_one_is_refused_for_a_run_time_one_is_too() {
    let prompt = |name: &'static str| PromptDef::new(name, |_: Value, _: Context| async { "" });
    let named = start_error(Server::new("d", "1").prompt_def(prompt(" ")));
    assert!(named.contains("a prompt name cannot be empty"), "{named}");
    let twice = prompt("p").argument("a", "", true).argument("a", "", false);
    let twice = start_error(Server::new("d", "1").prompt_def(twice));
    assert!(twice.contains("it has two arguments named `a`"), "{twice}");
    let blank = start_error(Server::new("d", "1").prompt_def(prompt("p").argument(" ", "", true)));
    assert!(
        blank.contains("an argument's name cannot be empty"),
        "{blank}"
    );
    let meta = start_error(Server::new("d", "1").prompt_def(prompt("p").meta(json!(1))));
    assert!(meta.contains("`meta` must be a JSON object"), "{meta}");
    let resource = |uri: &'static str| {
        ResourceDef::new("r", uri, |_: Value, _: Context| async { String::new() })
    };
    let template = start_error(Server::new("d", "1").resource_def(resource("x://{a")));
    assert!(template.contains("is not a URI template"), "{template}");
    let unnamed = ResourceDef::new("", "x://a", |_: Value, _: Context| async { "" });
    let unnamed = start_error(Server::new("d", "1").resource_def(unnamed));
    assert!(
        unnamed.contains("a resource name cannot be empty"),
        "{unnamed}"
    );
}

#[test]
fn a_clash_with_a_generated_one_names_both_definitions() {
    let line = line!() + 1;
    let made = ResourceDef::new("again", "users://{x}", |_: Value, _: Context| async { "" });
    let server = Server::new("defined", "1")
        .resource::<user>()
        .resource_def(made);
    let Err(Error::Clash {
        kind: ItemKind::Resource,
        detail,
        first,
        second,
    }) = Client::new(server).map(drop)
    else {
        panic!("a clash")
    };
    assert!(detail.contains("serve some of the same URIs"), "{detail}");
    let here = format!("{}:{line}", file!());
    assert!([&first, &second].contains(&&here), "{first} / {second}");

    let line = line!() + 1;
    let again = PromptDef::new("greet", |_: Value, _: Context| async { "" });
    let server = Server::new("defined", "1")
        .prompt::<greet>()
        .prompt_def(again);
    let Err(Error::Clash { detail, second, .. }) = Client::new(server).map(drop) else {
        panic!("a clash")
    };
    assert_eq!(detail, "two prompts are named `greet`");
    assert_eq!(second, format!("{}:{line}", file!()));
}

/// The everything server's `gzip-file-as-resource`: a call that produces a file serves it as a
/// resource from then on, and links to it.
fn compress() -> ToolDef {
    ToolDef::new("compress", |arguments: Value, cx: Context| async move {
        let name = arguments["name"].as_str().unwrap_or_default().to_owned();
        let uri = format!("files:///{name}.gz");
        let bytes: Vec<u8> = name.bytes().rev().collect();
        let size = bytes.len() as u64;
        let file = ResourceDef::new(
            format!("{name}.gz"),
            uri.clone(),
            move |_: Value, _: Context| {
                let bytes = bytes.clone();
                async move { bytes }
            },
        )
        .mime_type("application/gzip")
        .size(size);
        let handle = cx.state::<ServerHandle>().expect("the handle is shared");
        handle.add_resource_def(file).map_err(|e| e.to_string())?;
        let link = ResourceLink::new(uri, format!("{name}.gz"));
        Ok::<_, ToolError>(Content::resource_link(link))
    })
    .input_schema(json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"]
    }))
}

fn compressing_server() -> Server {
    let mut server = Server::new("defined", "1")
        .resource::<motd>()
        .tool_def(compress());
    let handle = server.handle();
    server.state(handle)
}

fn is_changed(message: &Value) -> bool {
    message["method"] == "notifications/resources/list_changed"
}

#[test]
fn a_call_serves_the_resource_it_produced_over_stdio() {
    let mut piped = PipedServer::start(compressing_server());
    let client = &mut piped.client;
    client.initialize("2025-11-25");
    let params = json!({"name": "compress", "arguments": {"name": "ab"}});
    client.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}));
    let mut changed = false;
    let call = loop {
        let message = client.recv();
        match message.get("method") {
            Some(_) => changed |= is_changed(&message),
            None => break message,
        }
    };
    assert!(changed, "the list changed before the call's answer");
    let link = &call["result"]["content"][0];
    assert_eq!(link["uri"], "files:///ab.gz", "{call}");
    let listed = client.ask("resources/list", json!({}));
    let made = (listed["result"]["resources"].as_array().unwrap().iter())
        .find(|r| r["uri"] == "files:///ab.gz")
        .unwrap_or_else(|| panic!("listed: {listed}"));
    assert_eq!(made["mimeType"], "application/gzip");
    assert_eq!(made["size"], 2);
    let read = client.ask("resources/read", json!({"uri": "files:///ab.gz"}));
    assert_eq!(read["result"]["contents"][0]["blob"], "YmE=", "{read}");
    // A second call for the same file is the handle's clash, as the tool's error.
    let again = client.ask(
        "tools/call",
        json!({"name": "compress", "arguments": {"name": "ab"}}),
    );
    assert_eq!(again["result"]["isError"], true, "{again}");
    let said = again["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        said.contains("two resources serve `files:///ab.gz`"),
        "{said}"
    );
    client.expect_silence(Duration::from_millis(100));
    piped.finish().unwrap();
}

#[test]
fn the_handle_adds_and_removes_prompts_over_stdio() {
    let mut server = Server::new("defined", "1").prompt::<greet>();
    let handle = server.handle();
    let mut piped = PipedServer::start(server);
    let client = &mut piped.client;
    client.initialize("2025-06-18");
    handle.add_prompt_def(greet_def()).unwrap();
    assert_eq!(
        client.recv()["method"],
        "notifications/prompts/list_changed"
    );
    let got = client.ask(
        "prompts/get",
        json!({"name": "greet_def", "arguments": {"name": "Bo"}}),
    );
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "Say hello to Bo, warmly.",
        "{got}"
    );
    let clash = handle.add_prompt_def(greet_def()).unwrap_err();
    assert!(
        matches!(
            clash,
            Error::Clash {
                kind: ItemKind::Prompt,
                ..
            }
        ),
        "{clash}"
    );
    handle.remove_prompt("greet_def").unwrap();
    assert_eq!(
        client.recv()["method"],
        "notifications/prompts/list_changed"
    );
    let gone = client.ask("prompts/get", json!({"name": "greet_def", "arguments": {}}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    piped.finish().unwrap();
}

#[test]
fn a_server_without_resources_refuses_one_added_later() {
    let mut server = Server::new("defined", "1").prompt::<greet>();
    let handle = server.handle();
    let _client = Client::new(server).unwrap();
    let refused = handle.add_resource_def(motd_def()).unwrap_err();
    assert!(matches!(refused, Error::Setting(_)), "{refused}");
}

#[cfg(feature = "http")]
#[test]
fn over_http_in_both_eras() {
    use common::http::Endpoint;
    let endpoint = Endpoint::start(compressing_server());
    let call = json!({"name": "compress", "arguments": {"name": "cd"}});
    let modern = endpoint.modern(1, "tools/call", call).send().answer();
    assert_eq!(
        modern["result"]["content"][0]["uri"], "files:///cd.gz",
        "{modern}"
    );
    let read = json!({"uri": "files:///cd.gz"});
    let modern = endpoint
        .modern(2, "resources/read", read.clone())
        .send()
        .answer();
    assert_eq!(modern["result"]["contents"][0]["blob"], "ZGM=", "{modern}");
    let session = endpoint.initialize("2025-11-25");
    let legacy = endpoint
        .in_session(&session, "2025-11-25", 3, "resources/read", read)
        .send()
        .answer();
    assert_eq!(legacy["result"]["contents"][0]["blob"], "ZGM=", "{legacy}");
}

/// A prompt and a template made at run time, each completing from a closure.
fn completing() -> Server {
    let languages = Arc::new(vec!["python", "rust", "ruby"]);
    let prompt = PromptDef::new("review", |_: Value, _: Context| async { "Review it." })
        .argument("language", "The language", true)
        .argument("style", "How", false)
        .complete("language", move |completing: Completing| {
            let languages = Arc::clone(&languages);
            async move {
                let typed = completing.value();
                let matching = languages.iter().filter(|l| l.starts_with(typed));
                matching.map(|l| l.to_string()).collect::<Vec<_>>()
            }
        });
    let page = ResourceDef::new("page", "pages://{book}/{n}", |_: Value, _: Context| async {
        "a page"
    })
    .complete("n", |completing: Completing| async move {
        // What the user chose already reaches it too.
        let book = completing
            .arguments()
            .get("book")
            .cloned()
            .unwrap_or_default();
        vec![format!("{book}-1"), format!("{book}-2")]
    });
    Server::new("defined", "1")
        .prompt_def(prompt)
        .resource_def(page)
}

#[test]
fn a_definition_completes_its_arguments_and_variables_with_closures() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(completing(), revision).unwrap();
        let completed = client
            .complete_prompt_argument("review", "language", "r", json!({}))
            .unwrap();
        assert_eq!(completed["values"], json!(["rust", "ruby"]), "{revision}");
        let none = client
            .complete_prompt_argument("review", "style", "", json!({}))
            .unwrap();
        assert_eq!(
            none["values"],
            json!([]),
            "{revision}: no closure, no suggestions"
        );
        let pages = client
            .complete_template_variable("pages://{book}/{n}", "n", "", json!({"book": "moby"}))
            .unwrap();
        let expected = match revision.has_structured_output() {
            // Revisions without `context` send no chosen values.
            true => json!(["moby-1", "moby-2"]),
            false => json!(["-1", "-2"]),
        };
        assert_eq!(pages["values"], expected, "{revision}");
    }
    // Through a mount, by the namespaced names.
    let mounted = Server::new("team", "1").mount("docs", completing());
    let mut client = Client::connect(mounted, ProtocolVersion::V2026_07_28).unwrap();
    let completed = client
        .complete_prompt_argument("docs_review", "language", "p", json!({}))
        .unwrap();
    assert_eq!(completed["values"], json!(["python"]));
}

#[test]
fn a_second_closure_for_one_argument_takes_the_firsts_place() {
    let prompt = PromptDef::new("review", |_: Value, _: Context| async { "Review it." })
        .argument("language", "The language", true)
        .complete("language", |_: Completing| async { vec!["first"] })
        .complete("language", |_: Completing| async { vec!["second"] });
    let server = Server::new("defined", "1").prompt_def(prompt);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let completed = client
        .complete_prompt_argument("review", "language", "", json!({}))
        .unwrap();
    assert_eq!(completed["values"], json!(["second"]));
}

#[test]
fn a_definition_that_completes_what_it_does_not_take_is_refused() {
    let complete = |_: Completing| async { Vec::<String>::new() };
    let prompt = PromptDef::new("review", |_: Value, _: Context| async { "Review it." })
        .argument("language", "The language", true)
        .complete("lang", complete);
    let error = start_error(Server::new("defined", "1").prompt_def(prompt));
    assert!(
        error.ends_with("it completes `lang`, which is not one of its arguments"),
        "{error}"
    );
    let page = ResourceDef::new("page", "pages://{n}", |_: Value, _: Context| async {
        "a page"
    })
    .complete("m", complete);
    let error = start_error(Server::new("defined", "1").resource_def(page));
    assert!(
        error.ends_with("it completes `m`, which is not a variable of `pages://{n}`"),
        "{error}"
    );
}
