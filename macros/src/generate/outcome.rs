//! How a tool's returned value becomes a result, chosen by the compiler on the return type.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::generate::target::Target;
use crate::model::function::Function;

/// One function that picks, for the return type, how its values become results: whether it is
/// a `Result` (decided on the type, so aliases work), how a success value is shaped, how an
/// error is mapped. Every use goes through it, so an unsupported type is reported once, on the
/// return type.
pub(crate) fn outcome(function: &Function<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let (ty, span) = target.returned(function);
    let choose = quote_spanned! {span=>
        let __kind = (&&#private::select::Returns::<#ty>::new()).classify();
        let __ok = (&&&&__kind.ok()).shape();
        let __err = (&&&&__kind.err()).mapper();
        __kind.outcome(__ok, __err)
    };
    quote! {
        fn __outcome() -> impl #private::select::Outcome<#ty> {
            #[allow(unused_imports)]
            use #private::select::{
                ClassifyResult as _, ClassifyValue as _, ViaNestedResult as _,
                ViaIntoToolOutput as _, ViaSerialize as _, ViaUnsupported as _,
                ViaToolError as _, ViaStdError as _, ViaDisplay as _, ViaUnsupportedError as _,
            };
            #choose
        }
        fn __output_schema(
            generator: &mut #private::schemars::SchemaGenerator,
        ) -> ::core::option::Option<#private::schemars::Schema> {
            #private::select::Outcome::schema(&__outcome(), generator)
        }
    }
}
