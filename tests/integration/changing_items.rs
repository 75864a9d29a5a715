//! Prompts and resources that change while the server runs: a handle adds and removes them,
//! handshake sessions hear `notifications/prompts/list_changed` and
//! `notifications/resources/list_changed`, and 2026-07-28 listen streams hear what they asked
//! for, tagged. Also the skills extension, served from a folder.

use std::time::Duration;

use serde_json::{Value, json};
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::visibility::ItemKind;
use toolwright::{Error, ProtocolVersion, Server, ServerHandle};

/// Opens the day.
#[mcp_prompt]
fn morning() -> &'static str {
    "Good morning."
}

/// Closes the day.
#[mcp_prompt]
fn evening() -> &'static str {
    "Good evening."
}

/// Today's weather.
#[mcp_resource("weather://today")]
fn today() -> &'static str {
    "sunny"
}

/// Tomorrow's weather, once known.
#[mcp_resource("weather://tomorrow")]
fn tomorrow() -> &'static str {
    "rain"
}

/// Any day's weather: it serves `weather://today` too.
#[mcp_resource("weather://{day}")]
fn any_day(day: String) -> String {
    format!("{day}: unknown")
}

fn server() -> (Server, ServerHandle) {
    let mut server = Server::new("changing", "1")
        .prompt::<morning>()
        .resource::<today>();
    let handle = server.handle();
    (server, handle)
}

fn names(entries: Vec<Value>, key: &str) -> Vec<String> {
    entries
        .iter()
        .map(|e| e[key].as_str().unwrap().to_owned())
        .collect()
}

fn next(client: &mut Client) -> Value {
    serde_json::from_str(&client.next_line()).unwrap()
}

#[test]
fn a_handle_adds_and_removes_prompts_and_resources_and_sessions_hear_it() {
    let (server, handle) = server();
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    handle.add_prompt::<evening>().unwrap();
    assert_eq!(
        next(&mut client)["method"],
        "notifications/prompts/list_changed"
    );
    let prompts = names(client.list_prompts().unwrap(), "name");
    assert_eq!(prompts, ["morning", "evening"]);
    handle.add_resource::<tomorrow>().unwrap();
    assert_eq!(
        next(&mut client)["method"],
        "notifications/resources/list_changed"
    );
    handle.remove_prompt("morning").unwrap();
    assert_eq!(
        next(&mut client)["method"],
        "notifications/prompts/list_changed"
    );
    assert_eq!(names(client.list_prompts().unwrap(), "name"), ["evening"]);
    let gone = client.get_prompt("morning", json!({})).unwrap_err();
    assert_eq!(gone.code, -32602);
    // A template that would serve a URI a resource already serves is refused, naming both.
    let clash = handle.add_resource::<any_day>().unwrap_err();
    assert!(
        matches!(&clash, Error::Clash { detail, .. } if detail.contains("weather://today")),
        "{clash}"
    );
    assert!(matches!(
        handle.remove_resource("weather://nowhere"),
        Err(Error::Unknown {
            kind: ItemKind::Resource,
            ..
        })
    ));
}

#[test]
fn a_listen_stream_hears_the_lists_it_asked_for() {
    let (server, handle) = server();
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let agreed = client
        .listen(json!({"promptsListChanged": true, "toolsListChanged": true}))
        .unwrap();
    assert_eq!(
        agreed,
        json!({"toolsListChanged": true, "promptsListChanged": true})
    );
    handle.add_resource::<tomorrow>().unwrap();
    handle.add_prompt::<evening>().unwrap();
    let heard = next(&mut client);
    // Not the resources' change: the stream did not ask for it.
    assert_eq!(heard["method"], "notifications/prompts/list_changed");
    assert!(heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number());
    client.expect_silence(Duration::from_millis(100));
}

#[test]
fn a_server_without_prompts_cannot_grow_them_later() {
    let mut server = Server::new("fixed", "1").resource::<today>();
    let handle = server.handle();
    let _client = Client::new(server).unwrap();
    assert!(matches!(
        handle.add_prompt::<morning>(),
        Err(Error::Setting(_))
    ));
}

