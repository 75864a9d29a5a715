//! A small MCP server with four tools: run it with no arguments under an MCP client, or try
//! its tools from the shell:
//!
//! ```sh
//! cargo run --example quickstart -- list
//! cargo run --example quickstart -- call convert_length '{"value": 5, "from": "km", "to": "mi"}'
//! ```

use std::process::ExitCode;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::prelude::*;

/// Adds two integers.
///
/// # Arguments
/// * `a` - The first addend.
/// * `b` - The second addend.
#[mcp_tool(read_only, open_world = false)]
fn add(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Counts the words, lines and characters of a text.
#[mcp_tool(title = "Text statistics", read_only, open_world = false)]
fn text_stats(#[arg(description = "The text to measure")] text: String) -> TextStats {
    TextStats {
        words: text.split_whitespace().count(),
        lines: text.lines().count(),
        characters: text.chars().count(),
    }
}

#[derive(Serialize, JsonSchema)]
struct TextStats {
    /// Runs of non-whitespace characters.
    words: usize,
    /// Lines, the last one counted even without a final newline.
    lines: usize,
    /// Unicode scalar values.
    characters: usize,
}

/// Converts a length between units.
///
/// Known units: `mm`, `cm`, `m`, `km`, `in`, `ft`, `yd`, `mi`.
///
/// # Arguments
/// * `value` - The length to convert.
/// * `from` - The unit of `value`.
/// * `to` - The unit to convert to.
#[mcp_tool(read_only, open_world = false)]
fn convert_length(value: f64, from: String, to: String) -> Result<Length, ToolError> {
    let metres = value * metres_per(&from)?;
    Ok(Length {
        value: metres / metres_per(&to)?,
        unit: to,
    })
}

#[derive(Serialize, Deserialize, JsonSchema, Debug, PartialEq)]
struct Length {
    value: f64,
    unit: String,
}

fn metres_per(unit: &str) -> Result<f64, ToolError> {
    Ok(match unit {
        "mm" => 0.001,
        "cm" => 0.01,
        "m" => 1.0,
        "km" => 1000.0,
        "in" => 0.0254,
        "ft" => 0.3048,
        "yd" => 0.9144,
        "mi" => 1609.344,
        other => {
            return Err(ToolError::new(format!(
                "unknown unit `{other}`; use one of mm, cm, m, km, in, ft, yd, mi"
            )));
        }
    })
}

/// Returns the first lines of a text file.
///
/// # Arguments
/// * `path` - The file to read, absolute or relative to the server's working directory.
/// * `lines` - How many lines to return (default 10).
#[mcp_tool(title = "Head of a file", read_only, open_world = false)]
async fn head(path: String, lines: Option<usize>) -> Result<String, ToolError> {
    let text = tokio::fs::read_to_string(&path)
        .await
        .map_err(|e| ToolError::new(format!("cannot read `{path}`: {e}")))?;
    let head: Vec<&str> = text.lines().take(lines.unwrap_or(10)).collect();
    Ok(head.join("\n"))
}

fn server() -> Server {
    toolwright::server!()
        .title("Quickstart")
        .instructions("Arithmetic, text statistics, unit conversion and reading files.")
        .discover()
}

fn main() -> ExitCode {
    server().run()
}

// A server's tests talk to it in-process with `toolwright::testing`, which needs the `testing`
// feature: in a crate of your own, enable it in `[dev-dependencies]`. (Here, in toolwright's
// own examples, `cargo test --all-features` turns it on.)
#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use serde_json::json;
    use toolwright::ProtocolVersion;
    use toolwright::testing::{Client, Manifest};

    #[test]
    fn converts_in_every_revision() {
        for revision in ProtocolVersion::ALL {
            let mut client = Client::connect(server(), revision).unwrap();
            let result = client
                .call(
                    "convert_length",
                    json!({"value": 2, "from": "km", "to": "m"}),
                )
                .unwrap();
            if revision.has_structured_output() {
                // Checked against the output schema the tool advertised in this revision.
                let length: Length = result.structured().unwrap();
                assert_eq!(
                    length,
                    Length {
                        value: 2000.0,
                        unit: "m".into()
                    }
                );
            } else {
                assert_eq!(result.text(), r#"{"value":2000.0,"unit":"m"}"#);
            }
        }
    }

    #[test]
    fn unknown_units_are_errors_the_model_can_read() {
        let mut client = Client::new(server()).unwrap();
        let result = client
            .call(
                "convert_length",
                json!({"value": 1, "from": "km", "to": "league"}),
            )
            .unwrap();
        assert!(result.is_error());
        assert!(result.text().starts_with("unknown unit `league`"));
    }

    /// Fails when a tool changes, listing each change as breaking or compatible; run with
    /// `TOOLWRIGHT_MANIFEST=overwrite` to pin a change that is meant.
    #[test]
    fn tools_match_the_pinned_manifest() {
        Manifest::of(server())
            .unwrap()
            .assert_matches("examples/manifests/quickstart.json");
    }
}
