//! Writes the 200-tool variants of the benchmark servers' tools.
use std::fmt::Write;

/// The three benchmark tools as rmcp methods (the same text goes in both rmcp impls).
const THREE_RMCP: &str = include_str!("src/rmcp_three.rs.in");

fn main() {
    let mut tools = String::new();
    for i in 1..=197 {
        writeln!(
            tools,
            "/// Filler tool {i}.\n#[mcp_tool]\nfn filler_{i}(value: i64) -> i64 {{ value + {i} }}\n"
        )
        .unwrap();
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("filler_tools.rs");
    std::fs::write(out, tools).unwrap();

    // The same 197 tools on rmcp: methods of one `#[tool_router]` impl, beside the three.
    let mut rmcp = String::from("#[tool_router(server_handler)]\nimpl Many {\n");
    rmcp.push_str(THREE_RMCP);
    for i in 1..=197 {
        writeln!(
            rmcp,
            "    #[tool(description = \"Filler tool {i}.\")]\n    fn filler_{i}(&self, Parameters(Filler {{ value }}): Parameters<Filler>) -> String {{ (value + {i}).to_string() }}"
        )
        .unwrap();
    }
    rmcp.push_str("}\n");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("rmcp_many.rs");
    std::fs::write(out, rmcp).unwrap();
    let three = format!("#[tool_router(server_handler)]\nimpl Three {{\n{THREE_RMCP}}}\n");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("rmcp_three.rs");
    std::fs::write(out, three).unwrap();
    println!("cargo::rerun-if-changed=src/rmcp_three.rs.in");
}
