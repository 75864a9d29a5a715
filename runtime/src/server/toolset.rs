//! The tools a server serves, and the handle that changes them while it runs.
//!
//! Every tool ever registered has a slot, enabled or not; the tools served are a [`Registry`]
//! made from the enabled slots, swapped whole on each change, so a call in flight keeps the
//! registry it began with and a list is never half old, half new. Each change is announced to
//! the clients that can hear it ([`Listeners`](super::listeners::Listeners)).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock, Weak};

use crate::call::ask::form::Forms;
use crate::call::inject::{Requirements, States};
use crate::call::record::Instance;
use crate::call::spec::{Tool, ToolSpec};
use crate::server::builder::ToolOrder;
use crate::server::error::{Error, Result};
use crate::server::registry::{Entry, Registry};
use crate::server::service::Service;
use crate::tools::compiled::{Compiled, Options};

/// A tool as registered, and whether it is served.
struct Slot {
    entry: Arc<Entry>,
    enabled: bool,
}

pub(crate) struct ToolSet {
    current: RwLock<Arc<Registry>>,
    /// Every tool, in registration order.
    slots: Mutex<Vec<Slot>>,
    order: ToolOrder,
    page_size: usize,
    options: Options,
}

impl ToolSet {
    pub(crate) fn new(
        entries: Vec<Entry>,
        forms: Forms,
        order: ToolOrder,
        page_size: usize,
        options: Options,
    ) -> ToolSet {
        let slots: Vec<Slot> = entries
            .into_iter()
            .map(|entry| Slot {
                entry: Arc::new(entry),
                enabled: true,
            })
            .collect();
        let registry = served(&slots, Arc::new(forms), order, page_size);
        ToolSet {
            current: RwLock::new(Arc::new(registry)),
            slots: Mutex::new(slots),
            order,
            page_size,
            options,
        }
    }

    /// The tools served now.
    pub(crate) fn current(&self) -> Arc<Registry> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    fn slots(&self) -> MutexGuard<'_, Vec<Slot>> {
        self.slots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change` to the slots and serves the result; `Ok(true)` when the served tools
    /// changed.
    fn change(
        &self,
        change: impl FnOnce(&mut Vec<Slot>, &mut Forms) -> Result<bool>,
    ) -> Result<bool> {
        let mut slots = self.slots();
        let mut forms = Forms::clone(&self.current().forms);
        if !change(&mut slots, &mut forms)? {
            return Ok(false);
        }
        let registry = served(&slots, Arc::new(forms), self.order, self.page_size);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(registry);
        Ok(true)
    }
}

/// The registry of the enabled slots, in list order.
fn served(slots: &[Slot], forms: Arc<Forms>, order: ToolOrder, page_size: usize) -> Registry {
    let mut tools: Vec<Arc<Entry>> = slots
        .iter()
        .filter(|slot| slot.enabled)
        .map(|slot| Arc::clone(&slot.entry))
        .collect();
    if order == ToolOrder::Name {
        tools.sort_by(|a, b| a.spec.name.cmp(b.spec.name));
    }
    Registry::new(tools, forms, page_size)
}

/// A tool ready to serve: its needs checked against the server's states, its forms made, its
/// schemas compiled.
pub(crate) fn entry(
    spec: &'static ToolSpec,
    instance: Option<Instance>,
    options: Options,
    states: &States,
    forms: &mut Forms,
) -> Result<Entry> {
    let mut needs = Requirements::default();
    (spec.requirements)(&mut needs);
    if let Some((_, type_name)) = needs.states.iter().find(|(id, _)| !states.contains(*id)) {
        return Err(Error::MissingState {
            tool: spec.name,
            location: spec.location(),
            type_name,
        });
    }
    let invalid = |problem: String| Error::InvalidTool {
        tool: spec.name,
        location: spec.location(),
        problem,
    };
    for source in &needs.forms {
        let form = (source.make)().map_err(|problem| {
            invalid(format!(
                "it elicits `{}`, which cannot be a form: {problem}",
                source.type_name
            ))
        })?;
        forms.insert(source.id, form);
    }
    let compiled = Compiled::new(&spec.source(), options).map_err(invalid)?;
    Ok(Entry {
        spec,
        compiled,
        instance,
        pace: Arc::default(),
        asks: needs.asks,
    })
}

/// Changes the tools of a running server: adds, removes, enables and disables them. Clients
/// that can hear it are told (`notifications/tools/list_changed` in a handshake session;
/// on a `subscriptions/listen` stream that asked for it on 2026-07-28), and calls in flight
/// finish with the tools they began with. Get one from [`Server::handle`](crate::Server::handle)
/// before the server runs; it is cheap to clone and can be sent to other threads.
#[derive(Clone, Default)]
pub struct ServerHandle {
    pub(crate) live: Arc<Live>,
}

/// Where a handle finds its server once it is built.
#[derive(Default)]
pub(crate) struct Live {
    service: Mutex<Weak<Service>>,
}

impl Live {
    pub(crate) fn attach(&self, service: &Arc<Service>) {
        *self.service.lock().unwrap_or_else(PoisonError::into_inner) = Arc::downgrade(service);
    }
}

impl ServerHandle {
    fn service(&self) -> Result<Arc<Service>> {
        let service = self
            .live
            .service
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        service.upgrade().ok_or(Error::NotServing)
    }

    /// Serves the tool of `#[mcp_tool] fn T` too. Its name must be free; its schemas are
    /// checked as at start-up.
    pub fn add_tool<T: Tool>(&self) -> Result<()> {
        let service = self.service()?;
        let spec = T::spec();
        let (options, states) = (service.tools.options, &service.states);
        let changed = service.tools.change(|slots, forms| {
            if let Some(taken) = slots.iter().find(|s| s.entry.spec.name == spec.name) {
                return Err(Error::DuplicateTool {
                    name: spec.name.to_owned(),
                    first: taken.entry.spec.location(),
                    second: spec.location(),
                });
            }
            let entry = entry(spec, None, options, states, forms)?;
            slots.push(Slot {
                entry: Arc::new(entry),
                enabled: true,
            });
            Ok(true)
        })?;
        service.tools_changed(changed);
        Ok(())
    }

    /// Stops serving the tool named `name` and forgets it.
    pub fn remove_tool(&self, name: &str) -> Result<()> {
        self.set(name, |slots, index| {
            let removed = slots.remove(index);
            removed.enabled
        })
    }

    /// Serves the tool named `name` again (it was disabled).
    pub fn enable_tool(&self, name: &str) -> Result<()> {
        self.set(name, |slots, index| {
            !std::mem::replace(&mut slots[index].enabled, true)
        })
    }

    /// Stops serving the tool named `name`, keeping it to enable later: it leaves the lists and
    /// calls of it are unknown-tool errors.
    pub fn disable_tool(&self, name: &str) -> Result<()> {
        self.set(name, |slots, index| {
            std::mem::replace(&mut slots[index].enabled, false)
        })
    }

    /// Changes the slot of the tool named `name`; the change says whether the served tools
    /// changed.
    fn set(&self, name: &str, change: impl FnOnce(&mut Vec<Slot>, usize) -> bool) -> Result<()> {
        let service = self.service()?;
        let changed = service.tools.change(|slots, _| {
            let index = slots
                .iter()
                .position(|s| s.entry.spec.name == name)
                .ok_or_else(|| Error::UnknownTool(name.to_owned()))?;
            Ok(change(slots, index))
        })?;
        service.tools_changed(changed);
        Ok(())
    }
}
