//! Each macro as its stages: parse the attribute, build the model, check it, generate from the
//! checked model. A stage runs only when the one before it found no error, so a mistake is
//! reported once, by the stage that understands it.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Attribute, Signature};

use crate::check::checked::Checked;
use crate::check::tool_type::ToolMethod;
use crate::errors::Errors;
use crate::fallback;
use crate::model::function::Site;
use crate::model::impl_block::take_marked;
use crate::model::kind::TOOL;
use crate::model::tool::Tool;

/// `#[mcp_tool]` on a free function.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    fallback::function(&TOOL, item, |function| {
        let tool = checked_tool(args, &function.attrs, &function.sig, Site::Free)?;
        Ok(crate::generate::tool::free(&tool, &function.vis))
    })
}

/// `#[mcp_tool_type]` on an impl block. The block is always emitted (without the attributes
/// the compiler would reject), with every tool that could be made and every error found.
pub(crate) fn tool_type(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut block = match fallback::impl_block(&TOOL, item) {
        Ok(block) => block,
        Err(tokens) => return tokens,
    };
    let mut errors = Errors::new();
    crate::check::impl_block::check(&TOOL, &args, &block, &mut errors);
    let marked = take_marked(&mut block, &TOOL);
    let owner = &*block.self_ty;
    let methods = marked.iter().map(|marked| ToolMethod {
        problems: marked.problems.clone(),
        tool: marked.args.clone().map(|args| {
            let method = &marked.method;
            checked_tool(args, &method.attrs, &method.sig, Site::Method { owner })
        }),
    });
    let tool_type = crate::check::tool_type::check(owner, methods, &mut errors);
    let generated = crate::generate::tool_type::tools(&tool_type);
    let errors = errors.check().err().map(|e| e.to_compile_error());
    quote! {
        #block
        #generated
        #errors
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
