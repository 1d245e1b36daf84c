//! Printable output: one scene model in millimetres ([`scene`]), measured
//! in the fonts it is given ([`text`]), written by the [`svg`] and [`pdf`]
//! backends. Nothing here reads files or knows the command line.
//!
//! - [`game`]: the trait [`game::Drawn`], what the scored replay and the
//!   HTML viewer need of a game, implemented in each game's folder;
//! - at the top, what every drawing shares: [`scene`], [`text`], [`svg`],
//!   [`pdf`], [`paper`], [`pictogram`] and [`chart`];
//! - one folder per game: [`soleils`] (the sheet and the scored replay) and
//!   [`summertime`] (the cards, the table and the scored replay);
//! - the reports of the simulator ([`compare`], [`ladder`]) and the HTML
//!   replay [`viewer`].

pub mod chart;
pub mod compare;
pub mod game;
pub mod item_pictogram;
pub mod ladder;
pub mod paper;
pub mod pdf;
pub mod pictogram;
pub mod scene;
pub mod soleils;
pub mod summertime;
pub mod svg;
pub mod sweep;
pub mod text;
pub mod viewer;
