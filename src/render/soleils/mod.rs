//! 62 Soleils on paper: the sheet, blank or filled from a game, and the
//! scored replay.

pub mod replay;
pub mod sheet;
