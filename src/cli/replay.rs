//! `sunfold replay`: fold a log, show the result or the first located error.
//! [`fold_file`] is shared with the commands that render or inspect a log.

use super::present::Present;
use super::{Exit, Format, io_error};
use crate::log::{DecodeError, Fold, GameKind, Line, LineReader, Located, LogError, detect};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// How many legal alternatives an error lists.
const ALTERNATIVES_SHOWN: usize = 8;

/// A log opened far enough to know its game.
pub(super) struct Opened {
    pub game: GameKind,
    first: (Vec<u8>, bool),
    lines: LineReader<BufReader<File>>,
}

/// Opens a log and reads its first line; errors are reported here.
pub(super) fn open(path: &Path, format: Format) -> Result<Opened, Exit> {
    let file = File::open(path).map_err(|e| io_error(path, &e))?;
    let mut lines = LineReader::new(BufReader::new(file));
    let first = match lines.next_line() {
        Ok(Some(line)) => (line.bytes.to_vec(), line.terminated),
        Ok(None) => {
            let error = Located {
                line: 1,
                seq: None,
                kind: None,
                error: DecodeError::EmptyFile,
            };
            return Err(fail_decode(path, format, &error));
        }
        Err(e) => return Err(io_error(path, &e)),
    };
    let line = Line {
        number: 1,
        bytes: &first.0,
        terminated: first.1,
    };
    let game = detect(&line).map_err(|error| fail_decode(path, format, &error))?;
    Ok(Opened { game, first, lines })
}

pub fn run(path: &Path, at: Option<u64>, format: Format) -> Exit {
    let opened = match open(path, format) {
        Ok(opened) => opened,
        Err(exit) => return exit,
    };
    match opened.game {
        GameKind::Soleils => report::<Soleils>(path, opened, at, format),
        GameKind::Summertime => report::<Summertime>(path, opened, at, format),
    }
}

fn report<G: Present>(path: &Path, opened: Opened, at: Option<u64>, format: Format) -> Exit {
    let (state, events) = match fold_file::<G>(path, opened, at, format, &mut |_| {}) {
        Ok(folded) => folded,
        Err(exit) => return exit,
    };
    match format {
        Format::Text => {
            println!("{}: {events} events, valid", path.display());
            print!("{}", G::text(&state));
        }
        Format::Json => {
            let report = serde_json::json!({
                "file": path.display().to_string(),
                "game": G::NAME,
                "valid": true,
                "events": events,
                "state": G::json(&state),
            });
            println!("{report:#}");
        }
    }
    Exit::Valid
}

/// Folds the whole log (or up to event `at`), calling `observe` with the
/// state after every event. Any error is reported, located, and gives the
/// exit code; otherwise the final state and the number of events folded.
pub(super) fn fold_file<G: Present>(
    path: &Path,
    mut opened: Opened,
    at: Option<u64>,
    format: Format,
    observe: &mut dyn FnMut(&G::State),
) -> Result<(G::State, u64), Exit> {
    let first = Line {
        number: 1,
        bytes: &opened.first.0,
        terminated: opened.first.1,
    };
    let (mut fold, _) =
        Fold::<G>::start(&first).map_err(|error| fail::<G>(path, format, &error, None, &[]))?;
    observe(fold.state());
    if at != Some(0) {
        loop {
            let line = match opened.lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return Err(io_error(path, &e)),
            };
            match fold.feed(&line) {
                Ok(envelope) => {
                    observe(fold.state());
                    if Some(envelope.seq) == at {
                        break;
                    }
                }
                Err(error) => {
                    let alternatives = fold
                        .rejected()
                        .map(|event| G::alternatives(fold.state(), event))
                        .unwrap_or_default();
                    let state = Some((fold.state(), fold.events() - 1));
                    return Err(fail::<G>(path, format, &error, state, &alternatives));
                }
            }
        }
    }
    if let Some(at) = at.filter(|&at| at >= fold.events()) {
        eprintln!(
            "{}: expected an event {at} to stop after, but the log ends at event {}",
            path.display(),
            fold.events() - 1
        );
        return Err(Exit::Invalid);
    }
    let events = fold.events();
    Ok((fold.into_state(), events))
}

fn fail_decode(path: &Path, format: Format, error: &Located<DecodeError>) -> Exit {
    match format {
        Format::Text => eprintln!("{}:{error}", path.display()),
        Format::Json => {
            let report = serde_json::json!({
                "file": path.display().to_string(),
                "valid": false,
                "error": error_json(error, Vec::new()),
            });
            println!("{report:#}");
        }
    }
    Exit::Invalid
}

fn error_json<E: std::fmt::Display>(
    error: &Located<E>,
    alternatives: Vec<String>,
) -> serde_json::Value {
    serde_json::json!({
        "line": error.line,
        "seq": error.seq,
        "type": error.kind,
        "message": error.error.to_string(),
        "alternatives": alternatives,
    })
}

/// Prints a located replay error with the legal alternatives when the
/// event was well-formed but illegal.
fn fail<G: Present>(
    path: &Path,
    format: Format,
    error: &LogError<G>,
    state: Option<(&G::State, u64)>,
    alternatives: &[G::Event],
) -> Exit {
    // Described alternatives can coincide (a physical reveal lists each card
    // once per possible back cost); show each description once, in order.
    let mut alternatives: Vec<String> = alternatives.iter().map(G::describe).collect();
    let mut seen = std::collections::HashSet::new();
    alternatives.retain(|a| seen.insert(a.clone()));
    match format {
        Format::Text => {
            eprintln!("{}:{error}", path.display());
            if !alternatives.is_empty() {
                let more = alternatives.len().saturating_sub(ALTERNATIVES_SHOWN);
                let shown = alternatives[..alternatives.len().min(ALTERNATIVES_SHOWN)].join("; ");
                let more = if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                };
                eprintln!("  legal instead: {shown}{more}");
            }
            if let Some((_, last)) = state {
                eprintln!(
                    "  the state before it: sunfold replay {} --at {last}",
                    path.display(),
                );
            }
        }
        Format::Json => {
            let mut report = serde_json::json!({
                "file": path.display().to_string(),
                "game": G::NAME,
                "valid": false,
                "error": error_json(error, alternatives),
            });
            if let Some((state, last)) = state {
                report["last_valid_seq"] = last.into();
                report["state_before_error"] = G::json(state);
            }
            println!("{report:#}");
        }
    }
    Exit::Invalid
}
