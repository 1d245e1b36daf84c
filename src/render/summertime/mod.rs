//! Summertime on paper: the print-and-play cards, the table as the HTML
//! viewer shows it, and the scored replay.

pub mod cards;
pub mod replay;
pub mod table;
