//! The model to tokens. Everything fallible happened before: generation cannot fail.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ItemFn, Lifetime, Path, Type, Visibility};

use crate::ast::{ParamKind, Tool};
use crate::attr::key::{Text, WithSpan};
use crate::check::{self, Site};
use crate::syntax::unraw;

/// Parses, checks and generates a free-function tool; errors come back combined.
pub(crate) fn tool(args: TokenStream, function: &ItemFn) -> syn::Result<TokenStream> {
    let args = crate::attr::tool::parse(args)?;
    let tool = Tool::parse(args, &function.attrs, &function.sig)?;
    check::tool(&tool, Site::Free)?;
    Ok(free(&tool, &function.vis))
}

/// Where the generated code is going, and what it must name.
pub(crate) struct Target<'a> {
    krate: Path,
    /// The `Self` type of a method tool.
    owner: Option<&'a Type>,
}

impl<'a> Target<'a> {
    pub(crate) fn new(tool: &Tool<'_>, owner: Option<&'a Type>) -> Target<'a> {
        let krate = tool
            .args
            .krate
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::toolwright));
        Target { krate, owner }
    }

    fn private(&self) -> TokenStream {
        let krate = &self.krate;
        quote!(#krate::__private)
    }

    /// A type from the signature, as code outside the impl block must write it.
    fn ty(&self, ty: &Type) -> TokenStream {
        match self.owner {
            Some(owner) => replace_self(ty.to_token_stream(), owner),
            None => ty.to_token_stream(),
        }
    }
}

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
//         inventory::submit!(Registration(&__SPEC));   // found by `server.discover()`
//     };
fn free(tool: &Tool<'_>, vis: &Visibility) -> TokenStream {
    let target = Target::new(tool, None);
    let private = target.private();
    let function = &tool.sig.ident;
    let marker_doc = format!(
        "The MCP tool `{}` of [`{function}()`]: register it with `server.tool::<{function}>()`.",
        tool.name
    );
    let body = body(tool, &target);
    quote! {
        #[doc = #marker_doc]
        #[allow(non_camel_case_types)]
        #vis struct #function {}

        const _: () = {
            #body
            impl #private::Tool for #function {
                fn spec() -> &'static #private::ToolSpec {
                    &__SPEC
                }
            }
            #private::inventory::submit! { #private::Registration(&__SPEC) }
        };
    }
}

