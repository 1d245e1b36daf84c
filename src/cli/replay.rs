//! `sunfold replay`: fold a log, show the result or the first located error.
//! [`open`], [`fold`] and [`failure`] are shared with the commands that
//! render, inspect or record a log.

use super::error::{Alternatives, CliError, LogFailure};
use super::game::{ForGame, Shown, dispatch};
use super::{Exit, Format};
use crate::log::{DecodeError, Fold, FoldError, LogError, OpenError, Opened, ReplayError};
use crate::present::Present;
use crate::present::report::{ErrorDetail, ErrorReport, ReplayReport, Undone};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// Opens a log and reads its first line.
pub(super) fn open(path: &Path, format: Format) -> Result<Opened<BufReader<File>>, CliError> {
    crate::log::open_file(path).map_err(|error| opening(path, format, error))
}

/// Why a log could not be opened, as a CLI error.
pub(super) fn opening(path: &Path, format: Format, error: OpenError) -> CliError {
    match error {
        OpenError::Io(error) => CliError::io(path, error),
        OpenError::Decode(located) => {
            let torn = matches!(located.error, DecodeError::TornLine { .. });
            let json = (format == Format::Json).then(|| {
                let report = ErrorReport::<()> {
                    file: path.display().to_string(),
                    game: None,
                    valid: false,
                    error: detail(&located, Vec::new()),
                    last_valid_seq: None,
                    state_before_error: None,
                };
                serde_json::to_value(report).expect("reports serialize")
            });
            CliError::Log(Box::new(LogFailure {
                path: path.to_owned(),
                format,
                located: located.to_string(),
                alternatives: Alternatives::None,
                torn,
                before: None,
                json,
            }))
        }
    }
}

pub fn run(path: &Path, at: Option<u64>, format: Format) -> Result<Exit, CliError> {
    struct Replay<'a> {
        path: &'a Path,
        at: Option<u64>,
        format: Format,
    }
    impl<R: BufRead> ForGame<R> for Replay<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            report::<G, R>(self.path, opened, self.at, self.format)
        }
    }
    dispatch(open(path, format)?, Replay { path, at, format })
}

fn report<G: Present, R: BufRead>(
    path: &Path,
    opened: Opened<R>,
    at: Option<u64>,
    format: Format,
) -> Result<Exit, CliError> {
    let fold = fold::<G, _>(path, opened, at, format, &mut |_| {})?;
    let events = fold.events();
    let chain = match fold.chained() {
        Some(true) => format!("chained: all {} hashes verified", events - 1),
        Some(false) => "not chained: no hash chain, so no tamper evidence".to_owned(),
        None => "chained: nothing to verify yet".to_owned(),
    };
    match format {
        Format::Text => {
            println!("{}: {events} events, valid; {chain}", path.display());
            for taken in fold.taken_back() {
                println!(
                    "  undone: {} (event {}, taken back by event {})",
                    strike(&G::describe(&taken.event)),
                    taken.seq,
                    taken.by
                );
            }
            print!("{}", G::text(fold.state()));
            for line in crate::present::report::claims_lines(&fold) {
                println!("{line}");
            }
        }
        Format::Json => {
            let undone = fold
                .taken_back()
                .iter()
                .map(|t| Undone {
                    seq: t.seq,
                    by: t.by,
                    event: G::describe(&t.event),
                })
                .collect();
            let report = ReplayReport {
                file: path.display().to_string(),
                game: G::NAME.to_owned(),
                valid: true,
                events,
                chained: fold.chained(),
                undone,
                claims: crate::present::report::claims(&fold),
                state: G::view(fold.state()),
            };
            println!(
                "{:#}",
                serde_json::to_value(report).expect("reports serialize")
            );
        }
    }
    Ok(Exit::Valid)
}

/// Text struck through with a combining long stroke, for undone events.
fn strike(text: &str) -> String {
    text.chars().flat_map(|c| [c, '\u{0336}']).collect()
}

/// Folds the whole log (or up to event `at`), calling `observe` with the
/// state after every event. An error comes back located, with the legal
/// alternatives in words.
pub(super) fn fold<G: Present, R: BufRead>(
    path: &Path,
    opened: Opened<R>,
    at: Option<u64>,
    format: Format,
    observe: &mut dyn FnMut(&G::State),
) -> Result<Fold<G>, CliError> {
    opened
        .fold::<G>(at, observe)
        .map_err(|error| folding(path, format, error))
}

/// Why a log could not be folded, as a CLI error.
pub(super) fn folding<G: Present>(path: &Path, format: Format, error: FoldError<G>) -> CliError {
    match error {
        FoldError::Io { error, .. } => CliError::io(path, error),
        FoldError::Start(error) => failure::<G>(path, format, &error, None, Alternatives::None),
        FoldError::Rejected { error, fold } => {
            let alternatives = described::<G>(&fold);
            failure::<G>(path, format, &error, Some(&fold), alternatives)
        }
        FoldError::PastEnd { at, last } => CliError::File {
            path: path.to_owned(),
            message: format!(
                "expected an event {at} to stop after, but the log ends at event {last}"
            ),
        },
    }
}

/// The legal alternatives to the event `fold` rejected, in words, each
/// once (a physical reveal lists each card once per possible back cost).
pub(super) fn described<G: Present>(fold: &Fold<G>) -> Alternatives {
    match crate::present::report::rejected_alternatives(fold) {
        Some(words) => Alternatives::Described(words),
        None => Alternatives::None,
    }
}

fn detail<E: std::fmt::Display>(
    error: &crate::log::Located<E>,
    alternatives: Vec<String>,
) -> ErrorDetail {
    ErrorDetail {
        line: error.line,
        seq: error.seq,
        kind: error.kind.clone(),
        message: error.error.to_string(),
        alternatives,
    }
}

/// A located log error as a CLI error, with the state it was checked
/// against (`before`) when past the first line.
pub(super) fn failure<G: Present>(
    path: &Path,
    format: Format,
    error: &LogError<G>,
    before: Option<&Fold<G>>,
    alternatives: Alternatives,
) -> CliError {
    let before = before.map(|fold| (fold.state(), fold.events() - 1));
    let json = (format == Format::Json).then(|| {
        let words = match &alternatives {
            Alternatives::Described(words) => words.clone(),
            Alternatives::Commands(groups) => groups
                .iter()
                .flat_map(|g| g.commands.iter().cloned())
                .collect(),
            Alternatives::None => Vec::new(),
        };
        let report = ErrorReport {
            file: path.display().to_string(),
            game: Some(G::NAME.to_owned()),
            valid: false,
            error: detail(error, words),
            last_valid_seq: before.map(|(_, last)| last),
            state_before_error: before.map(|(state, _)| G::view(state)),
        };
        serde_json::to_value(report).expect("reports serialize")
    });
    let torn = matches!(
        error.error,
        ReplayError::Decode(DecodeError::TornLine { .. })
    );
    CliError::Log(Box::new(LogFailure {
        path: path.to_owned(),
        format,
        located: error.to_string(),
        alternatives,
        torn,
        before: before.map(|(_, last)| last),
        json,
    }))
}
