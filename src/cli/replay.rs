//! `sunfold replay`: fold a log, show the result or the first located error.
//! [`fold_file`] is shared with the commands that render or inspect a log.

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

/// A log opened far enough to know its game.
pub(super) struct Opened<R = BufReader<File>> {
    pub game: GameKind,
    first: (Vec<u8>, bool),
    lines: LineReader<R>,
}

/// Opens a log and reads its first line; errors are reported here.
pub(super) fn open(path: &Path, format: Format) -> Result<Opened, Exit> {
    let file = File::open(path).map_err(|e| io_error(path, &e))?;
    read_first(path, BufReader::new(file), format)
}

/// Reads the first line of a log from any reader, such as the bytes of a
/// locked file; `path` only names it in messages.
pub(super) fn read_first<R: BufRead>(
    path: &Path,
    reader: R,
    format: Format,
) -> Result<Opened<R>, Exit> {
    let mut lines = LineReader::new(reader);
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
    let fold = match fold_file::<G, _>(path, opened, at, format, &mut |_| {}) {
        Ok(fold) => fold,
        Err(exit) => return exit,
    };
    let events = fold.events();
    let chain = match fold.chained() {
        Some(true) => format!("chained: all {} hashes verified", events - 1),
        Some(false) => "not chained: a hand-written log, with no tamper evidence".to_owned(),
        None => "chained: nothing to verify yet".to_owned(),
    };
    let claims = super::record::claims_report::<G>(&fold);
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
            for line in &claims.lines {
                println!("{line}");
            }
        }
        Format::Json => {
            let undone: Vec<serde_json::Value> = fold
                .taken_back()
                .iter()
                .map(|t| serde_json::json!({"seq": t.seq, "by": t.by, "event": G::describe(&t.event)}))
                .collect();
            let report = serde_json::json!({
                "file": path.display().to_string(),
                "game": G::NAME,
                "valid": true,
                "events": events,
                "chained": fold.chained(),
                "undone": undone,
                "claims": claims.json,
                "state": G::json(fold.state()),
            });
            println!("{report:#}");
        }
    }
    Exit::Valid
}

/// Text struck through with a combining long stroke, for undone events.
fn strike(text: &str) -> String {
    text.chars().flat_map(|c| [c, '\u{0336}']).collect()
}

/// Folds the whole log (or up to event `at`), calling `observe` with the
/// state after every event. Any error is reported, located, and gives the
/// exit code; otherwise the final state and the number of events folded.
pub(super) fn fold_file<G: Present, R: BufRead>(
    path: &Path,
    mut opened: Opened<R>,
    at: Option<u64>,
    format: Format,
    observe: &mut dyn FnMut(&G::State),
) -> Result<Fold<G>, Exit> {
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
                Ok(seq) => {
                    observe(fold.state());
                    if Some(seq) == at {
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
    Ok(fold)
}

fn fail_decode(path: &Path, format: Format, error: &Located<DecodeError>) -> Exit {
    match format {
        Format::Text => {
            eprintln!("{}:{error}", path.display());
            torn_hint(path, &error.error);
        }
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

/// After a torn last line, says how to repair it.
fn torn_hint(path: &Path, error: &DecodeError) {
    if let DecodeError::TornLine { .. } = error {
        eprintln!(
            "  a crash cut the last write short: sunfold repair {} removes it and keeps it aside",
            path.display()
        );
    }
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
pub(super) fn fail<G: Present>(
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
            if let crate::log::ReplayError::Decode(decode) = &error.error {
                torn_hint(path, decode);
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
