//! The proof that a model passed its checks.

use std::ops::Deref;

/// A model with no problem left: only the check stage makes one, and generators take nothing
/// else, so nothing is generated from a model that has a problem.
pub(crate) struct Checked<M>(M);

impl<M> Checked<M> {
    pub(super) fn new(model: M) -> Checked<M> {
        Checked(model)
    }
}

impl<M> Deref for Checked<M> {
    type Target = M;

    fn deref(&self) -> &M {
        &self.0
    }
}
