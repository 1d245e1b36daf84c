//! A sheet template or deck as a file a designer edits: read with every
//! problem at once, and its cards or boxes as the rows of a spreadsheet.
//!
//! Its files: [`file`](mod@file) (a sheet template or deck read from its
//! file, with every problem at once), [`rows`] (its cards or boxes as the
//! rows of a spreadsheet: CSV out and in, and rows pasted in the studio).

pub mod file;
pub mod rows;
