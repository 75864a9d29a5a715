//! Prompts and resources as the server serves them: each spec with what the server derives
//! from it once (a prompt's listed arguments, a resource's parsed template, the schemas values
//! bind by, the values each argument completes from), checked against the server's states.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use crate::call::completion::Completer;
use crate::call::inject::Requirements;
use crate::call::state::States;
use crate::call::to_client::form::Forms;
use crate::item::handler::Instance;
use crate::item::header::{Header, ItemKind};
use crate::item::prompt::PromptSpec;
use crate::item::resource::ResourceSpec;
use crate::item::shared::Shared;
use crate::prompts::render::{ArgumentEntry, PromptEntry, PromptOut};
use crate::protocol::ProtocolVersion;
use crate::resources::render::{ResourceEntry, ResourceOut};
use crate::resources::template::UriTemplate;
use crate::run::served::{Held, Needs};
use crate::server::error::{Error, Result};
use crate::tools::bind_error::resolve;
use crate::tools::compiled::meta_object;
use crate::tools::content::Annotations;
use crate::tools::schema::input_generator;

/// Where an argument's suggestions come from.
pub(crate) enum Suggestions {
    /// The values its type allows (a unit enum's variants).
    Values(Vec<String>),
    /// The function its `#[arg(complete = f)]` names.
    Function(Completer),
}

/// The suggestions of each argument that has any, by name.
pub(crate) type Completions = Vec<(String, Suggestions)>;

pub(crate) struct ServedPrompt {
    pub(crate) spec: Shared<PromptSpec>,
    pub(crate) held: Held,
    /// The forms its function shows.
    pub(crate) forms: Arc<Forms>,
    pub(crate) arguments: Vec<ArgumentEntry>,
    /// The arguments' schema: binding reads it (a string for a number is decoded by it, and
    /// errors name what an argument should be).
    pub(crate) schema: Arc<Value>,
    /// The argument names, so that others are ignored.
    pub(crate) known: Arc<[String]>,
    pub(crate) completions: Completions,
}

impl ServedPrompt {
    pub(crate) fn entry(&self, version: ProtocolVersion) -> PromptOut<'_> {
        let spec = &*self.spec;
        PromptEntry {
            name: &spec.header.name,
            title: spec.header.title.as_deref(),
            description: spec.header.description.as_deref(),
            arguments: &self.arguments,
            icons: spec.header.icons,
            meta: self.held.meta.as_deref(),
        }
        .for_version(version)
    }
}

pub(crate) struct ServedResource {
    pub(crate) spec: Shared<ResourceSpec>,
    pub(crate) held: Held,
    /// The forms its function shows.
    pub(crate) forms: Arc<Forms>,
    pub(crate) template: UriTemplate,
    pub(crate) annotations: Option<Annotations>,
    /// The variables' schema, as a prompt's arguments'.
    pub(crate) schema: Arc<Value>,
    pub(crate) completions: Completions,
}

impl ServedResource {
    /// Whether what a read returns may depend on who asks: it takes the caller, or needs
    /// scopes.
    pub(crate) fn per_caller(&self) -> bool {
        self.held.needs.caller || !self.spec.header.scopes.is_empty()
    }

    pub(crate) fn entry(&self, version: ProtocolVersion) -> ResourceOut<'_> {
        let spec = &*self.spec;
        ResourceEntry {
            uri: &spec.uri,
            template: !self.template.is_static(),
            name: &spec.header.name,
            title: spec.header.title.as_deref(),
            description: spec.header.description.as_deref(),
            mime_type: spec.mime_type.as_deref(),
            size: spec.size,
            annotations: self.annotations.as_ref(),
            icons: spec.header.icons,
            meta: self.held.meta.as_deref(),
        }
        .for_version(version)
    }
}

/// A prompt ready to serve.
pub(crate) fn serve_prompt(
    spec: Shared<PromptSpec>,
    instance: Option<Instance>,
    states: &Arc<States>,
) -> Result<ServedPrompt> {
    let mut forms = Forms::default();
    let held = hold(ItemKind::Prompt, &spec.header, instance, states, &mut forms)?;
    let schema = match &spec.raw_arguments {
        Some(text) => serde_json::from_str(text).map_err(|e| {
            let problem = format!("its arguments' schema is not JSON: {e}");
            Error::invalid(ItemKind::Prompt, &spec.header, problem)
        })?,
        None => schema_of(spec.arguments),
    };
    let arguments = arguments_of(&schema);
    let known: Arc<[String]> = arguments.iter().map(|a| a.name.clone()).collect();
    // A prompt made at run time names what it completes by a string.
    if let Some((name, _)) = (spec.completions.iter()).find(|(n, _)| !known.iter().any(|k| k == n))
    {
        let problem = format!("it completes `{name}`, which is not one of its arguments");
        return Err(Error::invalid(ItemKind::Prompt, &spec.header, problem));
    }
    Ok(ServedPrompt {
        completions: completions(&schema, &spec.completions),
        spec,
        held,
        forms: Arc::new(forms),
        arguments,
        schema: Arc::new(schema),
        known,
    })
}

