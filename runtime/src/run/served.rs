//! A tool as the server serves it: its spec, its schemas compiled, the instance its method is
//! called on, and how quick its runs have been. Registries share it; a call holds it until it
//! is answered, so a tool removed meanwhile still answers the calls that began with it.

use crate::item::handler::Instance;

use crate::item::tool::ToolSpec;
use crate::run::pace::Pace;
use crate::tools::compiled::Compiled;

pub(crate) struct ServedTool {
    pub(crate) spec: &'static ToolSpec,
    pub(crate) compiled: Compiled,
    pub(crate) instance: Option<Instance>,
    /// How quick its runs have been (a sync tool's).
    pub(crate) pace: Pace,
    /// It asks the client mid-call (`Elicit`, `Sample`, `Roots`).
    pub(crate) asks: bool,
    /// It says where its call becomes a task (`TaskStart`).
    pub(crate) starts_task: bool,
}

impl AsRef<Pace> for ServedTool {
    fn as_ref(&self) -> &Pace {
        &self.pace
    }
}
