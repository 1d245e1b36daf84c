//! The variant arguments shared by `new`, `simulate`, `compare` and
//! `rescore`: a sheet template or a deck file, and `--option NAME=VALUE`.
//! Every command checks them the same way, with the same located errors,
//! before anything is written or any game runs.

use super::error::CliError;
use super::load::checked;
use crate::bots::{SoleilsVariant, SummertimeVariant};
use crate::soleils::{Options, Setting};
use crate::template::file::Checked;
use std::path::Path;

/// Every `NAME=VALUE` of `given`, checked, as [`crate::bots::variant::settings`].
pub fn soleils_settings(given: &[String]) -> Result<Vec<Setting>, CliError> {
    crate::bots::variant::settings(given).map_err(CliError::Usage)
}

/// `base` with every `NAME=VALUE` of `given` applied, in order.
pub fn soleils_options(base: Options, given: &[String]) -> Result<Options, CliError> {
    Ok(base.with(&soleils_settings(given)?))
}

/// Summertime has no rule options: its numbers live in the deck.
pub fn summertime_options(given: &[String]) -> Result<(), CliError> {
    crate::bots::variant::no_summertime_options(given).map_err(CliError::Usage)
}

/// A sheet template from `path`, or the bundled one, with `options` applied
/// to the defaults.
pub fn soleils(path: Option<&Path>, options: &[String]) -> Result<SoleilsVariant, CliError> {
    let options = soleils_options(Options::default(), options)?;
    let Some(path) = path else {
        let mut variant = SoleilsVariant::bundled();
        variant.options = options;
        return Ok(variant);
    };
    match checked(path)? {
        Checked::Sheet(template) => Ok(SoleilsVariant {
            source: path.display().to_string(),
            raw: template.raw().clone(),
            template: template.into(),
            options,
        }),
        Checked::Deck(_) => Err(CliError::Refused(format!(
            "{}: game: expected a sheet template (\"soleils\"), but found a deck (\"summertime\")",
            path.display()
        ))),
    }
}

/// A deck from `path`, or the bundled one.
pub fn summertime(path: Option<&Path>, options: &[String]) -> Result<SummertimeVariant, CliError> {
    summertime_options(options)?;
    let Some(path) = path else {
        return Ok(SummertimeVariant::bundled());
    };
    match checked(path)? {
        Checked::Deck(deck) => Ok(SummertimeVariant {
            source: path.display().to_string(),
            raw: deck.raw().clone(),
            deck: deck.into(),
        }),
        Checked::Sheet(_) => Err(CliError::Refused(format!(
            "{}: game: expected a deck (\"summertime\"), but found a sheet template (\"soleils\")",
            path.display()
        ))),
    }
}
