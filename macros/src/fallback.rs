//! The entry point's error path: when a tool cannot be generated, the user's function is still
//! emitted unchanged beside the errors, so one mistake gives one error and not a cascade of
//! "cannot find function" errors wherever the function is used.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{FnArg, ItemFn};

use crate::attr::{ARG, INJECT, SCHEMARS};
use crate::expand;

pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            let error = syn::Error::new(
                proc_macro2::Span::call_site(),
                "`#[mcp_tool]` goes on a function",
            )
            .to_compile_error();
            return quote!(#error #item);
        }
    };
    let generated = expand::tool(args, &function);
    strip_parameter_attributes(function.sig.inputs.iter_mut());
    match generated {
        Ok(generated) => quote!(#function #generated),
        Err(errors) => {
            let errors = errors.to_compile_error();
            quote!(#function #errors)
        }
    }
}

/// `#[arg]`, `#[inject]` and `#[schemars]` on a parameter are read by these macros only; the
/// compiler would reject them there.
pub(crate) fn strip_parameter_attributes<'a>(inputs: impl Iterator<Item = &'a mut FnArg>) {
    for input in inputs {
        if let FnArg::Typed(param) = input {
            param.attrs.retain(|a| {
                ![ARG, INJECT, SCHEMARS]
                    .iter()
                    .any(|name| a.path().is_ident(name))
            });
        }
    }
}
