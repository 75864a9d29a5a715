//! The model to tokens. Everything fallible happened before: generation cannot fail.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemFn, Lifetime, Path, Type};

use crate::ast::{Output, Tool};
use crate::{attr, check};

/// Parses, checks and generates; errors come back combined.
pub(crate) fn tool(args: TokenStream, function: &ItemFn) -> syn::Result<TokenStream> {
    let args = attr::tool_args(args)?;
    let tool = Tool::parse(args, function)?;
    check::tool(&tool)?;
    Ok(generate(&tool))
}

// Input:
//     /// Adds two integers.
//     #[mcp_tool(read_only)]
//     fn add(a: i64, b: i64) -> i64 { a + b }
// Output (beside the function, which is kept as written):
//     struct add {}                          // names the tool: `server.tool::<add>()`
//     const _: () = {
//         struct __ToolArgs { a: i64, b: i64 }          // Deserialize + JsonSchema
//         fn __shape() -> Shape<i64> { .. }             // how an i64 becomes a result
//         fn __call(args: Arguments) -> ToolOutput { .. add(a, b) .. }
//         static __SPEC: ToolSpec = ToolSpec { name: "add", .. };
//         impl Tool for add { .. }
//         inventory::submit!(Registration(&__SPEC));   // found by `server.discover()`
//     };
fn generate(tool: &Tool<'_>) -> TokenStream {
    let krate = tool
        .args
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::toolwright));
    let private = quote!(#krate::__private);
    let function = &tool.original.sig.ident;
    let vis = &tool.original.vis;
    let marker_doc = format!(
        "The MCP tool `{}` of [`{function}()`]: register it with `server.tool::<{function}>()`.",
        tool.name
    );
    let args_struct = args_struct(tool, &krate);
    let shape = shape(tool, &private);
    let call = call(tool, &private);
    let spec = spec(tool, &private);
    quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types)]
        #vis struct #function {}

        const _: () = {
            #args_struct
            #shape
            #call
            #spec
            impl #private::Tool for #function {
                fn spec() -> &'static #private::ToolSpec {
                    &__SPEC
                }
            }
            #private::inventory::submit! { #private::Registration(&__SPEC) }
        };
    }
}

