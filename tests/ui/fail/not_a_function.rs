use toolwright::prelude::*;

#[mcp_tool]
struct NotAFunction;

fn main() {}
