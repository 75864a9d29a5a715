//! What `discover` and `discover_in` take: every item linked into the program, or those of
//! one crate or module (a library's own, say), and a module that holds none is an error.

use serde_json::Value;
use toolwright::testing::Client;
use toolwright::{ProtocolVersion, Server};

fn names(entries: Vec<Value>) -> Vec<String> {
    let mut names: Vec<String> = entries
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn discover_in_takes_one_modules_items() {
    let server = Server::new("d", "1").discover_in("integration::defined_items");
    let mut client = Client::connect(server, ProtocolVersion::V2025_11_25).unwrap();
    assert_eq!(names(client.list_prompts().unwrap()), ["greet"]);
    assert_eq!(names(client.list_resources().unwrap()), ["motd"]);
    assert_eq!(names(client.list_resource_templates().unwrap()), ["user"]);
    assert!(client.list_tools().unwrap().is_empty());
}

#[test]
fn a_module_that_holds_nothing_is_an_error() {
    for module in [
        "integration::defined",
        "integration::no_such_module",
        "definedx",
    ] {
        let server = Server::new("d", "1").discover_in(module);
        let error = Client::new(server).err().expect("refused").to_string();
        assert!(
            error.contains(&format!("nothing is defined in `{module}`")),
            "{error}"
        );
    }
}
