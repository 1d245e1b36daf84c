//! Printable output: one scene model in millimetres ([`scene`]), drawn by
//! the sheet, card and replay builders, written by the [`svg`] and [`pdf`]
//! backends. Nothing here reads files or knows the command line.

pub mod cards;
pub mod chart;
pub mod compare;
pub mod ladder;
pub mod paper;
pub mod pdf;
pub mod pictogram;
pub mod scene;
pub mod sheet;
pub mod soleils_replay;
pub mod summertime_replay;
pub mod summertime_table;
pub mod svg;
pub mod text;
pub mod viewer;
