//! Why an entry of an event log cannot stand (a rule of the event), and
//! why a file or a request cannot become one.

use crate::log::{DecodeError, Located};
use std::io;
use std::path::PathBuf;

/// An entry that breaks a rule of the event: the event as it stands
/// refuses it. Never about the JSON of a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    #[error("expected the event's first line to be \"created\", but found {found:?}")]
    NotCreated { found: String },
    #[error("expected one \"created\" line, the first, but found another")]
    CreatedAgain,
    #[error("expected event format {expected}, but found {found}")]
    Format { expected: u32, found: u32 },
    #[error("expected {what}, but found {found}")]
    Setup { what: &'static str, found: String },
    #[error("expected an open event, but it was closed")]
    Closed,
    #[error("expected a player id not yet registered, but found {id:?}, already {name:?}'s")]
    DuplicateId { id: String, name: String },
    #[error("expected a name no other player has, but found {name:?}, already {id:?}'s")]
    DuplicateName { name: String, id: String },
    #[error(
        "expected a player id and a name, neither empty, but found id {id:?} and name {name:?}"
    )]
    EmptyPlayer { id: String, name: String },
    #[error(
        "expected \"arrived\" for a player who joins once round {seated} is seated, but found \"registered\""
    )]
    LateRegistration { seated: u32 },
    #[error("expected a registered player, but found the id {id:?}")]
    UnknownPlayer { id: String },
    #[error("expected a registered player's name or id, but found {name:?}")]
    UnknownName { name: String },
    #[error("expected a registered player's name or id, but found {found:?}{suggestion}")]
    NoSuchPlayer {
        found: String,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected a name only one player has, but {found:?} may be {players}: give the id")]
    AmbiguousName { found: String, players: String },
    #[error(
        "expected player names split by ',' and tables by ';', but table {table} has an empty name"
    )]
    EmptyName { table: usize },
    #[error(
        "expected the field's players to add up to --players {expected}, but they add up to {found}"
    )]
    FieldCount { expected: u32, found: u32 },
    #[error("expected --events of at least 1, but found 0")]
    NoEvents,

    #[error("expected a player still in the event, but {id:?} dropped before round {round}")]
    AlreadyDropped { id: String, round: u32 },
    #[error("expected round {expected} to be seated next, but found round {found}")]
    RoundOrder { expected: u32, found: u32 },
    #[error(
        "expected at most {rounds} rounds, as the event was created with, but found round {found}"
    )]
    TooManyRounds { rounds: u32, found: u32 },
    #[error(
        "expected every table of round {round} to have a result before the next round, but table {table} has none"
    )]
    RoundOpen { round: u32, table: u32 },
    #[error("expected at least {min} present players to seat round {round}, but found {found}")]
    TooFewPlayers {
        round: u32,
        min: usize,
        found: usize,
    },
    #[error("expected table {expected} next in round {round}, but found table {found}")]
    TableOrder {
        round: u32,
        expected: u32,
        found: u32,
    },
    #[error("expected tables of {min} to {max} players, but table {table} has {found}")]
    TableSize {
        table: u32,
        min: usize,
        max: usize,
        found: usize,
    },
    #[error(
        "expected every present player seated once in round {round}, but {name:?} (id {id:?}) is {found}"
    )]
    Seating {
        round: u32,
        name: String,
        id: String,
        found: &'static str,
    },
    #[error(
        "expected only players still in the event at round {round}'s tables and byes, but {name:?} (id {id:?}) dropped before round {dropped}: leave them out"
    )]
    SeatedDropped {
        round: u32,
        name: String,
        id: String,
        dropped: u32,
    },
    #[error(
        "expected only players who have joined by round {round} at its tables and byes, but {name:?} (id {id:?}) joins from round {from}"
    )]
    SeatedEarly {
        round: u32,
        name: String,
        id: String,
        from: u32,
    },
    #[error(
        "expected a round still to seat for {name:?} to join, but all {rounds} rounds of the event are seated: a player who arrives now plays no table"
    )]
    NoRoundLeft { name: String, rounds: u32 },
    #[error("expected a table of round {round} (1 to {tables}), but found table {table}")]
    UnknownTable { round: u32, tables: u32, table: u32 },
    #[error("expected a seated round (1 to {seated}), but found round {round}")]
    UnknownRound { round: u32, seated: u32 },
    #[error("expected a seated round, but found none yet: seat the first with sunfold event seat")]
    NoRoundYet,
    #[error(
        "expected table {table} of round {round} without a result, but it has one: a correction needs a reason"
    )]
    ResultExists { round: u32, table: u32 },
    #[error("expected a result to correct at table {table} of round {round}, but it has none")]
    NothingToCorrect { round: u32, table: u32 },
    #[error(
        "expected a table of round {round} without a result to play, but table {table} has one"
    )]
    Played { round: u32, table: u32 },
    #[error("expected a correction with a reason, but found {found}")]
    Reason { found: &'static str },
    #[error("expected no reason on a first result, but found one: only a correction has a reason")]
    ReasonOnFirst,
    #[error(
        "expected each bot of table {table} in a seat of its own, a bot the command line knows, under a name no player has, with a player at the table, but found {found}"
    )]
    BotSeat { table: u32, found: String },
    #[error("expected {expected:?} at seat {seat} of table {table}, but found {found:?}")]
    WrongSeat {
        table: u32,
        seat: usize,
        expected: String,
        found: String,
    },
}

/// Why an event log cannot be read, or an entry not written: the file, a
/// line that is no entry, or an entry that breaks a rule, each located.
#[derive(Debug, thiserror::Error)]
pub enum EventFileError {
    #[error("{}", crate::log::io_reason(.0))]
    Io(#[from] io::Error),
    #[error("expected the event's first line, but the file is empty")]
    Empty,
    #[error("{0}")]
    Decode(Located<DecodeError>),
    #[error("{0}")]
    Rule(Located<EventError>),
    /// An entry refused before it was written; the file is unchanged.
    #[error("{0}")]
    Refused(EventError),
    /// A table log that cannot be a table's result.
    #[error("{0}")]
    Table(TableLogError),
    /// A players file that cannot be read.
    #[error("the players file: {0}")]
    Players(#[from] super::players::PlayersError),
}

/// Why a table log cannot be the result of its table; the event is
/// unchanged.
#[derive(Debug, thiserror::Error)]
pub enum TableLogError {
    #[error("{}: {}", .path.display(), crate::log::io_reason(.error))]
    Io { path: PathBuf, error: io::Error },
    #[error("expected a valid table log, but {}:{error}", .path.display())]
    Invalid {
        path: PathBuf,
        error: Located<String>,
    },
    #[error("expected a finished game, but {} stops before its end", .path.display())]
    Unfinished { path: PathBuf },
    #[error("expected a log of {expected}, but {} is of {found}", .path.display())]
    Game {
        path: PathBuf,
        expected: &'static str,
        found: &'static str,
    },
    #[error("expected {expected} players at table {table}, but {} has {found}", .path.display())]
    Count {
        path: PathBuf,
        table: u32,
        expected: usize,
        found: usize,
    },
    #[error("expected a game {part}, but {} starts otherwise", .path.display())]
    Rules { path: PathBuf, part: &'static str },
    /// A line recorded at the table (it carries a time or who posted it),
    /// where `event play` would play on after it.
    #[error(
        "expected a table log of only its start line and bots' moves, but {}:{line} was recorded at the table (it has a time or an author); --force plays the bots on after it",
        .path.display()
    )]
    Recorded { path: PathBuf, line: usize },
}
