//! A checked resource to tokens: the items every resource needs, registered for a free function
//! or a method.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Type, Visibility};

use crate::attr::resource::Audience;
use crate::check::checked::Checked;
use crate::generate::registration;
use crate::generate::string_item::{Generated, Output, generated};
use crate::generate::target::{Made, Target};
use crate::generate::tokens::option;
use crate::model::resource::Resource;

// Input:
//     /// A note.
//     #[mcp_resource("notes://{id}", mime_type = "text/markdown")]
//     fn note(id: u32, notes: State<Notes>) -> Option<String>
// Output (beside the function, which is kept as written):
//     struct note {}                            // names it: `server.resource::<note>()`
//     const _: () = {
//         struct __ResourceArgs { id: u32 }     // the template's values: Deserialize + JsonSchema
//         fn __into_output(__value: Option<String>, __read: &Read) -> ResourceOutput {
//             ResourceOutput::from_value(__value, __read)
//         }
//         fn __injector_1() -> Injector<State<Notes>> { .. }
//         fn __requirements(..) { .. }
//         fn __call(invocation: Invocation) -> ResourceOutput {
//             .. __into_output(note(id, notes), &Read { uri: invocation.resource_uri(), .. })
//         }
//         static __SPEC: ResourceSpec = ResourceSpec {
//             uri: "notes://{id}", mime_type: Some("text/markdown"),
//             variables: input_schema::<__ResourceArgs>, ..
//         };
//         impl Resource for note { .. }
//         inventory::submit!(Registration(Item::Resource(&__SPEC)));  // for `server.discover()`
//     };
pub(crate) fn free(resource: &Checked<Resource<'_>>, vis: &Visibility) -> TokenStream {
    let target = target(resource);
    registration::free(
        &resource.function,
        &resource.name,
        None,
        vis,
        &target,
        items(resource, &target),
    )
}

/// A method's resource: the same items, registered under its type.
pub(crate) fn method(resource: &Checked<Resource<'_>>, owner: &Type) -> TokenStream {
    let target = target(resource);
    registration::method(owner, &target, items(resource, &target))
}

fn target<'a>(resource: &Resource<'a>) -> Target<'a> {
    let krate = resource.attributes.item.krate.as_ref();
    Target::new(krate, resource.function.site, Made::Resource)
}

fn items(resource: &Resource<'_>, target: &Target<'_>) -> TokenStream {
    let attributes = &resource.attributes;
    let private = target.private();
    let output = Output {
        parameters: quote!(__read: &#private::Read<'_>),
        body: quote!(#private::ResourceOutput::from_value(__value, __read)),
        call: quote! {
            __into_output(__returned, &#private::Read {
                uri: __invocation.resource_uri(),
                mime_type: __SPEC.mime_type.as_deref(),
            })
        },
    };
    let Generated {
        items,
        shared,
        completions,
    } = generated(
        &resource.function,
        &resource.name,
        resource.description.as_ref(),
        &attributes.item,
        target,
        output,
    );
    let uri = &attributes.uri;
    let mime_type = option(
        (attributes.mime_type.as_ref())
            .map(|m| &m.value)
            .map(|m| quote!(#private::Cow::Borrowed(#m))),
    );
    let size = option(attributes.size.as_ref().map(|s| s.value));
    let audience = attributes.audience.iter().map(|role| match role {
        Audience::User => quote!(#private::Role::User),
        Audience::Assistant => quote!(#private::Role::Assistant),
    });
    let priority = option(attributes.priority);
    let last_modified = option(attributes.last_modified.as_ref());
    let ttl_ms = option(attributes.ttl_ms);
    let cache_scope = option(attributes.cache.as_ref());
    let variables = target.item.arguments();
    quote! {
        #items
        static __SPEC: #private::ResourceSpec = #private::ResourceSpec {
            #shared
            uri: #private::Cow::Borrowed(#uri),
            mime_type: #mime_type,
            size: #size,
            audience: &[#(#audience),*],
            priority: #priority,
            last_modified: #last_modified,
            ttl_ms: #ttl_ms,
            cache_scope: #cache_scope,
            variables: #private::input_schema::<#variables>,
            completions: #completions,
        };
    }
}
