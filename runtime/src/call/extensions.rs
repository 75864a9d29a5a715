//! [`Extensions`]: values a request carries beside its message.

/// Values a request carries beside its message, put there by whatever received it: a layer in
/// front of the HTTP endpoint (the caller an authentication layer verified, its claims or
/// scopes), or a test (`testing::Client::extension`). Tools read
/// them with [`Context::extension`](crate::Context::extension), visibility rules with
/// [`Caller::extension`](crate::Caller::extension), middleware through the call's context.
///
/// A type map, one value per type: the one the tower ecosystem shares (`http::Extensions`),
/// so what an HTTP layer inserted is what a tool finds. Over stdio a request carries none.
///
/// ```
/// use toolwright_runtime::Extensions;
///
/// #[derive(Clone)]
/// struct Subject(String);
///
/// let mut extensions = Extensions::new();
/// extensions.insert(Subject("ada".into()));
/// assert_eq!(extensions.get::<Subject>().map(|s| s.0.as_str()), Some("ada"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Extensions(http::Extensions);

impl Extensions {
    /// No values.
    pub fn new() -> Extensions {
        Extensions::default()
    }

    /// Adds `value`, returning the value of its type it replaces.
    pub fn insert<T: Clone + Send + Sync + 'static>(&mut self, value: T) -> Option<T> {
        self.0.insert(value)
    }

    /// The value of type `T`, if there is one.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.0.get::<T>()
    }

    /// The value of type `T`, to change.
    pub fn get_mut<T: Send + Sync + 'static>(&mut self) -> Option<&mut T> {
        self.0.get_mut::<T>()
    }

    /// Takes the value of type `T` out.
    pub fn remove<T: Send + Sync + 'static>(&mut self) -> Option<T> {
        self.0.remove::<T>()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The type map itself, as an HTTP request carries it.
    pub(crate) fn as_http(&self) -> &http::Extensions {
        &self.0
    }
}

impl From<http::Extensions> for Extensions {
    fn from(extensions: http::Extensions) -> Extensions {
        Extensions(extensions)
    }
}

impl From<Extensions> for http::Extensions {
    fn from(extensions: Extensions) -> http::Extensions {
        extensions.0
    }
}
