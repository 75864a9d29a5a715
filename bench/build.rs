//! Writes the 200-tool variant of the benchmark server's tools.
use std::fmt::Write;

fn main() {
    let mut tools = String::new();
    for i in 0..197 {
        writeln!(
            tools,
            "/// Filler tool {i}.\n#[mcp_tool]\nfn filler_{i}(value: i64) -> i64 {{ value + {i} }}\n"
        )
        .unwrap();
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("filler_tools.rs");
    std::fs::write(out, tools).unwrap();
}
