//! The game pictures: each game on paper, laid out as scenes of the
//! drawing engine ([`crate::render`]), which draws them as SVG or PDF.
//! Nothing here reads files or knows the server or the words of
//! `present/`; a print job's refusals name the flags that asked for it.
//!
//! - [`floor`]: the 6 pt floor every print keeps, and why a print misses it;
//! - [`game`]: the trait [`game::Drawn`], what the scored replay and the
//!   HTML viewer need of a game, implemented in each game's folder;
//! - [`soleils`]: the sheet, blank or filled, and the scored replay;
//! - [`summertime`]: the print-and-play cards and their pictograms, the
//!   table, and the scored replay.

pub mod floor;
pub mod game;
pub mod soleils;
pub mod summertime;
