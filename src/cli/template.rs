//! `sunfold template check`, for sheet templates and decks alike.

use super::error::CliError;
use super::load::problems;
use super::{Exit, Format};
use crate::log::template_file::LoadFailure;
use crate::present::json::TemplateReport;
use std::path::Path;

pub fn check(path: &Path, format: Format) -> Result<Exit, CliError> {
    let shown = path.display();
    let report = match crate::log::template_file::load(path) {
        Ok(checked) => TemplateReport::valid(shown.to_string(), &checked),
        Err(LoadFailure::Io(e)) => return Err(CliError::io(path, e)),
        Err(error) if format == Format::Text => return Err(problems(path, error)),
        Err(LoadFailure::Problems(problems)) => {
            TemplateReport::invalid(shown.to_string(), &problems)
        }
    };
    match format {
        Format::Json => {
            println!(
                "{:#}",
                serde_json::to_value(&report).expect("reports serialize")
            );
        }
        // Only a sound file reaches here in text.
        Format::Text => print!("{}", report.text(&shown.to_string())),
    }
    Ok(if report.valid {
        Exit::Valid
    } else {
        Exit::Invalid
    })
}
