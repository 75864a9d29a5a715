//! Every injectable parameter form, and tool methods.

use toolwright::prelude::*;
use toolwright::context::Requirements;

struct Db;
struct Conn;

impl Inject for Conn {
    fn inject(_: &Context) -> Result<Self, ToolOutput> {
        Ok(Conn)
    }

    fn require(requirements: &mut Requirements) {
        requirements.state::<Db>();
    }
}

/// All of them.
#[mcp_tool]
async fn everything(
    ctx: &Context,
    progress: Progress,
    cancel: Cancellation,
    db: State<Db>,
    #[inject] conn: Conn,
    #[arg(description = "Words", rename = "q")] query: String,
    #[arg(default = 10)] limit: u32,
) -> String {
    let _ = (ctx, progress, cancel, db, conn);
    format!("{query} {limit}")
}

mod own {
    /// A type of the author's own that shares a name with one the server injects.
    pub struct Sample;

    impl toolwright::context::Inject for Sample {
        fn inject(_: &toolwright::Context) -> Result<Self, toolwright::tools::ToolOutput> {
            Ok(Sample)
        }
    }
}

/// A sync tool with the author's own `Sample`, marked `#[inject]`: it asks nothing.
#[mcp_tool]
fn own_sample(#[inject] sample: own::Sample) {
    let _ = sample;
}

/// By value and by `&mut`.
#[mcp_tool]
fn owned(ctx: Context, progress: &mut Progress, cancel: &Cancellation) {
    let _ = (ctx, progress, cancel);
}

/// A struct of arguments.
#[mcp_tool]
fn whole(args: Args<Query>, ctx: &Context) -> String {
    let _ = ctx;
    args.0.q
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Query {
    q: String,
}

struct Service;

#[mcp_tool_type]
impl Service {
    /// A method tool.
    #[mcp_tool(read_only)]
    fn status(&self, verbose: Option<bool>) -> String {
        format!("{verbose:?}")
    }

    /// An async method tool returning `Self`-named data.
    #[mcp_tool]
    async fn name(&self, ctx: &Context) -> Result<String, ToolError> {
        let _ = ctx;
        Ok(Self::label().into())
    }

    fn label() -> &'static str {
        "service"
    }
}

#[mcp_tool_type]
impl Service {
    /// From a second block.
    #[mcp_tool]
    fn second(&self) {}
}

fn main() {
    let _ = toolwright::server!()
        .state(Db)
        .tools(Service)
        .tool::<everything>()
        .tool::<owned>()
        .tool::<whole>();
}
