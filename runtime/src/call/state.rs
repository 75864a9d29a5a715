//! Shared state: [`State<T>`], the value of type `T` every call shares, and the server's states
//! by type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

/// Shared state of type `T`, registered on the server with `Server::state` and handed to every
/// tool that takes a `State<T>` parameter. Cloning it is cheap: all calls share one `T`.
pub struct State<T>(Arc<T>);

impl<T> State<T> {
    /// The shared pointer to the state.
    pub fn arc(&self) -> &Arc<T> {
        &self.0
    }
}

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<T> Deref for State<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for State<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("State").field(&self.0).finish()
    }
}

/// The server's states, by type.
#[derive(Default, Clone)]
pub(crate) struct States(HashMap<TypeId, Arc<dyn Any + Send + Sync>>);

impl States {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: Arc<T>) {
        self.0.insert(TypeId::of::<T>(), value);
    }

    /// These states, and those of `below` of the types these have none of.
    pub(crate) fn over(&self, below: States) -> States {
        let mut states = below.0;
        states.extend(self.0.iter().map(|(id, value)| (*id, Arc::clone(value))));
        States(states)
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.0.contains_key(&id)
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<State<T>> {
        let any = Arc::clone(self.0.get(&TypeId::of::<T>())?);
        any.downcast::<T>().ok().map(State)
    }
}
