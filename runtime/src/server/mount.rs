//! Mounting one server into another: the child's builder taken apart, its items renamed into
//! the namespace (`mounting`), and what it decides for its own items kept beside them (its
//! states, visibility rule, schema shaping and read cache in the mount's [`Level`]; its
//! middleware around its own tools; its hooks asked about its own resources; its handles
//! naming its items as it does). The server it is mounted into serves them as its own items,
//! one list of each kind: collisions, lists, pages, task ids and request states are its own.
//!
//! A server is mounted by value, so it cannot be mounted into itself, directly or through
//! another.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::call::state::States;
use crate::item::handler::Instance;
use crate::item::header::{Level, Mount, Rule};
use crate::item::namespace::Namespace;
use crate::item::shared::Shared;
use crate::item::tool::ToolSpec;
use crate::protocol::wire::Cache;
use crate::resources::template::UriTemplate;
use crate::run::middleware::{self, Chain, Wrap};
use crate::server::catalog::Pending;
use crate::server::error::Error;
use crate::server::handle::ServedBy;
use crate::server::hooks::Hooks;
use crate::server::mounting;
use crate::tools::compiled::Options;

/// A server's builder, as mounting takes it apart.
pub(crate) struct Child {
    pub(crate) tools: Vec<(Shared<ToolSpec>, Option<Instance>)>,
    pub(crate) items: Vec<Pending>,
    /// Its folder of skills, if it serves one.
    pub(crate) skills: Option<PathBuf>,
    pub(crate) states: States,
    pub(crate) errors: Vec<Error>,
    pub(crate) options: Options,
    pub(crate) without_tags: Vec<String>,
    pub(crate) visibility: Option<Rule>,
    pub(crate) layers: Vec<Wrap>,
    pub(crate) hooks: Hooks,
    pub(crate) handles: Vec<(Arc<ServedBy>, Handed)>,
    pub(crate) mounted: Mounted,
    pub(crate) cache_ttl: Option<Duration>,
    pub(crate) reads_cache: Option<Cache>,
    pub(crate) tasks: bool,
}

/// Which handle of a server a [`ServedBy`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handed {
    /// A [`ServerHandle`](crate::ServerHandle): the lists may change.
    Changes,
    /// A [`ResourceUpdates`](crate::ResourceUpdates).
    Updates,
    /// A [`ServerLog`](crate::ServerLog).
    Log,
}

/// What the servers mounted into a server bring besides their items.
#[derive(Default)]
pub(crate) struct Mounted {
    /// Their middleware, each around its own tools only (and those of the servers mounted
    /// into it): innermost in the server's stack, or the whole stack of their tools' calls when
    /// the server has no layers of its own.
    pub(crate) splits: Vec<(Arc<Level>, Arc<Chain>)>,
    /// Their handles, each with the mount its server's items are served through.
    pub(crate) handles: Vec<(Arc<ServedBy>, Mount, Handed)>,
    /// The shortest time one of them lets its lists be cached.
    pub(crate) cache_ttl: Option<Duration>,
    /// One of them runs tasks (a store chosen, or a tool that may run as one).
    pub(crate) tasks: bool,
    /// One of them has a visibility rule: what is listed depends on the caller.
    pub(crate) rules: bool,
    /// Their folders of skills, each with the namespaces its skills' paths begin with.
    pub(crate) skills: Vec<(PathBuf, Vec<String>)>,
}

impl Mounted {
    /// Whether a handle of kind `handed` came with a mounted server.
    pub(crate) fn hands(&self, handed: Handed) -> bool {
        self.handles.iter().any(|(_, _, h)| *h == handed)
    }

    /// Takes in what another mounting brought.
    pub(crate) fn absorb(&mut self, other: Mounted) {
        self.splits.extend(other.splits);
        self.handles.extend(other.handles);
        self.cache_ttl = shortest(self.cache_ttl, other.cache_ttl);
        self.tasks |= other.tasks;
        self.rules |= other.rules;
        self.skills.extend(other.skills);
    }
}

