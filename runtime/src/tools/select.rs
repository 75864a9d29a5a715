//! Compile-time choice of how a tool's return value and error are turned into a result.
//!
//! Generated code knows a tool's return type only as it is written, and a type alias
//! (`type Fallible<T> = Result<T, String>`, `anyhow::Result<T>`, `io::Result<T>`) hides whether
//! it is a `Result`. So the choice is made by the compiler, on the type itself, in three steps
//! that `#[mcp_tool]` writes out inside one function, `__outcome`:
//!
//! 1. `(&&Returns::<R>::new()).classify()` splits `R` into a success type `T` and an error
//!    type `E`: `Result<T, E>` however it is spelt, or any other `T` with no error
//!    ([`Infallible`]).
//! 2. `(&&&&kind.ok()).shape()` picks how a `T` becomes a result, and
//!    `(&&&&kind.err()).mapper()` how an `E` does.
//! 3. `kind.outcome(shape, mapper)` joins them into an [`Outcome<R>`].
//!
//! Method lookup on a reference tower tries the impls from the most specific (the most `&`s)
//! to the least, so each step picks, for the concrete type: an explicit [`IntoToolOutput`] impl
//! before the `Serialize + JsonSchema` fallback, and an author-chosen message (`Into<ToolError>`)
//! before a masked error. The last level of each tower applies to every type but carries an
//! unsatisfiable bound whose diagnostic says what is accepted, so a wrong type gets one readable
//! error at the span the macro chose.

use std::convert::Infallible;
use std::fmt::Display;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::tools::error::ToolError;
use crate::tools::output::{IntoToolOutput, Json, ToolOutput};

/// How values of a tool's success type `T` become a result.
pub struct Shape<T> {
    /// The output schema, or `None` for text.
    pub schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    /// The conversion of one value.
    pub output: fn(T) -> ToolOutput,
}

/// Marker for a tool's return type `T`, or for its success type once a `Result` is split.
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

/// A return type that is a `Result<T, E>`, whatever it is called.
pub struct IsResult<T, E>(PhantomData<fn() -> (T, E)>);

/// A return type that is not a `Result`: every value is a success.
pub struct IsValue<T>(PhantomData<fn() -> T>);

/// First choice of step 1: the return type is a `Result`.
pub trait ClassifyResult<T, E> {
    /// `Result<T, E>` splits into `T` and `E`.
    fn classify(&self) -> IsResult<T, E>;
}

impl<T, E> ClassifyResult<T, E> for &Returns<Result<T, E>> {
    fn classify(&self) -> IsResult<T, E> {
        IsResult(PhantomData)
    }
}

/// Second choice of step 1: any other type is its own success type.
pub trait ClassifyValue<T> {
    /// `T` is the success type; nothing fails.
    fn classify(&self) -> IsValue<T>;
}

impl<T> ClassifyValue<T> for Returns<T> {
    fn classify(&self) -> IsValue<T> {
        IsValue(PhantomData)
    }
}

impl<T, E> IsResult<T, E> {
    /// The success type's marker.
    pub fn ok(&self) -> Returns<T> {
        Returns::new()
    }

    /// The error type's marker.
    pub fn err(&self) -> Fails<E> {
        Fails(PhantomData)
    }

    /// Joins the choices for `T` and `E`.
    pub fn outcome(self, ok: Shape<T>, err: fn(E) -> ToolOutput) -> ResultOutcome<T, E> {
        ResultOutcome { ok, err }
    }
}

impl<T> IsValue<T> {
    /// The success type's marker.
    pub fn ok(&self) -> Returns<T> {
        Returns::new()
    }

    /// The marker of an error that never happens.
    pub fn err(&self) -> Fails<Infallible> {
        Fails(PhantomData)
    }

    /// The choice for `T`; there is no error to map.
    pub fn outcome(self, ok: Shape<T>, _err: fn(Infallible) -> ToolOutput) -> ValueOutcome<T> {
        ValueOutcome { ok }
    }
}

/// What a tool's return values of type `R` become: its output schema, and each value's result.
pub trait Outcome<R> {
    /// The output schema of the success type, or `None` for text.
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema>;
    /// The result of one returned value.
    fn finish(&self, returned: R) -> ToolOutput;
}

/// The [`Outcome`] of a `Result`: `Ok` through the shape, `Err` through the mapper.
pub struct ResultOutcome<T, E> {
    ok: Shape<T>,
    err: fn(E) -> ToolOutput,
}

