use schemars::JsonSchema;
use serde::Deserialize;
use toolwright::prelude::*;

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Asks the client from a sync resource.
#[mcp_resource("notes://summary")]
fn summary(ask: Elicit<Confirm>) -> String {
    let _ = ask;
    String::new()
}

/// Samples from a sync prompt.
#[mcp_prompt]
fn sampled(sample: &Sample) -> String {
    let _ = sample;
    String::new()
}

/// A type of the author's own that asks the client.
struct Asker;

impl Inject for Asker {
    const ASKS: bool = true;

    fn inject(_: &Context) -> Result<Self, ToolOutput> {
        Ok(Asker)
    }
}

/// Asks through a type of the author's own, from a sync prompt.
#[mcp_prompt]
fn indirect(#[inject] asker: Asker) -> String {
    let _ = asker;
    String::new()
}

fn main() {}
