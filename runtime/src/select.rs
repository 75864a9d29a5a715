//! Compile-time choice of how a tool's return value and error are turned into a result.
//!
//! `#[mcp_tool]` code calls `(&&&Returns::<T>::new()).shape()` and
//! `(&&&&Fails::of(&e)).mapper()`. Method lookup on the reference tower tries the impls from the
//! most specific (the most `&`s) to the least, so one expression picks, for the concrete type:
//! an explicit [`IntoToolOutput`] impl before the `Serialize + JsonSchema` fallback, and an
//! author-chosen message (`Into<ToolError>`) before a masked error. The last level of each tower
//! applies to every type but carries an unsatisfiable bound whose diagnostic says what is
//! accepted, so a wrong type gets one readable error at the span the macro chose.

use std::fmt::Display;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::error::ToolError;
use crate::output::{IntoToolOutput, Json, ToolOutput};

/// How values of a tool's return type become a result.
pub struct Shape<T> {
    /// The output schema, or `None` for text.
    pub schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// The conversion of one value.
    pub output: fn(T) -> ToolOutput,
}

/// Marker for the tool's (success) return type `T`.
pub struct Returns<T>(PhantomData<fn() -> T>);

impl<T> Returns<T> {
    /// The marker.
    pub const fn new() -> Returns<T> {
        Returns(PhantomData)
    }
}

impl<T> Default for Returns<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// First choice: the type says itself how it is returned.
pub trait ViaIntoToolOutput<T> {
    /// The shape for `T`.
    fn shape(&self) -> Shape<T>;
}

impl<T: IntoToolOutput> ViaIntoToolOutput<T> for &&Returns<T> {
    fn shape(&self) -> Shape<T> {
        Shape {
            schema: T::output_schema,
            output: T::into_tool_output,
        }
    }
}

/// Second choice: any serializable type with a schema is structured output.
pub trait ViaSerialize<T> {
    /// The shape for `T`.
    fn shape(&self) -> Shape<T>;
}

impl<T: Serialize + JsonSchema> ViaSerialize<T> for &Returns<T> {
    fn shape(&self) -> Shape<T> {
        Shape {
            schema: <Json<T> as IntoToolOutput>::output_schema,
            output: |value| Json(value).into_tool_output(),
        }
    }
}

/// No choice left: the bound below fails with a message saying what a tool may return.
pub trait ViaUnsupported<T> {
    /// Never returns: `T: ToolReturn` holds for no type.
    fn shape(&self) -> Shape<T>
    where
        T: ToolReturn;
}

impl<T> ViaUnsupported<T> for Returns<T> {
    fn shape(&self) -> Shape<T>
    where
        T: ToolReturn,
    {
        unreachable!("ToolReturn has no implementations")
    }
}

/// Implemented by no type; it exists for its diagnostic.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "not a tool result",
    note = "a tool may return `String`, `&str`, `()`, `Content`, `Vec<Content>`, `Json<T>`, `Text<T>`, `ToolOutput`, any `T: Serialize + JsonSchema`, or a `Result` of one of these",
    note = "derive `serde::Serialize` and `schemars::JsonSchema` for `{Self}` to return it as structured output"
)]
pub trait ToolReturn {}

/// Marker for a tool's error type `E`, taken from a value so that aliases like
/// `anyhow::Result<T>` need not be spelt out.
pub struct Fails<E>(PhantomData<fn(E)>);

impl<E> Fails<E> {
    /// The marker for the type of `error`.
    pub fn of(error: &E) -> Fails<E> {
        let _ = error;
        Fails(PhantomData)
    }
}

/// First choice: the author chose the message (`ToolError`, `String`, `&str`, or a type with
/// `From<E> for ToolError`); the client reads it verbatim.
pub trait ViaToolError<E> {
    /// The conversion.
    fn mapper(&self) -> fn(E) -> ToolOutput;
}

impl<E: Into<ToolError>> ViaToolError<E> for &&&Fails<E> {
    fn mapper(&self) -> fn(E) -> ToolOutput {
        |e| ToolOutput::error(e.into().message())
    }
}

/// Second choice: a `std::error::Error`; masked, with the whole source chain kept for stderr.
pub trait ViaStdError<E> {
    /// The conversion.
    fn mapper(&self) -> fn(E) -> ToolOutput;
}

impl<E: std::error::Error> ViaStdError<E> for &&Fails<E> {
    fn mapper(&self) -> fn(E) -> ToolOutput {
        |e| {
            let mut detail = e.to_string();
            let mut source = e.source();
            while let Some(cause) = source {
                detail.push_str(": ");
                detail.push_str(&cause.to_string());
                source = cause.source();
            }
            ToolOutput::internal(detail)
        }
    }
}

/// Third choice: anything displayable (`anyhow::Error`, `Box<dyn Error>`); masked.
pub trait ViaDisplay<E> {
    /// The conversion.
    fn mapper(&self) -> fn(E) -> ToolOutput;
}

impl<E: Display> ViaDisplay<E> for &Fails<E> {
    fn mapper(&self) -> fn(E) -> ToolOutput {
        // `{:#}` is the one-line form with causes for error types that have one (anyhow).
        |e| ToolOutput::internal(format!("{e:#}"))
    }
}

/// No choice left: the bound below fails with a message saying what a tool may fail with.
pub trait ViaUnsupportedError<E> {
    /// Never returns: `E: ToolErrorType` holds for no type.
    fn mapper(&self) -> fn(E) -> ToolOutput
    where
        E: ToolErrorType;
}

impl<E> ViaUnsupportedError<E> for Fails<E> {
    fn mapper(&self) -> fn(E) -> ToolOutput
    where
        E: ToolErrorType,
    {
        unreachable!("ToolErrorType has no implementations")
    }
}

/// Implemented by no type; it exists for its diagnostic.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error type",
    label = "not a tool error",
    note = "a tool may fail with `ToolError`, `String`, `&str` (shown to the client), or any type that implements `std::error::Error` or `Display` (masked as an internal error)"
)]
pub trait ToolErrorType {}

#[cfg(test)]
// The reference towers are the point: the borrows select the impl.
#[allow(clippy::needless_borrow)]
mod tests {
    use super::*;
    use crate::output::Repr;

    #[test]
    fn explicit_impls_win_over_serialize() {
        let shape = (&&&Returns::<String>::new()).shape();
        assert!((shape.schema)(&mut SchemaGenerator::default()).is_none());
        let shape = (&&&Returns::<Vec<u8>>::new()).shape();
        assert!((shape.schema)(&mut SchemaGenerator::default()).is_some());
    }

    #[test]
    fn chosen_messages_are_verbatim_others_masked() {
        let e = ToolError::new("no such city");
        let out = (&&&&Fails::of(&e)).mapper()(e);
        assert!(matches!(out.repr, Repr::Result { is_error: true, .. }));

        let e = std::io::Error::other("disk on fire");
        let out = (&&&&Fails::of(&e)).mapper()(e);
        assert!(matches!(out.repr, Repr::Internal(ref d) if d == "disk on fire"));

        let e: Box<dyn std::error::Error> = "boxed".into();
        let out = (&&&&Fails::of(&e)).mapper()(e);
        assert!(matches!(out.repr, Repr::Internal(ref d) if d == "boxed"));
    }
}
