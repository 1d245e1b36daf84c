//! Printable output: one scene model in millimetres ([`scene`]), measured
//! in the fonts it is given ([`text`]), written by the [`svg`] and [`pdf`]
//! backends. Nothing here reads files or knows the command line.
//!
//! - at the top, what every drawing shares: [`scene`], [`text`], [`svg`],
//!   [`pdf`], [`paper`], [`pictogram`] and [`chart`];
//! - one folder per game: [`soleils`] (the sheet and the scored replay) and
//!   [`summertime`] (the cards, the table and the scored replay);
//! - the reports of the simulator ([`compare`], [`ladder`]) and the HTML
//!   replay [`viewer`].

pub mod chart;
pub mod compare;
pub mod ladder;
pub mod paper;
pub mod pdf;
pub mod pictogram;
pub mod scene;
pub mod soleils;
pub mod summertime;
pub mod svg;
pub mod text;
pub mod viewer;

// The paths these modules had before they moved into a folder per game,
// for the callers outside render/ that still use them (present/, serve/,
// examples/, tests/); they can go once those use the new paths.
pub use soleils::replay as soleils_replay;
pub use soleils::sheet;
pub use summertime::cards;
pub use summertime::replay as summertime_replay;
pub use summertime::table as summertime_table;
