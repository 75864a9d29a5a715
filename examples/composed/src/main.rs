//! One endpoint made of parts: the memory example's knowledge graph (the `toolwright-graph`
//! library) mounted as `memory`, a weather library (`toolwright-weather`) mounted as
//! `weather`, and the program's own tools. Each library names its items as it likes (both
//! this program and the weather library have a `search`); the mounts keep them apart:
//!
//! | defined as                       | served as                          |
//! |----------------------------------|------------------------------------|
//! | `search` (this program)          | `search`                           |
//! | `search` (weather)               | `weather_search`                   |
//! | `create_entities` (memory)       | `memory_create_entities`           |
//! | `memory://entities/{name}`       | `memory://memory/entities/{name}`  |
//! | `forecast://{city}` (weather)    | `forecast://weather/{city}`        |
//!
//! ```sh
//! cargo run -p toolwright-composed -- list
//! cargo run -p toolwright-composed -- call weather_forecast '{"city": "Oslo"}'
//! ```

use std::process::ExitCode;

use toolwright::prelude::*;

/// Says where to look for something: the team's own search, beside the weather library's.
///
/// # Arguments
/// * `topic` - What to look for.
#[mcp_tool(read_only, open_world = false)]
fn search(topic: String) -> String {
    format!(
        "`{topic}`: read `memory://memory/graph` for what the graph knows, \
         call `weather_forecast` for the weather"
    )
}

/// The server: the program's own items (none of its dependencies', which are mounted), and
/// each library under its namespace.
fn server() -> Server {
    toolwright::server!()
        .instructions(
            "The team's tools, a knowledge graph (`memory_…`) and the weather (`weather_…`).",
        )
        .discover_in(module_path!())
        .mount("memory", toolwright_graph::toolset())
        .mount("weather", toolwright_weather::toolset())
}

fn main() -> ExitCode {
    server().run()
}

#[cfg(test)]
mod tests;
