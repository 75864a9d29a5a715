//! How an item reaches a server: a free function's marker type, which names the item
//! (`server.tool::<add>()`) and registers it for `discover()`, and the claim of its name in its
//! module; a method's registration under its type, for `server.tools(instance)`. Alike for
//! tools, prompts and resources.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::{Type, Visibility};

use crate::generate::target::Target;
use crate::model::function::Function;

/// A free function's item: `items` (which define `static __SPEC`) inside `const _`, with the
/// marker type, named like the function, outside it. An item whose `name` must be unique (a
/// tool's, a prompt's: `unique` is where the name is written) also claims the name in its
/// module, so that two of one kind named alike in one module are a compile error there.
pub(crate) fn free(
    function: &Function<'_>,
    name: &str,
    unique: Option<Span>,
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
    let claim = unique.map(|span| {
        let claim = Ident::new(&claim_name(noun, name), span);
        quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types, dead_code)]
            enum #claim {}
        }
    });
    quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types)]
        #vis struct #marker {}
        #claim

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

/// The identifier that claims the name `name` of an item of kind `noun` in its module: every
/// name maps to a different identifier (`_` is written `__`, `-` `_h`, `.` `_d`), so two
/// claims clash exactly when the names are equal, and rustc says which name, twice defined.
fn claim_name(noun: &str, name: &str) -> String {
    let mut claim = format!("__toolwright_{noun}_named_");
    for c in name.chars() {
        match c {
            '_' => claim.push_str("__"),
            '-' => claim.push_str("_h"),
            '.' => claim.push_str("_d"),
            c if c.is_ascii_alphanumeric() => claim.push(c),
            c => claim.push_str(&format!("_u{:x}_", u32::from(c))),
        }
    }
    claim
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

#[cfg(test)]
mod tests {
    use super::claim_name;

    #[test]
    fn every_name_claims_an_identifier_of_its_own() {
        let names = ["a_b", "a-b", "a.b", "a__b", "a_hb", "ab"];
        let claims: Vec<String> = names.iter().map(|n| claim_name("tool", n)).collect();
        for (i, claim) in claims.iter().enumerate() {
            assert!(syn::parse_str::<syn::Ident>(claim).is_ok(), "{claim}");
            assert_eq!(
                claims.iter().filter(|c| *c == claim).count(),
                1,
                "{}",
                names[i]
            );
        }
    }
}
