//! `sunfold template check`, for sheet templates and decks alike.

use super::error::CliError;
use super::load::problems;
use super::{Exit, Format};
use crate::present::report::TemplateReport;
use crate::template_file::LoadFailure;
use std::path::Path;

pub fn check(path: &Path, format: Format) -> Result<Exit, CliError> {
    let shown = path.display();
    let report = match crate::template_file::load(path) {
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
        Format::Text => {
            // Only a sound file reaches here in text.
            let kind = report.kind.unwrap_or_default();
            let name = report.name.unwrap_or_default();
            let summary = report.summary.unwrap_or_default();
            println!("{shown}: ok: {kind} \"{name}\", {summary}");
            for warning in &report.warnings {
                println!("{shown}: warning: {}: {}", warning.path, warning.message);
            }
        }
    }
    Ok(if report.valid {
        Exit::Valid
    } else {
        Exit::Invalid
    })
}
