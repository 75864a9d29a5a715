//! A knowledge graph in memory, as the reference memory server keeps one: entities with
//! observations, and relations between them (the `toolwright-graph` library, served alone
//! here; the `composed` example mounts it beside others). Tools change it; the whole graph is a
//! resource (`memory://graph`) and each entity another (`memory://entities/{name}`, its name
//! completed from those there are), so a client reads what the model knows without a tool
//! call, and a client that subscribed hears when it changes.
//!
//! ```sh
//! cargo run --example memory -- resources
//! ```

use std::process::ExitCode;

use toolwright::Server;

fn server() -> Server {
    toolwright_graph::toolset()
}

fn main() -> ExitCode {
    server().run()
}

// Needs toolwright's `testing` feature (`cargo test --all-features`).
#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use toolwright::ProtocolVersion;
    use toolwright::testing::{Client, Manifest};

    fn remember(client: &mut Client) {
        let entities = json!([
            {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]},
            {"name": "Analytical Engine", "entityType": "machine", "observations": []}
        ]);
        client
            .call("create_entities", json!({"entities": entities}))
            .unwrap();
        let relation =
            json!([{"from": "Ada", "to": "Analytical Engine", "relationType": "programmed"}]);
        let related = client
            .call("create_relations", json!({"relations": relation}))
            .unwrap();
        assert!(!related.is_error(), "{}", related.text());
    }

    fn json_of(read: &Value) -> Value {
        serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap()
    }

    #[test]
    fn the_graph_and_each_entity_read_as_resources_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(), revision).unwrap();
            remember(&mut client);
            let graph = json_of(&client.read_resource("memory://graph").unwrap());
            assert_eq!(graph["entities"].as_array().unwrap().len(), 2, "{revision}");
            assert_eq!(graph["relations"][0]["relationType"], "programmed");
            let ada = json_of(&client.read_resource("memory://entities/Ada").unwrap());
            assert_eq!(ada["entity"]["observations"][0], "wrote the first program");
            assert_eq!(ada["relations"].as_array().unwrap().len(), 1);
            let nobody = client
                .read_resource("memory://entities/Nobody")
                .unwrap_err();
            assert_eq!(
                nobody.data,
                Some(json!({"uri": "memory://entities/Nobody"}))
            );
        }
    }

    #[test]
    fn names_complete_and_subscribers_hear_of_changes() {
        for revision in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let mut client = Client::connect(server(), revision).unwrap();
            remember(&mut client);
            let names = client
                .complete_template_variable("memory://entities/{name}", "name", "Ad", json!({}))
                .unwrap();
            assert_eq!(names["values"], json!(["Ada"]), "{revision}");
            let engine = "memory://entities/Analytical%20Engine";
            let read = json_of(&client.read_resource(engine).unwrap());
            assert_eq!(read["entity"]["entityType"], "machine", "{revision}");
            client.subscribe(engine).unwrap();
            let added = json!({"name": "Analytical Engine", "observations": ["never built"]});
            client.call("add_observations", added).unwrap();
            let heard: Value = serde_json::from_str(&client.next_line()).unwrap();
            assert_eq!(heard["method"], "notifications/resources/updated");
            assert_eq!(heard["params"]["uri"], engine, "{revision}");
        }
    }

    #[test]
    fn matches_the_pinned_manifest() {
        Manifest::of(server())
            .unwrap()
            .assert_matches("examples/manifests/memory.json");
    }
}
