//! Which tools a caller sees: tools left out by tag when the server is built, and a rule per
//! request that hides tools from `tools/list` (page by page) and refuses them in `tools/call`.

use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;

use crate::common::listed_names;
use toolwright::{ProtocolVersion, Server};

/// Reads the catalogue.
#[mcp_tool(read_only, tags("catalogue"))]
fn browse() -> &'static str {
    "three books"
}

/// Changes prices.
#[mcp_tool(tags("admin", "catalogue"))]
fn reprice() -> &'static str {
    "repriced"
}

/// Only for the staging build.
#[mcp_tool(tags("experimental"))]
fn try_out() -> &'static str {
    "tried"
}

/// Says hello.
#[mcp_tool]
fn hello() -> &'static str {
    "hello"
}

#[test]
fn tools_with_a_tag_can_be_left_out_of_a_build() {
    let server = Server::new("shop", "1")
        .tool::<browse>()
        .tool::<reprice>()
        .tool::<try_out>()
        .tool::<hello>()
        .without_tags(["experimental"]);
    let mut client = Client::new(server).unwrap();
    assert_eq!(listed_names(&mut client), ["browse", "hello", "reprice"]);
    let error = client.call("try_out", json!({})).unwrap_err();
    assert_eq!(error.message, "Unknown tool: try_out");
}

#[test]
fn a_rule_hides_tools_from_lists_and_calls_in_every_revision() {
    let server = || {
        Server::new("shop", "1")
            .tool::<browse>()
            .tool::<reprice>()
            .tool::<try_out>()
            .tool::<hello>()
            .page_size(1)
            .visibility(|tool, _caller| !tool.has_tag("admin"))
    };
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        // Paged one tool at a time, over the tools the caller sees only.
        assert_eq!(
            listed_names(&mut client),
            ["browse", "hello", "try_out"],
            "{revision}"
        );
        let error = client.call("reprice", json!({})).unwrap_err();
        assert_eq!(error.message, "Unknown tool: reprice", "{revision}");
        assert_eq!(
            client.call("browse", json!({})).unwrap().text(),
            "three books"
        );
    }
    let mut modern = Client::new(server()).unwrap();
    let page = modern.request("tools/list", json!({})).unwrap();
    assert_eq!(page["cacheScope"], "private", "{page}");
    let past_the_end = modern.request("tools/list", json!({"cursor": "3"}));
    assert!(past_the_end.is_err());
}

#[test]
fn without_a_rule_lists_are_public() {
    let mut modern = Client::new(
        Server::new("shop", "1")
            .tool::<browse>()
            .tool::<reprice>()
            .tool::<try_out>()
            .tool::<hello>(),
    )
    .unwrap();
    let page = modern.request("tools/list", json!({})).unwrap();
    assert_eq!(page["cacheScope"], "public", "{page}");
}

/// Who the caller is, as an authentication layer in front of an HTTP endpoint would say.
#[derive(Clone)]
struct Subject {
    name: &'static str,
    admin: bool,
}

/// Says who called.
#[mcp_tool(read_only)]
fn whoami(ctx: &Context) -> String {
    ctx.extension::<Subject>()
        .map_or("anonymous".into(), |s| s.name.to_owned())
}

#[test]
fn an_in_process_caller_carries_extensions_to_the_rule_and_the_tool() {
    let server = || {
        Server::new("shop", "1")
            .tool::<reprice>()
            .tool::<whoami>()
            .visibility(|tool, caller| {
                !tool.has_tag("admin") || caller.extension::<Subject>().is_some_and(|s| s.admin)
            })
    };
    for revision in ProtocolVersion::ALL {
        let mut anonymous = Client::connect(server(), revision).unwrap();
        assert_eq!(listed_names(&mut anonymous), ["whoami"], "{revision}");
        let called = anonymous.call("whoami", json!({})).unwrap();
        assert_eq!(called.text(), "anonymous", "{revision}");

        let ada = Subject {
            name: "ada",
            admin: true,
        };
        let mut ada = Client::connect(server(), revision).unwrap().extension(ada);
        assert_eq!(listed_names(&mut ada), ["reprice", "whoami"], "{revision}");
        assert_eq!(ada.call("whoami", json!({})).unwrap().text(), "ada");
        assert_eq!(ada.call("reprice", json!({})).unwrap().text(), "repriced");

        // A later value of the same type replaces the first, for the requests that follow.
        let bob = Subject {
            name: "bob",
            admin: false,
        };
        let mut bob = ada.extension(bob);
        assert_eq!(listed_names(&mut bob), ["whoami"], "{revision}");
        let error = bob.call("reprice", json!({})).unwrap_err();
        assert_eq!(error.message, "Unknown tool: reprice", "{revision}");
    }
}

/// The prices, for staff.
#[mcp_prompt(tags("admin"))]
fn pricing_review() -> &'static str {
    "Review the prices."
}

/// A greeting anyone may use.
#[mcp_prompt]
fn greeting() -> &'static str {
    "Hello."
}

/// The price list, for staff.
#[mcp_resource("shop://prices", tags("admin"))]
fn prices() -> &'static str {
    "a book: 10"
}

/// An order, for staff.
#[mcp_resource("shop://orders/{id}", tags("admin"))]
fn order(id: u32) -> String {
    format!("order {id}")
}

/// The catalogue.
#[mcp_resource("shop://catalogue")]
fn catalogue() -> &'static str {
    "three books"
}

