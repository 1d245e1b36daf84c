//! sunfold: an event-sourced engine for two summer tabletop games.
//!
//! Every part, listed from the lowest layer up (each part may name only
//! the parts of the layers below its own: `tests/it/docs/architecture.rs`
//! checks every file against the layers of `docs/architecture.md`):
//!
//! - [`kit`]: the contract both rules cores fulfil (`game`), and the
//!   shared kit: JSON paths, "did you mean", ranged numbers, a portable
//!   seeded generator, serde_json's messages reworded, files written whole;
//! - [`render`]: the drawing engine: a scene in millimetres, fonts, SVG and
//!   PDF;
//! - [`soleils`]: 62 Soleils d'été, a roll-and-write dice game for 1 to 12
//!   players: its pure rules core;
//! - [`summertime`]: Summertime, a two-player card game of buying and
//!   placing cards: its pure rules core;
//! - [`log`]: the JSON-lines event log: envelope, reader, writer, hash
//!   chain, recorder;
//! - [`template`]: a sheet template or deck as a file: read with every
//!   problem, its cards or boxes as a spreadsheet's rows;
//! - [`stats`]: the statistics kit: a figure and its 95% interval, sums;
//! - [`bots`]: the random, greedy and search bots, one game played, a
//!   variant, a Summertime deal from a seed;
//! - [`workbench`]: batches of games and their tallies, the reports of
//!   simulate and compare, ladders, sweeps, shards, analysis;
//! - [`print`]: the game pictures: sheets, cards, tables, scored replays;
//! - [`present`]: a game in words, written once, and its typed reports;
//! - [`report`]: the workbench's reports (compare, ladder, sweep) as text,
//!   JSON and drawings;
//! - [`show`]: a game in words and on paper together: the HTML viewer;
//! - [`table`]: a log being played: lock, fold, append;
//! - [`event`]: an event of many tables: seating, results read from
//!   audited logs, standings;
//! - [`handout`]: an event's papers, printed: a round's seating and slips,
//!   the standings;
//! - [`serve`]: the live table's HTTP edge;
//! - [`studio`]: the sheet and deck studio's HTTP edge: a template edited
//!   by JSON Patch, and its edit log;
//! - [`schema`]: the JSON Schema of every format and report;
//! - [`fuzz`]: entry points for fuzzing the reader, the reducers and the
//!   template checks;
//! - [`cli`]: the command line: arguments, paths, exit codes.
//!
//! The game folders are pure rules cores: no I/O, no clock, no randomness.

pub mod bots;
pub mod cli;
pub mod event;
pub mod fuzz;
pub mod handout;
pub mod kit;
pub mod log;
pub mod present;
pub mod print;
pub mod render;
pub mod report;
pub mod schema;
pub mod serve;
pub mod show;
pub mod soleils;
pub mod stats;
pub mod studio;
pub mod summertime;
pub mod table;
pub mod template;
pub mod workbench;
