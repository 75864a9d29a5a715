//! What a prompt and a resource generate alike around their specs (items whose arguments
//! arrive as strings): the arguments struct, `__into_output`, the injectors, the completion
//! functions and `__call`, and the fields their specs share.

use proc_macro2::TokenStream;
use quote::quote;

use crate::attr::item::ItemAttributes;
use crate::attr::key::Text;
use crate::generate::arguments::args_struct;
use crate::generate::completion::completers;
use crate::generate::handler::{handler, into_output};
use crate::generate::injected::injectors;
use crate::generate::spec::shared_fields;
use crate::generate::target::Target;
use crate::model::function::Function;

/// The parts of a prompt's or a resource's expansion that are not its own.
pub(crate) struct Generated {
    /// The items beside the spec, in order.
    pub(crate) items: TokenStream,
    /// The spec's shared fields (`header`, `handler`).
    pub(crate) shared: TokenStream,
    /// The spec's `completions`.
    pub(crate) completions: TokenStream,
}

/// How a returned value becomes the kind's output, and how `__call` reaches it.
pub(crate) struct Output {
    /// `__into_output`'s parameters after the value (a resource's `Read`).
    pub(crate) parameters: TokenStream,
    /// Its body, given `__value`.
    pub(crate) body: TokenStream,
    /// What `__call` returns, given `__returned`.
    pub(crate) call: TokenStream,
}

/// The shared parts of the item `function` makes, named `name`.
pub(crate) fn generated(
    function: &Function<'_>,
    name: &str,
    description: Option<&Text>,
    attributes: &ItemAttributes,
    target: &Target<'_>,
    output: Output,
) -> Generated {
    let args_struct = args_struct(function, target);
    let into_output = into_output(function, target, output.parameters, output.body);
    let requirements = injectors(function, target);
    let (completers, completions) = completers(function, target);
    let call = handler(function, target, output.call);
    let shared = shared_fields(function, name, description, attributes, target);
    Generated {
        items: quote! {
            #args_struct
            #into_output
            #requirements
            #completers
            #call
        },
        shared,
        completions,
    }
}
