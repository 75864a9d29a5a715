//! Servers mounted into servers under namespaces: every surface that carries a name or a URI
//! rewritten both ways (lists, calls, gets, reads, completion references, links and embedded
//! resources in results, a tool's UI resource, subscriptions and updates), in every revision
//! and through a mount of a mount; what the child keeps deciding (its states, rule, tags,
//! middleware, hooks, handles) and what the parent decides on top; and every collision refused
//! at start-up, naming both definitions and the mounts they came through.

use crate::common;

use std::sync::{Arc, Mutex};

use common::start_error;
use serde_json::{Value, json};
use toolwright::content::{Content, EmbeddedResource, ResourceLink};
use toolwright::middleware::{self, Next, ToolCall};
use toolwright::prelude::*;
use toolwright::resources::ResourceDef;
use toolwright::testing::Client;
use toolwright::tools::ToolDef;
use toolwright::{Context, ProtocolVersion, Server, State};

/// Searches the issues.
#[mcp_tool(read_only)]
fn search(query: String) -> String {
    format!("issues about {query}")
}

/// Links to an issue, to a page elsewhere, and carries another issue.
#[mcp_tool]
fn links() -> Vec<Content> {
    vec![
        Content::resource_link(ResourceLink::new("issues://7", "issue 7")),
        Content::resource_link(ResourceLink::new("https://example.com/7", "elsewhere")),
        Content::resource(EmbeddedResource::text("issues://8", "issue 8")),
    ]
}

/// An issue.
#[mcp_resource("issues://{n}", mime_type = "text/plain")]
fn issue(n: u32, cx: &Context) -> String {
    format!(
        "issue {n} read as {}",
        cx.resource_uri().unwrap_or_default()
    )
}

/// The project's readme.
#[mcp_resource("docs://readme")]
fn readme() -> String {
    "read me".to_owned()
}

/// The kinds of review.
#[derive(Debug, Clone, Copy, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Depth {
    Quick,
    Thorough,
}

/// Reviews an issue.
///
/// # Arguments
/// * `depth` - How closely
#[mcp_prompt]
fn review(depth: Depth) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Review it {depth:?}.")),
        PromptMessage::user(Content::resource_link(ResourceLink::new("issues://1", "1"))),
    ]
}

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The issue tracker, as a library would give it.
fn tracker() -> Server {
    Server::new("tracker", "1")
        .tool::<search>()
        .tool::<links>()
        .resource::<issue>()
        .resource::<readme>()
        .prompt::<review>()
}

