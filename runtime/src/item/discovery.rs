//! How the server finds the tools, prompts and resources linked into the program, and the
//! methods of a type.

use std::any::TypeId;

use crate::item::header::Header;
use crate::item::prompt::PromptSpec;
use crate::item::resource::ResourceSpec;
use crate::item::tool::ToolSpec;

/// One item an attribute generated.
#[derive(Clone, Copy)]
pub enum Item {
    /// `#[mcp_tool]`.
    Tool(&'static ToolSpec),
    /// `#[mcp_prompt]`.
    Prompt(&'static PromptSpec),
    /// `#[mcp_resource]`.
    Resource(&'static ResourceSpec),
}

impl Item {
    /// Where it is defined: source file, then line.
    fn site(&self) -> (&'static str, u32) {
        self.header().site()
    }

    /// What every item has, whatever its kind.
    pub(crate) fn header(&self) -> &'static Header {
        match self {
            Item::Tool(spec) => &spec.header,
            Item::Prompt(spec) => &spec.header,
            Item::Resource(spec) => &spec.header,
        }
    }
}

/// An item registered for discovery: every free `#[mcp_tool]`, `#[mcp_prompt]` and
/// `#[mcp_resource]` function submits one.
pub struct Registration(pub Item);

inventory::collect!(Registration);

/// A method of a `#[mcp_tool_type]` impl block, registered under its type.
pub struct MethodRegistration {
    /// The type whose method it is.
    pub owner: fn() -> TypeId,
    /// The item.
    pub item: Item,
}

inventory::collect!(MethodRegistration);

/// Every item linked into the program, in definition order.
pub(crate) fn discovered() -> Vec<Item> {
    in_definition_order(inventory::iter::<Registration>.into_iter().map(|r| r.0))
}

/// Every item of the methods of type `owner`, from all of its impl blocks, in definition
/// order.
pub(crate) fn methods_of(owner: TypeId) -> Vec<Item> {
    let methods = inventory::iter::<MethodRegistration>.into_iter();
    in_definition_order(
        methods
            .filter(move |r| (r.owner)() == owner)
            .map(|r| r.item),
    )
}

/// `items` sorted by where they are defined: source file, then line. The order of link-time
/// registration is the linker's; this one is the author's, and the same on every build.
fn in_definition_order(items: impl Iterator<Item = Item>) -> Vec<Item> {
    let mut items: Vec<Item> = items.collect();
    items.sort_by_key(Item::site);
    items
}
