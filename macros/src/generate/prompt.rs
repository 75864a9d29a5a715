//! A checked prompt to tokens: the items every prompt needs, registered for a free function or
//! a method.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Type, Visibility};

use crate::check::checked::Checked;
use crate::generate::registration;
use crate::generate::string_item::{Generated, Output, generated};
use crate::generate::target::{Made, Target};
use crate::model::prompt::Prompt;

// Input:
//     /// Reviews code.
//     #[mcp_prompt]
//     fn review(code: String, #[arg(complete = languages)] language: Option<String>) -> String
// Output (beside the function, which is kept as written):
//     struct review {}                          // names the prompt: `server.prompt::<review>()`
//     const _: () = {
//         struct __PromptArgs { code: String, language: Option<String> }  // Deserialize + JsonSchema
//         fn __into_output(__value: String) -> PromptOutput { IntoPrompt::into_prompt(__value) }
//         fn __requirements(..) { .. }                  // what injected parameters need
//         fn __complete_language(Completing) -> CompletionFuture { complete_with(languages, ..) }
//         fn __call(invocation: Invocation) -> PromptOutput { .. __into_output(review(..)) }
//         static __SPEC: PromptSpec = PromptSpec {
//             name: "review", arguments: input_schema::<__PromptArgs>,
//             completions: &[("language", __complete_language)], ..
//         };
//         impl Prompt for review { .. }
//         inventory::submit!(Registration(Item::Prompt(&__SPEC)));  // for `server.discover()`
//     };
pub(crate) fn free(prompt: &Checked<Prompt<'_>>, vis: &Visibility) -> TokenStream {
    let target = target(prompt);
    registration::free(
        &prompt.function,
        &prompt.name,
        Some(prompt.name_span),
        vis,
        &target,
        items(prompt, &target),
    )
}

/// A method's prompt: the same items, registered under its type.
pub(crate) fn method(prompt: &Checked<Prompt<'_>>, owner: &Type) -> TokenStream {
    let target = target(prompt);
    registration::method(owner, &target, items(prompt, &target))
}

fn target<'a>(prompt: &Prompt<'a>) -> Target<'a> {
    Target::new(
        prompt.attributes.krate.as_ref(),
        prompt.function.site,
        Made::Prompt,
    )
}

fn items(prompt: &Prompt<'_>, target: &Target<'_>) -> TokenStream {
    let private = target.private();
    let output = Output {
        parameters: quote!(),
        body: quote!(#private::IntoPrompt::into_prompt(__value)),
        call: quote!(__into_output(__returned)),
    };
    let Generated {
        items,
        shared,
        completions,
    } = generated(
        &prompt.function,
        &prompt.name,
        prompt.description.as_ref(),
        &prompt.attributes,
        target,
        output,
    );
    let arguments = target.item.arguments();
    quote! {
        #items
        static __SPEC: #private::PromptSpec = #private::PromptSpec {
            #shared
            arguments: #private::input_schema::<#arguments>,
            raw_arguments: ::core::option::Option::None,
            completions: #completions,
        };
    }
}
