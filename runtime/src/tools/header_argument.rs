//! Which argument types may travel as an HTTP header (`#[arg(header = "...")]`): strings,
//! integers and booleans, as SEP-2243 allows (not floating-point numbers), or an `Option` of one.

/// Implemented by the types an argument sent as an HTTP header may have.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent as an HTTP header",
    label = "not a string, an integer or a boolean",
    note = "an argument with `header = \"...\"` is a `String`, an integer, a `bool`, or an `Option` of one"
)]
pub trait HeaderArgument {}

impl HeaderArgument for String {}
impl HeaderArgument for bool {}
impl<T: HeaderArgument> HeaderArgument for Option<T> {}

macro_rules! integers {
    ($($t:ty),*) => { $(impl HeaderArgument for $t {})* };
}

integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Asserts `T: HeaderArgument`; generated code evaluates it at the argument's type.
pub const fn header_argument<T: HeaderArgument>() {}
