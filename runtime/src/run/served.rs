//! Items as the server serves them. Every kind is held the same way ([`Held`]: the instance a
//! method is called on, what its parameters need of a call, its `_meta` made once), beside what
//! the kind derives of its own; a tool's is here (its schemas compiled, how quick its runs have
//! been), a prompt's and a resource's in `server`. Registries share them; a call holds its item
//! until it is answered, so an item removed meanwhile still answers the calls that began with it.

use std::sync::Arc;

use serde_json::value::RawValue;

use crate::call::state::States;
use crate::item::handler::Instance;
use crate::item::shared::Shared;
use crate::item::tool::ToolSpec;
use crate::run::pace::Pace;
use crate::tools::compiled::Compiled;

/// What the server holds of every item it serves, whatever its kind.
pub(crate) struct Held {
    /// What a `#[mcp_tool_type]` method is called on.
    pub(crate) instance: Option<Instance>,
    /// What its parameters need of a call.
    pub(crate) needs: Needs,
    /// Its `_meta`, compacted once (2025-06-18 on).
    pub(crate) meta: Option<Box<RawValue>>,
    /// The states its parameters take: the server's, under those of every server it is
    /// mounted from (the innermost first).
    pub(crate) states: Arc<States>,
}

/// What an item's parameters need of a call, read once from its requirements.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Needs {
    /// It asks the client mid-call (`Elicit`, `Sample`, `Roots`).
    pub(crate) asks: bool,
    /// It says where its call becomes a task (`TaskStart`).
    pub(crate) starts_task: bool,
    /// It takes the verified caller: what it returns depends on who asks.
    pub(crate) caller: bool,
    /// It takes the whole request, through which it may read the caller.
    pub(crate) context: bool,
}

pub(crate) struct ServedTool {
    pub(crate) spec: Shared<ToolSpec>,
    pub(crate) held: Held,
    pub(crate) compiled: Compiled,
    /// How quick its runs have been (a sync tool's).
    pub(crate) pace: Pace,
}

impl AsRef<Pace> for ServedTool {
    fn as_ref(&self) -> &Pace {
        &self.pace
    }
}
