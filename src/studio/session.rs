//! One template or deck being edited: opened or created, patched, undone
//! and redone, each edit logged and synced before it is acknowledged, and
//! the file written whole, and only when valid.

use crate::log::GameKind;
use crate::present::json::{Problem, TemplateReport};
use crate::studio::edit_log::{EditLine, EditLog, EditLogError, History};
use crate::template::file::Checked;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{Read, Seek, Write};
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
    /// Another studio is editing the file: it holds the lock beside it.
    #[error(
        "{}: expected a file no other studio is editing, but found one editing it{} (it holds {}); use that studio, or stop it first",
        file.display(),
        address.as_ref().map_or(String::new(), |a| format!(" at {a}")),
        lock.display()
    )]
    Busy {
        file: PathBuf,
        lock: PathBuf,
        /// The other studio's address, when it has written it yet.
        address: Option<String>,
    },
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
    /// A patch that would leave the template nested deeper than a body
    /// may be ([`super::bound::DEPTH`]).
    #[error(
        "expected a JSON Patch that leaves the template nested at most {} levels deep, but found operation {operation} (from 0) at {path} making it {depth} levels deep; nothing was applied",
        super::bound::DEPTH
    )]
    TooDeep {
        operation: usize,
        path: String,
        depth: usize,
    },
    /// A patch that would leave the template holding more values than
    /// [`super::bound::VALUES`].
    #[error(
        "expected a JSON Patch that leaves the template at most {} values in all (objects, arrays, texts and numbers), but found operation {operation} (from 0) at {path} taking it past that; nothing was applied",
        super::bound::VALUES
    )]
    TooLarge { operation: usize, path: String },
    /// Undo with nothing to undo, or redo with nothing undone.
    #[error("expected an edit to {what}, but found none")]
    Nothing { what: &'static str },
    /// An edit made against another version of the template than the one
    /// that stands: the template changed since (another tab, an undo).
    #[error(
        "expected an edit made against the template as it stands (version {current}), but found one made against version {given}: the template changed since, in another tab or by an undo; this edit was not applied (reload the template and make it again)"
    )]
    Stale { given: String, current: String },
    /// The file was changed outside the studio: the studio now edits the
    /// file as it is, its edit log set aside.
    #[error(
        "{}: expected the file as the studio last wrote it, but found it changed outside the studio; the studio now edits the file as it is, its old edit log kept as {} (this edit was not applied)",
        file.display(),
        aside.display()
    )]
    ChangedOutside { file: PathBuf, aside: PathBuf },
    /// The file was changed outside the studio into something it cannot
    /// edit: it is left as it is, and every edit refused until it can.
    #[error(
        "{}: expected the file as the studio last wrote it, but found it changed outside the studio, and {detail}; the studio leaves it as it is and refuses edits until it holds a template again (this edit was not applied)",
        file.display()
    )]
    Unreadable { file: PathBuf, detail: String },
    /// The edit log or the file could not be written.
    #[error(transparent)]
    Io(#[from] StudioError),
}

/// What the template stands as after an edit: the answer of every edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    /// The template's version as it stands: what an edit made against it
    /// names in `If-Match` (also the reply's `ETag`, quoted there).
    pub version: String,
    /// Whether this request changed the template: false for a patch that
    /// changes nothing (it is not logged and adds no undo step) and for
    /// the checks alone.
    pub changed: bool,
}

/// A template or deck open in the studio.
pub struct Studio {
    file: PathBuf,
    log: EditLog,
    history: History,
    /// The hash of the file's bytes as the studio last read or wrote them.
    disk: [u8; 32],
    /// The lock beside the file, held for the studio's life.
    lock: Lock,
}

/// The version of `value`: the SHA-256 of its text in the file, in hex.
pub fn version_of(value: &Value) -> String {
    hex(&Sha256::digest(template_text(value).as_bytes()).into())
}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash of the bytes of `file`, or why they cannot be read.
fn disk_hash(file: &Path) -> std::io::Result<[u8; 32]> {
    Ok(Sha256::digest(std::fs::read(file)?).into())
}

/// Where the lock of the studio editing `file` lives: `FILE.lock`.
pub fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_owned();
    name.push(".lock");
    file.with_file_name(name)
}

