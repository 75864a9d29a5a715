//! How an item reaches a server: a free function's marker type, which names the item
//! (`server.tool::<add>()`) and registers it for `discover()`; a method's registration under
//! its type, for `server.tools(instance)`. Alike for tools, prompts and resources.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Type, Visibility};

use crate::generate::target::Target;
use crate::model::function::Function;

/// A free function's item: `items` (which define `static __SPEC`) inside `const _`, with the
/// marker type, named like the function, outside it.
pub(crate) fn free(
    function: &Function<'_>,
    name: &str,
    vis: &Visibility,
    target: &Target<'_>,
    items: TokenStream,
) -> TokenStream {
    let private = target.private();
    let (item, spec) = (target.item.item(), target.item.spec());
    let marker = &function.sig.ident;
    let noun = function.kind.noun;
    let marker_doc = format!(
        "The MCP {noun} `{name}` of [`{marker}()`]: register it with \
         `server.{noun}::<{marker}>()`."
    );
    quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types)]
        #vis struct #marker {}

        const _: () = {
            #items
            impl #private::#item for #marker {
                fn spec() -> &'static #private::#spec {
                    &__SPEC
                }
            }
            #private::inventory::submit! {
                #private::Registration(#private::Item::#item(&__SPEC))
            }
        };
    }
}

/// A method's item: `items` inside `const _`, registered under `owner`.
pub(crate) fn method(owner: &Type, target: &Target<'_>, items: TokenStream) -> TokenStream {
    let private = target.private();
    let item = target.item.item();
    quote! {
        const _: () = {
            #items
            #private::inventory::submit! {
                #private::MethodRegistration {
                    owner: ::core::any::TypeId::of::<#owner>,
                    item: #private::Item::#item(&__SPEC),
                }
            }
        };
    }
}
