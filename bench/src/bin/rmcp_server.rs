//! The benchmark tools on rmcp 3.11, written as its documentation shows (`#[tool_router]` with
//! `server_handler`). `--many` serves 197 more tools.
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServiceExt, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
struct Echo {
    text: String,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Add {
    a: i64,
    b: i64,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Filler {
    value: i64,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Items {
    result: Vec<toolwright_bench::Item>,
}

#[derive(Clone)]
struct Three;

// The impls are generated (build.rs): an attribute macro does not see items that an
// `include!` inside its impl block would add.
include!(concat!(env!("OUT_DIR"), "/rmcp_three.rs"));

#[derive(Clone)]
struct Many;

include!(concat!(env!("OUT_DIR"), "/rmcp_many.rs"));

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "--many") {
        Many.serve(rmcp::transport::stdio())
            .await?
            .waiting()
            .await?;
    } else {
        Three
            .serve(rmcp::transport::stdio())
            .await?
            .waiting()
            .await?;
    }
    Ok(())
}
