//! One template or deck being edited: opened or created, patched, undone
//! and redone, each edit logged and synced before it is acknowledged, and
//! the file written whole, and only when valid.

use crate::log::GameKind;
use crate::log::template_file::Checked;
use crate::present::json::{Problem, TemplateReport};
use crate::studio::edit_log::{EditLine, EditLog, EditLogError, History};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A blank 62 Soleils sheet: the smallest that passes `template check`.
const BLANK_SHEET: &str = include_str!("blank-sheet.json");
/// A blank Summertime deck: the smallest that passes `template check`.
const BLANK_DECK: &str = include_str!("blank-deck.json");

/// The one serializer of the template file: pretty JSON, keys in order,
/// and a final newline. The edit log holds the same values.
pub fn template_text(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// What `sunfold studio` starts from.
#[derive(Clone, Debug)]
pub enum Start {
    /// The file as it is.
    Open,
    /// A new file, a copy of this template or deck.
    From(PathBuf),
    /// A new file, blank, for this game.
    New(GameKind),
}

/// How the edit log was found when the file was opened.
#[derive(Debug)]
pub enum Opening {
    /// No edit log: a new one starts from the file as it is.
    Fresh,
    /// The edit log was followed: `edits` lines after the first. `torn`
    /// bytes of a last line never acknowledged were dropped; `finished`
    /// says the file was rewritten with the last valid version, which a
    /// crash had kept from it.
    Resumed {
        edits: u64,
        torn: usize,
        finished: bool,
    },
    /// The file was changed by hand since its edit log was last written
    /// (or the log no longer replays): the log was kept aside as `old`,
    /// and a new one starts from the file as it is.
    SetAside { old: PathBuf, why: String },
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opening::Fresh => f.write_str("a new edit log"),
            Opening::Resumed { edits, .. } => write!(f, "{edits} edits resumed"),
            Opening::SetAside { old, why } => {
                write!(f, "{why}: the old edit log is kept as {}", old.display())
            }
        }
    }
}

/// Why the studio cannot open or create its file.
#[derive(Debug, thiserror::Error)]
pub enum StudioError {
    /// `--from` or `--new` onto a file that exists.
    #[error(
        "{}: expected a new file to create with --from or --new, but found one already there; open it without them, or choose another name",
        file.display()
    )]
    Exists { file: PathBuf },
    /// No file to open, and nothing to create it from.
    #[error(
        "{}: expected a template or deck to open, but found no such file; create it with --new soleils (or summertime) or --from TEMPLATE",
        file.display()
    )]
    Missing { file: PathBuf },
    /// A file that cannot be read or written.
    #[error("{}: {}", path.display(), crate::log::io_reason(error))]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A file that is not JSON, which no patch can edit.
    #[error("{}: expected a sheet template or deck in JSON, but found {detail}", path.display())]
    NotJson { path: PathBuf, detail: String },
    /// A `--from` template that does not pass `template check`.
    #[error(
        "{}: expected a template or deck that passes template check to start from, but found {}",
        path.display(),
        problems.join("; ")
    )]
    Invalid {
        path: PathBuf,
        problems: Vec<String>,
    },
    /// The edit log cannot be written.
    #[error(transparent)]
    EditLog(#[from] EditLogError),
}

/// Why an edit was refused: nothing was recorded.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// A patch that cannot apply to the template as it stands.
    #[error(
        "expected a JSON Patch that applies to the template, but found operation {operation} (from 0) at {path}: {reason}"
    )]
    Unappliable {
        operation: usize,
        path: String,
        reason: String,
    },
    /// Undo with nothing to undo, or redo with nothing undone.
    #[error("expected an edit to {what}, but found none")]
    Nothing { what: &'static str },
    /// The edit log or the file could not be written.
    #[error(transparent)]
    Io(#[from] StudioError),
}

/// What the template stands as after an edit: the answer of every edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Whether it passes `template check`: only then is it in the file.
    pub valid: bool,
    /// Every problem, as `template check` writes it.
    pub problems: Vec<Problem>,
    /// What is possible but improbable, when valid.
    pub warnings: Vec<Problem>,
    /// How many edits can be undone, and redone.
    pub undo: usize,
    pub redo: usize,
}

/// A template or deck open in the studio.
pub struct Studio {
    file: PathBuf,
    log: EditLog,
    history: History,
}

/// Whether `value` passes `template check`, and what it finds.
fn check(value: &Value) -> (Option<Checked>, Vec<Problem>, Vec<Problem>) {
    match crate::log::template_file::check(&template_text(value)) {
        Ok(checked) => {
            let warnings = TemplateReport::valid(String::new(), &checked).warnings;
            (Some(checked), Vec::new(), warnings)
        }
        Err(problems) => (
            None,
            TemplateReport::invalid(String::new(), &problems).problems,
            Vec::new(),
        ),
    }
}

/// The JSON of the file at `path`.
fn read_json(path: &Path) -> Result<Value, StudioError> {
    let text = std::fs::read_to_string(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::NotFound => StudioError::Missing {
            file: path.to_owned(),
        },
        std::io::ErrorKind::InvalidData => StudioError::NotJson {
            path: path.to_owned(),
            detail: "bytes that are not UTF-8".to_owned(),
        },
        _ => StudioError::Io {
            path: path.to_owned(),
            error,
        },
    })?;
    serde_json::from_str(&text).map_err(|e| StudioError::NotJson {
        path: path.to_owned(),
        detail: format!(
            "{} at line {} column {}",
            crate::kit::json_error::describe(&e),
            e.line(),
            e.column()
        ),
    })
}

