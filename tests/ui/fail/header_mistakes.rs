use toolwright::prelude::*;

/// A header name with a space in it.
#[mcp_tool]
fn spaced(#[arg(header = "Cloud Region")] region: String) -> String {
    region
}

/// Two arguments in one header.
#[mcp_tool]
fn twice(#[arg(header = "Region")] region: String, #[arg(header = "region")] zone: String) -> String {
    region + &zone
}

/// A list does not fit in a header.
#[mcp_tool]
fn list(#[arg(header = "Tags")] tags: Vec<String>) -> usize {
    tags.len()
}

/// Nor does a floating-point number.
#[mcp_tool]
fn float(#[arg(header = "Ratio")] ratio: f64) -> f64 {
    ratio
}

fn main() {}
