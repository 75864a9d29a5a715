//! A checked tool to tokens: the items every tool needs, registered for a free function or a
//! method.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Type, Visibility};

use crate::attr::key::WithSpan;
use crate::attr::tool::TaskSupport;
use crate::check::checked::Checked;
use crate::generate::arguments::{args_struct, header_checks};
use crate::generate::handler::handler;
use crate::generate::injected::injectors;
use crate::generate::outcome::outcome;
use crate::generate::registration;
use crate::generate::spec::shared_fields;
use crate::generate::target::{Made, Target};
use crate::generate::tokens::option;
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
    registration::free(
        &tool.function,
        &tool.name,
        Some(tool.name_span),
        vis,
        &target,
        items(tool, &target),
    )
}

/// A method's tool: the same items, registered under its type, so that `server.tools(instance)`
/// finds it.
pub(crate) fn method(tool: &Checked<Tool<'_>>, owner: &Type) -> TokenStream {
    let target = target(tool);
    registration::method(owner, &target, items(tool, &target))
}

fn target<'a>(tool: &Tool<'a>) -> Target<'a> {
    Target::new(
        tool.attributes.item.krate.as_ref(),
        tool.function.site,
        Made::Tool,
    )
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
        None => {
            let arguments = target.item.arguments();
            quote!(#private::input_schema::<#arguments>)
        }
    };
    let args_struct = function
        .whole()
        .is_none()
        .then(|| args_struct(function, target));
    let outcome = outcome(function, target);
    let requirements = injectors(function, target);
    let headers = header_checks(function, target);
    let call = handler(
        function,
        target,
        quote!(#private::select::Outcome::finish(&__outcome(), __returned)),
    );
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

fn spec(tool: &Tool<'_>, target: &Target<'_>, input_schema: &TokenStream) -> TokenStream {
    let private = target.private();
    let attributes = &tool.attributes;
    let shared = shared_fields(
        &tool.function,
        &tool.name,
        tool.description.as_ref(),
        &attributes.item,
        target,
    );
    let hint = |h: &Option<WithSpan<bool>>| option(h.as_ref().map(|h| h.value));
    let (read_only, destructive, idempotent, open_world) = (
        hint(&attributes.read_only),
        hint(&attributes.destructive),
        hint(&attributes.idempotent),
        hint(&attributes.open_world),
    );
    let raw_input_schema =
        option((attributes.input_schema.as_ref()).map(|t| quote!(#private::Cow::Borrowed(#t))));
    let ignore_unknown_arguments = hint(&attributes.ignore_unknown_arguments);
    let task = match attributes.task.as_ref().map(|t| t.value) {
        None => quote!(Forbidden),
        Some(TaskSupport::Optional) => quote!(Optional),
        Some(TaskSupport::Required) => quote!(Required),
    };
    let task_ttl_ms = option(attributes.task_ttl_ms.as_ref().map(|t| t.value));
    quote! {
        static __SPEC: #private::ToolSpec = #private::ToolSpec {
            #shared
            annotations: #private::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            input_schema: #input_schema,
            output_schema: __output_schema,
            raw_input_schema: #raw_input_schema,
            raw_output_schema: ::core::option::Option::None,
            untyped_arguments: false,
            ignore_unknown_arguments: #ignore_unknown_arguments,
            task: #private::TaskSupport::#task,
            task_ttl_ms: #task_ttl_ms,
        };
    }
}
