//! The entry point's error path: when a tool cannot be generated, the user's function is still
//! emitted unchanged beside the errors, so one mistake gives one error and not a cascade of
//! "cannot find function" errors wherever the function is used.

use proc_macro2::TokenStream;
use quote::quote;
use syn::ItemFn;

use crate::attr::arg::strip_parameter_attributes;
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
