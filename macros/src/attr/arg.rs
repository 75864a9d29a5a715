//! The attributes on a parameter: `#[arg(...)]` (a client argument and its keys), `#[inject]`
//! and `#[schemars(...)]`. The macro reads them and removes them, since the compiler would
//! reject them there.

use proc_macro2::TokenStream;
use syn::{Attribute, Expr, FnArg};

use crate::attr::key::{
    DESCRIPTION, Text, Value, WithSpan, duplicate, key_of, key_span, set, string, text, unknown,
    value,
};
use crate::attr::schemars::{PATTERN, SCHEMARS_KEYS, schemars_item};
use crate::errors::Errors;

/// The attribute that marks a parameter as a client argument.
pub(crate) const ARG: &str = "arg";
/// The attribute that marks a parameter as injected by the server.
pub(crate) const INJECT: &str = "inject";
/// schemars' own attribute, accepted on an argument and passed on to its field.
pub(crate) const SCHEMARS: &str = "schemars";

pub(crate) const RENAME: &str = "rename";
pub(crate) const DEFAULT: &str = "default";
pub(crate) const HEADER: &str = "header";
pub(crate) const FORMAT: &str = "format";
pub(crate) const COMPLETE: &str = "complete";

const ARG_KEYS: &[&str] = &[
    DESCRIPTION,
    RENAME,
    DEFAULT,
    HEADER,
    "length",
    "range",
    PATTERN,
    FORMAT,
    "email",
    "url",
    "ip",
    "ipv4",
    "ipv6",
    "regex",
    "contains",
    "inner",
    COMPLETE,
];

/// `#[arg(...)]`.
#[derive(Default)]
pub(crate) struct ArgAttributes {
    pub(crate) description: Option<Text>,
    pub(crate) rename: Option<WithSpan<String>>,
    pub(crate) default: Option<Expr>,
    /// Constraints for the argument's schema, each the inside of a `#[schemars(...)]`.
    pub(crate) constraints: Vec<TokenStream>,
    /// `header = "Region"`: HTTP clients also send the argument as `Mcp-Param-Region`.
    pub(crate) header: Option<WithSpan<String>>,
    /// `complete = path`: the function that completes a prompt argument or a template
    /// variable.
    pub(crate) complete: Option<syn::Path>,
}

/// Parses every `#[arg(...)]` among `attrs`, collecting every error.
pub(crate) fn parse(attrs: &[Attribute]) -> syn::Result<ArgAttributes> {
    let mut args = ArgAttributes::default();
    let mut errors = Errors::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ARG)) {
        // `#[arg]` alone only says "this is an argument".
        if matches!(attr.meta, syn::Meta::Path(_)) {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            let result = match key.as_str() {
                DESCRIPTION => text(&meta, &key, &mut args.description),
                RENAME => string(&meta, &key).and_then(|v| set(&mut args.rename, &key, v)),
                DEFAULT => match value(&meta)? {
                    Value::Expr(expr) if args.default.is_none() => {
                        args.default = Some(expr);
                        Ok(())
                    }
                    Value::Expr(expr) => Err(syn::Error::new_spanned(
                        expr,
                        "duplicate attribute `default`",
                    )),
                    _ => Err(meta.error("`default` expects a value, like `default = 10`")),
                },
                HEADER => string(&meta, &key).and_then(|name| {
                    if !is_header_name(&name.value) {
                        return Err(syn::Error::new(
                            name.span,
                            format!(
                                "invalid header name `{}`; a header name has one or more letters, \
                                 digits and !#$%&'*+-.^_`|~",
                                name.value
                            ),
                        ));
                    }
                    set(&mut args.header, &key, name)
                }),
                // Read here rather than passed on: `pattern = "..."` is the usual way to write a
                // pattern, and schemars has no attribute for a format of one's choosing.
                PATTERN | FORMAT => match value(&meta)? {
                    Value::Expr(expr) => {
                        let path = &meta.path;
                        args.constraints.push(match key.as_str() {
                            PATTERN => quote::quote!(regex(#path = #expr)),
                            _ => quote::quote!(extend(#FORMAT = #expr)),
                        });
                        Ok(())
                    }
                    _ => Err(meta.error(format!(
                        "`{key}` expects a string, like `{key} = \"{}\"`",
                        if key == PATTERN { "^[a-z]+$" } else { "uuid" }
                    ))),
                },
                COMPLETE => match value(&meta)? {
                    Value::Expr(Expr::Path(path))
                        if path.qself.is_none() && path.attrs.is_empty() =>
                    {
                        match args.complete.replace(path.path) {
                            Some(_) => Err(duplicate(&key, key_span(&meta))),
                            None => Ok(()),
                        }
                    }
                    _ => Err(meta.error(
                        "`complete` expects the path of a function, like `complete = languages`",
                    )),
                },
                key if SCHEMARS_KEYS.contains(&key) => {
                    schemars_item(&meta, key).map(|item| args.constraints.push(item))
                }
                _ => Err(unknown(ARG, &key, ARG_KEYS, &meta)),
            };
            errors.ok(result);
            Ok(())
        });
        errors.ok(parsed);
    }
    errors.finish(args)
}

/// RFC 9110 `token`: what an HTTP header name may be made of.
fn is_header_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Removes `#[arg]`, `#[inject]` and `#[schemars]` from parameters: these macros read them, and
/// the compiler would reject them there.
pub(crate) fn strip_parameter_attributes<'a>(inputs: impl Iterator<Item = &'a mut FnArg>) {
    for input in inputs {
        if let FnArg::Typed(param) = input {
            param.attrs.retain(|a| {
                ![ARG, INJECT, SCHEMARS]
                    .iter()
                    .any(|name| a.path().is_ident(name))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_attributes() {
        let f: syn::ItemFn = syn::parse_quote! {
            fn f(#[arg(description = "d")] a: i32, #[arg(descr = "x")] b: i32) {}
        };
        let attrs = |i: usize| match &f.sig.inputs[i] {
            syn::FnArg::Typed(p) => p.attrs.clone(),
            _ => unreachable!(),
        };
        assert!(matches!(
            parse(&attrs(0)).unwrap_or_default().description,
            Some(Text::Literal(d)) if d == "d"
        ));
        assert!(parse(&attrs(1)).is_err());
    }
}
