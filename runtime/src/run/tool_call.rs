//! A tool call on its way to the tool: the tool as served, the invocation its generated handler
//! takes (the arguments, the request's [`Context`]), and the threads it may run on; and running
//! it. It is the request middleware sees ([`ToolCall`] is public there): the layers read it and
//! hand it on, and the innermost runs it here.

use std::sync::Arc;

use serde_json::Value;

use crate::call::context::Context;
use crate::call::record::CallRecord;
use crate::item::handler::Invocation;
use crate::item::header::ToolInfo;
use crate::run::once;
use crate::run::served::ServedTool;
use crate::run::workers::Threads;
use crate::tools::ToolOutput;

/// One tool call on its way to the tool.
pub struct ToolCall {
    pub(crate) tool: Arc<ServedTool>,
    pub(crate) invocation: Invocation,
    pub(crate) threads: Arc<Threads>,
    /// How many of the tool's mounts the middleware it is in sits inside: a mounted server's
    /// layers see the tool by the name that server gives it.
    pub(crate) depth: usize,
}

impl ToolCall {
    /// The tool called.
    pub fn tool(&self) -> ToolInfo<'_> {
        let info = self.tool.spec.info();
        match (&self.tool.spec.header.mount, self.depth) {
            (Some(mount), depth @ 1..) => info.named(mount.local_name(info.name(), depth)),
            _ => info,
        }
    }

    /// The request: revision, client, `_meta`, what an HTTP layer put into it.
    pub fn context(&self) -> &Context {
        &self.invocation.context
    }

    /// The arguments as the client sent them (an empty object when it sent none).
    pub fn arguments(&self) -> Value {
        serde_json::from_str(self.invocation.arguments.as_json()).unwrap_or(Value::Null)
    }

    /// The call's record.
    pub(crate) fn record(&self) -> &Arc<CallRecord> {
        &self.invocation.context.0
    }

    /// Runs the tool, in the caller's span: a sync one here when it is quick, else on the sync
    /// pool (in the span there too); an async one here.
    pub(crate) async fn execute(self) -> ToolOutput {
        let ToolCall {
            tool,
            invocation,
            threads,
            ..
        } = self;
        let handler = tool.spec.handler;
        once::run(handler, invocation, &threads, Some(tool)).await
    }
}

impl std::fmt::Debug for ToolCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCall")
            .field("tool", &self.tool.spec.header.name)
            .field("arguments", &self.invocation.arguments)
            .finish()
    }
}
