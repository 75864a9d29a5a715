//! The generated code's contract: what `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]`
//! describe an item with (the header every kind shares, each kind's spec beside it, the handler
//! and what one run hands it), and how the server finds the items linked into the program.
//! Above what a call sees (`call`), below how it runs (`run`). Each file imports only those
//! above it in this list.

pub(crate) mod namespace;

pub(crate) mod handler;
pub(crate) mod header;
pub(crate) mod shared;

pub(crate) mod prompt;
pub(crate) mod resource;
pub(crate) mod tool;

pub(crate) mod defined;
pub(crate) mod discovery;

pub(crate) mod prompt_def;
pub(crate) mod resource_def;
pub(crate) mod tool_def;

pub use header::{ItemInfo, ItemKind, ToolInfo};
pub use prompt::Prompt;
pub use prompt_def::PromptDef;
pub use resource::Resource;
pub use resource_def::ResourceDef;
pub use tool::Tool;
pub use tool_def::ToolDef;
