//! sunfold: an event-sourced engine for two summer tabletop games.
//!
//! Every module, listed from the rules up to the command line (which part
//! may name which is checked by `tests/architecture.rs`):
//!
//! - [`soleils`]: 62 Soleils d'été, a roll-and-write dice game for 1 to 12
//!   players: its pure rules core;
//! - [`summertime`]: Summertime, a two-player card game of buying and
//!   placing cards: its pure rules core;
//! - [`game`]: the contract both rules cores fulfil;
//! - [`suggest`], [`path`], [`bounded`]: "did you mean", JSON paths and
//!   ranged numbers, shared by the cores' messages;
//! - [`rng`] and [`deal`]: a portable seeded generator, and a Summertime
//!   deal from a seed;
//! - [`json_error`] and [`template_file`]: serde_json's messages reworded,
//!   and a template or deck file read with every problem at once;
//! - [`atomic`]: files written whole or not at all;
//! - [`log`]: the JSON-lines event log: envelope, reader, writer, hash
//!   chain, recorder;
//! - [`sim`]: bots, search, batches of games and their tallies, ladders,
//!   sweeps, analysis;
//! - [`render`]: the drawing engine: a scene in millimetres, fonts, SVG and
//!   PDF;
//! - [`print`]: the game pictures: sheets, cards, tables, scored replays;
//! - [`present`]: a game in words, written once, and its typed reports;
//! - [`report`]: the workbench's reports (compare, ladder, sweep) as text,
//!   JSON and drawings;
//! - [`schema`]: the JSON Schema of every format and report;
//! - [`show`]: a game in words and on paper together: the HTML viewer;
//! - [`table`]: a log being played: lock, fold, append;
//! - [`event`]: an event of many tables: seating, results read from
//!   audited logs, standings;
//! - [`handout`]: an event's papers, printed: a round's seating and slips,
//!   the standings;
//! - [`serve`]: the live table's HTTP edge;
//! - [`edit_log`]: the studio's edit log: its lines, read and replayed;
//! - [`studio`]: the sheet and deck studio's HTTP edge: a template edited
//!   by JSON Patch;
//! - [`fuzz`]: entry points for fuzzing the reader, the reducers and the
//!   template checks;
//! - [`cli`]: the command line: arguments, paths, exit codes.
//!
//! The game folders are pure rules cores: no I/O, no clock, no randomness.

pub mod atomic;
pub mod bounded;
pub mod cli;
pub mod deal;
pub mod edit_log;
pub mod event;
pub mod fuzz;
pub mod game;
pub mod handout;
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
pub mod studio;
pub mod suggest;
pub mod summertime;
pub mod table;
pub mod template_file;
