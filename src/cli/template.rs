//! `sunfold template check`, for sheet templates and decks alike.

use super::error::CliError;
use super::load::problems;
use super::{Exit, Format};
use crate::present::json::TemplateReport;
use crate::print::floor::ZoneNameTooLong;
use crate::render::paper::Paper;
use crate::template::file::{Checked, FileProblem, LoadFailure};
use crate::template::rows::Layout;
use std::path::Path;

pub fn check(path: &Path, format: Format) -> Result<Exit, CliError> {
    let shown = path.display();
    let loaded =
        crate::template::file::load(path).and_then(|checked| match unprintable(&checked) {
            problems if problems.is_empty() => Ok(checked),
            problems => Err(LoadFailure::Problems(problems)),
        });
    let report = match loaded {
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

/// What `render sheet` could not print of a valid sheet template, one
/// sheet to a page of A4 or Letter in the built-in fonts: each zone whose
/// name would print below 6 pt, with a length that fits. A deck has none.
fn unprintable(checked: &Checked) -> Vec<FileProblem> {
    let Checked::Sheet(template) = checked else {
        return Vec::new();
    };
    let fonts = crate::render::text::Fonts::builtin();
    let zones = super::render::zones(template);
    let mut found: Vec<ZoneNameTooLong> = Vec::new();
    for paper in [Paper::A4, Paper::Letter] {
        let (scene, size) =
            crate::print::soleils::sheet::printed(fonts, template, &[], Some(1), 1, false, paper);
        let how = super::render::how_printed(1, paper, size);
        // Each zone once, with the fewest characters that fit either paper.
        if let Err(e) = crate::print::floor::zone_names(&scene, fonts, &zones, &how) {
            match found.iter_mut().find(|f| f.index == e.index) {
                Some(f) if e.most < f.most => *f = e,
                Some(_) => {}
                None => found.push(e),
            }
        }
    }
    (found.into_iter())
        .map(|e| FileProblem::Shape {
            path: format!("zones[{}].name", e.index),
            detail: e.to_string(),
        })
        .collect()
}

/// `sunfold template export FILE --csv OUT`: a deck's cards or a sheet's
/// boxes as CSV laid out as `layout` says, to OUT (`-`: standard output).
pub fn export(path: &Path, out: &Path, layout: Layout) -> Result<Exit, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::io(path, e))?;
    let (table, count, text) =
        crate::template::rows::export(&bytes, layout).map_err(|problems| CliError::Problems {
            path: path.to_owned(),
            problems: problems.iter().map(ToString::to_string).collect(),
        })?;
    if out == Path::new("-") {
        print!("{text}");
    } else {
        crate::kit::atomic::write(out, text.as_bytes()).map_err(|e| CliError::io(out, e))?;
        let rows = if count == 1 {
            table.row()
        } else {
            table.field()
        };
        eprintln!(
            "sunfold: wrote {count} {rows} of {} to {}",
            path.display(),
            out.display()
        );
    }
    Ok(Exit::Valid)
}

/// `sunfold template import ROWS --into FILE`: FILE's cards or boxes
/// replaced by the rows of the CSV file ROWS, written only if FILE then
/// passes `template check`.
pub fn import(rows: &Path, into: &Path) -> Result<Exit, CliError> {
    use crate::template::rows::ImportProblem;
    let csv = std::fs::read(rows).map_err(|e| CliError::io(rows, e))?;
    let file = std::fs::read(into).map_err(|e| CliError::io(into, e))?;
    let imported = crate::template::rows::import(&file, &csv).map_err(|problems| {
        let lines: Vec<String> = problems
            .iter()
            .map(|problem| match problem {
                ImportProblem::Row(row) => {
                    format!("{}:{}: {}", rows.display(), row.line, row.message())
                }
                ImportProblem::File(problem) => format!("{}: {problem}", into.display()),
            })
            .collect();
        let count = lines.len();
        let plural = if count == 1 { "" } else { "s" };
        CliError::Listed {
            lines,
            summary: format!("{count} problem{plural}; {} is unchanged", into.display()),
        }
    })?;
    // Not under a studio editing the file, whose next edit would find it
    // changed by hand.
    crate::studio::unless_a_studio_edits(into, || {
        crate::kit::atomic::write(into, imported.text.as_bytes())
    })
    .map_err(|e| CliError::Refused(e.to_string()))?
    .map_err(|e| CliError::io(into, e))?;
    let count = imported.rows;
    let table = imported.table;
    let what = if count == 1 {
        table.row()
    } else {
        table.field()
    };
    eprintln!(
        "sunfold: {} now holds the {count} {what} of {}",
        into.display(),
        rows.display()
    );
    Ok(Exit::Valid)
}
