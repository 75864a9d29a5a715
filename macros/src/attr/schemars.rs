//! schemars' own validation items written in `#[arg(...)]` (`length(min = 1)`, `email`, ...),
//! checked here so that a mistake is one error at its tokens: schemars' own would leave the
//! arguments struct without its `JsonSchema` impl, and a second error beside it.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;

use crate::attr::key::{Value, key_of, unknown, value};
use crate::errors::Errors;

/// `#[arg(...)]` keys that are schemars' own validation attributes, passed on to the argument's
/// field as `#[schemars(...)]` (and so written exactly as schemars documents them).
pub(crate) const SCHEMARS_KEYS: &[&str] = &[
    "length", "range", "regex", "contains", "email", "url", "ip", "ipv4", "ipv6", "inner",
];

/// The `regex(pattern = ...)` item name, also an `#[arg(...)]` key of its own.
pub(crate) const PATTERN: &str = "pattern";

/// One of schemars' validation items. Returns the item as written, for `#[schemars(...)]`.
pub(crate) fn schemars_item(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<TokenStream> {
    const FLAGS: &[&str] = &["email", "url", "ip", "ipv4", "ipv6"];
    let path = &meta.path;
    match value(meta)? {
        Value::Absent if FLAGS.contains(&key) => Ok(quote::quote!(#path)),
        Value::List(proc_macro2::TokenTree::Group(list)) if !FLAGS.contains(&key) => {
            schemars_list(key, list.stream())?;
            Ok(quote::quote!(#path #list))
        }
        _ if FLAGS.contains(&key) => Err(meta.error(format!("`{key}` takes no value"))),
        _ => Err(meta.error(format!("`{key}` expects a list, like `{key}(...)`"))),
    }
}

fn schemars_list(key: &str, items: TokenStream) -> syn::Result<()> {
    // `contains` takes a pattern or an expression; schemars reads it.
    if key == "contains" {
        return Ok(());
    }
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|item| {
        let name = key_of(&item);
        let result = match (key, name.as_str()) {
            ("length" | "range", "min" | "max" | "equal") | ("regex", PATTERN) => {
                match value(&item)? {
                    Value::Expr(_) => Ok(()),
                    _ => Err(item.error(format!("`{name}` expects a value, like `{name} = 1`"))),
                }
            }
            ("length" | "range", _) => {
                let _ = value(&item);
                Err(item.error(format!(
                    "unknown item `{name}` in `{key}(...)`; expected `min`, `max` or `equal`"
                )))
            }
            ("regex", _) => {
                let _ = value(&item);
                Err(item.error(format!(
                    "unknown item `{name}` in `regex(...)`; expected `pattern = \"...\"`"
                )))
            }
            ("inner", name) if SCHEMARS_KEYS.contains(&name) => {
                schemars_item(&item, name).map(drop)
            }
            ("inner", _) => Err(unknown("inner", &name, SCHEMARS_KEYS, &item)),
            _ => {
                let _ = value(&item);
                Ok(())
            }
        };
        errors.ok(result);
        Ok(())
    });
    let parsed = parser.parse2(items);
    errors.ok(parsed);
    errors.check()
}
