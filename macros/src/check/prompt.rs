//! The rules of one prompt: its name, and the rules of its function and parameters.

use crate::check::checked::Checked;
use crate::check::function;
use crate::check::param;
use crate::errors::Errors;
use crate::model::prompt::Prompt;

/// Checks a prompt. `errors` holds what building its model found; the rules of the whole
/// prompt run only once every part of it parsed.
pub(crate) fn check<'a>(prompt: Prompt<'a>, errors: Errors) -> syn::Result<Checked<Prompt<'a>>> {
    errors.check()?;
    let mut errors = Errors::new();
    if prompt.name.trim().is_empty() {
        errors.push(syn::Error::new(
            prompt.name_span,
            "a prompt name cannot be empty",
        ));
    }
    function::signature(&prompt.function, &mut errors);
    function::receiver(&prompt.function, &mut errors);
    param::parameters(&prompt.function, &mut errors);
    function::documented_arguments(&prompt.function, &mut errors);
    errors.finish(Checked::new(prompt))
}
