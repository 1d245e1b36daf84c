//! Recording a match live, for the CLI or any other program.
//!
//! A [`Recorder`] appends one entry at a time, safely:
//! 1. it takes an exclusive lock on the file ([`Recorder::lock`]);
//! 2. it re-reads and folds the whole log under the lock ([`Session::fold`]),
//!    so it checks against what is on disk, not what it last saw;
//! 3. it checks the new line with the same fold that `replay` uses, so a
//!    refusal has the same located reason;
//! 4. it writes the whole line with one write and fsyncs it before
//!    reporting success ([`Session::append`]).
//!
//! A refused entry leaves the file's bytes unchanged.
//!
//! ```no_run
//! use sunfold::log::{Entry, Recorder};
//! use sunfold::soleils::{Die, Event, Rolled, Soleils};
//!
//! let mut recorder = Recorder::open("match.jsonl".as_ref()).expect("the file opens");
//! let mut session = recorder.lock().expect("a log of a game");
//! let mut fold = session.fold::<Soleils>().ok().expect("a valid log");
//! let dice = [Die::new(6), Die::new(3), Die::new(1)].map(|d| d.expect("1 to 6"));
//! let line = session.line(&fold, Entry::Game(Event::Rolled(Rolled { dice })), None);
//! let appended = session.append(&mut fold, line).ok().expect("a legal roll");
//! assert_eq!(appended.kind, "rolled");
//! ```

use super::envelope::{Envelope, Meta};
use super::error::LogError;
use super::fold::Fold;
use super::open::{FoldError, OpenError, Opened, open};
use super::reader::{Entry, GameKind, Line, decode};
use super::writer::to_line;
use crate::kit::game::Game;
use chrono::{DateTime, FixedOffset};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// A log file opened for recording.
pub struct Recorder {
    lock: fd_lock::RwLock<File>,
}

/// A log under an exclusive lock, read whole: entries are checked against
/// these bytes and appended after them. The lock ends with the session.
pub struct Session<'a> {
    file: fd_lock::RwLockWriteGuard<'a, File>,
    bytes: Vec<u8>,
    game: GameKind,
}

/// Why a session could not start.
#[derive(Debug)]
pub enum LockError {
    /// The file cannot be locked or read.
    Io(io::Error),
    /// The file is empty, or its first line names no game.
    Open(OpenError),
}

/// What an append wrote.
#[derive(Clone, Debug)]
pub struct Appended<E> {
    /// The seq of the new line.
    pub seq: u64,
    /// Its type, such as `rolled` or `undone`.
    pub kind: &'static str,
    /// The entry, as decoded from the line written.
    pub entry: Entry<E>,
}

/// Why an append was refused; the file is unchanged.
#[derive(Debug)]
pub enum AppendError<G: Game> {
    /// The line is malformed or breaks a rule. The fold is unchanged, and
    /// [`Fold::rejected`] is the event when it decoded.
    Rejected(LogError<G>),
    /// The line could not be written.
    Io(io::Error),
}

/// Why a new log could not be created.
#[derive(Debug)]
pub enum CreateError<G: Game> {
    /// The start event does not start a game.
    Rejected(LogError<G>),
    /// The file exists and `force` was not given.
    Exists,
    Io(io::Error),
}

impl Recorder {
    /// Opens an existing log for reading and appending.
    pub fn open(path: &Path) -> io::Result<Recorder> {
        let file = OpenOptions::new().read(true).write(true).open(path)?;
        Ok(Recorder {
            lock: fd_lock::RwLock::new(file),
        })
    }