/// Writes `value` to `file`, whole or not at all.
fn write(file: &Path, value: &Value) -> Result<(), StudioError> {
    crate::kit::atomic::write(file, template_text(value).as_bytes()).map_err(|error| {
        StudioError::Io {
            path: file.to_owned(),
            error,
        }
    })
}

/// Creates `file` from `start`, refusing a file that exists.
fn create(file: &Path, start: &Start) -> Result<(), StudioError> {
    let value = match start {
        Start::Open => return Ok(()),
        Start::From(template) => {
            let value = read_json(template)?;
            if let (None, problems, _) = check(&value) {
                return Err(StudioError::Invalid {
                    path: template.clone(),
                    problems: problems
                        .into_iter()
                        .map(|p| format!("{}: {}", p.path, p.message))
                        .collect(),
                });
            }
            value
        }
        Start::New(GameKind::Soleils) => serde_json::from_str(BLANK_SHEET).expect("blank JSON"),
        Start::New(GameKind::Summertime) => serde_json::from_str(BLANK_DECK).expect("blank JSON"),
    };
    if std::fs::symlink_metadata(file).is_ok() {
        return Err(StudioError::Exists {
            file: file.to_owned(),
        });
    }
    write(file, &value)
}

impl Studio {
    /// Opens `file`, creating it first from `start`, and follows its edit
    /// log (`FILE.edits.jsonl`) where it still describes the file.
    pub fn open(file: &Path, start: &Start) -> Result<(Studio, Opening), StudioError> {
        create(file, start)?;
        let on_disk = read_json(file)?;
        let edits = crate::studio::edit_log::path_for(file);
        let fresh = |opening: Opening| -> Result<(Studio, Opening), StudioError> {
            let valid = check(&on_disk).0.is_some();
            let log = EditLog::create(&edits, &on_disk, valid)?;
            let history = History::new(on_disk.clone(), valid);
            let studio = Studio {
                file: file.to_owned(),
                log,
                history,
            };
            Ok((studio, opening))
        };
        if std::fs::symlink_metadata(&edits).is_err() {
            return fresh(Opening::Fresh);
        }
        let why = match EditLog::open(&edits) {
            Ok((log, replayed)) => {
                let history = replayed.history;
                let finished = history.saved() != &on_disk;
                if !finished || history.saved_before() == &on_disk {
                    if finished {
                        // The log was synced and the file not yet written:
                        // the edit was never acknowledged, but it is kept.
                        write(file, history.saved())?;
                    }
                    let opening = Opening::Resumed {
                        edits: history.next_seq() - 1,
                        torn: replayed.torn,
                        finished,
                    };
                    let studio = Studio {
                        file: file.to_owned(),
                        log,
                        history,
                    };
                    return Ok((studio, opening));
                }
                "the file was changed since its edit log was last written".to_owned()
            }
            Err(error) => error.to_string(),
        };
        let old = crate::studio::edit_log::aside_path(file);
        std::fs::rename(&edits, &old).map_err(|error| StudioError::Io {
            path: edits.clone(),
            error,
        })?;
        fresh(Opening::SetAside { old, why })
    }

    pub fn file(&self) -> &Path {
        &self.file
    }

    pub fn edit_log(&self) -> &Path {
        self.log.path()
    }

    /// The template as it stands, valid or not.
    pub fn current(&self) -> &Value {
        self.history.current()
    }

    /// What the file holds: the last valid version.
    pub fn saved(&self) -> &Value {
        self.history.saved()
    }

    /// The template as it stands, checked.
    pub fn checked(&self) -> Standing {
        let (_, problems, warnings) = check(self.current());
        Standing {
            valid: self.history.valid(),
            problems,
            warnings,
            undo: self.history.undoable(),
            redo: self.history.redoable(),
        }
    }

    /// Applies `patch`, logs it and syncs the log, then writes the file if
    /// the template is valid. A patch that cannot apply is refused, and
    /// recorded nowhere.
    pub fn patch(&mut self, patch: json_patch::Patch) -> Result<Standing, EditError> {
        let mut state = self.current().clone();
        json_patch::patch(&mut state, &patch.0).map_err(|e| EditError::Unappliable {
            operation: e.operation,
            path: e.path.to_string(),
            reason: e.kind.to_string(),
        })?;
        let (checked, problems, warnings) = check(&state);
        let valid = checked.is_some();
        self.log
            .append(&EditLine::Patched {
                seq: self.history.next_seq(),
                patch,
                valid,
            })
            .map_err(StudioError::from)?;
        self.history.push(state, valid);
        self.settle()?;
        Ok(Standing {
            valid,
            problems,
            warnings,
            undo: self.history.undoable(),
            redo: self.history.redoable(),
        })
    }

    /// Undoes the last edit not yet undone.
    pub fn undo(&mut self) -> Result<Standing, EditError> {
        self.step(false)
    }

    /// Makes the last edit undone again.
    pub fn redo(&mut self) -> Result<Standing, EditError> {
        self.step(true)
    }

    fn step(&mut self, forward: bool) -> Result<Standing, EditError> {
        let seq = self.history.next_seq();
        let mut after = self.history.clone();
        let (moved, what) = if forward {
            (after.redo(), "redo")
        } else {
            (after.undo(), "undo")
        };
        if !moved {
            return Err(EditError::Nothing { what });
        }
        let valid = after.valid();
        let line = if forward {
            EditLine::Redone { seq, valid }
        } else {
            EditLine::Undone { seq, valid }
        };
        self.log.append(&line).map_err(StudioError::from)?;
        self.history = after;
        self.settle()?;
        Ok(self.checked())
    }

    /// Writes the file when the template as it stands is valid.
    fn settle(&self) -> Result<(), StudioError> {
        if self.history.valid() {
            write(&self.file, self.history.current())?;
        }
        Ok(())
    }
}
