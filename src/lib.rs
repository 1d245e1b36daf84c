//! sunfold: an event-sourced engine for two summer tabletop games.
//!
//! - [`soleils`]: 62 Soleils d'été, a roll-and-write dice game for 1 to 12 players.
//! - [`summertime`]: Summertime, a two-player card game of buying and placing cards.
//! - [`log`]: the JSON-lines event log shared by the games: envelope, reader, writer.
//!
//! The game folders are pure rules cores: no I/O, no clock, no randomness.

pub mod atomic;
pub mod bounded;
pub mod cli;
pub mod deal;
pub mod fuzz;
pub mod game;
pub mod json_error;
pub mod log;
pub mod path;
pub mod present;
pub mod print;
pub mod render;
pub mod report;
pub mod rng;
pub mod schema;
pub mod serve;
pub mod show;
pub mod sim;
pub mod soleils;
pub mod suggest;
pub mod summertime;
pub mod table;
pub mod template_file;