impl<T, E> Outcome<Result<T, E>> for ResultOutcome<T, E> {
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        (self.ok.schema)(generator)
    }

    fn finish(&self, returned: Result<T, E>) -> ToolOutput {
        match returned {
            Ok(value) => (self.ok.output)(value),
            Err(error) => (self.err)(error),
        }
    }
}

/// The [`Outcome`] of a type that is not a `Result`.
pub struct ValueOutcome<T> {
    ok: Shape<T>,
}

impl<T> Outcome<T> for ValueOutcome<T> {
    fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        (self.ok.schema)(generator)
    }

    fn finish(&self, returned: T) -> ToolOutput {
        (self.ok.output)(returned)
    }
}

/// Before any choice of step 2: a `Result` inside a `Result` is a mistake, not a value to
/// serialize as `{"Ok": ...}`.
pub trait ViaNestedResult<T> {
    /// Never returns: `T: NotNested` holds for no type.
    fn shape(&self) -> Shape<T>
    where
        T: NestedResult;
}

impl<T, E> ViaNestedResult<Result<T, E>> for &&&Returns<Result<T, E>> {
    fn shape(&self) -> Shape<Result<T, E>>
    where
        Result<T, E>: NestedResult,
    {
        unreachable!("NestedResult has no implementations")
    }
}

/// Implemented by no type; it exists for its diagnostic.
#[diagnostic::on_unimplemented(
    message = "a tool cannot return a `Result` inside a `Result`: `{Self}` is the success type",
    label = "the success value is itself a `Result`",
    note = "return one `Result`: turn the inner error into the outer one with `?` or `map_err`"
)]
pub trait NestedResult {}

/// First choice of step 2: the type says itself how it is returned.
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
    note = "a tool may return `String`, `&str`, `()`, `Content`, `Vec<Content>`, `Json<T>`, `Structured<T>`, `Text<T>`, `ToolOutput`, any `T: Serialize + JsonSchema`, or a `Result` of one of these",
    note = "derive `serde::Serialize` and `schemars::JsonSchema` for `{Self}` to return it as structured output"
)]
pub trait ToolReturn {}

/// Marker for a tool's error type `E`.
pub struct Fails<E>(PhantomData<fn(E)>);

/// First choice: the author chose the message (`ToolError`, `String`, `&str`, or a type with
/// `From<E> for ToolError`); the client reads it verbatim.
pub trait ViaToolError<E> {
    /// The conversion.
    fn mapper(&self) -> fn(E) -> ToolOutput;
}

impl<E: Into<ToolError>> ViaToolError<E> for &&&Fails<E> {
    fn mapper(&self) -> fn(E) -> ToolOutput {
        |e| e.into().into_output()
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
    use crate::tools::output::Repr;

    /// What `#[mcp_tool]` writes in `__outcome`, for a return type `$ty`.
    macro_rules! outcome {
        ($ty:ty) => {{
            let kind = (&&Returns::<$ty>::new()).classify();
            let ok = (&&&&kind.ok()).shape();
            let err = (&&&&kind.err()).mapper();
            kind.outcome(ok, err)
        }};
    }

    fn has_schema<R>(outcome: &impl Outcome<R>) -> bool {
        outcome.schema(&mut SchemaGenerator::default()).is_some()
    }

    #[test]
    fn explicit_impls_win_over_serialize() {
        assert!(!has_schema(&outcome!(String)));
        assert!(has_schema(&outcome!(Vec<u8>)));
    }

    type Fallible<T> = Result<T, String>;
    type Again<T> = Fallible<T>;

    #[test]
    fn a_result_is_a_result_however_it_is_spelt() {
        let outcome = outcome!(Again<u32>);
        let schema = outcome.schema(&mut SchemaGenerator::default()).unwrap();
        assert_eq!(schema.get("type"), Some(&serde_json::json!("integer")));
        let out = outcome.finish(Err("boom".into()));
        assert!(matches!(
            out.repr,
            Repr::Result {
                is_error: true,
                structured: None,
                ..
            }
        ));
        let out = outcome!(std::io::Result<()>).finish(Err(std::io::Error::other("disk")));
        assert!(matches!(out.repr, Repr::Internal(ref d) if d == "disk"));
    }

    #[test]
    fn chosen_messages_are_verbatim_others_masked() {
        let out = outcome!(Result<(), ToolError>).finish(Err(ToolError::new("no such city")));
        assert!(matches!(out.repr, Repr::Result { is_error: true, .. }));

        let e: Box<dyn std::error::Error> = "boxed".into();
        let out = outcome!(Result<(), Box<dyn std::error::Error>>).finish(Err(e));
        assert!(matches!(out.repr, Repr::Internal(ref d) if d == "boxed"));
    }
}
