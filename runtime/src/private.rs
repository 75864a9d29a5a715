//! Everything the code `#[mcp_tool]` generates names, and nothing else: the contract between
//! the macros and the runtime. Not an API; it may change in any release. The `toolwright`
//! crate re-exports it as `toolwright::__private`.

pub use crate::call::completion::{
    CompleteFn, Completer, Completing, CompletionFuture, complete_with,
};
pub use crate::call::inject::{Injector, Requirements, injector, sync_injectable};
pub use crate::item::discovery::{Item, MethodRegistration, Registration};
pub use crate::item::handler::{BoxFuture, Handler, Invocation, tool_future};
pub use crate::item::header::Header;
pub use crate::item::prompt::{Prompt, PromptSpec};
pub use crate::item::resource::{Resource, ResourceSpec};
pub use crate::item::tool::{TaskSupport, Tool, ToolSpec};
pub use crate::prompts::{IntoPrompt, PromptOutput};
pub use crate::protocol::wire::{Annotations, Icon};
pub use crate::resources::{IntoContents, Read, ResourceOutput};
pub use crate::tools::binding::{Args, Arguments};
pub use crate::tools::content::Role;
pub use crate::tools::default_value::{SchemaDefault, schema_default};
pub use crate::tools::header_argument::{HeaderArgument, header_argument};
pub use crate::tools::output::ToolOutput;
pub use crate::tools::schema::{input_schema, whole_input_schema};
pub use crate::tools::select;
pub use inventory;
pub use schemars;
pub use serde;
pub use std::borrow::Cow;
