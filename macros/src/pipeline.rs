//! Each macro as its stages: parse the attribute, build the model, check it, generate from the
//! checked model. A stage runs only when the one before it found no error, so a mistake is
//! reported once, by the stage that understands it.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Signature};

use crate::check::checked::Checked;
use crate::check::tool_type::Marked;
use crate::errors::Errors;
use crate::fallback;
use crate::model::function::Site;
use crate::model::impl_block::{MarkedMethod, one_kind_each, take_marked};
use crate::model::kind::{PROMPT, RESOURCE, TOOL};
use crate::model::prompt::Prompt;
use crate::model::resource::Resource;
use crate::model::tool::Tool;

/// `#[mcp_tool]` on a free function.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::function(&TOOL, item, |function| {
        let tool = checked_tool(args, &function.attrs, &function.sig, Site::Free)?;
        Ok(crate::generate::tool::free(&tool, &function.vis))
    })
}

/// `#[mcp_prompt]` on a free function.
pub(crate) fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::function(&PROMPT, item, |function| {
        let prompt = checked_prompt(args, &function.attrs, &function.sig, Site::Free)?;
        Ok(crate::generate::prompt::free(&prompt, &function.vis))
    })
}

/// `#[mcp_resource("uri")]` on a free function.
pub(crate) fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::function(&RESOURCE, item, |function| {
        let resource = checked_resource(args, &function.attrs, &function.sig, Site::Free)?;
        Ok(crate::generate::resource::free(&resource, &function.vis))
    })
}

/// `#[mcp_tool_type]` on an impl block: its tools, prompts and resources. The block is always
/// emitted (without the attributes the compiler would reject), with every item that could be
/// made and every error found.
pub(crate) fn tool_type(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block = match fallback::impl_block(&TOOL, item) {
        Ok(block) => block,
        Err(tokens) => return tokens,
    };
    let mut errors = Errors::new();
    crate::check::impl_block::check(&TOOL, &args, &block, &mut errors);
    for problem in one_kind_each(&mut block, &[&TOOL, &PROMPT, &RESOURCE]) {
        errors.push(problem);
    }
    let tools = take_marked(&mut block, &TOOL);
    let prompts = take_marked(&mut block, &PROMPT);
    let resources = take_marked(&mut block, &RESOURCE);
    let owner = &*block.self_ty;
    let site = Site::Method { owner };
    let tool_type = crate::check::tool_type::check(
        owner,
        tools.iter().map(|m| {
            marked(m, |args| {
                checked_tool(args, &m.method.attrs, &m.method.sig, site)
            })
        }),
        prompts.iter().map(|m| {
            marked(m, |args| {
                checked_prompt(args, &m.method.attrs, &m.method.sig, site)
            })
        }),
        resources.iter().map(|m| {
            marked(m, |args| {
                checked_resource(args, &m.method.attrs, &m.method.sig, site)
            })
        }),
        &mut errors,
    );
    let generated = crate::generate::tool_type::items(&tool_type);
    let errors = errors.check().err().map(|e| e.to_compile_error());
    quote! {
        #block
        #generated
        #errors
    }
}

/// A marked method's item, made by `make` from its attribute's arguments, if it has any.
fn marked<M>(
    method: &MarkedMethod,
    make: impl FnOnce(TokenStream) -> syn::Result<Checked<M>>,
) -> Marked<M> {
    Marked {
        problems: method.problems.clone(),
        item: method.args.clone().map(make),
    }
}

/// One tool through parse, model and check.
fn checked_tool<'a>(
    args: TokenStream,
    attrs: &'a [Attribute],
    sig: &'a Signature,
    site: Site<'a>,
) -> syn::Result<Checked<Tool<'a>>> {
    let attributes = crate::attr::tool::parse(args)?;
    let mut errors = Errors::new();
    let tool = Tool::parse(attributes, attrs, sig, site, &mut errors);
    crate::check::tool::check(tool, errors)
}

/// One prompt through parse, model and check.
fn checked_prompt<'a>(
    args: TokenStream,
    attrs: &'a [Attribute],
    sig: &'a Signature,
    site: Site<'a>,
) -> syn::Result<Checked<Prompt<'a>>> {
    let attributes = crate::attr::prompt::parse(args)?;
    let mut errors = Errors::new();
    let prompt = Prompt::parse(attributes, attrs, sig, site, &mut errors);
    crate::check::prompt::check(prompt, errors)
}

/// One resource through parse, model and check.
fn checked_resource<'a>(
    args: TokenStream,
    attrs: &'a [Attribute],
    sig: &'a Signature,
    site: Site<'a>,
) -> syn::Result<Checked<Resource<'a>>> {
    let attributes = crate::attr::resource::parse(args)?;
    let mut errors = Errors::new();
    let resource = Resource::parse(attributes, attrs, sig, site, &mut errors);
    crate::check::resource::check(resource, errors)
}