/// The shorter of two cache lifetimes, where either is set.
pub(crate) fn shortest(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A child's items and what comes with them, ready to join the server it is mounted into.
pub(crate) struct Mounting {
    pub(crate) tools: Vec<(Shared<ToolSpec>, Option<Instance>)>,
    pub(crate) items: Vec<Pending>,
    /// Mistakes found in the child, or in mounting it.
    pub(crate) errors: Vec<Error>,
    pub(crate) mounted: Mounted,
    pub(crate) hooks: Option<(Arc<Level>, Hooks)>,
}

/// `child` mounted under `namespace`.
pub(crate) fn mount(namespace: &str, child: Child) -> Mounting {
    let mut errors = child.errors;
    let namespace = match Namespace::new(namespace) {
        Ok(namespace) => namespace,
        Err(problem) => {
            errors.push(Error::Mount(problem));
            return Mounting {
                tools: Vec::new(),
                items: Vec::new(),
                errors,
                mounted: Mounted::default(),
                hooks: None,
            };
        }
    };
    let has_rule = child.visibility.is_some();
    let level = Arc::new(Level {
        namespace,
        rule: child.visibility,
        states: child.states,
        options: child.options,
        reads_cache: child.reads_cache,
    });
    let without = &child.without_tags;
    let kept = |tags: &[&str]| !tags.iter().any(|tag| without.iter().any(|w| w == tag));
    // What the child serves, as it names it: a UI resource its tools name is rewritten only
    // if it is one of these (served from the start: one its handle adds later is not looked
    // for).
    let templates: Vec<UriTemplate> = (child.items.iter())
        .filter_map(|item| match item {
            Pending::Resource(spec, _) if kept(spec.header.tags) => {
                UriTemplate::parse(&spec.uri).ok()
            }
            _ => None,
        })
        .collect();
    let serves = |uri: &str| {
        templates
            .iter()
            .any(|t| matches!(t.matches(uri), Ok(Some(_))))
    };
    let mut tools = Vec::new();
    let mut given: Vec<Shared<ToolSpec>> = Vec::new();
    for (spec, instance) in child.tools {
        // A tool given twice (by `discover` and by `tool`) is one tool, as it is unmounted.
        if !kept(spec.header.tags) || given.iter().any(|seen| seen.same(&spec)) {
            continue;
        }
        given.push(spec.clone());
        match mounting::tool(&spec, &level, &serves) {
            Ok(mounted) => tools.push((mounted, instance)),
            Err(error) => errors.push(error),
        }
    }
    let mut items = Vec::new();
    for item in child.items {
        match item {
            Pending::Prompt(spec, instance) if kept(spec.header.tags) => {
                items.push(Pending::Prompt(mounting::prompt(&spec, &level), instance));
            }
            Pending::Resource(spec, instance) if kept(spec.header.tags) => {
                match mounting::resource(&spec, &level) {
                    Ok(mounted) => items.push(Pending::Resource(mounted, instance)),
                    Err(error) => errors.push(error),
                }
            }
            _ => {}
        }
    }
    // The child's own layers, then those of the servers mounted into it, around its tools.
    let Mounted {
        splits,
        handles,
        cache_ttl,
        tasks,
        rules,
        skills,
    } = child.mounted;
    let mut mounted = Mounted {
        splits: Vec::new(),
        handles: Vec::new(),
        cache_ttl: shortest(child.cache_ttl, cache_ttl),
        tasks: child.tasks || tasks,
        rules: rules || has_rule,
        // Skills take the namespace as the first segment of their paths, as resources do.
        skills: child
            .skills
            .map(|folder| (folder, Vec::new()))
            .into_iter()
            .chain(skills)
            .map(|(folder, mut prefix)| {
                if !level.namespace.is_empty() {
                    prefix.insert(0, level.namespace.to_string());
                }
                (folder, prefix)
            })
            .collect(),
    };
    match child.layers.is_empty() {
        // Without layers of its own, the child's servers' layers wrap their tools as they did.
        true => mounted.splits.extend(splits),
        false => {
            let mut wraps = child.layers;
            wraps.extend(
                splits
                    .into_iter()
                    .map(|(l, chain)| middleware::split(l, chain)),
            );
            let chain = Arc::new(Chain::new(wraps));
            mounted.splits.push((Arc::clone(&level), chain));
        }
    }
    mounted.handles.extend(
        handles
            .into_iter()
            .map(|(served, mount, handed)| (served, Mount::outside(&level, Some(&mount)), handed)),
    );
    let handles = child.handles.into_iter();
    mounted
        .handles
        .extend(handles.map(|(served, handed)| (served, Mount::outside(&level, None), handed)));
    let hooks = (!child.hooks.is_empty()).then(|| (Arc::clone(&level), child.hooks));
    Mounting {
        tools,
        items,
        errors,
        mounted,
        hooks,
    }
}