fn listed(entries: Vec<serde_json::Value>, key: &str) -> Vec<String> {
    entries
        .iter()
        .map(|e| e[key].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn tags_and_the_rule_hide_prompts_and_resources_too() {
    let server = || {
        Server::new("shop", "1")
            .prompt::<pricing_review>()
            .prompt::<greeting>()
            .resource::<prices>()
            .resource::<order>()
            .resource::<catalogue>()
            .visibility(|item, caller| {
                !item.has_tag("admin") || caller.extension::<Subject>().is_some_and(|s| s.admin)
            })
    };
    for revision in ProtocolVersion::ALL {
        let mut anonymous = Client::connect(server(), revision).unwrap();
        let prompts = listed(anonymous.list_prompts().unwrap(), "name");
        assert_eq!(prompts, ["greeting"], "{revision}");
        let resources = listed(anonymous.list_resources().unwrap(), "uri");
        assert_eq!(resources, ["shop://catalogue"], "{revision}");
        assert!(anonymous.list_resource_templates().unwrap().is_empty());
        let hidden = anonymous
            .get_prompt("pricing_review", json!({}))
            .unwrap_err();
        assert_eq!(
            hidden.message, "Unknown prompt: pricing_review",
            "{revision}"
        );
        for uri in ["shop://prices", "shop://orders/1"] {
            let hidden = anonymous.read_resource(uri).unwrap_err();
            assert_eq!(hidden.data, Some(json!({"uri": uri})), "{revision}");
        }
        let staff = Subject {
            name: "ada",
            admin: true,
        };
        let mut staff = Client::connect(server(), revision)
            .unwrap()
            .extension(staff);
        assert_eq!(listed(staff.list_prompts().unwrap(), "name").len(), 2);
        let read = staff.read_resource("shop://orders/7").unwrap();
        assert_eq!(read["contents"][0]["text"], "order 7", "{revision}");
    }
    let built = Server::new("shop", "1")
        .prompt::<pricing_review>()
        .prompt::<greeting>()
        .resource::<prices>()
        .resource::<catalogue>()
        .without_tags(["admin"]);
    let mut client = Client::new(built).unwrap();
    assert_eq!(listed(client.list_prompts().unwrap(), "name"), ["greeting"]);
    assert_eq!(
        listed(client.list_resources().unwrap(), "uri"),
        ["shop://catalogue"]
    );
}

/// Asks the model (tagged: it needs a client that samples).
#[mcp_tool(tags("samples"))]
fn summarize() -> &'static str {
    "summary"
}

/// Hides the tools that sample from a client that cannot.
fn sampling_server() -> Server {
    Server::new("capable", "1")
        .tool::<hello>()
        .tool::<summarize>()
        .visibility(|tool, caller| !tool.has_tag("samples") || caller.declares("sampling"))
}

#[test]
fn what_the_client_declared_decides_which_tools_it_sees_in_every_revision() {
    use toolwright::testing::Answers;
    for revision in ProtocolVersion::ALL {
        let mut plain = Client::connect(sampling_server(), revision).unwrap();
        assert_eq!(listed_names(&mut plain), ["hello"], "{revision}");
        let hidden = plain.call("summarize", json!({}));
        assert!(
            hidden
                .as_ref()
                .is_err_and(|e| e.message.contains("Unknown tool")),
            "{revision}: {hidden:?}"
        );
        let answers = Answers::new().sampling(|_| json!({"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"}));
        let mut sampling = Client::connect_answering(sampling_server(), revision, answers).unwrap();
        assert_eq!(
            listed_names(&mut sampling),
            ["hello", "summarize"],
            "{revision}"
        );
        assert_eq!(
            sampling.call("summarize", json!({})).unwrap().text(),
            "summary"
        );
    }
}

#[test]
fn a_rule_reads_the_revision_and_the_client_it_sees() {
    let server = || {
        Server::new("capable", "1")
            .tool::<hello>()
            .tool::<summarize>()
            .visibility(|tool, caller| {
                let modern = caller.protocol_version() == Some(ProtocolVersion::V2026_07_28);
                let named = caller
                    .client_info()
                    .is_some_and(|c| c.name == "toolwright-testing");
                assert!(caller.client_capabilities().is_object());
                !tool.has_tag("samples") || (modern && named)
            })
    };
    let mut modern = Client::connect(server(), ProtocolVersion::V2026_07_28).unwrap();
    assert_eq!(listed_names(&mut modern), ["hello", "summarize"]);
    let mut legacy = Client::connect(server(), ProtocolVersion::V2025_11_25).unwrap();
    assert_eq!(listed_names(&mut legacy), ["hello"]);
}

/// Over HTTP on 2026-07-28 each request's own `_meta` says what its client can do.
#[cfg(feature = "http")]
#[test]
fn over_http_each_stateless_request_is_judged_by_its_own_capabilities() {
    use crate::common::http::Endpoint;
    let endpoint = Endpoint::start(sampling_server());
    let names = |capabilities: serde_json::Value| {
        let meta = json!({"io.modelcontextprotocol/clientCapabilities": capabilities});
        let list = endpoint
            .modern(1, "tools/list", json!({"_meta": meta}))
            .send()
            .answer();
        let tools = list["result"]["tools"].as_array().expect("a list").clone();
        tools
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(json!({})), ["hello"]);
    assert_eq!(names(json!({"sampling": {}})), ["hello", "summarize"]);
    assert_eq!(names(json!({})), ["hello"]);
}
