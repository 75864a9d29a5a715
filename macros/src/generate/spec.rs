//! What every kind of item's spec has alike: the header (its name and texts, what its injected
//! parameters need, its icons, tags, scopes and `_meta`, and where it is defined), and how it
//! runs.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::attr::item::ItemAttributes;
use crate::attr::key::Text;
use crate::generate::target::Target;
use crate::generate::tokens::option;
use crate::model::function::Function;

/// The shared fields of a spec's struct expression (`header` and `handler`), each followed by a
/// comma, naming the handler `__call` and the requirements `__requirements` generated beside it.
pub(crate) fn shared_fields(
    function: &Function<'_>,
    name: &str,
    description: Option<&Text>,
    attributes: &ItemAttributes,
    target: &Target<'_>,
) -> TokenStream {
    let private = target.private();
    // Texts are borrowed: an item made at run time owns its own.
    let text = |t: &dyn quote::ToTokens| quote!(#private::Cow::Borrowed(#t));
    let title = option(attributes.title.as_ref().map(|t| text(t)));
    let description = option(description.map(|t| text(t)));
    let name = text(&name);
    let handler = if function.is_async() {
        format_ident!("Async")
    } else {
        format_ident!("Sync")
    };
    let icons = attributes.icons.iter().map(|icon| {
        let src = &icon.src;
        let mime_type = option(icon.mime_type.as_ref());
        let theme = option(icon.theme.as_ref());
        let sizes = &icon.sizes;
        quote! {
            #private::Icon { src: #src, mime_type: #mime_type, sizes: &[#(#sizes),*], theme: #theme }
        }
    });
    let tags = &attributes.tags;
    let scopes = &attributes.scopes;
    let meta = option(attributes.meta.as_ref().map(|t| text(t)));
    // Spanned at the function's name, so that a duplicate-name error points at the definition.
    let site = function.sig.ident.span();
    let file = quote_spanned!(site=> ::core::file!());
    let line = quote_spanned!(site=> ::core::line!());
    quote! {
        header: #private::Header {
            name: #name,
            title: #title,
            description: #description,
            requirements: __requirements,
            icons: &[#(#icons),*],
            tags: &[#(#tags),*],
            scopes: &[#(#scopes),*],
            meta: #meta,
            file: #file,
            line: #line,
            module: ::core::module_path!(),
            mount: ::core::option::Option::None,
        },
        handler: #private::Handler::#handler(__call),
    }
}
