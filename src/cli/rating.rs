//! `sunfold rating`: each player's rating across events, from the event
//! logs given, in the order they were played (or given). Parses, calls
//! [`crate::event::rating::rate`], prints; its warnings go to standard error.

use super::{Exit, Format, error::CliError};
use crate::event::{EventLog, rating::Order, rating::RatedEvent, rating::rate};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RatingArgs {
    /// The event logs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Rate the events in the order they were `played` (when each seated its
    /// first round, as its log's times say), or in the order `given`.
    #[arg(long, default_value = "played")]
    pub order: Order,
    /// The ratings as text, or as one JSON object (`sunfold schema rating-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: RatingArgs) -> Result<Exit, CliError> {
    let mut events = Vec::new();
    for file in &args.files {
        let log = EventLog::open(file).map_err(|e| CliError::event_file(file, e))?;
        events.push(RatedEvent::of(file.display().to_string(), log));
    }
    let rated = rate(&events, args.order).map_err(|e| CliError::Usage(e.to_string()));
    let (report, warnings) = rated?;
    for warning in warnings {
        eprintln!("sunfold: warning: {warning}");
    }
    let json = || serde_json::to_string_pretty(&report).expect("a report serializes");
    match args.format {
        Format::Text => print!("{}", report.text()),
        Format::Json => println!("{}", json()),
    }
    Ok(Exit::Valid)
}
