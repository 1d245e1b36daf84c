//! The studio's edit log: every edit of a sheet template or deck, one JSON
//! line each, in a file beside it (`FILE.edits.jsonl`), so that undo and
//! redo can replay them and a studio opened again after a crash resumes
//! exactly where the last acknowledged edit left it.
//!
//! The first line says what was opened; each line after it is an edit:
//!
//! ```text
//! {"type":"opened","format":1,"valid":true,"template":{…}}
//! {"type":"patched","seq":1,"patch":[{"op":"replace","path":"/name","value":"Mine"}],"valid":true}
//! {"type":"undone","seq":2,"valid":true}
//! {"type":"redone","seq":3,"valid":true}
//! ```
//!
//! A patch is an RFC 6902 JSON Patch on the template; `valid` says whether
//! the template it leaves passes `template check`, so that replaying never
//! needs to check again. Each line is written with one write and synced
//! before the edit is acknowledged; a last line without its newline was
//! never acknowledged, and is dropped when the log is read. Its schema is
//! `sunfold schema studio-edits`.
//!
//! [`History`] is the state the lines describe: every version of the
//! template along the current branch, where undo has brought it, and what
//! the file on disk holds.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The version of the edit log's format, in its first line.
pub const EDITS_FORMAT: u32 = 1;

/// One line of an edit log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EditLine {
    /// The first line: the template or deck as it was opened.
    Opened {
        /// The edit log's format: 1.
        format: u32,
        /// Whether the template passed `template check` as opened.
        valid: bool,
        /// The file's JSON, as opened.
        template: Value,
    },
    /// An RFC 6902 JSON Patch applied to the template as it stood.
    Patched {
        /// The edit's number, from 1.
        seq: u64,
        patch: json_patch::Patch,
        /// Whether the template it leaves passes `template check`.
        valid: bool,
    },
    /// The last edit not yet undone, undone.
    Undone { seq: u64, valid: bool },
    /// The last edit undone, made again.
    Redone { seq: u64, valid: bool },
}

impl EditLine {
    fn seq(&self) -> u64 {
        match self {
            EditLine::Opened { .. } => 0,
            EditLine::Patched { seq, .. }
            | EditLine::Undone { seq, .. }
            | EditLine::Redone { seq, .. } => *seq,
        }
    }
}

/// Why an edit log cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum EditLogError {
    /// The file cannot be read or written.
    #[error("{}: {}", path.display(), crate::log::io_reason(error))]
    Io { path: PathBuf, error: io::Error },
    /// A line that is not a line of an edit log.
    #[error("{}:{line}: expected a line of a studio edit log, but found {detail}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        detail: String,
    },
    /// A first line that is not `opened`, or of another format.
    #[error("{}:1: expected an opened line of format {EDITS_FORMAT}, but found {found}", path.display())]
    Format { path: PathBuf, found: String },
    /// An edit out of sequence.
    #[error("{}:{line}: expected edit {expected}, but found edit {found}", path.display())]
    Seq {
        path: PathBuf,
        line: usize,
        expected: u64,
        found: u64,
    },
    /// An edit that cannot be replayed on the template as it stood.
    #[error("{}:{line}: expected an edit that replays, but found {detail}", path.display())]
    Replay {
        path: PathBuf,
        line: usize,
        detail: String,
    },
}

/// Where the edit log of the template at `file` lives: `FILE.edits.jsonl`.
pub fn path_for(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_owned();
    name.push(".edits.jsonl");
    file.with_file_name(name)
}

/// Where an edit log no longer followed is kept: `FILE.edits.N.jsonl`, the
/// first N from 1 that is free.
pub fn aside_path(file: &Path) -> PathBuf {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    (1..)
        .map(|n| file.with_file_name(format!("{name}.edits.{n}.jsonl")))
        .find(|p| !p.exists())
        .expect("some number is free")
}

/// The template's versions along the current branch of edits, where undo
/// has brought it, and what the file on disk holds.
#[derive(Clone, Debug)]
pub struct History {
    /// Every version: the opened one first, then one per edit kept
    /// (shared, so that a history is cheap to copy).
    states: Vec<(Arc<Value>, bool)>,
    cursor: usize,
    /// What the file holds: the last valid version reached, or the one
    /// opened.
    saved: Value,
    /// What it held before the last line, for a crash between the log
    /// and the file.
    saved_before: Value,
    /// The number of the last line written.
    seq: u64,
}

impl History {
    /// A history that starts from `opened`.
    pub fn new(opened: Value, valid: bool) -> History {
        History {
            states: vec![(Arc::new(opened.clone()), valid)],
            cursor: 0,
            saved: opened.clone(),
            saved_before: opened,
            seq: 0,
        }
    }

    /// The template as it stands.
    pub fn current(&self) -> &Value {
        &self.states[self.cursor].0
    }

    /// Whether the template as it stands passes `template check`.
    pub fn valid(&self) -> bool {
        self.states[self.cursor].1
    }

    /// The template as opened.
    pub fn opened(&self) -> &Value {
        &self.states[0].0
    }

    /// What the file on disk holds: the last valid version reached.
    pub fn saved(&self) -> &Value {
        &self.saved
    }

    /// What the file held before the last line.
    pub fn saved_before(&self) -> &Value {
        &self.saved_before
    }

    /// How many edits can be undone, and redone.
    pub fn undoable(&self) -> usize {
        self.cursor
    }

    pub fn redoable(&self) -> usize {
        self.states.len() - 1 - self.cursor
    }

    /// The number the next line takes.
    pub fn next_seq(&self) -> u64 {
        self.seq + 1
    }