fn names(entries: &[Value], key: &str) -> Vec<String> {
    let mut names: Vec<String> = entries
        .iter()
        .map(|e| e[key].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_list_call_get_and_read_goes_through_the_namespace_in_every_revision() {
    for revision in ProtocolVersion::ALL {
        let server = Server::new("team", "1")
            .tool::<add>()
            .mount("gh", tracker());
        let mut client = Client::connect(server, revision).unwrap();
        let tools = client.list_tools().unwrap();
        assert_eq!(names(&tools, "name"), ["add", "gh_links", "gh_search"]);
        let search = client
            .call("gh_search", json!({"query": "mounts"}))
            .unwrap();
        assert_eq!(search.text(), "issues about mounts", "{revision}");
        let unknown = client.call("search", json!({"query": "x"})).unwrap_err();
        assert_eq!(
            unknown.code, -32602,
            "{revision}: the child's name is not served"
        );

        let prompts = client.list_prompts().unwrap();
        assert_eq!(names(&prompts, "name"), ["gh_review"]);
        let got = client
            .get_prompt("gh_review", json!({"depth": "quick"}))
            .unwrap();
        assert_eq!(got["messages"][0]["content"]["text"], "Review it Quick.");

        let resources = client.list_resources().unwrap();
        assert_eq!(names(&resources, "uri"), ["docs://gh/readme"]);
        let templates = client.list_resource_templates().unwrap();
        assert_eq!(names(&templates, "uriTemplate"), ["issues://gh/{n}"]);
        let read = client.read_resource("issues://gh/7").unwrap();
        let contents = &read["contents"][0];
        assert_eq!(contents["uri"], "issues://gh/7", "{revision}: {read}");
        assert_eq!(
            contents["text"], "issue 7 read as issues://7",
            "{revision}: the function reads the URI its own server knows"
        );
        let not_served = client.read_resource("issues://7").unwrap_err();
        assert!(not_served.message.contains("issues://7"), "{not_served:?}");
    }
}

#[test]
fn links_to_the_childs_own_resources_point_through_the_mount() {
    let server = Server::new("team", "1").mount("gh", tracker());
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let result = client.call("gh_links", json!({})).unwrap();
    let content = result.content();
    assert_eq!(content[0]["uri"], "issues://gh/7", "{content:?}");
    assert_eq!(
        content[1]["uri"], "https://example.com/7",
        "a link elsewhere is left as it is"
    );
    assert_eq!(content[2]["resource"]["uri"], "issues://gh/8");
    let got = client
        .get_prompt("gh_review", json!({"depth": "quick"}))
        .unwrap();
    assert_eq!(got["messages"][1]["content"]["uri"], "issues://gh/1");
}

#[test]
fn a_mount_of_a_mount_takes_both_namespaces_outermost_first() {
    let platform = Server::new("platform", "1").mount("gh", tracker());
    let server = Server::new("company", "1").mount("team", platform);
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let tools = client.list_tools().unwrap();
    assert_eq!(names(&tools, "name"), ["team_gh_links", "team_gh_search"]);
    let templates = client.list_resource_templates().unwrap();
    assert_eq!(names(&templates, "uriTemplate"), ["issues://team/gh/{n}"]);
    let read = client.read_resource("issues://team/gh/3").unwrap();
    assert_eq!(read["contents"][0]["text"], "issue 3 read as issues://3");
    let links = client.call("team_gh_links", json!({})).unwrap();
    assert_eq!(links.content()[0]["uri"], "issues://team/gh/7");
    let completed = client
        .complete_prompt_argument("team_gh_review", "depth", "t", json!({}))
        .unwrap();
    assert_eq!(completed["values"], json!(["thorough"]));
    let completed = client
        .complete_template_variable("issues://team/gh/{n}", "n", "", json!({}))
        .unwrap();
    assert_eq!(completed["values"], json!([]));
}

/// A greeting's prefix: the child and the parent each have one.
struct Prefix(&'static str);

/// A shared counter only the parent has.
struct Visits(Mutex<u32>);

/// Greets, with the prefix of its server.
#[mcp_tool]
fn greet(prefix: State<Prefix>, visits: State<Visits>) -> String {
    *visits.0.lock().unwrap() += 1;
    format!("{} hello", prefix.0)
}

#[test]
fn a_childs_items_take_its_states_before_the_parents() {
    let child = Server::new("child", "1")
        .state(Prefix("child"))
        .tool::<greet>();
    let server = Server::new("parent", "1")
        .state(Prefix("parent"))
        .state(Visits(Mutex::new(0)))
        .tool::<greet>()
        .mount("kid", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    assert_eq!(
        client.call("greet", json!({})).unwrap().text(),
        "parent hello"
    );
    assert_eq!(
        client.call("kid_greet", json!({})).unwrap().text(),
        "child hello",
        "the child's own state, and the parent's for what the child has none of"
    );
    let missing = Server::new("parent", "1").mount("kid", Server::new("c", "1").tool::<greet>());
    let error = start_error(missing);
    assert!(error.contains("`State<"), "{error}");
    assert!(error.contains("mounted as `kid`"), "{error}");
}

#[test]
fn the_childs_rule_and_tags_see_its_own_names_and_the_parents_apply_on_top() {
    let secret = ToolDef::new("secret", |_: Value, _: Context| async {
        Ok::<_, String>("hidden")
    })
    .tags(&["hidden"]);
    let child = Server::new("child", "1")
        .tool::<search>()
        .tool::<links>()
        .tool_def(secret)
        .without_tags(["hidden"])
        .visibility(|tool, _| tool.name() != "links");
    let server = Server::new("parent", "1")
        .tool::<add>()
        .mount("gh", child)
        .visibility(|tool, _| tool.name() != "add");
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let tools = client.list_tools().unwrap();
    assert_eq!(names(&tools, "name"), ["gh_search"]);
    let refused = client.call("gh_links", json!({})).unwrap_err();
    let alone =
        Server::new("parent", "1").mount("gh", tracker().visibility(|t, _| t.name() != "links"));
    let mut modern = Client::connect(alone, ProtocolVersion::V2026_07_28).unwrap();
    let listed = modern.request("tools/list", json!({})).unwrap();
    assert_eq!(
        names(listed["tools"].as_array().unwrap(), "name"),
        ["gh_search"]
    );
    assert_eq!(
        listed["cacheScope"], "private",
        "what is listed depends on the caller"
    );
    assert_eq!(
        refused.code, -32602,
        "hidden by the child's rule: {refused:?}"
    );
}

/// What middleware saw, in order.
type Seen = Arc<Mutex<Vec<String>>>;

#[test]
fn a_childs_middleware_wraps_its_own_tools_inside_the_parents() {
    let seen = Seen::default();
    let layer = |who: &'static str| {
        let seen = Arc::clone(&seen);
        middleware::from_fn(move |call: ToolCall, next: Next| {
            let seen = Arc::clone(&seen);
            async move {
                seen.lock()
                    .unwrap()
                    .push(format!("{who} {}", call.tool().name()));
                next.run(call).await
            }
        })
    };
    let child = Server::new("child", "1")
        .tool::<search>()
        .layer(layer("child"));
    let server = Server::new("parent", "1")
        .tool::<add>()
        .layer(layer("parent"))
        .mount("gh", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    client.call("add", json!({"a": 1, "b": 2})).unwrap();
    client.call("gh_search", json!({"query": "q"})).unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        ["parent add", "parent gh_search", "child search"],
        "each server's layers see the tool by the name that server gives it"
    );
    // A parent without layers: its own tools take no middleware, the child's take the child's.
    seen.lock().unwrap().clear();
    let child = Server::new("child", "1")
        .tool::<search>()
        .layer(layer("child"));
    let server = Server::new("parent", "1").tool::<add>().mount("gh", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    client.call("add", json!({"a": 1, "b": 2})).unwrap();
    client.call("gh_search", json!({"query": "q"})).unwrap();
    assert_eq!(*seen.lock().unwrap(), ["child search"]);
}

#[test]
fn a_childs_handle_changes_and_announces_its_items_through_the_parent() {
    let mut child = tracker();
    let handle = child.handle();
    let updates = child.resource_updates();
    let server = Server::new("team", "1").mount("gh", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let late = ToolDef::new("late", |_: Value, _: Context| async {
        Ok::<_, String>("late")
    });
    handle.add_tool_def(late).unwrap();
    let changed: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert_eq!(changed["method"], "notifications/tools/list_changed");
    let tools = client.list_tools().unwrap();
    assert!(
        names(&tools, "name").contains(&"gh_late".to_owned()),
        "{tools:?}"
    );
    assert_eq!(client.call("gh_late", json!({})).unwrap().text(), "late");
    handle.remove_tool("late").unwrap();
    let _: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert!(client.call("gh_late", json!({})).is_err());

    let made = ResourceDef::new("made", "made://today", |_: Value, _: Context| async {
        "made"
    });
    handle.add_resource_def(made).unwrap();
    let _: Value = serde_json::from_str(&client.next_line()).unwrap();
    let read = client.read_resource("made://gh/today").unwrap();
    assert_eq!(read["contents"][0]["uri"], "made://gh/today");

    client.subscribe("issues://gh/7").unwrap();
    assert_eq!(updates.subscriptions().unwrap(), ["issues://7"]);
    updates.updated("issues://7").unwrap();
    let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert_eq!(heard["method"], "notifications/resources/updated");
    assert_eq!(heard["params"]["uri"], "issues://gh/7");
}

#[test]
fn a_listen_stream_hears_a_mounted_resource_by_its_namespaced_uri() {
    let mut child = tracker();
    let updates = child.resource_updates();
    let server = Server::new("team", "1").mount("gh", child);
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    client.subscribe("issues://gh/7").unwrap();
    updates.updated("issues://8").unwrap();
    updates.updated("issues://7").unwrap();
    let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
    assert_eq!(heard["params"]["uri"], "issues://gh/7", "{heard}");
}

#[test]
fn a_childs_hooks_hear_of_its_own_resources_by_its_own_uris() {
    let heard: Seen = Seen::default();
    let (hear, unheard) = (Arc::clone(&heard), Arc::clone(&heard));
    let mut child = tracker()
        .on_unsubscribe(move |_, uri| unheard.lock().unwrap().push(format!("-{uri}")))
        .on_subscribe(move |_, uri| {
            hear.lock().unwrap().push(uri.to_owned());
            match uri.ends_with("/0") {
                true => Err(toolwright::McpError::invalid_params(
                    "issue 0 is not watched",
                )),
                false => Ok(()),
            }
        });
    let _updates = child.resource_updates();
    let server = Server::new("team", "1")
        .resource::<readme>()
        .mount("gh", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    client.subscribe("issues://gh/5").unwrap();
    client.subscribe("docs://readme").unwrap();
    let refused = client.subscribe("issues://gh/0").unwrap_err();
    assert_eq!(refused.message, "issue 0 is not watched");
    client
        .request("resources/unsubscribe", json!({"uri": "issues://gh/5"}))
        .unwrap();
    client
        .request("resources/unsubscribe", json!({"uri": "docs://readme"}))
        .unwrap();
    assert_eq!(
        *heard.lock().unwrap(),
        ["issues://5", "issues://0", "-issues://5"],
        "the child hears of its own resources only, by its own URIs"
    );
}

#[test]
fn a_tools_ui_resource_is_namespaced_with_it_when_the_child_serves_it() {
    let ui = |uri: &str| json!({"ui": {"resourceUri": uri}, "ui/resourceUri": uri});
    let app = ToolDef::new("forecast", |_: Value, _: Context| async {
        Ok::<_, String>("sunny")
    })
    .meta(ui("ui://weather/forecast.html"));
    let shared = ToolDef::new("shared", |_: Value, _: Context| async {
        Ok::<_, String>("x")
    })
    .meta(ui("ui://shared/app.html"));
    let view = ResourceDef::new(
        "forecast-view",
        "ui://weather/forecast.html",
        |_: Value, _: Context| async { "<html></html>" },
    );
    let child = Server::new("weather", "1")
        .tool_def(app)
        .tool_def(shared)
        .resource_def(view);
    let server = Server::new("team", "1").mount("wx", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let tools = client.list_tools().unwrap();
    let meta = |name: &str| tools.iter().find(|t| t["name"] == name).unwrap()["_meta"].clone();
    assert_eq!(meta("wx_forecast"), ui("ui://wx/weather/forecast.html"));
    assert_eq!(
        meta("wx_shared"),
        ui("ui://shared/app.html"),
        "a UI resource the child does not serve is left as it is"
    );
}

#[test]
fn collisions_after_namespacing_stop_the_server_naming_both_sides() {
    // Where `fn search` is defined: the line the error names for it.
    let search = 1 + include_str!("mounts.rs")
        .lines()
        .position(|l| l.starts_with("fn search("))
        .unwrap();
    let line = line!() + 1;
    let own = ToolDef::new("gh_search", |_: Value, _: Context| async {
        Ok::<_, String>("mine")
    });
    let error = start_error(
        Server::new("team", "1")
            .tool_def(own)
            .mount("gh", tracker()),
    );
    assert_eq!(
        error,
        format!(
            "two tools are named `gh_search`: one defined at tests/integration/mounts.rs:{search} \
             (mounted as `gh`), one at tests/integration/mounts.rs:{line}; give one of them \
             another name with #[mcp_tool(name = \"...\")]"
        )
    );
    assert!(error.contains("mounted as `gh`"), "{error}");
    assert!(error.contains("tests/integration/mounts.rs"), "{error}");

    let twice = Server::new("team", "1")
        .mount("gh", tracker())
        .mount("gh", tracker());
    let error = start_error(twice);
    assert_eq!(error.matches("(mounted as `gh`)").count(), 2, "{error}");

    let template = ResourceDef::new("mine", "issues://gh/{id}", |_: Value, _: Context| async {
        "x"
    });
    let error = start_error(
        Server::new("team", "1")
            .resource_def(template)
            .mount("gh", tracker()),
    );
    assert!(
        error.contains(
            "resources `issues://gh/{id}` and `issues://gh/{n}` serve some of the same URIs"
        ),
        "{error}"
    );
}

#[test]
fn what_cannot_be_namespaced_is_refused_at_start_up() {
    let error = start_error(Server::new("team", "1").mount("git_hub", tracker()));
    assert_eq!(
        error,
        "the server cannot be mounted: `git_hub` cannot be a mount's namespace: it has up to 32 \
         characters, each a lowercase letter, a digit or `-` (`_` separates it from the names it \
         prefixes)"
    );
    let line = line!() + 1;
    let urn = ResourceDef::new(
        "book",
        "urn:isbn:0451450523",
        |_: Value, _: Context| async { "x" },
    );
    let error =
        start_error(Server::new("team", "1").mount("lib", Server::new("l", "1").resource_def(urn)));
    assert_eq!(
        error,
        format!(
            "resource `book` (at tests/integration/mounts.rs:{line}): `urn:isbn:0451450523` \
             cannot be namespaced: a mounted resource's URI starts with `scheme://`, and the \
             namespace becomes its first segment"
        )
    );
    let line = line!() + 1;
    let long = ToolDef::new("t".repeat(121), |_: Value, _: Context| async {
        Ok::<_, String>("x")
    });
    let error = start_error(
        Server::new("team", "1").mount("library", Server::new("l", "1").tool_def(long)),
    );
    assert_eq!(
        error,
        format!(
            "tool `{}` (at tests/integration/mounts.rs:{line}): mounted as `library_{}`, its name \
             breaks the naming rules: a tool name has 1 to 128 characters, each a letter, a \
             digit, `_`, `-` or `.`",
            "t".repeat(121),
            "t".repeat(121)
        )
    );
}

#[test]
fn a_childs_output_is_checked_as_the_parent_would_check_its_own() {
    let child = Server::new("c", "1").tool::<add>();
    let server = Server::new("p", "1").mount("math", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_06_18).unwrap();
    let sum = client.call("math_add", json!({"a": 2, "b": 3})).unwrap();
    assert_eq!(sum.structured_content(), Some(&json!({"result": 5})));
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Closes an issue once the user confirms; may run as a task.
#[mcp_tool(task = "optional")]
async fn close(n: u32, ask: Elicit<Confirm>) -> Result<String, ToolError> {
    match ask.form(format!("Close issue {n}?")).await? {
        Answer::Accept(Confirm { confirm: true }) => Ok(format!("closed {n}")),
        _ => Ok(format!("kept {n}")),
    }
}

fn confirming() -> toolwright::testing::Answers {
    toolwright::testing::Answers::new()
        .elicitation(|_| json!({"action": "accept", "content": {"confirm": true}}))
}

#[test]
fn a_mounted_tool_asks_and_runs_as_a_task_through_the_mount() {
    let server = || {
        let platform =
            Server::new("platform", "1").mount("gh", Server::new("t", "1").tool::<close>());
        Server::new("team", "1").mount("team", platform)
    };
    // A round answered through the parent reaches the tool that asked (2026-07-28: sealed in
    // `requestState`, bound to the namespaced name), and a session's ask reaches its client.
    for revision in ProtocolVersion::ALL
        .into_iter()
        .filter(|r| r.has_elicitation())
    {
        let mut client = Client::connect_answering(server(), revision, confirming()).unwrap();
        let closed = client.call("team_gh_close", json!({"n": 4})).unwrap();
        assert_eq!(closed.text(), "closed 4", "{revision}");
    }
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect_answering(server(), revision, confirming()).unwrap();
        let call = client
            .call_as_task("team_gh_close", json!({"n": 5}))
            .unwrap();
        let toolwright::testing::TaskCall::Task(id) = call else {
            panic!("answered at once: {call:?}");
        };
        let result = client
            .finish_task("team_gh_close", &id)
            .unwrap()
            .completed();
        assert_eq!(result.text(), "closed 5", "{revision}");
    }
}

#[test]
fn over_stdio_a_session_sees_the_mounted_items_and_hears_their_updates() {
    let mut child = tracker();
    let updates = child.resource_updates();
    let server = Server::new("team", "1").mount("gh", child);
    let mut piped = common::PipedServer::start(server);
    let client = &mut piped.client;
    client.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "mounts-test", "version": "0"}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let listed = client.request("tools/list", json!({}));
    assert_eq!(common::tool_names(&listed), ["gh_links", "gh_search"]);
    let called = client.request("tools/call", json!({"name": "gh_links", "arguments": {}}));
    assert_eq!(called["result"]["content"][0]["uri"], "issues://gh/7");
    let subscribed = client.request("resources/subscribe", json!({"uri": "issues://gh/9"}));
    assert_eq!(subscribed["result"], json!({}));
    updates.updated("issues://9").unwrap();
    let heard = client.recv();
    assert_eq!(heard["params"]["uri"], "issues://gh/9", "{heard}");
    piped.finish().unwrap();
}

#[test]
fn a_mounted_servers_skills_take_the_namespace_as_their_first_segment() {
    let folder = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/conformance/skills"
    );
    let child = Server::new("kit", "1").skills(folder);
    let server = Server::new("team", "1").skills(folder).mount("kit", child);
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let listed = client.request("skills/list", json!({})).unwrap();
    let uris = names(listed["skills"].as_array().unwrap(), "uri");
    assert_eq!(
        uris,
        [
            "skill://demo-skill/SKILL.md",
            "skill://kit/demo-skill/SKILL.md"
        ]
    );
    let guide = client
        .read_resource("skill://kit/demo-skill/references/GUIDE.md")
        .unwrap();
    assert_eq!(
        guide["contents"][0]["uri"],
        "skill://kit/demo-skill/references/GUIDE.md"
    );
    // Without a namespace, the same folder twice serves one skill path twice.
    let twice = Server::new("team", "1")
        .skills(folder)
        .mount("", Server::new("kit", "1").skills(folder));
    let error = start_error(twice);
    assert!(
        error.contains("serves `skill://demo-skill/SKILL.md`, and the skills folder"),
        "{error}"
    );
}

#[test]
fn an_empty_namespace_mounts_items_under_their_own_names() {
    let server = Server::new("team", "1").tool::<add>().mount("", tracker());
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let tools = client.list_tools().unwrap();
    assert_eq!(names(&tools, "name"), ["add", "links", "search"]);
    let links = client.call("links", json!({})).unwrap();
    assert_eq!(links.content()[0]["uri"], "issues://7");
    let read = client.read_resource("issues://2").unwrap();
    assert_eq!(read["contents"][0]["text"], "issue 2 read as issues://2");
    let error = start_error(
        Server::new("team", "1")
            .tool::<search>()
            .mount("", tracker()),
    );
    assert!(error.contains("two tools are named `search`"), "{error}");
    assert!(error.contains("(mounted without a namespace)"), "{error}");
}

#[test]
fn cache_hints_merge_conservatively_and_pages_run_across_every_mount() {
    let child = tracker().cache_ttl(std::time::Duration::from_secs(10));
    let server = Server::new("team", "1")
        .tool::<add>()
        .mount("gh", child)
        .page_size(1);
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let first = client.request("tools/list", json!({})).unwrap();
    assert_eq!(first["ttlMs"], 10_000, "the shorter lifetime: {first}");
    assert_eq!(first["cacheScope"], "public");
    // One list, one pager: the cursors lead through the parent's and the child's tools.
    let mut names = Vec::new();
    let mut page = first;
    loop {
        names.extend(
            page["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].clone()),
        );
        let Some(cursor) = page["nextCursor"].as_str().map(str::to_owned) else {
            break;
        };
        page = client
            .request("tools/list", json!({"cursor": cursor}))
            .unwrap();
    }
    assert_eq!(names, ["add", "gh_links", "gh_search"]);
}

/// Fails with a detail only a developer should see.
#[mcp_tool]
fn leaky() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("the database password is hunter2"))
}

#[test]
fn a_child_never_shows_what_the_parent_masks_and_the_parents_tags_filter_it_too() {
    let child = Server::new("c", "1")
        .tool::<leaky>()
        .tool_def(
            ToolDef::new("admin", |_: Value, _: Context| async {
                Ok::<_, String>("x")
            })
            .tags(&["admin"]),
        )
        .expose_internal_errors(true);
    let server = Server::new("p", "1")
        .mount("c", child)
        .without_tags(["admin"]);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let tools = client.list_tools().unwrap();
    assert_eq!(
        names(&tools, "name"),
        ["c_leaky"],
        "the parent's tags filter the child's"
    );
    let failed = client.call("c_leaky", json!({})).unwrap();
    assert!(failed.is_error());
    assert!(!failed.text().contains("hunter2"), "{}", failed.text());
    assert!(
        failed.text().contains("internal error"),
        "{}",
        failed.text()
    );
}

/// Links to issue 7 as the middle server names it (served by the server mounted into it).
#[mcp_tool]
fn middle_link() -> Content {
    Content::resource_link(ResourceLink::new("issues://gh/7", "issue 7"))
}

#[test]
fn a_middle_servers_links_to_what_is_mounted_into_it_point_through_both_mounts() {
    let platform = Server::new("platform", "1")
        .tool::<middle_link>()
        .mount("gh", tracker());
    let server = Server::new("company", "1").mount("team", platform);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    let linked = client.call("team_middle_link", json!({})).unwrap();
    assert_eq!(linked.content()[0]["uri"], "issues://team/gh/7");
}

#[test]
fn a_childs_handle_changes_its_own_items_only() {
    for namespace in ["gh", ""] {
        let mut child = Server::new("c", "1").tool::<search>();
        let handle = child.handle();
        let own = ToolDef::new(
            format!(
                "{namespace}{}add_more",
                if namespace.is_empty() { "" } else { "_" }
            ),
            |_: Value, _: Context| async { Ok::<_, String>("the parent's") },
        );
        let server = Server::new("p", "1")
            .tool::<add>()
            .tool_def(own)
            .mount(namespace, child);
        let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
        for refused in [handle.remove_tool("add"), handle.disable_tool("add_more")] {
            assert!(
                matches!(refused, Err(toolwright::Error::Unknown { .. })),
                "{namespace:?}: {refused:?}"
            );
        }
        assert_eq!(client.list_tools().unwrap().len(), 3, "{namespace:?}");
        handle.disable_tool("search").unwrap();
        assert_eq!(client.list_tools().unwrap().len(), 2, "{namespace:?}");
    }
}

#[test]
fn hooks_are_asked_about_their_own_resources_whatever_the_namespace() {
    let heard = Seen::default();
    let (hear, unhear) = (Arc::clone(&heard), Arc::clone(&heard));
    let mut child = tracker()
        .on_subscribe(move |session, uri| {
            hear.lock()
                .unwrap()
                .push(format!("child {uri} {:?}", session.subscriptions()));
            Ok(())
        })
        .on_unsubscribe(move |_, uri| unhear.lock().unwrap().push(format!("child -{uri}")));
    let _updates = child.resource_updates();
    let server = Server::new("team", "1")
        .resource::<about>()
        .mount("", child)
        .on_subscribe(move |_, uri| match uri.ends_with("/3") {
            true => Err(toolwright::McpError::invalid_params("not issue 3")),
            false => Ok(()),
        });
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    client.subscribe("team://about").unwrap();
    client.subscribe("issues://2").unwrap();
    let refused = client.subscribe("issues://3").unwrap_err();
    assert_eq!(refused.message, "not issue 3");
    assert_eq!(
        *heard.lock().unwrap(),
        [
            "child issues://2 [\"team://about\"]",
            "child issues://3 [\"issues://2\", \"team://about\"]",
            "child -issues://3",
        ],
        "the child is asked first, not about the parent's own resource, and hears of a \
         subscription the parent then refused as undone"
    );
}

/// About the team.
#[mcp_resource("team://about")]
fn about() -> String {
    "the team".to_owned()
}

#[test]
fn a_skill_inside_another_folders_skill_is_refused() {
    let root = std::env::temp_dir().join(format!("mount-skills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let skill = |path: &str, name: &str| {
        let folder = root.join(path);
        std::fs::create_dir_all(&folder).unwrap();
        let text = format!("---\nname: {name}\ndescription: A skill\n---\n# {name}\n");
        std::fs::write(folder.join("SKILL.md"), text).unwrap();
    };
    skill("parent/gh", "gh");
    skill("child/refunds", "refunds");
    let server = Server::new("team", "1")
        .skills(root.join("parent"))
        .mount("gh", Server::new("c", "1").skills(root.join("child")));
    let error = start_error(server);
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        error.contains("serves `skill://gh/refunds/SKILL.md`, and the skills folder"),
        "{error}"
    );
    assert!(
        error.contains("one skill would lie inside the other's folder"),
        "{error}"
    );
}

#[test]
fn an_unsubscribe_reaches_the_hooks_its_subscribe_reached_whatever_changed_meanwhile() {
    let heard = Seen::default();
    let (hear, unhear) = (Arc::clone(&heard), Arc::clone(&heard));
    let mut child = tracker()
        .on_subscribe(move |_, uri| {
            hear.lock().unwrap().push(format!("+{uri}"));
            Ok(())
        })
        .on_unsubscribe(move |_, uri| unhear.lock().unwrap().push(format!("-{uri}")));
    let handle = child.handle();
    let server = Server::new("team", "1")
        .resource::<about>()
        .mount("", child);
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    client.subscribe("issues://1").unwrap();
    handle.remove_resource("issues://{n}").unwrap();
    let _: Value = serde_json::from_str(&client.next_line()).unwrap();
    client
        .request("resources/unsubscribe", json!({"uri": "issues://1"}))
        .unwrap();
    assert_eq!(*heard.lock().unwrap(), ["+issues://1", "-issues://1"]);
}
