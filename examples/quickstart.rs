//! A small MCP server with four tools: run it with no arguments under an MCP client, or try
//! its tools from the shell:
//!
//! ```sh
//! cargo run --example quickstart -- list
//! cargo run --example quickstart -- call convert_length '{"value": 5, "from": "km", "to": "mi"}'
//! ```

use schemars::JsonSchema;
use serde::Serialize;
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

#[derive(Serialize, JsonSchema)]
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

fn main() -> toolwright::Result<()> {
    toolwright::server!()
        .title("Quickstart")
        .instructions("Arithmetic, text statistics, unit conversion and reading files.")
        .discover()
        .run()
}
