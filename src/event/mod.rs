//! An event of many tables: its players, the rounds seated so that they
//! meet new opponents, the results read from audited table logs, and the
//! standings. An event is a JSON-lines log too, with the guarantees of a
//! match log: a hash chain, appends under a lock with one write and a
//! sync, refusals that change nothing, and errors located by line. See
//! `docs/events.md`.
//!
//! Its files: [`entry`] (the lines and their format), [`error`] (why an
//! entry or a request is refused), [`state`] (the event the lines
//! describe, each entry checked), [`file`] (the log read, created and
//! appended), [`players`] (the players file), [`points`] (points as exact
//! fractions), [`seat`] (group play and
//! Swiss pairing), [`standings`] (points and tie-breaks), [`seating`] (a
//! round's seating), [`tables`] (the table logs: created, played by bots,
//! audited into a result), [`verify`] (each attached result against its
//! table's log as it is now), [`request`] (what each verb asks, done),
//! [`rating`] (each player's rating across events), [`study`] (whole
//! events played by bots, to compare formats), [`study_part`] (a study's
//! shards and their merge).

pub mod entry;
pub mod error;
pub mod file;
pub mod players;
pub mod points;
pub mod rating;
pub mod request;
pub mod seat;
pub mod seating;
pub mod standings;
pub mod state;
pub mod study;
pub mod study_part;
pub mod tables;
pub mod verify;

pub use entry::{EVENT_FORMAT, Entry, EventGame, Player, TieBreak};
pub use error::{EventError, EventFileError, TableLogError};
pub use file::{EventLog, event_name, is_event_file, is_event_log, table_path, tables_dir};
pub use points::Points;
pub use request::NewEvent;
pub use seat::SeatBy;
pub use seating::Seating;
pub use standings::{Standings, standings};
pub use state::EventState;
