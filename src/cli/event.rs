//! `sunfold event`: an event of many tables. Each verb parses, calls one
//! function of [`crate::event`], and prints; the event log's path goes in
//! front of its located errors here.

use super::error::{CliError, LogFailure};
use super::{Exit, Format};
use crate::event::players::PlayersError;
use crate::event::request::{self, NewEvent};
use crate::event::{EventFileError, EventGame, EventLog, Seating, TableLogError, standings};
use crate::log::DecodeError;
use crate::sim::Bot;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum EventCommand {
    /// Start an event: its game, its rounds, its points, and its players
    /// from a file of one player a line (NAME, or NAME<TAB>ID).
    New {
        file: PathBuf,
        #[arg(long, value_parser = ["soleils", "summertime"])]
        game: String,
        #[arg(long)]
        players_file: PathBuf,
        /// 62 Soleils: the largest table (4 if left out), tables balanced within one seat.
        #[arg(long)]
        table_size: Option<u32>,
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// The points of each rank, best first (6,5,3,1,0 or 1,0 if left out).
        #[arg(long, value_delimiter = ',')]
        points: Option<Vec<u32>>,
        /// The seed of the seating, the tables' dice or deals and the draw; from the clock if left out.
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        force: bool,
    },
    /// Seat the next round and write each table's log, ready to record.
    Seat { file: PathBuf },
    /// Print a round's tables and byes (the last seated if --round is left out).
    Seating {
        file: PathBuf,
        #[arg(long)]
        round: Option<u32>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Attach a table's log as its result, after auditing it.
    Result {
        file: PathBuf,
        #[arg(long)]
        table: u32,
        log: PathBuf,
        /// The round (the last seated if left out).
        #[arg(long)]
        round: Option<u32>,
        /// Replace a result already attached; needs --reason.
        #[arg(long, requires = "reason")]
        correct: bool,
        #[arg(long, requires = "correct")]
        reason: Option<String>,
    },
    /// Play the last round's open tables with a bot in every seat, and attach each result.
    Play {
        file: PathBuf,
        #[arg(long, default_value = "greedy")]
        bot: Bot,
    },
    /// The standings, with every tie-break.
    Standings {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Add a player: registered before the first round, arrived after it.
    Arrive {
        file: PathBuf,
        name: String,
        #[arg(long)]
        id: Option<String>,
    },
    /// Drop a player (by id) from the next round on.
    Drop { file: PathBuf, id: String },
    /// Close the event: nothing more is seated or attached.
    Close { file: PathBuf },
}

pub fn run(command: EventCommand) -> Result<Exit, CliError> {
    match command {
        EventCommand::New {
            file,
            game,
            players_file,
            table_size,
            rounds,
            points,
            seed,
            force,
        } => {
            let players = std::fs::read_to_string(&players_file)
                .map_err(|e| CliError::io(&players_file, e))?;
            let game = match game.as_str() {
                "soleils" => EventGame::Soleils,
                _ => EventGame::Summertime,
            };
            let seed = seed.unwrap_or_else(crate::table::start::seed_from_clock);
            let setup = NewEvent {
                game,
                table_size,
                rounds,
                points,
                seed,
            };
            let log = request::new_event(&file, setup, &players, force).map_err(|e| match e {
                // A line's problem is located as a log's is: FILE:LINE: …
                EventFileError::Players(e @ PlayersError::Empty) => refused(&players_file, e),
                EventFileError::Players(e) => failure(&players_file, e.to_string(), false),
                EventFileError::Io(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    CliError::Usage(format!(
                        "{}: expected a new file, but it exists; use --force to overwrite it",
                        file.display()
                    ))
                }
                e => located(&file, e),
            })?;
            let players = log.state.entrants.len();
            println!(
                "{}: a {} event of {players} players",
                file.display(),
                game.name()
            );
        }
        EventCommand::Seat { file } => {
            let round = request::seat(&file).map_err(|e| located(&file, e))?;
            let log = EventLog::open(&file).map_err(|e| located(&file, e))?;
            let seating = Seating::of(&log.state, Some(round)).map_err(|e| refused(&file, e))?;
            print!("{}", seating.text());
        }
        EventCommand::Seating {
            file,
            round,
            format,
        } => {
            let log = EventLog::open(&file).map_err(|e| located(&file, e))?;
            let seating = Seating::of(&log.state, round).map_err(|e| refused(&file, e))?;
            match format {
                Format::Text => print!("{}", seating.text()),
                Format::Json => println!("{}", json(&seating)),
            }
        }
        EventCommand::Result {
            file,
            table,
            log,
            round,
            correct: _,
            reason,
        } => {
            let result = request::attach(&file, round, table, &log, reason)
                .map_err(|e| located(&file, e))?;
            println!(
                "{}: round {} table {table}: {}",
                file.display(),
                result.round,
                result.ended
            );
        }
        EventCommand::Play { file, bot } => {
            let results = request::play(&file, bot).map_err(|e| located(&file, e))?;
            for result in results {
                println!(
                    "round {} table {}: {}",
                    result.round, result.table, result.ended
                );
            }
        }
        EventCommand::Standings { file, format } => {
            let log = EventLog::open(&file).map_err(|e| located(&file, e))?;
            let standings = standings(&log.state);
            match format {
                Format::Text => print!("{}", standings.text()),
                Format::Json => println!("{}", json(&standings)),
            }
        }
        EventCommand::Arrive { file, name, id } => {
            let player =
                request::arrive(&file, &name, id.as_deref()).map_err(|e| located(&file, e))?;
            println!("{}: {} joins as {}", file.display(), player.name, player.id);
        }
        EventCommand::Drop { file, id } => {
            request::drop_player(&file, &id).map_err(|e| located(&file, e))?;
            println!("{}: {id} dropped from the next round on", file.display());
        }
        EventCommand::Close { file } => {
            request::close(&file).map_err(|e| located(&file, e))?;
            println!("{}: closed", file.display());
        }
    }
    Ok(Exit::Valid)
}

fn json<T: serde::Serialize>(report: &T) -> String {
    serde_json::to_string_pretty(report).expect("a report serializes")
}

fn refused(path: &Path, error: impl std::fmt::Display) -> CliError {
    CliError::File {
        path: path.to_owned(),
        message: error.to_string(),
    }
}

/// A problem of `path` at a line, `located` starting with the line's
/// number: printed `PATH:LINE: …`.
fn failure(path: &Path, located: String, torn: bool) -> CliError {
    CliError::Log(Box::new(LogFailure {
        path: path.to_owned(),
        format: Format::Text,
        located,
        alternatives: Default::default(),
        torn,
        before: None,
        json: None,
    }))
}

/// An error of the event log at `path`, with the path in front.
pub(super) fn located(path: &Path, error: EventFileError) -> CliError {
    let failure = |located: String, torn: bool| failure(path, located, torn);
    match error {
        EventFileError::Io(error) => CliError::io(path, error),
        EventFileError::Decode(e) => {
            let torn = matches!(e.error, DecodeError::TornLine { .. });
            failure(e.to_string(), torn)
        }
        EventFileError::Rule(e) => failure(e.to_string(), false),
        EventFileError::Table(TableLogError::Io { path, error }) => CliError::Io { path, error },
        e @ (EventFileError::Table(_) | EventFileError::Players(_)) => {
            CliError::Refused(e.to_string())
        }
        e @ (EventFileError::Empty | EventFileError::Refused(_)) => refused(path, e),
    }
}