    /// Waits for the exclusive lock, then reads the whole log and learns
    /// its game.
    pub fn lock(&mut self) -> Result<Session<'_>, LockError> {
        let mut file = self.lock.write().map_err(LockError::Io)?;
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_end(&mut bytes))
            .map_err(LockError::Io)?;
        let game = open(&bytes[..]).map_err(LockError::Open)?.game();
        Ok(Session { file, bytes, game })
    }

    /// Writes a new log of one start line, refusing to overwrite an
    /// existing file unless `force`. The start event is checked first.
    pub fn create<G: Game>(
        path: &Path,
        start: G::Event,
        at: Option<DateTime<FixedOffset>>,
        force: bool,
    ) -> Result<(), CreateError<G>> {
        let line = to_line(&Envelope {
            seq: 0,
            at,
            prev: None,
            by: None,
            event: start,
        });
        let candidate = Line {
            number: 1,
            bytes: line.trim_end().as_bytes(),
            terminated: true,
        };
        Fold::<G>::start(&candidate).map_err(CreateError::Rejected)?;
        write_new(path, line.as_bytes(), force).map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => CreateError::Exists,
            _ => CreateError::Io(e),
        })
    }
}

/// Writes `bytes` as a new file at `path` and syncs it and its name;
/// an existing file is refused (`AlreadyExists`) unless `force`, which
/// overwrites it. The match log's and the event log's first lines are
/// written so.
pub fn write_new(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    sync_dir(path);
    Ok(())
}

/// Makes a new file's name durable.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
}

impl Session<'_> {
    /// The game the log's start line names.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The log's bytes as read under the lock, with every line this
    /// session appended.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The log as read under the lock.
    pub fn opened(&self) -> Opened<&[u8]> {
        open(&self.bytes[..]).expect("the first line was read when the lock was taken")
    }

    /// Folds the whole log, as game `G`.
    pub fn fold<G: Game>(&self) -> Result<Fold<G>, FoldError<G>> {
        self.opened().fold(None, &mut |_| {})
    }

    /// The next line for `entry`: the next seq, the time `at`, and the hash
    /// of the last line when the log is chained (a log of only a start line
    /// becomes chained; a hand-written unchained log stays so).
    pub fn line<G: Game>(
        &self,
        fold: &Fold<G>,
        entry: Entry<G::Event>,
        at: Option<DateTime<FixedOffset>>,
    ) -> String {
        super::writer::entry_line(fold.events(), at, Self::prev(fold), None, entry)
    }

    /// The `prev` a new line carries after `fold`, if any.
    pub fn prev<G: Game>(fold: &Fold<G>) -> Option<String> {
        (fold.chained() != Some(false)).then(|| fold.last_hash().to_owned())
    }

    /// An `undone` entry for the last decision that may be taken back.
    pub fn undo<G: Game>(fold: &Fold<G>) -> Entry<G::Event> {
        let seq = fold.events();
        let undoes = fold.undoable().map_or(seq.saturating_sub(1), |(s, _)| s);
        Entry::Meta(Meta::Undone { undoes })
    }

    /// Checks `line` (one log line, with or without its newline) against
    /// `fold`, the fold of this session's log, and appends it durably. On
    /// success `fold` includes it.
    pub fn append<G: Game>(
        &mut self,
        fold: &mut Fold<G>,
        line: String,
    ) -> Result<Appended<G::Event>, AppendError<G>> {
        let text = line.trim_end_matches(['\n', '\r']);
        let candidate = Line {
            number: fold.events() as usize + 1,
            bytes: text.as_bytes(),
            terminated: true,
        };
        let seq = fold.feed(&candidate).map_err(AppendError::Rejected)?;
        // The line was just accepted, so it decodes.
        let entry = decode::<G>(&candidate)
            .map(|record| record.entry)
            .expect("an accepted line decodes");
        let mut out = Vec::with_capacity(text.len() + 2);
        if self.bytes.last().is_some_and(|&b| b != b'\n') {
            out.push(b'\n');
        }
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        write_durably(&mut self.file, &out).map_err(AppendError::Io)?;
        self.bytes.extend_from_slice(&out);
        Ok(Appended {
            seq,
            kind: entry.kind(),
            entry,
        })
    }
}

/// Writes the bytes at the end of the file and fsyncs them.
fn write_durably(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    file.seek(SeekFrom::End(0))?;
    // Test hook: simulate a power cut mid-write by writing only part of the
    // line, syncing it, and waiting to be killed.
    if let Some(n) = std::env::var("SUNFOLD_TEST_TORN_WRITE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        file.write_all(&bytes[..n.min(bytes.len())])?;
        file.sync_data()?;
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
    file.write_all(bytes)?;
    file.sync_data()
}
