//! The tools a server serves: how a tool is admitted (its name free, its needs met, its forms
//! and schemas made), every tool registered with a slot (enabled or not), and the registry of
//! the enabled ones, swapped whole on each change, so a call in flight keeps the registry it
//! began with and a list is never half old, half new.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use crate::call::state::States;
use crate::call::to_client::form::Forms;
use crate::item::handler::Instance;
use crate::item::header::{Header, ItemKind};
use crate::item::shared::Shared;
use crate::item::tool::ToolSpec;
use crate::run::served::ServedTool;
use crate::server::error::{Error, Result};
use crate::server::registry::Registry;
use crate::server::served_items::hold;
use crate::tools::compiled::{Compiled, Options};

/// The order of `tools/list`. Clients show the list as it is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolOrder {
    /// Alphabetical by name.
    #[default]
    Name,
    /// The order the server was given the tools in: by [`Server::tool`](crate::Server::tool)
    /// and [`Server::tools`](crate::Server::tools) calls, one after another; the tools of one
    /// [`Server::discover`](crate::Server::discover) or `Server::tools` call in the order of
    /// their definitions (by source file, then line).
    Registration,
}

/// The tools admitted so far, by name: where a new one's name is checked.
#[derive(Default)]
pub(crate) struct Names(HashMap<Cow<'static, str>, Shared<ToolSpec>>);

impl Names {
    /// Admits the name of `spec` if it is free.
    pub(crate) fn admit(&mut self, spec: &Shared<ToolSpec>) -> Admission {
        match self.0.get(&*spec.header.name) {
            Some(seen) if seen.same(spec) => Admission::Again,
            Some(seen) => Admission::Taken(seen.clone()),
            None => {
                self.0.insert(spec.header.name.clone(), spec.clone());
                Admission::New
            }
        }
    }

    fn forget(&mut self, name: &str) {
        self.0.remove(name);
    }
}

/// What admitting a tool's name found.
pub(crate) enum Admission {
    /// The name was free; it is the tool's now.
    New,
    /// This very tool has it already (registered twice, say by `discover` and by `tool`).
    Again,
    /// Another tool has it.
    Taken(Shared<ToolSpec>),
}

/// Two tools named alike: at start-up, in the order of their definitions.
pub(crate) fn clash(a: &ToolSpec, b: &ToolSpec) -> Error {
    duplicate(a, b, true)
}

/// A tool named as one already served.
fn duplicate(served: &ToolSpec, added: &ToolSpec, start_up: bool) -> Error {
    let detail = format!("two tools are named `{}`", added.header.name);
    Error::clash(
        ItemKind::Tool,
        detail,
        &served.header,
        &added.header,
        start_up,
    )
}

/// A tool ready to serve: its needs checked against the server's states, its forms made, its
/// schemas compiled.
pub(crate) fn serve(
    spec: Shared<ToolSpec>,
    instance: Option<Instance>,
    options: Options,
    states: &Arc<States>,
    forms: &mut Forms,
) -> Result<ServedTool> {
    let invalid = |problem: String| Error::invalid(ItemKind::Tool, &spec.header, problem);
    // The macros refuse a bad name where it is written; a name made at run time is checked here.
    if let Some(problem) = name_problem(&spec.header.name) {
        return Err(invalid(problem));
    }
    let held = hold(ItemKind::Tool, &spec.header, instance, states, forms)?;
    // A mounted tool's schemas are shaped as the server it is defined in shapes them.
    let options = spec
        .header
        .mount
        .as_ref()
        .map_or(options, |m| m.own().options);
    let compiled = Compiled::new(&spec.source(), options).map_err(invalid)?;
    Ok(ServedTool {
        spec,
        held,
        compiled,
        pace: Default::default(),
    })
}

/// What breaks the 2025-11-25 guidance on tool names (SEP-986), which every client accepts:
/// 1 to 128 characters of `A-Z a-z 0-9 _ - .`.
pub(crate) fn name_problem(name: &str) -> Option<String> {
    let valid_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    (name.is_empty() || name.len() > 128 || !valid_chars).then(|| {
        "its name breaks the naming rules: a tool name has 1 to 128 characters, each a \
         letter, a digit, `_`, `-` or `.`"
            .to_owned()
    })
}

/// A tool as registered, and whether it is served.
struct Slot {
    tool: Arc<ServedTool>,
    enabled: bool,
}

/// Every tool registered, and the registry served now.
pub(crate) struct ToolSet {
    current: RwLock<Arc<Registry>>,
    slots: Mutex<Slots>,
    order: ToolOrder,
    page_size: usize,
    pub(crate) options: Options,
}

/// Every tool, in registration order, and their names.
struct Slots {
    slots: Vec<Slot>,
    names: Names,
}

impl ToolSet {
    pub(crate) fn new(
        tools: Vec<ServedTool>,
        names: Names,
        forms: Forms,
        order: ToolOrder,
        page_size: usize,
        options: Options,
    ) -> ToolSet {
        let slots: Vec<Slot> = tools
            .into_iter()
            .map(|tool| Slot {
                tool: Arc::new(tool),
                enabled: true,
            })
            .collect();
        let registry = served(&slots, Arc::new(forms), order, page_size);
        ToolSet {
            current: RwLock::new(Arc::new(registry)),
            slots: Mutex::new(Slots { slots, names }),
            order,
            page_size,
            options,
        }
    }

    /// The tools served now.
    pub(crate) fn current(&self) -> Arc<Registry> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn slots(&self) -> MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits and serves the tool of `spec`; its name must be free. `Ok(true)`: the served
    /// tools changed.
    pub(crate) fn add(
        &self,
        spec: Shared<ToolSpec>,
        instance: Option<Instance>,
        states: &Arc<States>,
    ) -> Result<bool> {
        self.change(|slots, forms| {
            match slots.names.admit(&spec) {
                Admission::New => {}
                // A second `add` of one tool is a mistake worth hearing of, as is a name taken.
                Admission::Again => return Err(duplicate(&spec, &spec, false)),
                Admission::Taken(served) => return Err(duplicate(&served, &spec, false)),
            }
            let name = spec.header.name.clone();
            let tool = serve(spec, instance, self.options, states, forms).inspect_err(|_| {
                slots.names.forget(&name);
            })?;
            slots.slots.push(Slot {
                tool: Arc::new(tool),
                enabled: true,
            });
            Ok(true)
        })
    }

    /// Stops serving the tool named `name` and forgets it, if `owns` its header.
    pub(crate) fn remove(&self, name: &str, owns: impl Fn(&Header) -> bool) -> Result<bool> {
        self.set(name, owns, |slots, index| {
            slots.names.forget(name);
            slots.slots.remove(index).enabled
        })
    }

    /// Serves, or stops serving, the tool named `name` (kept either way), if `owns` its header.
    pub(crate) fn enable(
        &self,
        name: &str,
        enabled: bool,
        owns: impl Fn(&Header) -> bool,
    ) -> Result<bool> {
        self.set(name, owns, |slots, index| {
            std::mem::replace(&mut slots.slots[index].enabled, enabled) != enabled
        })
    }

    /// Changes the slot of the tool named `name`, one `owns` (as unknown otherwise); the change
    /// says whether the served tools changed.
    fn set(
        &self,
        name: &str,
        owns: impl Fn(&Header) -> bool,
        change: impl FnOnce(&mut Slots, usize) -> bool,
    ) -> Result<bool> {
        self.change(|slots, _| {
            let index = slots
                .slots
                .iter()
                .position(|s| s.tool.spec.header.name == name && owns(&s.tool.spec.header))
                .ok_or_else(|| Error::Unknown {
                    kind: ItemKind::Tool,
                    name: name.to_owned(),
                })?;
            Ok(change(slots, index))
        })
    }

    /// Applies `change` to the slots and serves the result; `Ok(true)` when the served tools
    /// changed.
    fn change(&self, change: impl FnOnce(&mut Slots, &mut Forms) -> Result<bool>) -> Result<bool> {
        let mut slots = self.slots();
        let mut forms = Forms::clone(&self.current().forms);
        if !change(&mut slots, &mut forms)? {
            return Ok(false);
        }
        let registry = served(&slots.slots, Arc::new(forms), self.order, self.page_size);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(registry);
        Ok(true)
    }
}

/// The registry of the enabled slots, in list order.
fn served(slots: &[Slot], forms: Arc<Forms>, order: ToolOrder, page_size: usize) -> Registry {
    let mut tools: Vec<Arc<ServedTool>> = slots
        .iter()
        .filter(|slot| slot.enabled)
        .map(|slot| Arc::clone(&slot.tool))
        .collect();
    if order == ToolOrder::Name {
        tools.sort_by(|a, b| a.spec.header.name.cmp(&b.spec.header.name));
    }
    Registry::new(tools, forms, page_size)
}
