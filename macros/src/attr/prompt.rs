//! `#[mcp_prompt(...)]`: only the keys every kind of item takes.

use proc_macro2::TokenStream;

use crate::attr::item::{CRATE, ICON, ItemAttributes, META, NAME, SCOPES, TAGS, TITLE, item_key};
use crate::attr::key::{DESCRIPTION, each_key, unknown};

/// The attribute itself.
pub(crate) const MCP_PROMPT: &str = "mcp_prompt";

const PROMPT_KEYS: &[&str] = &[NAME, TITLE, DESCRIPTION, ICON, META, TAGS, SCOPES, CRATE];

/// Parses the arguments of `#[mcp_prompt(...)]`, collecting every error.
pub(crate) fn parse(tokens: TokenStream) -> syn::Result<ItemAttributes> {
    let mut args = ItemAttributes::default();
    each_key(tokens, |meta, key, span| {
        item_key(meta, key, span, &mut args)
            .unwrap_or_else(|| Err(unknown(MCP_PROMPT, key, PROMPT_KEYS, meta)))
    })?;
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn keys_and_mistakes() {
        let args = parse(quote!(name = "review", tags("code"))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(args.name.map(|n| n.value).as_deref(), Some("review"));
        assert_eq!(args.tags.len(), 1);
        let error = parse(quote!(read_only)).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                "unknown `mcp_prompt` attribute `read_only`; expected one of `name`, `title`, \
                 `description`, `icon`, `meta`, `tags`, `scopes`, `crate`"
            )
        );
    }
}
