//! `sunfold rating`: each player's rating across events, from the event
//! logs given, in that order. Parses, calls [`crate::event::rating::rate`],
//! prints; the warnings of players matched by name go to standard error.

use super::error::CliError;
use super::{Exit, Format};
use crate::event::EventLog;
use crate::event::rating::{RatedEvent, rate};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RatingArgs {
    /// The event logs, in the order the events were played.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The ratings as text, or as one JSON object (`sunfold schema rating-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: RatingArgs) -> Result<Exit, CliError> {
    let mut events = Vec::new();
    for file in &args.files {
        let log = EventLog::open(file).map_err(|e| CliError::event_file(file, e))?;
        events.push(RatedEvent {
            name: file.display().to_string(),
            entries: log.entries,
            state: log.state,
        });
    }
    let (report, warnings) = rate(&events).map_err(|e| CliError::Usage(e.to_string()))?;
    for warning in warnings {
        eprintln!("sunfold: warning: {warning}");
    }
    match args.format {
        Format::Text => print!("{}", report.text()),
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report serializes")
        ),
    }
    Ok(Exit::Valid)
}
