//! A log being played: the service beneath both front ends, the recording
//! commands and the table server.
//!
//! - [`with_table`] opens the log, takes its exclusive lock and folds it;
//! - [`append`] checks and appends one line, and says what it did in the
//!   words a referee would use;
//! - [`status`] is where the game stands as one viewer may see it: who may
//!   see what is decided by seat index, never by matching a name's text;
//! - [`entry::line`] completes a raw JSON entry with `seq`, `at` and `prev`.
//!
//! Nothing here prints, parses arguments or speaks HTTP: the CLI adds the
//! path to an error, the server its status.

pub mod entry;
mod status;

pub use entry::EntryError;
pub use status::{Viewer, status};

use crate::game::Game;
use crate::log::{
    AppendError, Appended, Entry, Fold, FoldError, LockError, Meta, OpenError, Recorder, Session,
};
use crate::present::Present;
use std::path::{Path, PathBuf};

/// Why a table could not be opened, or an entry not taken.
pub enum TableError<G: Game> {
    /// The file cannot be opened, locked, read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// Its first line is not a start line this version reads.
    Open { path: PathBuf, error: OpenError },
    /// The log no longer replays.
    Replay {
        path: PathBuf,
        error: Box<FoldError<G>>,
    },
    /// The raw entry is not a JSON object.
    Entry(EntryError),
}

impl<G: Game> From<EntryError> for TableError<G> {
    fn from(error: EntryError) -> Self {
        TableError::Entry(error)
    }
}

impl<G: Game> std::fmt::Display for TableError<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TableError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::Open {
                path,
                error: OpenError::Io(error),
            } => write!(f, "{}: {error}", path.display()),
            TableError::Open {
                path,
                error: OpenError::Decode(located),
            } => write!(f, "{}:{located}", path.display()),
            TableError::Replay { path, .. } => write!(
                f,
                "{}: the log no longer replays; run sunfold replay on it",
                path.display()
            ),
            TableError::Entry(e) => write!(f, "{e}"),
        }
    }
}

/// Opens the log at `path` under its exclusive lock, folds it as the game
/// `G`, and runs `work` on the session and the fold. The lock is held
/// until `work` returns.
pub fn with_table<G: Game, T, E: From<TableError<G>>>(
    path: &Path,
    work: impl FnOnce(&mut Session<'_>, Fold<G>) -> Result<T, E>,
) -> Result<T, E> {
    let path_buf = || path.to_owned();
    let mut recorder = Recorder::open(path).map_err(|error| TableError::<G>::Io {
        path: path_buf(),
        error,
    })?;
    let mut session = recorder.lock().map_err(|error| match error {
        LockError::Io(error) => TableError::<G>::Io {
            path: path_buf(),
            error,
        },
        LockError::Open(error) => TableError::<G>::Open {
            path: path_buf(),
            error,
        },
    })?;
    let fold = session
        .fold::<G>()
        .map_err(|error| TableError::<G>::Replay {
            path: path_buf(),
            error: Box::new(error),
        })?;
    work(&mut session, fold)
}

/// What an append did: the line written and, in words, what it did.
pub struct Said<E> {
    pub appended: Appended<E>,
    /// The dice and round of a roll, the crab's targets, the decision an
    /// undo took back, the scores claimed.
    pub said: String,
}

/// Checks and appends `line` to the locked log of `fold`, and says what it
/// did in words, as a referee would. A refused line leaves the file's bytes
/// unchanged and `fold` as it was.
pub fn append<G: Present>(
    session: &mut Session<'_>,
    fold: &mut Fold<G>,
    line: String,
) -> Result<Said<G::Event>, AppendError<G>> {
    let before = fold.state().clone();
    let undoing = fold
        .undoable()
        .map(|(s, event)| format!("took back event {s}: {}", G::describe(event)));
    let appended = session.append(fold, line)?;
    let said = match &appended.entry {
        Entry::Game(event) => G::said(&before, fold.state(), event),
        Entry::Meta(Meta::Undone { .. }) => undoing.unwrap_or_default(),
        Entry::Meta(Meta::Claimed { scores }) => {
            let scores: Vec<String> = scores
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            format!("claimed {}", scores.join(", "))
        }
    };
    Ok(Said { appended, said })
}

/// The table's clock: the time an entry is written, in the local offset.
pub fn now() -> chrono::DateTime<chrono::FixedOffset> {
    let now = chrono::Local::now();
    now.with_timezone(now.offset())
}

/// The digital dice of the next roll: from the start event's `dice_seed`,
/// the 3 dice after the 3 × (round − 1) drawn for earlier rounds; `None`
/// for a log without a seed, whose dice are rolled at the table.
pub fn digital_dice(state: &crate::soleils::State) -> Option<[u8; 3]> {
    let seed = state.dice_seed()?;
    let mut rng = crate::rng::SeededRng::new(seed);
    for _ in 0..3 * u32::from(state.round()) {
        rng.die();
    }
    Some([rng.die(), rng.die(), rng.die()])
}
