//! The prompts and resources a server serves at one moment, and every one registered. A
//! change through the server's handle makes a new catalog; requests keep the one they began
//! with.
//!
//! Policy: prompt names are unique, and no two resources may serve one URI (equal URIs, a
//! template that matches a direct resource's URI, templates that overlap): each is a start-up
//! error naming both definitions, in definition order. A read goes to the direct resource of
//! that URI, else to the first template that matches it.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use crate::call::state::States;
use crate::item::handler::Instance;
use crate::item::header::{Header, ItemKind};
use crate::item::prompt::PromptSpec;
use crate::item::resource::ResourceSpec;
use crate::item::shared::Shared;
use crate::resources::template::Refused;
use crate::server::error::{Error, Result};
use crate::server::served_items::{ServedPrompt, ServedResource, serve_prompt, serve_resource};

/// The prompts and resources served now.
#[derive(Default)]
pub(crate) struct Catalog {
    pub(crate) prompts: Vec<Arc<ServedPrompt>>,
    prompt_index: HashMap<Cow<'static, str>, usize>,
    /// Direct resources and templates, in list order.
    pub(crate) resources: Vec<Arc<ServedResource>>,
    /// Direct resources by URI.
    uri_index: HashMap<Cow<'static, str>, usize>,
}

/// What a read's URI reaches.
pub(crate) enum Reached<'a> {
    /// A resource, with the template's values (none for a direct resource).
    Resource(&'a Arc<ServedResource>, Vec<(String, String)>),
    /// A template whose shape the URI has, with a value it does not allow.
    Refused(Refused),
    /// Nothing.
    Nothing,
}

impl Catalog {
    fn new(prompts: Vec<Arc<ServedPrompt>>, resources: Vec<Arc<ServedResource>>) -> Catalog {
        let prompt_index = prompts
            .iter()
            .enumerate()
            .map(|(i, p)| (p.spec.header.name.clone(), i))
            .collect();
        let uri_index = resources
            .iter()
            .enumerate()
            .filter(|(_, r)| r.template.is_static())
            .map(|(i, r)| (r.spec.uri.clone(), i))
            .collect();
        Catalog {
            prompts,
            prompt_index,
            resources,
            uri_index,
        }
    }

    /// The prompt named `name`.
    pub(crate) fn prompt(&self, name: &str) -> Option<&Arc<ServedPrompt>> {
        self.prompt_index.get(name).map(|&i| &self.prompts[i])
    }

    /// The resource a read of `uri` goes to, among those `visible` keeps.
    pub(crate) fn reach(
        &self,
        uri: &str,
        visible: impl Fn(&ServedResource) -> bool,
    ) -> Reached<'_> {
        if let Some(resource) = self.uri_index.get(uri).map(|&i| &self.resources[i])
            && visible(resource)
        {
            return Reached::Resource(resource, Vec::new());
        }
        let templates = self.resources.iter().filter(|r| !r.template.is_static());
        for resource in templates.filter(|r| visible(r)) {
            match resource.template.matches(uri) {
                Ok(Some(values)) => return Reached::Resource(resource, values),
                Ok(None) => {}
                Err(refused) => return Reached::Refused(refused),
            }
        }
        Reached::Nothing
    }

    /// The resource or template whose URI (or template) is exactly `uri`.
    pub(crate) fn resource_named(&self, uri: &str) -> Option<&Arc<ServedResource>> {
        self.resources.iter().find(|r| r.spec.uri == uri)
    }

    /// Whether there is anything to list in `resources/list` or `resources/templates/list`.
    pub(crate) fn has_resources(&self) -> bool {
        !self.resources.is_empty()
    }
}

/// Every prompt and resource registered, and the catalog served now.
pub(crate) struct Items {
    current: RwLock<Arc<Catalog>>,
    registered: Mutex<Registered>,
}

#[derive(Default)]
struct Registered {
    prompts: Vec<Arc<ServedPrompt>>,
    resources: Vec<Arc<ServedResource>>,
}

/// A prompt or a resource to serve, as the builder collects them.
pub(crate) enum Pending {
    Prompt(Shared<PromptSpec>, Option<Instance>),
    Resource(Shared<ResourceSpec>, Option<Instance>),
}

