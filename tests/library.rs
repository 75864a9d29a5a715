//! A program that depends on a library of tools: `discover()` serves the library's items too
//! (and a name both define clashes, naming both definitions), `discover_in(module_path!())`
//! the program's own only, and the library's `toolset()` its own with the state they need.
//! A binary of its own: what `discover()` finds is what is linked into it.

use serde_json::json;
use toolwright::prelude::*;
use toolwright::testing::Client;
use toolwright::{Error, ProtocolVersion};

/// This program's own search.
#[mcp_tool]
fn search() -> &'static str {
    "the program's search"
}

/// Says hello.
#[mcp_tool]
fn hello() -> &'static str {
    "hello"
}

fn names(client: &mut Client) -> Vec<String> {
    let mut names: Vec<String> = (client.list_tools().unwrap().iter())
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn discover_takes_the_librarys_tools_too_and_their_names_clash() {
    let server = Server::new("program", "1")
        .discover()
        .state(toolwright_weather::Climate { celsius: 0 });
    let Err(Error::Clash {
        detail,
        first,
        second,
        ..
    }) = Client::new(server).map(drop)
    else {
        panic!("a clash");
    };
    assert_eq!(detail, "two tools are named `search`");
    let sites = [first, second];
    assert!(sites.iter().any(|s| s.contains("weather")), "{sites:?}");
    assert!(sites.iter().any(|s| s.contains("library.rs")), "{sites:?}");
}

#[test]
fn discover_in_the_crate_takes_the_programs_own() {
    let server = Server::new("program", "1").discover_in(module_path!());
    let mut client = Client::new(server).unwrap();
    assert_eq!(names(&mut client), ["hello", "search"]);
    let call = client.call("search", json!({})).unwrap();
    assert_eq!(call.text(), "the program's search");
}

#[test]
fn the_librarys_toolset_serves_its_own_with_their_state() {
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(toolwright_weather::toolset(), revision).unwrap();
        assert_eq!(names(&mut client), ["forecast", "search"]);
        let forecast = client.call("forecast", json!({"city": "Oslo"})).unwrap();
        assert_eq!(forecast.text(), "21 °C in Oslo", "{revision}");
    }
}
