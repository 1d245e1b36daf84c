//! Whether each result attached to an event is still true of its table's
//! log: the SHA-256 the result holds, against the bytes of
//! `EVENT.d/round-N/table-T.jsonl` as they are now.

use super::file::table_path;
use super::state::EventState;
use std::path::{Path, PathBuf};

/// One attached result, checked against its table's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub round: u32,
    pub table: u32,
    /// The table's log.
    pub path: PathBuf,
    /// The SHA-256 the result holds: of the bytes it was read from.
    pub expected: String,
    pub found: Found,
}

/// What the table's log is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The same bytes.
    Same,
    /// Other bytes, of this SHA-256.
    Changed(String),
    /// No file.
    Missing,
    /// A file that cannot be read, and why.
    Unreadable(String),
}

impl Checked {
    /// Whether the log is the one the result was read from.
    pub fn holds(&self) -> bool {
        self.found == Found::Same
    }

    /// What differs, in words; `None` when nothing does.
    pub fn problem(&self) -> Option<String> {
        let (round, table, path) = (self.round, self.table, self.path.display());
        let expected = format!(
            "{path}: round {round}, table {table}: expected the log its result was read from (SHA-256 {})",
            self.expected
        );
        match &self.found {
            Found::Same => None,
            Found::Changed(found) => Some(format!(
                "{expected}, but found other bytes (SHA-256 {found})"
            )),
            Found::Missing => Some(format!("{expected}, but found no file")),
            Found::Unreadable(why) => Some(format!("{expected}, but it cannot be read: {why}")),
        }
    }
}

/// Every result standing in the event at `event` (the last correction of
/// each table), round by round and table by table, checked against its
/// table's log.
pub fn verify(event: &Path, state: &EventState) -> Vec<Checked> {
    let mut checked = Vec::new();
    for round in &state.rounds {
        for (&table, result) in &round.results {
            let path = table_path(event, round.round, table);
            let found = match std::fs::read(&path) {
                Ok(bytes) => {
                    let hash = crate::log::line_hash(&bytes);
                    if hash == result.hash {
                        Found::Same
                    } else {
                        Found::Changed(hash)
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Missing,
                Err(e) => Found::Unreadable(crate::log::io_reason(&e)),
            };
            checked.push(Checked {
                round: round.round,
                table,
                path,
                expected: result.hash.clone(),
                found,
            });
        }
    }
    checked
}