/// Runs `write` unless a studio is editing `file`, holding the studio's
/// lock meanwhile so that none starts: for a command such as `template
/// import` that rewrites a file a studio may have open. Where no studio
/// ever opened the file, no lock file is made.
pub fn unless_a_studio_edits<T>(file: &Path, write: impl FnOnce() -> T) -> Result<T, StudioError> {
    // A link shares the lock of the file it points to, which a write
    // through it replaces.
    let file = &crate::kit::atomic::resolved(file);
    if !lock_path(file).exists() {
        return Ok(write());
    }
    let _held = Lock::take(file)?;
    Ok(write())
}

/// An exclusive lock on `FILE.lock`, held while the file stays open: the
/// kernel lets it go when the studio ends, however it ends. The file holds
/// the studio's address once it listens.
struct Lock {
    path: PathBuf,
    /// The locked file; its lock lasts while a descriptor of it is open.
    _held: fd_lock::RwLock<File>,
    /// The same open file, to write the address through.
    file: File,
}

impl Lock {
    fn take(file: &Path) -> Result<Lock, StudioError> {
        let path = lock_path(file);
        let io = |error| StudioError::Io {
            path: path.clone(),
            error,
        };
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        let writer = opened.try_clone().map_err(io)?;
        let mut lock = fd_lock::RwLock::new(opened);
        // A process being started elsewhere in this one holds a copy of
        // every open file for a moment, a lock just let go included: a
        // refusal is believed after a second of asking.
        let mut tries = 0;
        let taken = loop {
            match lock.try_write() {
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock && tries < 20 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                // The guard would let the lock go when dropped: it is kept
                // until the file closes instead.
                Ok(guard) => {
                    std::mem::forget(guard);
                    break Ok(());
                }
                Err(error) => break Err(error),
            }
        };
        match taken {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                let mut text = String::new();
                let _ = File::open(&path).and_then(|mut f| f.read_to_string(&mut text));
                let address = text.lines().next().map(str::trim).filter(|a| !a.is_empty());
                return Err(StudioError::Busy {
                    file: file.to_owned(),
                    lock: path.clone(),
                    address: address.map(str::to_owned),
                });
            }
            Err(error) => return Err(io(error)),
        }
        Ok(Lock {
            path,
            _held: lock,
            file: writer,
        })
    }

    /// Writes `address` into the lock file, for a second studio to name.
    fn tell(&mut self, address: &str) -> std::io::Result<()> {
        // Under the lock, through the open file that holds it.
        let file = &mut self.file;
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(format!("{address}\n").as_bytes())?;
        file.sync_data()
    }
}

