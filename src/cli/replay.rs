//! `sunfold replay`: fold a log, show the result or the first located error.

use super::present::Present;
use super::{Exit, Format, io_error};
use crate::log::{DecodeError, Fold, GameKind, Line, LineReader, Located, LogError, detect};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

/// How many legal alternatives an error lists.
const ALTERNATIVES_SHOWN: usize = 8;

pub fn run(path: &Path, at: Option<u64>, format: Format) -> Exit {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) => return io_error(path, &e),
    };
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
            return fail_decode(path, format, &error);
        }
        Err(e) => return io_error(path, &e),
    };
    let first = Line {
        number: 1,
        bytes: &first.0,
        terminated: first.1,
    };
    match detect(&first) {
        Err(error) => fail_decode(path, format, &error),
        Ok(GameKind::Soleils) => fold::<Soleils, _>(path, &first, lines, at, format),
        Ok(GameKind::Summertime) => fold::<Summertime, _>(path, &first, lines, at, format),
    }
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

fn fold<G: Present, R: BufRead>(
    path: &Path,
    first: &Line,
    mut lines: LineReader<R>,
    at: Option<u64>,
    format: Format,
) -> Exit {
    let (mut fold, _) = match Fold::<G>::start(first) {
        Ok(started) => started,
        Err(error) => return fail::<G>(path, format, &error, None, &[]),
    };
    if at != Some(0) {
        loop {
            let line = match lines.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return io_error(path, &e),
            };
            match fold.feed(&line) {
                Ok(envelope) if Some(envelope.seq) == at => break,
                Ok(_) => {}
                Err(error) => {
                    let alternatives = fold
                        .rejected()
                        .map(|event| G::alternatives(fold.state(), event))
                        .unwrap_or_default();
                    let state = Some((fold.state(), fold.events() - 1));
                    return fail::<G>(path, format, &error, state, &alternatives);
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
        return Exit::Invalid;
    }
    match format {
        Format::Text => {
            println!("{}: {} events, valid", path.display(), fold.events());
            print!("{}", G::text(fold.state()));
        }
        Format::Json => {
            let report = serde_json::json!({
                "file": path.display().to_string(),
                "game": G::NAME,
                "valid": true,
                "events": fold.events(),
                "state": G::json(fold.state()),
            });
            println!("{report:#}");
        }
    }
    Exit::Valid
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
