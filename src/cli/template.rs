//! `sunfold template check`, for sheet templates and decks alike.

use super::error::CliError;
use super::load::{LoadError, Loaded, load};
use super::{Exit, Format};
use crate::present::report::{Problem, TemplateReport};
use std::path::Path;

pub fn check(path: &Path, format: Format) -> Result<Exit, CliError> {
    let shown = path.display();
    let mut report = TemplateReport {
        file: shown.to_string(),
        valid: false,
        kind: None,
        name: None,
        summary: None,
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    match load(path) {
        Ok(Loaded::Sheet(template)) => {
            report.valid = true;
            report.kind = Some("sheet".to_owned());
            report.name = Some(template.name().to_owned());
            report.summary = Some(format!(
                "{} boxes in {} zones, {} constraints, {} sun thresholds, {} rounds, sun limit {}",
                template.boxes().len(),
                template.zones().len(),
                template.constraints().len(),
                template.thresholds().len(),
                template.rounds(),
                template.sun_limit(),
            ));
            report.warnings = template
                .improbable()
                .into_iter()
                .map(|w| Problem {
                    path: w.path.to_string(),
                    message: w.kind.to_string(),
                })
                .collect();
        }
        Ok(Loaded::Deck(deck)) => {
            let kinds: std::collections::BTreeSet<usize> =
                deck.cards().iter().map(|c| c.picture).collect();
            report.valid = true;
            report.kind = Some("deck".to_owned());
            report.name = Some(deck.name().to_owned());
            report.summary = Some(format!(
                "{} adventure cards of {} kinds, {} closing cards, {} items × {} tiles per player",
                deck.cards().len(),
                kinds.len(),
                deck.closing_cards().len(),
                deck.items(),
                deck.tiles_per_item(),
            ));
        }
        Err(LoadError::Io(e)) => return Err(CliError::io(path, e)),
        Err(error) if format == Format::Text => return Err(problems(path, error)),
        Err(error) => {
            report.kind = match &error {
                LoadError::Problems(problems) => problems.iter().find_map(|p| match p {
                    crate::template_file::FileProblem::Sheet(_) => Some("sheet".to_owned()),
                    crate::template_file::FileProblem::Deck(_) => Some("deck".to_owned()),
                    _ => None,
                }),
                LoadError::Io(_) => None,
            };
            report.problems = listed(error);
        }
    }
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

/// Every problem with its JSON path.
fn listed(error: LoadError) -> Vec<Problem> {
    match error {
        LoadError::Io(e) => vec![Problem {
            path: "(root)".to_owned(),
            message: e.to_string(),
        }],
        LoadError::Problems(problems) => problems
            .iter()
            .map(|p| {
                let (path, message) = super::load::located(p);
                Problem { path, message }
            })
            .collect(),
    }
}

/// Why a template or deck could not be loaded, every problem with its
/// path. Shared by `template check`, `render` and the variant arguments.
pub(super) fn problems(path: &Path, error: LoadError) -> CliError {
    match error {
        LoadError::Io(e) => CliError::io(path, e),
        LoadError::Problems(problems) => CliError::Problems {
            path: path.to_owned(),
            problems: problems.iter().map(ToString::to_string).collect(),
        },
    }
}