impl Items {
    /// Serves `pending`, in their order; the first clash or unmet need is the error.
    pub(crate) fn new(pending: Vec<Pending>, states: &Arc<States>) -> Result<Items> {
        let items = Items {
            current: RwLock::default(),
            registered: Mutex::default(),
        };
        let mut registered = items.lock();
        for item in pending {
            match item {
                Pending::Prompt(spec, instance) => {
                    admit_prompt(&registered, &spec, true)?;
                    let prompt = serve_prompt(spec, instance, states)?;
                    registered.prompts.push(Arc::new(prompt));
                }
                Pending::Resource(spec, instance) => {
                    let resource = serve_resource(spec, instance, states)?;
                    admit_resource(&registered, &resource, true)?;
                    registered.resources.push(Arc::new(resource));
                }
            }
        }
        let catalog = catalog_of(&registered);
        drop(registered);
        *items
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Arc::new(catalog);
        Ok(items)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registered> {
        self.registered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The prompts and resources served now.
    pub(crate) fn current(&self) -> Arc<Catalog> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Applies `change` and serves the result.
    fn change(&self, change: impl FnOnce(&mut Registered) -> Result<()>) -> Result<()> {
        let mut registered = self.lock();
        change(&mut registered)?;
        let catalog = catalog_of(&registered);
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(catalog);
        Ok(())
    }

    /// Serves the prompt of `spec` too, run on `instance`; its name must be free.
    pub(crate) fn add_prompt(
        &self,
        spec: Shared<PromptSpec>,
        instance: Option<Instance>,
        states: &Arc<States>,
    ) -> Result<()> {
        self.change(|registered| {
            admit_prompt(registered, &spec, false)?;
            let prompt = serve_prompt(spec, instance, states)?;
            registered.prompts.push(Arc::new(prompt));
            Ok(())
        })
    }

    /// Serves the resource of `spec` too, read on `instance`; no other may serve its URIs.
    pub(crate) fn add_resource(
        &self,
        spec: Shared<ResourceSpec>,
        instance: Option<Instance>,
        states: &Arc<States>,
    ) -> Result<()> {
        self.change(|registered| {
            let resource = serve_resource(spec, instance, states)?;
            admit_resource(registered, &resource, false)?;
            registered.resources.push(Arc::new(resource));
            Ok(())
        })
    }

    /// Stops serving the prompt named `name`, if `owns` its header.
    pub(crate) fn remove_prompt(&self, name: &str, owns: impl Fn(&Header) -> bool) -> Result<()> {
        self.change(|registered| {
            let before = registered.prompts.len();
            let owned = |p: &ServedPrompt| p.spec.header.name == name && owns(&p.spec.header);
            registered.prompts.retain(|p| !owned(p));
            match registered.prompts.len() < before {
                true => Ok(()),
                false => Err(Error::Unknown {
                    kind: ItemKind::Prompt,
                    name: name.to_owned(),
                }),
            }
        })
    }

    /// Stops serving the resource (or template) whose URI is `uri`, if `owns` its header.
    pub(crate) fn remove_resource(&self, uri: &str, owns: impl Fn(&Header) -> bool) -> Result<()> {
        self.change(|registered| {
            let before = registered.resources.len();
            let owned = |r: &ServedResource| r.spec.uri == uri && owns(&r.spec.header);
            registered.resources.retain(|r| !owned(r));
            match registered.resources.len() < before {
                true => Ok(()),
                false => Err(Error::Unknown {
                    kind: ItemKind::Resource,
                    name: uri.to_owned(),
                }),
            }
        })
    }
}

fn catalog_of(registered: &Registered) -> Catalog {
    Catalog::new(registered.prompts.clone(), registered.resources.clone())
}

/// Refuses a prompt whose name is taken.
fn admit_prompt(registered: &Registered, spec: &PromptSpec, start_up: bool) -> Result<()> {
    match registered
        .prompts
        .iter()
        .find(|p| p.spec.header.name == spec.header.name)
    {
        None => Ok(()),
        Some(served) => Err(Error::clash(
            ItemKind::Prompt,
            format!("two prompts are named `{}`", spec.header.name),
            &served.spec.header,
            &spec.header,
            start_up,
        )),
    }
}

/// Refuses a resource that would serve a URI another already serves.
fn admit_resource(
    registered: &Registered,
    resource: &ServedResource,
    start_up: bool,
) -> Result<()> {
    let spec = &resource.spec;
    let taken = registered
        .resources
        .iter()
        .find(|served| served.template.overlaps(&resource.template));
    match taken {
        None => Ok(()),
        Some(served) => {
            let detail = match served.spec.uri == spec.uri {
                true => format!("two resources serve `{}`", spec.uri),
                false => format!(
                    "resources `{}` and `{}` serve some of the same URIs",
                    served.spec.uri, spec.uri
                ),
            };
            Err(Error::clash(
                ItemKind::Resource,
                detail,
                &served.spec.header,
                &spec.header,
                start_up,
            ))
        }
    }
}
