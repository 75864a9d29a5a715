//! An argument's `default` must be written into the input schema, where clients read it: its
//! type must serialize. (schemars leaves the keyword out, without a word, for a type that does
//! not.)

use serde::Serialize;

/// Implemented by the types whose values an argument's `default` can show in the schema: every
/// `Serialize` type.
#[diagnostic::on_unimplemented(
    message = "the default of a `{Self}` argument cannot be written into the input schema",
    label = "`{Self}` does not implement `Serialize`",
    note = "clients read an argument's default from the schema: derive `Serialize` for `{Self}`, or drop `default` and handle a missing value in the function"
)]
pub trait SchemaDefault {}

// Reported as `SchemaDefault` missing, with the note above, rather than as `Serialize`.
#[diagnostic::do_not_recommend]
impl<T: Serialize> SchemaDefault for T {}

/// Asserts `T: SchemaDefault`; generated code evaluates it at an argument's `default`.
pub const fn schema_default<T: SchemaDefault>() {}
