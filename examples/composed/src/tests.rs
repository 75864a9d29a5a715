//! The composed server as its clients see it: every library's items under its namespace, in
//! every revision; the graph's state, completion and updates working through the mount; the
//! names pinned by the manifest.

use serde_json::{Value, json};
use toolwright::ProtocolVersion;
use toolwright::testing::{Client, Manifest};

use super::server;

fn names(entries: Vec<Value>, key: &str) -> Vec<String> {
    let mut names: Vec<String> = entries
        .iter()
        .map(|e| e[key].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn each_library_is_served_under_its_namespace_beside_the_programs_own_tools() {
    for revision in ProtocolVersion::ALL {
        let mut client = Client::connect(server(), revision).unwrap();
        let tools = names(client.list_tools().unwrap(), "name");
        assert_eq!(
            tools,
            [
                "memory_add_observations",
                "memory_create_entities",
                "memory_create_relations",
                "search",
                "weather_forecast",
                "weather_search",
            ],
            "{revision}"
        );
        let own = client.call("search", json!({"topic": "rain"})).unwrap();
        assert!(own.text().starts_with("`rain`:"), "{revision}");
        let theirs = client.call("weather_search", json!({})).unwrap();
        assert_eq!(theirs.text(), "the weather library's search");
        let forecast = client
            .call("weather_forecast", json!({"city": "Oslo"}))
            .unwrap();
        assert_eq!(forecast.text(), "21 °C in Oslo", "the library's own state");
        let templates = names(client.list_resource_templates().unwrap(), "uriTemplate");
        assert_eq!(
            templates,
            [
                "forecast://weather/{city}",
                "memory://memory/entities/{name}"
            ]
        );
        let oslo = client.read_resource("forecast://weather/Oslo").unwrap();
        assert_eq!(oslo["contents"][0]["text"], "21 °C in Oslo", "{revision}");
        assert_eq!(oslo["contents"][0]["uri"], "forecast://weather/Oslo");
        let prompts = names(client.list_prompts().unwrap(), "name");
        assert_eq!(prompts, ["weather_packing"]);
        let seasons = client
            .complete_prompt_argument("weather_packing", "season", "s", json!({}))
            .unwrap();
        assert_eq!(seasons["values"], json!(["spring", "summer"]), "{revision}");
        let got = client
            .get_prompt(
                "weather_packing",
                json!({"city": "Oslo", "season": "winter"}),
            )
            .unwrap();
        let text = &got["messages"][0]["content"]["text"];
        assert_eq!(
            text,
            "List what to pack for Oslo in Winter, given its weather then."
        );
    }
}

#[test]
fn the_graph_works_through_its_mount() {
    for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let mut client = Client::connect(server(), revision).unwrap();
        let ada = json!([{"name": "Ada", "entityType": "person", "observations": []}]);
        client
            .call("memory_create_entities", json!({"entities": ada}))
            .unwrap();
        let graph = client.read_resource("memory://memory/graph").unwrap();
        let text = graph["contents"][0]["text"].as_str().unwrap();
        assert!(text.contains("\"Ada\""), "{revision}: {graph}");
        assert_eq!(graph["contents"][0]["uri"], "memory://memory/graph");
        let names = client
            .complete_template_variable("memory://memory/entities/{name}", "name", "A", json!({}))
            .unwrap();
        assert_eq!(names["values"], json!(["Ada"]), "{revision}");
        client.subscribe("memory://memory/entities/Ada").unwrap();
        let added = json!({"name": "Ada", "observations": ["wrote the first program"]});
        client.call("memory_add_observations", added).unwrap();
        let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
        assert_eq!(heard["method"], "notifications/resources/updated");
        assert_eq!(
            heard["params"]["uri"], "memory://memory/entities/Ada",
            "{revision}"
        );
    }
}

#[test]
fn matches_the_pinned_manifest() {
    Manifest::of(server())
        .unwrap()
        .assert_matches("manifest.json");
}
