//! Tools read from a JSON file when the server starts, made with `ToolDef`: each has a name, a
//! description, an input schema and a reply in which `{argument}` stands for an argument's
//! value. Run it under an MCP client, or from the shell:
//!
//! ```sh
//! cargo run --example json_tools -- list
//! cargo run --example json_tools -- call greet '{"name": "Ada"}'
//! TOOLS=my_tools.json cargo run --example json_tools -- list
//! ```
//!
//! The file is `examples/json_tools/tools.json` unless `TOOLS` names another. A tool whose
//! schema the server cannot serve, or two with one name, stop it at start-up with the reason.

use std::process::ExitCode;

use serde::Deserialize;
use serde_json::{Map, Value};
use toolwright::tools::ToolDef;
use toolwright::{Context, Server, ToolError};

/// One tool of the file.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Described {
    name: String,
    description: String,
    input_schema: Value,
    reply: String,
}

/// The tool a description makes: its arguments, which the server checked against the schema,
/// put into its reply.
fn tool(described: Described) -> ToolDef {
    let reply = described.reply;
    ToolDef::new(described.name, move |arguments: Value, _: Context| {
        let text = fill(&reply, arguments.as_object());
        async move { Ok::<_, ToolError>(text) }
    })
    .description(described.description)
    .input_schema(described.input_schema)
    .read_only(true)
    .open_world(false)
}

/// `template` with each `{name}` replaced by that argument (a string as itself, anything else
/// as JSON).
fn fill(template: &str, arguments: Option<&Map<String, Value>>) -> String {
    let mut text = template.to_owned();
    for (name, value) in arguments.into_iter().flatten() {
        let value = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        text = text.replace(&format!("{{{name}}}"), &value);
    }
    text
}

/// The server of the tools `path` describes.
fn server_from(path: &str) -> Result<Server, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let described: Vec<Described> =
        serde_json::from_str(&text).map_err(|e| format!("{path} is not a list of tools: {e}"))?;
    let server = Server::new("json_tools", env!("CARGO_PKG_VERSION"));
    Ok(described
        .into_iter()
        .map(tool)
        .fold(server, Server::tool_def))
}

const DEFAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/json_tools/tools.json"
);

fn main() -> ExitCode {
    let path = std::env::var("TOOLS").unwrap_or_else(|_| DEFAULT.to_owned());
    match server_from(&path) {
        Ok(server) => server.run(),
        Err(problem) => {
            eprintln!("json_tools: {problem}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::json;
    use toolwright::ProtocolVersion;
    use toolwright::testing::{Client, Manifest};

    #[test]
    fn replies_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server_from(DEFAULT).unwrap(), revision).unwrap();
            let greeted = client.call("greet", json!({"name": "Ada"})).unwrap();
            assert_eq!(greeted.text(), "Hello, Ada!", "{revision}");
            let link = client
                .call("ticket_link", json!({"project": "web", "number": 7}))
                .unwrap();
            assert_eq!(link.text(), "https://tracker.example.com/web/7");
        }
    }

    #[test]
    fn the_schema_read_from_the_file_is_enforced() {
        let mut client = Client::new(server_from(DEFAULT).unwrap()).unwrap();
        for arguments in [
            json!({"project": "mobile", "number": 7}),
            json!({"project": "web", "number": 0}),
            json!({"project": "web"}),
            json!({"project": "web", "number": "7"}),
        ] {
            let refused = client.call("ticket_link", arguments.clone()).unwrap();
            assert!(refused.is_error(), "{arguments}: {}", refused.json());
        }
    }

    #[test]
    fn a_file_the_server_cannot_serve_stops_it_with_the_reason() {
        let dir = std::env::temp_dir().join(format!("json_tools_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.json");
        let tool = json!({"name": "x y", "description": "d", "inputSchema": {"type": "object"}, "reply": "r"});
        std::fs::write(&path, json!([tool]).to_string()).unwrap();
        let server = server_from(path.to_str().unwrap()).unwrap();
        let problem = Client::new(server).err().expect("refused").to_string();
        assert!(problem.contains("naming rules"), "{problem}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn manifest() {
        Manifest::of(server_from(DEFAULT).unwrap())
            .unwrap()
            .assert_matches("examples/manifests/json_tools.json");
    }
}