/// A folder of skills for one test, removed after it.
struct Folder(std::path::PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn skills_folder(name: &str) -> Folder {
    let root = std::env::temp_dir().join(format!("skills-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let skill = root.join("acme/refunds");
    std::fs::create_dir_all(skill.join("forms")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: refunds\ndescription: Refund an order the team's way\nversion: 2.1\n---\n# Refunds\nSee forms/refund.md.\n",
    )
    .unwrap();
    std::fs::write(skill.join("forms/refund.md"), "Order number, reason.\n").unwrap();
    Folder(root)
}

#[test]
fn a_folder_of_skills_is_listed_got_read_and_browsed() {
    let folder = skills_folder("served");
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let server = Server::new("skills", "1").skills(&folder.0);
        let mut client = Client::connect(server, revision).unwrap();
        let listed = client.request("skills/list", json!({})).unwrap();
        let skill = &listed["skills"][0];
        assert_eq!(skill["uri"], "skill://acme/refunds/SKILL.md", "{revision}");
        assert_eq!(skill["frontmatter"]["version"], 2.1, "YAML typing is kept");
        assert_eq!(skill["resources"].as_array().unwrap().len(), 2);
        let modern = revision == ProtocolVersion::V2026_07_28;
        assert_eq!(listed.get("ttlMs").is_some(), modern, "{revision}");
        let got = client
            .request(
                "skills/get",
                json!({"uri": "skill://acme/refunds/SKILL.md"}),
            )
            .unwrap();
        assert_eq!(got["skill"], *skill);
        let unknown = client
            .request("skills/get", json!({"uri": "skill://nobody/SKILL.md"}))
            .unwrap_err();
        assert_eq!(unknown.code, -32602);
        // The SKILL.md is listed with the resources; every file is read as one.
        let resources = client.list_resources().unwrap();
        assert_eq!(resources[0]["name"], "refunds");
        assert_eq!(resources[0]["mimeType"], "text/markdown");
        let form = client
            .read_resource("skill://acme/refunds/forms/refund.md")
            .unwrap();
        assert_eq!(form["contents"][0]["text"], "Order number, reason.\n");
        let folder = client
            .request(
                "resources/directory/read",
                json!({"uri": "skill://acme/refunds"}),
            )
            .unwrap();
        let children = names(folder["resources"].as_array().unwrap().clone(), "mimeType");
        assert!(children.contains(&"inode/directory".to_owned()), "{folder}");
        let not_a_folder = client
            .request(
                "resources/directory/read",
                json!({"uri": "skill://acme/refunds/SKILL.md"}),
            )
            .unwrap_err();
        assert_eq!(not_a_folder.code, -32602);
    }
    let mut client = Client::connect(
        Server::new("skills", "1").skills(&folder.0),
        ProtocolVersion::V2025_11_25,
    )
    .unwrap();
    let missing = client
        .read_resource("skill://acme/refunds/nothing.md")
        .unwrap_err();
    assert_eq!(missing.code, -32002);
}

#[test]
fn a_skill_a_host_would_refuse_stops_the_server() {
    let folder = skills_folder("refused");
    std::fs::write(
        folder.0.join("acme/refunds/SKILL.md"),
        "---\nname: refund\ndescription: misnamed\n---\n",
    )
    .unwrap();
    let error = Client::new(Server::new("skills", "1").skills(&folder.0))
        .err()
        .expect("a build error");
    let said = error.to_string();
    assert!(said.starts_with("the skills cannot be served: "), "{said}");
    assert!(said.contains("`refund`"), "{said}");
}

#[test]
fn capabilities_offer_what_the_server_serves_as_each_revision_defines() {
    use crate::common::PipedServer;
    for revision in ProtocolVersion::ALL {
        if revision == ProtocolVersion::V2026_07_28 {
            continue;
        }
        let (server, _handle) = server();
        let mut piped = PipedServer::start(server);
        let init = piped.client.initialize(revision.as_str());
        let capabilities = &init["result"]["capabilities"];
        assert_eq!(
            capabilities["prompts"],
            json!({"listChanged": true}),
            "{revision}"
        );
        assert_eq!(
            capabilities["resources"],
            json!({"subscribe": true, "listChanged": true}),
            "{revision}"
        );
        // `completions` exists from 2025-03-26; 2024-11-05 answers without announcing it.
        assert_eq!(
            capabilities.get("completions").is_some(),
            revision.has_completions_capability(),
            "{revision}"
        );
    }
    let tools_only = Server::new("tools", "1");
    let mut piped = PipedServer::start(tools_only);
    let init = piped.client.initialize("2025-11-25");
    let capabilities = &init["result"]["capabilities"];
    for absent in ["prompts", "resources", "completions", "extensions"] {
        assert!(
            capabilities.get(absent).is_none(),
            "{absent}: {capabilities}"
        );
    }
    let refused = piped.client.request("prompts/list", json!({}));
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}

/// Subscribing is declared only by a server that can announce an update (it took
/// `resource_updates()` or a handle): any other refuses `resources/subscribe`, and a listen
/// stream's acknowledgement leaves out the resources it cannot hear of.
#[test]
fn a_server_that_cannot_announce_updates_declares_no_subscribe() {
    use crate::common::PipedServer;
    let mut piped = PipedServer::start(Server::new("weather", "1").resource::<today>());
    let init = piped.client.initialize("2025-11-25");
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({"subscribe": false, "listChanged": false}),
        "{init}"
    );
    let refused = piped
        .client
        .request("resources/subscribe", json!({"uri": "weather://today"}));
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    let mut client = Client::connect(
        Server::new("weather", "1").resource::<today>(),
        ProtocolVersion::V2026_07_28,
    )
    .unwrap();
    let discover = client.request("server/discover", json!({})).unwrap();
    assert_eq!(discover["capabilities"]["resources"]["subscribe"], false);
    let agreed = client
        .listen(json!({"resourceSubscriptions": ["weather://today"]}))
        .unwrap();
    assert_eq!(agreed, json!({}), "nothing to hear");
}

#[test]
fn resource_updates_reach_subscribers_and_leave_the_lists_as_they_are() {
    let mut server = Server::new("weather", "1").resource::<today>();
    let updates = server.resource_updates();
    assert!(matches!(
        updates.updated("weather://today"),
        Err(Error::NotServing)
    ));
    let mut client = Client::connect(server, ProtocolVersion::V2026_07_28).unwrap();
    let listed = client.request("resources/list", json!({})).unwrap();
    assert!(
        listed["ttlMs"].as_u64().unwrap() > 0,
        "lists stay cacheable: {listed}"
    );
    let discover = client.request("server/discover", json!({})).unwrap();
    assert_eq!(discover["capabilities"]["resources"]["listChanged"], false);
    client.subscribe("weather://today").unwrap();
    updates.updated("weather://today").unwrap();
    let heard = next(&mut client);
    assert_eq!(heard["params"]["uri"], "weather://today");
}