/// A resource ready to serve.
pub(crate) fn serve_resource(
    spec: Shared<ResourceSpec>,
    instance: Option<Instance>,
    states: &Arc<States>,
) -> Result<ServedResource> {
    let invalid = |problem: String| Error::invalid(ItemKind::Resource, &spec.header, problem);
    let mut forms = Forms::default();
    let held = hold(
        ItemKind::Resource,
        &spec.header,
        instance,
        states,
        &mut forms,
    )?;
    let caller = held.needs.caller;
    if spec.cache_scope == Some("public") && (caller || !spec.header.scopes.is_empty()) {
        let why = match caller {
            true => "it takes the caller: `Auth`, or a value whose `require` says so",
            false => "it needs scopes",
        };
        return Err(invalid(format!(
            "its reads are `cache = \"public\"`, but what it returns depends on the caller \
             ({why}): a shared cache would hand one caller's contents to another; make it \
             `cache = \"private\"`"
        )));
    }
    let template = UriTemplate::parse(&spec.uri)
        .map_err(|e| invalid(format!("`{}` is not a URI template: {e}", spec.uri)))?;
    let variables = template.variables();
    if let Some((name, _)) = (spec.completions.iter()).find(|(n, _)| !variables.contains(&&**n)) {
        return Err(invalid(format!(
            "it completes `{name}`, which is not a variable of `{}`",
            spec.uri
        )));
    }
    let schema = schema_of(spec.variables);
    let annotations =
        (!spec.audience.is_empty() || spec.priority.is_some() || spec.last_modified.is_some())
            .then(|| {
                let mut annotations = Annotations::new().audience(spec.audience.iter().copied());
                annotations.priority = spec.priority;
                annotations.last_modified = spec.last_modified.map(str::to_owned);
                annotations
            });
    Ok(ServedResource {
        completions: completions(&schema, &spec.completions),
        spec,
        held,
        forms: Arc::new(forms),
        template,
        annotations,
        schema: Arc::new(schema),
    })
}

/// How the server holds an item of any kind, as `header` defines it: what its injected
/// parameters need (every state they take provided, the forms they show added to `forms`), the
/// instance a method is called on, and its `_meta` made once.
pub(crate) fn hold(
    kind: ItemKind,
    header: &Header,
    instance: Option<Instance>,
    states: &Arc<States>,
    forms: &mut Forms,
) -> Result<Held> {
    let invalid = |problem: String| Error::invalid(kind, header, problem);
    // The macros refuse a blank name at compile time; a name given as a value, here.
    if header.name.trim().is_empty() {
        return Err(invalid(format!("a {kind} name cannot be empty")));
    }
    let states = match &header.mount {
        None => Arc::clone(states),
        Some(mount) => {
            let levels = mount.levels.iter();
            Arc::new(levels.fold(States::clone(states), |below, l| l.states.over(below)))
        }
    };
    let mut needs = Requirements::default();
    (header.requirements)(&mut needs);
    if let Some((_, type_name)) = needs.states.iter().find(|(id, _)| !states.contains(*id)) {
        return Err(invalid(format!(
            "it takes a `State<{type_name}>`, but no state of that type was registered; add \
             it with `.state(...)` on the server"
        )));
    }
    needs.make_forms(forms).map_err(invalid)?;
    let meta = header.meta.as_deref().map(meta_object).transpose();
    Ok(Held {
        instance,
        needs: Needs {
            asks: needs.asks,
            starts_task: needs.starts_task,
            caller: needs.caller,
            context: needs.context,
        },
        meta: meta.map_err(|e| invalid(e.to_owned()))?,
        states,
    })
}

fn schema_of(make: fn(&mut schemars::SchemaGenerator) -> schemars::Schema) -> Value {
    make(&mut input_generator()).to_value()
}

/// The listed arguments: the schema's properties, in order, with their descriptions; required
/// unless the schema says otherwise.
fn arguments_of(schema: &Value) -> Vec<ArgumentEntry> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| {
            let text = |key: &str| {
                let own = property.get(key).and_then(Value::as_str);
                own.or_else(|| resolve(schema, property).get(key).and_then(Value::as_str))
                    .map(str::to_owned)
            };
            ArgumentEntry {
                name: name.clone(),
                title: None,
                description: text("description"),
                required: required.contains(&name.as_str()),
            }
        })
        .collect()
}

/// Each argument's suggestions: its function, or else the values its type allows.
fn completions(schema: &Value, functions: &[(Cow<'static, str>, Completer)]) -> Completions {
    let properties = schema.get("properties").and_then(Value::as_object);
    let enums = properties
        .into_iter()
        .flatten()
        .filter_map(|(name, property)| {
            let values = allowed_values(schema, property)?;
            Some((name.clone(), Suggestions::Values(values)))
        });
    let mut completions: Completions = functions
        .iter()
        .map(|(name, f)| (name.to_string(), Suggestions::Function(f.clone())))
        .collect();
    for (name, values) in enums {
        if !completions.iter().any(|(n, _)| *n == name) {
            completions.push((name, values));
        }
    }
    completions
}

/// The strings a property's schema allows, if it lists them (`enum`, or `oneOf`/`anyOf` of
/// `const`s, as schemars writes documented variants; an `Option`'s `null` left out).
fn allowed_values(root: &Value, property: &Value) -> Option<Vec<String>> {
    let schema = resolve(root, property);
    let strings = |values: &Vec<Value>| -> Vec<String> {
        values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(strings(values)).filter(|v| !v.is_empty());
    }
    let alternatives = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    let mut values = Vec::new();
    for alternative in alternatives {
        let alternative = resolve(root, alternative);
        if let Some(value) = alternative.get("const").and_then(Value::as_str) {
            values.push(value.to_owned());
        } else if let Some(more) = allowed_values(root, alternative) {
            values.extend(more);
        } else if alternative.get("type").and_then(Value::as_str) != Some("null") {
            return None;
        }
    }
    Some(values).filter(|v| !v.is_empty())
}
