//! The composed server's command line sees what its clients see: the mounted items by their
//! namespaced names and URIs.

use std::process::Command;

use serde_json::Value;

fn run(args: &[&str]) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_toolwright-composed"))
        .args(args)
        .output()
        .expect("the server runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

#[test]
fn list_call_resources_and_read_name_the_mounted_items() {
    let listed = run(&["list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"weather_forecast") && names.contains(&"memory_create_entities"),
        "{names:?}"
    );
    let called = run(&["call", "weather_forecast", r#"{"city": "Oslo"}"#]);
    assert_eq!(called["content"][0]["text"], "21 °C in Oslo");
    let resources = run(&["resources"]);
    assert_eq!(resources["resources"][0]["uri"], "memory://memory/graph");
    let read = run(&["read", "forecast://weather/Oslo"]);
    assert_eq!(read["contents"][0]["uri"], "forecast://weather/Oslo");
}
