//! [`Shared`]: a spec as the server holds it, whether the macros wrote it into the program or
//! it was made while the program runs.

use std::ops::Deref;
use std::sync::Arc;

/// A spec the server holds: one the macros generated, borrowed for the program's life, or one
/// made at run time, shared by the server and the calls still running with it.
pub(crate) enum Shared<T: 'static> {
    /// Generated: a `static` of the program.
    Static(&'static T),
    /// Made at run time.
    Owned(Arc<T>),
}

impl<T> Shared<T> {
    /// Whether both are the same spec (not merely equal ones): a generated item registered twice.
    pub(crate) fn same(&self, other: &Shared<T>) -> bool {
        std::ptr::eq::<T>(&**self, &**other)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        match self {
            Shared::Static(spec) => Shared::Static(spec),
            Shared::Owned(spec) => Shared::Owned(Arc::clone(spec)),
        }
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Shared::Static(spec) => spec,
            Shared::Owned(spec) => spec,
        }
    }
}

impl<T> From<&'static T> for Shared<T> {
    fn from(spec: &'static T) -> Self {
        Shared::Static(spec)
    }
}