/// Whether `value` passes `template check`, and what it finds.
fn check(value: &Value) -> (Option<Checked>, Vec<Problem>, Vec<Problem>) {
    match crate::template::file::check(&template_text(value)) {
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

/// Writes `value` to `file`, whole or not at all, and gives the hash of
/// the bytes written.
fn write(file: &Path, value: &Value) -> Result<[u8; 32], StudioError> {
    let text = template_text(value);
    crate::kit::atomic::write(file, text.as_bytes()).map_err(|error| StudioError::Io {
        path: file.to_owned(),
        error,
    })?;
    Ok(Sha256::digest(text.as_bytes()).into())
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
    write(file, &value).map(|_| ())
}

impl Studio {
    /// Opens `file`, creating it first from `start`, and follows its edit
    /// log (`FILE.edits.jsonl`) where it still describes the file.
    pub fn open(file: &Path, start: &Start) -> Result<(Studio, Opening), StudioError> {
        create(file, start)?;
        // A link is followed: its file is locked, logged and written, and
        // the link stays (see `kit::atomic`).
        let file = &crate::kit::atomic::resolved(file);
        if std::fs::symlink_metadata(file).is_err() {
            return Err(StudioError::Missing {
                file: file.to_owned(),
            });
        }
        let lock = Lock::take(file)?;
        let on_disk = read_json(file)?;
        let disk = disk_hash(file).map_err(|error| StudioError::Io {
            path: file.to_owned(),
            error,
        })?;
        let edits = crate::studio::edit_log::path_for(file);
        let fresh = |opening: Opening, lock: Lock| -> Result<(Studio, Opening), StudioError> {
            let valid = check(&on_disk).0.is_some();
            let log = EditLog::create(&edits, &on_disk, valid)?;
            let history = History::new(on_disk.clone(), valid);
            let studio = Studio {
                file: file.to_owned(),
                log,
                history,
                disk,
                lock,
            };
            Ok((studio, opening))
        };
        if std::fs::symlink_metadata(&edits).is_err() {
            return fresh(Opening::Fresh, lock);
        }
        let why = match EditLog::open(&edits) {
            Ok((log, replayed)) => {
                let history = replayed.history;
                let finished = history.saved() != &on_disk;
                if !finished || history.saved_before() == &on_disk {
                    let mut disk = disk;
                    if finished {
                        // The log was synced and the file not yet written:
                        // the edit was never acknowledged, but it is kept.
                        disk = write(file, history.saved())?;
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
                        disk,
                        lock,
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
        fresh(Opening::SetAside { old, why }, lock)
    }

    /// Writes the studio's address into its lock file, so that a second
    /// studio on the same file can name it.
    pub fn announce(&mut self, address: &str) -> Result<(), StudioError> {
        self.lock.tell(address).map_err(|error| StudioError::Io {
            path: self.lock.path.clone(),
            error,
        })
    }

    /// The template's version as it stands (see [`version_of`]).
    pub fn version(&self) -> String {
        version_of(self.current())
    }

    /// Refuses an edit made against another version than the one that
    /// stands; `None` names none, and is let through.
    pub fn expect(&self, given: Option<&str>) -> Result<(), EditError> {
        let current = self.version();
        match given {
            Some(given) if given != current => Err(EditError::Stale {
                given: given.to_owned(),
                current,
            }),
            _ => Ok(()),
        }
    }

    /// Notices a file changed outside the studio since it last read or
    /// wrote it, before an edit: the studio then edits the file as it is,
    /// its edit log set aside (the hand edit is kept), and the edit is
    /// refused. A file it cannot edit is left alone, and the edit refused.
    fn notice(&mut self) -> Result<(), EditError> {
        let unreadable = |detail: String| EditError::Unreadable {
            file: self.file.clone(),
            detail,
        };
        let now = match disk_hash(&self.file) {
            Ok(now) if now == self.disk => return Ok(()),
            Ok(now) => now,
            Err(error) => {
                let reason = crate::log::io_reason(&error);
                return Err(unreadable(format!("it cannot be read ({reason})")));
            }
        };
        let on_disk = match read_json(&self.file) {
            Ok(value) => value,
            Err(StudioError::NotJson { detail, .. }) => {
                return Err(unreadable(format!("it no longer holds JSON ({detail})")));
            }
            Err(error) => return Err(unreadable(error.to_string())),
        };
        let aside = crate::studio::edit_log::aside_path(&self.file);
        let edits = self.log.path().to_owned();
        std::fs::rename(&edits, &aside).map_err(|error| StudioError::Io {
            path: edits.clone(),
            error,
        })?;
        let valid = check(&on_disk).0.is_some();
        self.log = EditLog::create(&edits, &on_disk, valid).map_err(StudioError::from)?;
        self.history = History::new(on_disk, valid);
        self.disk = now;
        Err(EditError::ChangedOutside {
            file: self.file.clone(),
            aside,
        })
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
            version: self.version(),
            changed: false,
        }
    }

    /// Applies `patch`, logs it and syncs the log, then writes the file if
    /// the template is valid. A patch that cannot apply is refused, and
    /// recorded nowhere.
    ///
    /// `against` is the version the edit was made against, when it names
    /// one: another is refused. Before anything, a file changed outside
    /// the studio is noticed (see [`EditError::ChangedOutside`]). A patch
    /// that changes nothing is answered, and neither logged nor made an
    /// undo step.
    pub fn patch(
        &mut self,
        patch: json_patch::Patch,
        against: Option<&str>,
    ) -> Result<Standing, EditError> {
        self.notice()?;
        self.expect(against)?;
        let mut state = self.current().clone();
        super::bound::apply(&mut state, &patch.0)?;
        if &state == self.current() {
            return Ok(self.checked());
        }
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
            version: self.version(),
            changed: true,
        })
    }

    /// Undoes the last edit not yet undone; `against` as for [`Studio::patch`].
    pub fn undo(&mut self, against: Option<&str>) -> Result<Standing, EditError> {
        self.step(false, against)
    }

    /// Makes the last edit undone again; `against` as for [`Studio::patch`].
    pub fn redo(&mut self, against: Option<&str>) -> Result<Standing, EditError> {
        self.step(true, against)
    }

    fn step(&mut self, forward: bool, against: Option<&str>) -> Result<Standing, EditError> {
        self.notice()?;
        self.expect(against)?;
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
        Ok(Standing {
            changed: true,
            ..self.checked()
        })
    }

    /// Writes the file when the template as it stands is valid.
    fn settle(&mut self) -> Result<(), StudioError> {
        if self.history.valid() {
            self.disk = write(&self.file, self.history.current())?;
        }
        Ok(())
    }
}
