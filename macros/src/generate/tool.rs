//! A checked tool to tokens: the items every tool needs, and how a free function's or a
//! method's tool is registered.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::{Type, Visibility};

use crate::attr::key::WithSpan;
use crate::check::checked::Checked;
use crate::generate::arguments::{args_struct, argument_local, bind, header_checks};
use crate::generate::injected::{injection, injectors};
use crate::generate::outcome::outcome;
use crate::generate::target::Target;
use crate::generate::tokens::option;
use crate::model::param::ParamKind;
use crate::model::tool::Tool;

// Input:
//     /// Adds two integers.
//     #[mcp_tool(read_only)]
//     fn add(a: i64, b: i64) -> i64 { a + b }
// Output (beside the function, which is kept as written):
//     struct add {}                          // names the tool: `server.tool::<add>()`
//     const _: () = {
//         struct __ToolArgs { a: i64, b: i64 }          // Deserialize + JsonSchema
//         fn __outcome() -> impl Outcome<i64> { .. }    // how an i64 becomes a result
//         fn __requirements(..) { .. }                  // what injected parameters need
//         fn __call(invocation: Invocation) -> ToolOutput { .. add(a, b) .. }
//         static __SPEC: ToolSpec = ToolSpec { name: "add", .. };
//         impl Tool for add { .. }
//         inventory::submit!(Registration(Item::Tool(&__SPEC)));  // for `server.discover()`
//     };
pub(crate) fn free(tool: &Checked<Tool<'_>>, vis: &Visibility) -> TokenStream {
    let target = target(tool);
    let private = target.private();
    let function = &tool.function.sig.ident;
    let marker_doc = format!(
        "The MCP tool `{}` of [`{function}()`]: register it with `server.tool::<{function}>()`.",
        tool.name
    );
    let items = items(tool, &target);
    quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types)]
        #vis struct #function {}

        const _: () = {
            #items
            impl #private::Tool for #function {
                fn spec() -> &'static #private::ToolSpec {
                    &__SPEC
                }
            }
            #private::inventory::submit! {
                #private::Registration(#private::Item::Tool(&__SPEC))
            }
        };
    }
}

/// A method's tool: the same items, registered under its type, so that `server.tools(instance)`
/// finds it.
pub(crate) fn method(tool: &Checked<Tool<'_>>, owner: &Type) -> TokenStream {
    let target = target(tool);
    let items = items(tool, &target);
    let krate = &target.krate;
    quote! {
        const _: () = {
            #items
            #krate::__private::inventory::submit! {
                #krate::__private::MethodRegistration {
                    owner: ::core::any::TypeId::of::<#owner>,
                    item: #krate::__private::Item::Tool(&__SPEC),
                }
            }
        };
    }
}

fn target<'a>(tool: &Tool<'a>) -> Target<'a> {
    Target::new(tool.attributes.krate.as_ref(), tool.function.site)
}

/// The items every tool needs, free or method: arguments, shape, requirements, handler, spec.
fn items(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let function = &tool.function;
    let private = target.private();
    let input_schema = match function.whole() {
        Some(inner) => {
            let inner = target.ty(inner);
            quote!(#private::whole_input_schema::<#inner>)
        }
        None => quote!(#private::input_schema::<__ToolArgs>),
    };
    let args_struct = function
        .whole()
        .is_none()
        .then(|| args_struct(function, target));
    let outcome = outcome(function, target);
    let requirements = injectors(function, target);
    let headers = header_checks(function, target);
    let call = call(tool, target);
    let spec = spec(tool, target, &input_schema);
    quote! {
        #args_struct
        #outcome
        #requirements
        #headers
        #call
        #spec
    }
}

/// The handler: bind the arguments, inject the rest, call the function, shape the result.
fn call(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let function = &tool.function;
    let private = target.private();
    let bind = bind(function, target);
    let mut injects = Vec::new();
    let call_args: Vec<TokenStream> = function
        .params
        .iter()
        .enumerate()
        .map(|(i, param)| match &param.kind {
            ParamKind::Argument(_) => argument_local(param.ident).to_token_stream(),
            ParamKind::Whole { .. } => quote!(#private::Args(__whole)),
            ParamKind::Injected(injected) => {
                let (make, pass) = injection(i, injected, target);
                injects.push(make);
                pass
            }
        })
        .collect();
    let name = &function.sig.ident;
    let (this, callee) = match target.owner {
        Some(owner) => (
            quote! {
                let __this: &#owner = __invocation.instance::<#owner>();
            },
            quote!(__this.#name),
        ),
        None => (quote!(), quote!(#name)),
    };
    let invoke = if function.is_async() {
        quote!(#callee(#(#call_args),*).await)
    } else {
        quote!(#callee(#(#call_args),*))
    };
    let body = quote! {
        #bind
        #(#injects)*
        #this
        let __returned = #invoke;
        #private::select::Outcome::finish(&__outcome(), __returned)
    };
    if function.is_async() {
        let boxed = quote_spanned! {name.span()=>
            #private::tool_future(async move { #body })
        };
        quote! {
            fn __call(__invocation: #private::Invocation) -> #private::BoxFuture {
                #boxed
            }
        }
    } else {
        quote! {
            fn __call(__invocation: #private::Invocation) -> #private::ToolOutput {
                #body
            }
        }
    }
}

fn spec(tool: &Tool<'_>, target: &Target<'_>, input_schema: &TokenStream) -> TokenStream {
    let private = target.private();
    let attributes = &tool.attributes;
    let name = &tool.name;
    let title = option(attributes.title.as_ref());
    let description = option(tool.description.as_ref());
    let hint = |h: &Option<WithSpan<bool>>| option(h.as_ref().map(|h| h.value));
    let (read_only, destructive, idempotent, open_world) = (
        hint(&attributes.read_only),
        hint(&attributes.destructive),
        hint(&attributes.idempotent),
        hint(&attributes.open_world),
    );
    let handler = if tool.function.is_async() {
        format_ident!("Async")
    } else {
        format_ident!("Sync")
    };
    let raw_input_schema = option(attributes.input_schema.as_ref());
    let meta = option(attributes.meta.as_ref());
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
    let ignore_unknown_arguments = hint(&attributes.ignore_unknown_arguments);
    // Spanned at the function's name, so that a duplicate-name error points at the definition.
    let site = tool.function.sig.ident.span();
    let file = quote_spanned!(site=> ::core::file!());
    let line = quote_spanned!(site=> ::core::line!());
    quote! {
        static __SPEC: #private::ToolSpec = #private::ToolSpec {
            name: #name,
            title: #title,
            description: #description,
            annotations: #private::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            input_schema: #input_schema,
            output_schema: __output_schema,
            handler: #private::Handler::#handler(__call),
            requirements: __requirements,
            raw_input_schema: #raw_input_schema,
            icons: &[#(#icons),*],
            tags: &[#(#tags),*],
            ignore_unknown_arguments: #ignore_unknown_arguments,
            meta: #meta,
            file: #file,
            line: #line,
        };
    }
}