    fn moved(&mut self) {
        self.seq += 1;
        self.saved_before = self.saved.clone();
        if self.valid() {
            self.saved = self.current().clone();
        }
    }

    /// `state` after an edit, with its validity: the edits undone are
    /// dropped.
    pub fn push(&mut self, state: Value, valid: bool) {
        self.states.truncate(self.cursor + 1);
        self.states.push((Arc::new(state), valid));
        self.cursor += 1;
        self.moved();
    }

    /// Goes back one edit; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        self.moved();
        true
    }

    /// Goes forward one edit undone; `false` when there is none.
    pub fn redo(&mut self) -> bool {
        if self.redoable() == 0 {
            return false;
        }
        self.cursor += 1;
        self.moved();
        true
    }
}

/// An edit log open for appending.
pub struct EditLog {
    path: PathBuf,
    file: File,
}

/// The lines of an edit log, and the bytes of a torn last line dropped.
pub struct Replayed {
    pub history: History,
    pub torn: usize,
}

impl EditLog {
    /// A new edit log at `path` that starts from `opened`, written whole
    /// (over any file there) before it is opened for appending.
    pub fn create(path: &Path, opened: &Value, valid: bool) -> Result<EditLog, EditLogError> {
        let line = EditLine::Opened {
            format: EDITS_FORMAT,
            valid,
            template: opened.clone(),
        };
        let io = |error| EditLogError::Io {
            path: path.to_owned(),
            error,
        };
        crate::kit::atomic::write(path, text(&line).as_bytes()).map_err(io)?;
        EditLog::append_to(path)
    }

    fn append_to(path: &Path) -> Result<EditLog, EditLogError> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|error| EditLogError::Io {
                path: path.to_owned(),
                error,
            })?;
        Ok(EditLog {
            path: path.to_owned(),
            file,
        })
    }

    /// Reads and replays the edit log at `path`, dropping a torn last line
    /// (one without its newline: never acknowledged), and opens it for
    /// appending after its last whole line.
    pub fn open(path: &Path) -> Result<(EditLog, Replayed), EditLogError> {
        let bytes = std::fs::read(path).map_err(|error| EditLogError::Io {
            path: path.to_owned(),
            error,
        })?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let read = replay(path, &bytes[..whole])?;
        if whole < bytes.len() {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(whole as u64).and_then(|()| f.sync_all()));
            file.map_err(|error| EditLogError::Io {
                path: path.to_owned(),
                error,
            })?;
        }
        let log = EditLog::append_to(path)?;
        Ok((
            log,
            Replayed {
                history: read,
                torn: bytes.len() - whole,
            },
        ))
    }

    /// Appends `line` with one write and syncs it.
    pub fn append(&mut self, line: &EditLine) -> Result<(), EditLogError> {
        self.file
            .write_all(text(line).as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|error| EditLogError::Io {
                path: self.path.clone(),
                error,
            })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// One line's text, newline included.
fn text(line: &EditLine) -> String {
    let mut text = serde_json::to_string(line).expect("edit lines serialize");
    text.push('\n');
    text
}

/// The history that the whole lines in `bytes` describe.
fn replay(path: &Path, bytes: &[u8]) -> Result<History, EditLogError> {
    let at = |line: usize, detail: String| EditLogError::Line {
        path: path.to_owned(),
        line,
        detail,
    };
    let mut history: Option<History> = None;
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    // What follows the last newline: nothing.
    lines.pop();
    for (i, raw) in lines.into_iter().enumerate() {
        let number = i + 1;
        let line: EditLine = serde_json::from_slice(raw)
            .map_err(|e| at(number, crate::kit::json_error::describe(&e)))?;
        let Some(history) = history.as_mut() else {
            match line {
                EditLine::Opened {
                    format: EDITS_FORMAT,
                    valid,
                    template,
                } => history = Some(History::new(template, valid)),
                EditLine::Opened { format, .. } => {
                    return Err(EditLogError::Format {
                        path: path.to_owned(),
                        found: format!("format {format}"),
                    });
                }
                _ => {
                    return Err(EditLogError::Format {
                        path: path.to_owned(),
                        found: format!("edit {}", line.seq()),
                    });
                }
            }
            continue;
        };
        let expected = history.next_seq();
        if line.seq() != expected {
            return Err(EditLogError::Seq {
                path: path.to_owned(),
                line: number,
                expected,
                found: line.seq(),
            });
        }
        let failed = |detail: String| EditLogError::Replay {
            path: path.to_owned(),
            line: number,
            detail,
        };
        match line {
            EditLine::Opened { .. } => {
                return Err(failed("a second opened line".to_owned()));
            }
            EditLine::Patched { patch, valid, .. } => {
                let mut state = history.current().clone();
                json_patch::patch(&mut state, &patch.0)
                    .map_err(|e| failed(format!("a patch that does not apply ({e})")))?;
                history.push(state, valid);
            }
            EditLine::Undone { valid, .. } => {
                if !history.undo() {
                    return Err(failed("an undo with no edit to undo".to_owned()));
                }
                check_valid(history, valid).map_err(failed)?;
            }
            EditLine::Redone { valid, .. } => {
                if !history.redo() {
                    return Err(failed("a redo with no edit undone".to_owned()));
                }
                check_valid(history, valid).map_err(failed)?;
            }
        }
    }
    history.ok_or_else(|| EditLogError::Format {
        path: path.to_owned(),
        found: "an empty file".to_owned(),
    })
}

/// The validity a line records against the version it brings back.
fn check_valid(history: &History, valid: bool) -> Result<(), String> {
    if history.valid() == valid {
        Ok(())
    } else {
        Err(format!(
            "valid {valid} for a version first recorded as valid {}",
            history.valid()
        ))
    }
}
