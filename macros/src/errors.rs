//! The error context every stage reports into, as serde_derive's `Ctxt`: errors are gathered
//! rather than returned at the first one, so that one pass over an item reports every mistake
//! in it, each at its own tokens.

/// The errors found so far. It must be consumed by [`Errors::check`] (or [`Errors::finish`]):
/// dropping it unchecked panics, so an error cannot be gathered and then lost on a path that
/// forgot to look.
pub(crate) struct Errors {
    /// `None` once checked.
    errors: Option<Vec<syn::Error>>,
}

impl Errors {
    pub(crate) fn new() -> Errors {
        Errors {
            errors: Some(Vec::new()),
        }
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors
            .as_mut()
            .expect("errors are gathered only until they are checked")
            .push(error);
    }

    /// The value of `result`, or `None` with its error kept.
    pub(crate) fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// Every error gathered, combined in the order they were found; `Ok` when there is none.
    pub(crate) fn check(mut self) -> syn::Result<()> {
        let mut errors = self.errors.take().into_iter().flatten();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }

    /// `value` when no error was gathered.
    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        self.check().map(|()| value)
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        // Not while unwinding: a second panic would abort and hide the first.
        if self.errors.is_some() && !std::thread::panicking() {
            panic!("`Errors` dropped without `check()`: its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    #[test]
    fn errors_come_back_combined_in_order() {
        let mut errors = Errors::new();
        errors.push(syn::Error::new(Span::call_site(), "first"));
        assert_eq!(errors.ok(Ok::<_, syn::Error>(1)), Some(1));
        assert_eq!(
            errors.ok(Err::<(), _>(syn::Error::new(Span::call_site(), "second"))),
            None
        );
        let messages: Vec<String> = match errors.check() {
            Ok(()) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        };
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn no_error_is_ok() {
        assert!(Errors::new().check().is_ok());
        assert_eq!(Errors::new().finish(7).ok(), Some(7));
    }

    #[test]
    #[should_panic(expected = "dropped without `check()`")]
    fn dropping_unchecked_panics() {
        let _errors = Errors::new();
    }
}