/// The client's arguments as one struct: serde binds it, schemars describes it.
fn args_struct(tool: &Tool<'_>, krate: &Path) -> TokenStream {
    let serde_path = format!("{}::__private::serde", path_string(krate));
    let schemars_path = format!("{}::__private::schemars", path_string(krate));
    let fields = tool.params.iter().map(|param| {
        let ident = param.ident;
        let ty = param.ty;
        let description = param
            .description
            .as_ref()
            .map(|d| quote!(#[schemars(description = #d)]));
        quote! { #description #ident: #ty }
    });
    quote! {
        #[derive(#krate::__private::serde::Deserialize, #krate::__private::schemars::JsonSchema)]
        #[serde(crate = #serde_path, deny_unknown_fields)]
        #[schemars(crate = #schemars_path)]
        struct __ToolArgs {
            #(#fields,)*
        }
    }
}

fn path_string(path: &Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}

/// One function that picks, for the return type, how values become results. Every use goes
/// through it, so an unsupported return type is reported once, on the return type.
fn shape(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let (ty, span) = match tool.output.value_type() {
        Some(ty) => (quote!(#ty), ty.span()),
        None => (quote!(()), tool.original.sig.ident.span()),
    };
    let ty = tool.output.value_type().map_or(ty, |t| {
        let t = with_static_lifetimes(t);
        quote!(#t)
    });
    let select = quote_spanned! {span=>
        (&&&#private::select::Returns::<#ty>::new()).shape()
    };
    quote! {
        fn __shape() -> #private::select::Shape<#ty> {
            #[allow(unused_imports)]
            use #private::select::{ViaIntoToolOutput as _, ViaSerialize as _, ViaUnsupported as _};
            #select
        }
        fn __output_schema(
            generator: &mut #private::schemars::SchemaGenerator,
        ) -> ::core::option::Option<#private::schemars::Schema> {
            (__shape().schema)(generator)
        }
    }
}

/// The handler: bind the arguments, call the function, shape what it returned.
fn call(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let function = &tool.original.sig.ident;
    let idents: Vec<_> = tool.params.iter().map(|p| p.ident).collect();
    let invoke = if tool.is_async() {
        quote!(#function(#(#idents),*).await)
    } else {
        quote!(#function(#(#idents),*))
    };
    let finish = match tool.output {
        Output::Value(_) => quote!((__shape().output)(__returned)),
        Output::Result(_) => {
            let span = tool.original.sig.output.span();
            let map_error = quote_spanned! {span=>
                (&&&&#private::select::Fails::of(&__error)).mapper()
            };
            quote! {
                match __returned {
                    ::core::result::Result::Ok(__value) => (__shape().output)(__value),
                    ::core::result::Result::Err(__error) => {
                        #[allow(unused_imports)]
                        use #private::select::{
                            ViaToolError as _, ViaStdError as _, ViaDisplay as _,
                            ViaUnsupportedError as _,
                        };
                        #map_error(__error)
                    }
                }
            }
        }
    };
    let body = quote! {
        let __ToolArgs { #(#idents),* } = match __arguments.bind::<__ToolArgs>() {
            ::core::result::Result::Ok(__bound) => __bound,
            ::core::result::Result::Err(__invalid) => return __invalid,
        };
        let __returned = #invoke;
        #finish
    };
    if tool.is_async() {
        quote! {
            fn __call(__arguments: #private::Arguments) -> #private::BoxFuture {
                ::std::boxed::Box::pin(async move { #body })
            }
        }
    } else {
        quote! {
            fn __call(__arguments: #private::Arguments) -> #private::ToolOutput {
                #body
            }
        }
    }
}

fn spec(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let name = &tool.name;
    let title = option_str(tool.args.title.as_ref().map(|t| &t.value));
    let description = option_str(tool.description.as_ref());
    let hint = |h: &Option<attr::Spanned<bool>>| match h {
        Some(h) => {
            let value = h.value;
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    };
    let args = &tool.args;
    let (read_only, destructive, idempotent, open_world) = (
        hint(&args.read_only),
        hint(&args.destructive),
        hint(&args.idempotent),
        hint(&args.open_world),
    );
    let handler = if tool.is_async() {
        format_ident!("Async")
    } else {
        format_ident!("Sync")
    };
    // Spanned at the function's name, so that a duplicate-name error points at the definition.
    let site = tool.original.sig.ident.span();
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
            input_schema: #private::input_schema::<__ToolArgs>,
            output_schema: __output_schema,
            handler: #private::Handler::#handler(__call),
            file: #file,
            line: #line,
        };
    }
}

fn option_str(value: Option<&String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// `&str` in a return type names no lifetime; in the generated signature it must be `'static`
/// (the only lifetime a returned reference can have when no argument is borrowed).
fn with_static_lifetimes(ty: &Type) -> Type {
    let mut ty = ty.clone();
    fill_lifetimes(&mut ty);
    ty
}

fn fill_lifetimes(ty: &mut Type) {
    match ty {
        Type::Reference(r) => {
            if r.lifetime.is_none() {
                r.lifetime = Some(Lifetime::new("'static", Span::call_site()));
            }
            fill_lifetimes(&mut r.elem);
        }
        Type::Path(p) => {
            for segment in &mut p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in &mut args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            fill_lifetimes(t);
                        }
                    }
                }
            }
        }
        Type::Tuple(t) => t.elems.iter_mut().for_each(fill_lifetimes),
        Type::Array(a) => fill_lifetimes(&mut a.elem),
        Type::Slice(s) => fill_lifetimes(&mut s.elem),
        Type::Paren(p) => fill_lifetimes(&mut p.elem),
        _ => {}
    }
}
