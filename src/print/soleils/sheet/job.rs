//! A print job of blank sheets checked before anything is drawn: the
//! names printed on personalised sheets, trimmed and in NFC, and the flags
//! that make no sense together.

use crate::render::paper::Paper;
use std::path::{Path, PathBuf};
use unicode_normalization::UnicodeNormalization;

/// The most copies, or names, one print job takes.
pub const MAX_COPIES: u16 = 500;

/// Why a print job is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    #[error("expected a name in each place of --names, but found an empty one at place {place}")]
    EmptyName { place: usize },
    #[error("{}: expected one name per line, but found no name", .file.display())]
    NoName { file: PathBuf },
    #[error("expected at most {MAX_COPIES} names, as for --copies, but found {0}")]
    TooManyNames(usize),
    #[error(
        "expected --per-page 1 with --large-print, whose pages are A4 or Letter at twice the size, but found --per-page {0}"
    )]
    LargePerPage(u8),
    #[error(
        "expected --paper a4 or letter with --large-print, but found a5, which would shrink its numbers below twice the standard size"
    )]
    LargeA5,
    #[error("expected at most {most} sheets in one job, but --names and --copies ask for {found}")]
    TooManySheets { found: usize, most: u16 },
}

/// The names given one by one, trimmed and in NFC, so that a name typed
/// with a combining accent prints as the one it looks like.
pub fn names(given: &[String]) -> Result<Vec<String>, JobError> {
    if let Some(i) = given.iter().position(|n| n.trim().is_empty()) {
        return Err(JobError::EmptyName { place: i + 1 });
    }
    at_most(given.iter().map(|n| n.trim().nfc().collect()).collect())
}

/// The names of the text of a names file at `file`, one per line (blank
/// lines skipped, a byte order mark ignored), trimmed and in NFC.
pub fn names_in(file: &Path, text: &str) -> Result<Vec<String>, JobError> {
    let names: Vec<String> = text
        .trim_start_matches('\u{FEFF}')
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(|line| line.nfc().collect())
        .collect();
    if names.is_empty() {
        return Err(JobError::NoName {
            file: file.to_owned(),
        });
    }
    at_most(names)
}

fn at_most(names: Vec<String>) -> Result<Vec<String>, JobError> {
    if names.len() > usize::from(MAX_COPIES) {
        return Err(JobError::TooManyNames(names.len()));
    }
    Ok(names)
}

/// Refuses the flags that make no sense together: large print other than
/// one sheet per page on A4 or Letter, and more than ten times
/// [`MAX_COPIES`] sheets in all.
pub fn check(
    large_print: bool,
    per_page: u8,
    paper: Paper,
    names: usize,
    copies: Option<u16>,
) -> Result<(), JobError> {
    if large_print && per_page != 1 {
        return Err(JobError::LargePerPage(per_page));
    }
    if large_print && matches!(paper, Paper::A5) {
        return Err(JobError::LargeA5);
    }
    let sheets = names.max(1) * usize::from(copies.unwrap_or(1));
    if sheets > 10 * usize::from(MAX_COPIES) {
        return Err(JobError::TooManySheets {
            found: sheets,
            most: 10 * MAX_COPIES,
        });
    }
    Ok(())
}