/// The items every tool needs, free or method: arguments, shape, requirements, handler, spec.
pub(crate) fn body(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let input_schema = match tool.whole() {
        Some(inner) => {
            let inner = target.ty(inner);
            quote!(#private::whole_input_schema::<#inner>)
        }
        None => quote!(#private::input_schema::<__ToolArgs>),
    };
    let args_struct = tool.whole().is_none().then(|| args_struct(tool, target));
    let outcome = outcome(tool, target);
    let requirements = requirements(tool, target);
    let headers = header_arguments(tool, target);
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

/// The client's arguments as one struct: serde binds it, schemars describes it.
fn args_struct(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let krate = &target.krate;
    let serde_path = format!("{}::__private::serde", path_string(krate));
    let schemars_path = format!("{}::__private::schemars", path_string(krate));
    let mut defaults = Vec::new();
    let fields: Vec<TokenStream> = tool
        .arguments()
        .map(|param| {
            let ParamKind::Argument {
                description,
                rename,
                default,
                constraints,
                schemars,
                header,
            } = &param.kind
            else {
                unreachable!("arguments() yields arguments")
            };
            let ident = param.ident;
            let ty = target.ty(param.ty);
            let description = description
                .as_ref()
                .map(|d| quote!(#[schemars(description = #d)]));
            let rename = rename.as_ref().map(|r| {
                let name = &r.value;
                quote!(#[serde(rename = #name)])
            });
            let default = default.as_ref().map(|expr| {
                let function = format_ident!("__default_{}", unraw(ident));
                let path = function.to_string();
                // schemars leaves out a default it cannot serialize: one error, at the default.
                let private = respan(target.private(), expr.span());
                let checked = respan(ty.clone(), expr.span());
                let check = quote_spanned! {expr.span()=>
                    const _: () = #private::schema_default::<#checked>();
                };
                defaults.push(quote! { #check fn #function() -> #ty { #expr } });
                quote!(#[serde(default = #path)])
            });
            let constraints = constraints.iter().map(|c| quote!(#[schemars(#c)]));
            let header = header.as_ref().map(|h| {
                let name = &h.value;
                quote!(#[schemars(extend("x-mcp-header" = #name))])
            });
            quote! { #description #rename #default #(#constraints)* #header #(#schemars)* #ident: #ty }
        })
        .collect();
    quote! {
        #(#defaults)*
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

/// One function that picks, for the return type, how its values become results: whether it is
/// a `Result` (decided on the type, so aliases work), how a success value is shaped, how an
/// error is mapped. Every use goes through it, so an unsupported type is reported once, on the
/// return type.
fn outcome(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let (ty, span) = match tool.output {
        Some(ty) => (target.ty(&with_static_lifetimes(ty)), ty.span()),
        None => (quote!(()), tool.sig.ident.span()),
    };
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

/// One `__injector_N` per injected parameter, where the `Inject` bound is checked (spanned at
/// the parameter's type, so a type that cannot be injected is reported there, once), and what
/// they need from the server, checked when it starts.
fn requirements(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let mut injectors = Vec::new();
    let mut requires = Vec::new();
    for (i, param) in tool.params.iter().enumerate() {
        if let ParamKind::Injected { inner, .. } = param.kind {
            let ty = target.ty(inner);
            let injector = format_ident!("__injector_{i}");
            let bound = quote_spanned! {inner.span()=> #private::injector::<#ty>() };
            injectors.push(quote! {
                const fn #injector() -> #private::Injector<#ty> { #bound }
            });
            if !tool.is_async() {
                // Asking the client means awaiting it: one error, at the parameter (every token
                // of the call carries its span, so the error points there).
                let span = inner.span();
                let private = respan(private.clone(), span);
                let injector = format_ident!("__injector_{i}", span = span);
                injectors.push(quote_spanned! {span=>
                    const _: () = #private::sync_injectable(#injector().asks);
                });
            }
            requires.push(quote!((#injector().require)(__requirements);));
        }
    }
    quote! {
        #(#injectors)*
        fn __requirements(__requirements: &mut #private::Requirements) {
            let _ = &__requirements;
            #(#requires)*
        }
    }
}

/// An argument sent as an HTTP header must be a string, an integer or a boolean: asserted at
/// its type, so that another type is one error there.
fn header_arguments(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let checks = tool.arguments().filter_map(|param| match &param.kind {
        ParamKind::Argument {
            header: Some(_), ..
        } => {
            let ty = target.ty(param.ty);
            Some(quote_spanned! {param.ty.span()=>
                const _: () = #private::header_argument::<#ty>();
            })
        }
        _ => None,
    });
    quote!(#(#checks)*)
}

/// The handler: bind the arguments, inject the rest, call the function, shape the result.
fn call(tool: &Tool<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let bind = match tool.whole() {
        Some(inner) => {
            let inner = target.ty(inner);
            quote! {
                let __whole: #inner = match __invocation.arguments.bind_whole::<#inner>() {
                    ::core::result::Result::Ok(__bound) => __bound,
                    ::core::result::Result::Err(__invalid) => return __invalid,
                };
            }
        }
        None => {
            // Bound to generated names: an argument called like the function must not shadow it.
            let fields = tool.arguments().map(|p| {
                let ident = p.ident;
                let local = argument_local(ident);
                quote!(#ident: #local)
            });
            quote! {
                let __ToolArgs { #(#fields),* } = match __invocation.arguments.bind::<__ToolArgs>() {
                    ::core::result::Result::Ok(__bound) => __bound,
                    ::core::result::Result::Err(__invalid) => return __invalid,
                };
            }
        }
    };
    let mut injects = Vec::new();
    let call_args: Vec<TokenStream> = tool
        .params
        .iter()
        .enumerate()
        .map(|(i, param)| match &param.kind {
            ParamKind::Argument { .. } => argument_local(param.ident).to_token_stream(),
            ParamKind::Whole { .. } => quote!(#private::Args(__whole)),
            ParamKind::Injected {
                inner, reference, ..
            } => {
                let local = format_ident!("__inject_{i}");
                let injector = format_ident!("__injector_{i}");
                let ty = target.ty(inner);
                injects.push(quote! {
                    #[allow(unused_mut)]
                    let mut #local: #ty = match __invocation.inject(#injector()) {
                        ::core::result::Result::Ok(__value) => __value,
                        ::core::result::Result::Err(__failed) => return __failed,
                    };
                });
                match reference {
                    Some(r) if r.mutability.is_some() => quote!(&mut #local),
                    Some(_) => quote!(&#local),
                    None => local.to_token_stream(),
                }
            }
        })
        .collect();
    let function = &tool.sig.ident;
    let (this, callee) = match target.owner {
        Some(owner) => (
            quote! {
                let __this: &#owner = __invocation.instance::<#owner>();
            },
            quote!(__this.#function),
        ),
        None => (quote!(), quote!(#function)),
    };
    let invoke = if tool.is_async() {
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
    if tool.is_async() {
        let boxed = quote_spanned! {function.span()=>
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
    let name = &tool.name;
    let title = option_text(tool.args.title.as_ref());
    let description = option_text(tool.description.as_ref());
    let hint = |h: &Option<WithSpan<bool>>| match h {
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
    let raw_input_schema = match &tool.args.input_schema {
        Some(expr) => quote!(::core::option::Option::Some(#expr)),
        None => quote!(::core::option::Option::None),
    };
    let meta = match &tool.args.meta {
        Some(expr) => quote!(::core::option::Option::Some(#expr)),
        None => quote!(::core::option::Option::None),
    };
    let icons = tool.args.icons.iter().map(|icon| {
        let src = &icon.src;
        let mime_type = option_str(icon.mime_type.as_ref());
        let theme = option_str(icon.theme.as_ref());
        let sizes = &icon.sizes;
        quote! {
            #private::Icon { src: #src, mime_type: #mime_type, sizes: &[#(#sizes),*], theme: #theme }
        }
    });
    let tags = &tool.args.tags;
    let ignore_unknown_arguments = hint(&tool.args.ignore_unknown_arguments);
    // Spanned at the function's name, so that a duplicate-name error points at the definition.
    let site = tool.sig.ident.span();
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

/// The local a client argument is bound to in the handler.
fn argument_local(ident: &syn::Ident) -> syn::Ident {
    format_ident!("__arg_{}", unraw(ident))
}

fn option_text(value: Option<&Text>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_str(value: Option<&String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Self` in a method's signature means the impl's type; outside the impl block it must be
/// spelt out.
fn replace_self(tokens: TokenStream, owner: &Type) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Ident(ident) if ident == "Self" => {
                let owner = owner.to_token_stream();
                quote_spanned!(ident.span()=> #owner)
            }
            TokenTree::Group(group) => {
                let mut replaced =
                    Group::new(group.delimiter(), replace_self(group.stream(), owner));
                replaced.set_span(group.span());
                TokenTree::Group(replaced).into_token_stream()
            }
            other => other.into_token_stream(),
        })
        .collect()
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

/// `tokens` with every token at `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = proc_macro2::TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}
