//! `sunfold audit`: every log under files and folders, match logs and
//! event logs, audited in parallel, one line per file, then a summary.

use super::batch::{collect, per_file, pool};
use super::error::CliError;
use super::{Exit, Format};
use crate::present::audit::{Audited, EventSummary};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The audit of one file: what the file could not give, or what its log
/// gave. An event log (its first line `created`) is read as the event
/// commands read it.
/// A damaged line that `repair` removes (a torn last line, blank lines at
/// the end) carries that advice.
fn audit_file(path: &Path) -> Audited {
    let mut audited = if crate::event::is_event_file(path) {
        audit_event(path)
    } else {
        match std::fs::File::open(path) {
            Ok(file) => Audited::opened(crate::log::open(std::io::BufReader::new(file))),
            Err(e) => Audited::unreadable(0, format!("cannot be read: {e}")),
        }
    };
    if let Some(error) = &audited.error {
        audited.advice = crate::present::failure::Advice::at_file(path, error.line);
    }
    audited
}

/// The audit of the event log at `path`: every line decoded, its seq and
/// hash chain checked, and every entry applied to the event as the lines
/// before it leave it; the first that fails, located.
fn audit_event(path: &Path) -> Audited {
    use crate::event::{EventFileError, EventLog};
    use crate::log::Located;
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return Audited::unreadable(0, format!("cannot be read: {e}")),
    };
    match EventLog::read(&bytes) {
        Ok(log) => {
            let state = &log.state;
            let results = (state.rounds.iter()).map(|r| r.results.len()).sum();
            Audited {
                game: Some(state.setup.game.name()),
                events: log.entries.len() as u64,
                chained: Some(true),
                event: Some(EventSummary {
                    players: state.entrants.len(),
                    seated: state.seated(),
                    rounds: state.setup.rounds,
                    results,
                    closed: state.closed,
                }),
                ..Audited::default()
            }
        }
        Err(error) => {
            let located: Located<String> = match error {
                EventFileError::Decode(e) => e.map(|e| e.to_string()),
                EventFileError::Rule(e) => e.map(|e| e.to_string()),
                e => Located {
                    line: 0,
                    seq: None,
                    kind: None,
                    error: e.to_string(),
                },
            };
            Audited {
                events: located.line.saturating_sub(1) as u64,
                error: Some(located),
                ..Audited::default()
            }
        }
    }
}

pub fn audit(
    paths: &[PathBuf],
    format: Format,
    jobs: Option<usize>,
    strict_claims: bool,
) -> Result<Exit, CliError> {
    let files = collect(paths)?;
    let pool = pool(jobs)?;
    let started = Instant::now();
    let (mut bad, mut events, mut disputed) = (0u64, 0u64, 0u64);
    per_file(&files, &pool, audit_file, |path, a| {
        let file = path.display().to_string();
        events += a.events;
        let differs = a.claims.as_ref().is_some_and(|c| !c.agree);
        disputed += u64::from(differs);
        let valid = a.error.is_none() && !(strict_claims && differs);
        bad += u64::from(!valid);
        match format {
            Format::Text => match &a.error {
                Some(error) => {
                    let advice = a.advice.said(&file).map(|a| format!("\n{a}"));
                    format!("{file}:{error}{}", advice.unwrap_or_default())
                }
                None => a.text(&file).join("\n"),
            },
            Format::Json => {
                serde_json::to_string(&a.line(file, valid)).expect("an audit line serializes")
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    if format == Format::Text {
        let claims = if strict_claims {
            "counted as bad"
        } else {
            "reported, not counted as bad; --strict-claims counts them"
        };
        println!(
            "{} files, {bad} bad, {events} events; {disputed} with claims that differ ({claims})",
            files.len()
        );
    }
    eprintln!(
        "audited {events} events in {seconds:.2} s: {:.0} events per second",
        events as f64 / seconds.max(1e-9)
    );
    Ok(if bad > 0 { Exit::Invalid } else { Exit::Valid })
}
