//! One `key = value` inside an attribute's parentheses, whatever the attribute: its name, its
//! value read as a string, text, flag or list, and the errors for an unknown or repeated key.
//! Every reader consumes the value whatever it is, so that one bad value is one error and
//! parsing goes on with the next key.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, Lit, Token};

use crate::attr::suggest::closest;
use crate::errors::Errors;
use crate::syntax::compact;

/// The key more than one attribute takes (`#[mcp_tool(...)]` and `#[arg(...)]`).
pub(crate) const DESCRIPTION: &str = "description";

/// A value given in an attribute, with the span an error about it points at.
pub(crate) struct WithSpan<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// Text for the client: a string literal, or any constant `&'static str` expression (a `const`,
/// `concat!(...)`), which the compiler checks where the generated code uses it.
#[derive(Clone)]
pub(crate) enum Text {
    Literal(String),
    Expr(Box<Expr>),
}

impl quote::ToTokens for Text {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Text::Literal(s) => s.to_tokens(tokens),
            Text::Expr(e) => e.to_tokens(tokens),
        }
    }
}

/// What follows a key.
pub(crate) enum Value {
    /// Nothing: `key` alone.
    Absent,
    /// `key = expression`.
    Expr(Expr),
    /// `key(...)`, as the parenthesised group.
    List(TokenTree),
}

/// The value after the key, consumed whatever it is, so that one bad value is one error.
pub(crate) fn value(meta: &ParseNestedMeta<'_>) -> syn::Result<Value> {
    if meta.input.peek(Token![=]) {
        return Ok(Value::Expr(meta.value()?.parse()?));
    }
    if meta.input.peek(syn::token::Paren) {
        return Ok(Value::List(meta.input.parse()?));
    }
    Ok(Value::Absent)
}

/// Reads the `key = value` list of an attribute, handing each key as written and its span to
/// `each`; every error is collected, so one bad key is one error and reading goes on.
pub(crate) fn each_key(
    tokens: TokenStream,
    mut each: impl FnMut(&ParseNestedMeta<'_>, &str, Span) -> syn::Result<()>,
) -> syn::Result<()> {
    let mut errors = Errors::new();
    let parser = syn::meta::parser(|meta| {
        let key = key_of(&meta);
        let result = each(&meta, &key, key_span(&meta));
        errors.ok(result);
        Ok(())
    });
    let parsed = syn::parse::Parser::parse2(parser, tokens);
    errors.ok(parsed);
    errors.check()
}

/// The key as written (`crate` is a keyword, so keys are read as paths).
pub(crate) fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    compact(&meta.path)
}

/// The span of the key's first segment.
pub(crate) fn key_span(meta: &ParseNestedMeta<'_>) -> Span {
    meta.path
        .segments
        .first()
        .map_or_else(Span::call_site, |s| s.ident.span())
}

/// Fills `slot` once; a second value is a duplicate, at its span.
pub(crate) fn set<T>(
    slot: &mut Option<WithSpan<T>>,
    key: &str,
    value: WithSpan<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate(key, value.span));
    }
    *slot = Some(value);
    Ok(())
}

pub(crate) fn duplicate(key: &str, span: Span) -> syn::Error {
    syn::Error::new(span, format!("duplicate attribute `{key}`"))
}

/// A string value, spanned at the literal (what an error about its content points at).
pub(crate) fn string(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<WithSpan<String>> {
    let message = format!("`{key}` expects a string, like `{key} = \"...\"`");
    match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Ok(WithSpan {
            value: s.value(),
            span: s.span(),
        }),
        Value::Expr(other) => Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => Err(syn::Error::new_spanned(list, message)),
        Value::Absent => Err(meta.error(message)),
    }
}

/// `key = "text"` or `key = CONSTANT`, once. A literal of another kind is refused here, where
/// the message can say what is expected; any other expression is left to the compiler.
pub(crate) fn text(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    slot: &mut Option<Text>,
) -> syn::Result<()> {
    let message = format!("`{key}` expects a string or a constant `&str`, like `{key} = \"...\"`");
    let value = match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Text::Literal(s.value()),
        Value::Expr(literal @ Expr::Lit(_)) => {
            return Err(syn::Error::new_spanned(literal, message));
        }
        Value::Expr(expr) => Text::Expr(Box::new(expr)),
        Value::List(list) => return Err(syn::Error::new_spanned(list, message)),
        Value::Absent => return Err(meta.error(message)),
    };
    if slot.is_some() {
        return Err(meta.error(format!("duplicate attribute `{key}`")));
    }
    *slot = Some(value);
    Ok(())
}

/// `key` alone means true; `key = true` and `key = false` say it explicitly. Spanned at the key.
pub(crate) fn flag(
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
) -> syn::Result<WithSpan<bool>> {
    let message = format!("`{key}` expects `true` or `false`, or no value");
    match value(meta)? {
        Value::Absent => Ok(WithSpan { value: true, span }),
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        })) => Ok(WithSpan {
            value: b.value,
            span,
        }),
        Value::Expr(other) => Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => Err(syn::Error::new_spanned(list, message)),
    }
}

/// An unknown key of the attribute `attr`: the keys it takes, and the nearest if one is near.
pub(crate) fn unknown(
    attr: &str,
    key: &str,
    valid: &[&str],
    meta: &ParseNestedMeta<'_>,
) -> syn::Error {
    let expected = valid
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = closest(key, valid)
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default();
    // Skip the value so parsing goes on with the next key.
    let _ = value(meta);
    meta.error(format!(
        "unknown `{attr}` attribute `{key}`; expected one of {expected}{hint}"
    ))
}

/// A whole number written as a literal.
pub(crate) fn integer(meta: &ParseNestedMeta<'_>, message: &str) -> syn::Result<WithSpan<u64>> {
    match value(meta)? {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        })) => Ok(WithSpan {
            value: int
                .base10_parse()
                .map_err(|_| syn::Error::new(int.span(), message))?,
            span: int.span(),
        }),
        Value::Expr(other) => Err(syn::Error::new_spanned(other, message)),
        Value::List(list) => Err(syn::Error::new_spanned(list, message)),
        Value::Absent => Err(meta.error(message)),
    }
}
