//! A knowledge graph in memory, as the reference memory server keeps one: entities with
//! observations, and relations between them. Tools change it; the whole graph is a resource
//! (`memory://graph`) and each entity another (`memory://entities/{name}`, its name completed
//! from those there are), so a client reads what the model knows without a tool call, and a
//! client that subscribed hears when it changes.
//!
//! A library of items, as a crate gives them to the program that serves them: [`toolset`] is
//! the server of its items and the state they need, to serve as it is (the `memory` example)
//! or to mount into another (the `composed` example).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolwright::prelude::*;

/// Someone or something the model knows of.
#[derive(Clone, Serialize, Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Entity {
    name: String,
    entity_type: String,
    observations: Vec<String>,
}

/// How two entities are related, in the active voice: `from` `relation_type` `to`.
#[derive(Clone, Serialize, Deserialize, JsonSchema, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "camelCase")]
struct Relation {
    from: String,
    to: String,
    relation_type: String,
}

/// The whole graph.
#[derive(Default, Clone, Serialize, JsonSchema, Debug)]
struct Graph {
    entities: Vec<Entity>,
    relations: Vec<Relation>,
}

/// An entity and the relations it takes part in.
#[derive(Serialize, JsonSchema)]
struct Neighbourhood {
    entity: Entity,
    relations: Vec<Relation>,
}

/// The graph, shared by every request.
#[derive(Default)]
struct Memory {
    entities: Mutex<BTreeMap<String, Entity>>,
    relations: Mutex<Vec<Relation>>,
}

impl Memory {
    fn entities(&self) -> MutexGuard<'_, BTreeMap<String, Entity>> {
        self.entities.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn relations(&self) -> MutexGuard<'_, Vec<Relation>> {
        self.relations.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the subscribers of the graph, and of each entity named, that it changed.
    fn changed<'a>(updates: &ResourceUpdates, names: impl IntoIterator<Item = &'a str>) {
        // A server that stopped has no subscribers left to tell.
        let _ = updates.updated("memory://graph");
        for name in names {
            let _ = updates.updated(&Memory::uri(name));
        }
    }

    /// The URI of an entity: its name percent-encoded, as the template `{name}` expands it.
    fn uri(name: &str) -> String {
        let mut uri = String::from("memory://entities/");
        for byte in name.bytes() {
            match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    uri.push(byte as char)
                }
                _ => uri.push_str(&format!("%{byte:02X}")),
            }
        }
        uri
    }

    /// Entity names that start with what the user typed.
    fn names(completing: Completing) -> Vec<String> {
        let Some(memory) = completing.state::<Memory>() else {
            return Vec::new();
        };
        let names: Vec<String> = memory.entities().keys().cloned().collect();
        names
            .into_iter()
            .filter(|name| name.starts_with(completing.value()))
            .collect()
    }
}

#[mcp_tool_type]
impl Memory {
    /// Adds entities the graph does not have yet (an existing name is left as it is).
    ///
    /// # Arguments
    /// * `entities` - The entities to add.
    #[mcp_tool(destructive = false, idempotent, open_world = false)]
    fn create_entities(
        &self,
        entities: Vec<Entity>,
        updates: State<ResourceUpdates>,
    ) -> Vec<Entity> {
        let mut created = Vec::new();
        {
            let mut known = self.entities();
            for entity in entities {
                if !known.contains_key(&entity.name) {
                    known.insert(entity.name.clone(), entity.clone());
                    created.push(entity);
                }
            }
        }
        Memory::changed(&updates, created.iter().map(|e| e.name.as_str()));
        created
    }

    /// Relates entities (a relation the graph has already is left out).
    ///
    /// # Arguments
    /// * `relations` - The relations, in the active voice.
    #[mcp_tool(destructive = false, idempotent, open_world = false)]
    fn create_relations(
        &self,
        relations: Vec<Relation>,
        updates: State<ResourceUpdates>,
    ) -> Result<Vec<Relation>, ToolError> {
        let known = self.entities();
        if let Some(r) = relations
            .iter()
            .find(|r| !known.contains_key(&r.from) || !known.contains_key(&r.to))
        {
            return Err(ToolError::new(format!(
                "`{}` {} `{}`: both entities must exist first",
                r.from, r.relation_type, r.to
            )));
        }
        drop(known);
        let mut created = Vec::new();
        {
            let mut all = self.relations();
            for relation in relations {
                if !all.contains(&relation) {
                    all.push(relation.clone());
                    created.push(relation);
                }
            }
        }
        let names = created
            .iter()
            .flat_map(|r| [r.from.as_str(), r.to.as_str()]);
        Memory::changed(&updates, names);
        Ok(created)
    }

    /// Adds observations to an entity.
    ///
    /// # Arguments
    /// * `name` - The entity.
    /// * `observations` - What to add about it.
    #[mcp_tool(destructive = false, open_world = false)]
    fn add_observations(
        &self,
        name: String,
        observations: Vec<String>,
        updates: State<ResourceUpdates>,
    ) -> Result<Entity, ToolError> {
        let entity = {
            let mut known = self.entities();
            let entity = known
                .get_mut(&name)
                .ok_or_else(|| ToolError::new(format!("there is no entity `{name}`")))?;
            entity.observations.extend(observations);
            entity.clone()
        };
        Memory::changed(&updates, [name.as_str()]);
        Ok(entity)
    }

    /// The whole graph: every entity and relation.
    #[mcp_resource("memory://graph", mime_type = "application/json")]
    fn graph(&self) -> Json<Graph> {
        Json(Graph {
            entities: self.entities().values().cloned().collect(),
            relations: self.relations().clone(),
        })
    }

    /// One entity, with the relations it takes part in.
    ///
    /// # Arguments
    /// * `name` - The entity's name.
    #[mcp_resource("memory://entities/{name}", mime_type = "application/json")]
    fn entity(&self, #[arg(complete = Self::names)] name: String) -> Option<Json<Neighbourhood>> {
        let entity = self.entities().get(&name).cloned()?;
        let relations = self
            .relations()
            .iter()
            .filter(|r| r.from == name || r.to == name)
            .cloned()
            .collect();
        Some(Json(Neighbourhood { entity, relations }))
    }
}

/// The graph's items (and none of the program's), with the state they need: an empty graph,
/// and the way to tell subscribers that it changed.
pub fn toolset() -> Server {
    let memory = Arc::new(Memory::default());
    let mut server = Server::new("memory", env!("CARGO_PKG_VERSION"));
    // Subscribers hear of changes; the lists stay as they are, so clients may cache them.
    let updates = server.resource_updates();
    server
        .title("Memory")
        .instructions("A knowledge graph: record entities, relations and observations; read it back as resources.")
        .state(updates)
        .shared_tools(Arc::clone(&memory))
        .shared_state(memory)
}
