//! A log being played: the service beneath both front ends, the recording
//! commands and the table server.
//!
//! - [`with_table`] opens the log, takes its exclusive lock and folds it;
//! - [`append`] checks and appends one line, and says what it did in the
//!   words a referee would use;
//! - [`status`] is where the game stands as one viewer may see it: who may
//!   see what is decided by seat index, never by matching a name's text;
//! - [`entry::line`] completes a raw JSON entry with `seq`, `at` and `prev`;
//!   [`stamp`] is the `at` of the next line, from a [`Clock`], never earlier
//!   than the last line's;
//! - [`since`] tells again what the entries after a given one did.
//!
//! Nothing here prints, parses arguments or speaks HTTP: the CLI adds the
//! path to an error, the server its status.
//!
//! Also: [`decide`] (a decision as a referee names it made into the
//! game's event), [`entry`] (a raw JSON entry completed), [`start`] (a new
//! log's start line).

pub mod decide;
pub mod entry;
pub mod start;
mod status;

pub use entry::EntryError;
pub use status::{Viewer, status};

use crate::kit::game::Game;
use crate::log::{
    AppendError, Appended, Entry, Fold, FoldError, LockError, Meta, OpenError, Recorder, Session,
};
use crate::present::Present;
use chrono::{DateTime, FixedOffset};
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
            TableError::Replay { path, error } => {
                // The line and the rule it breaks, where the fold found them.
                let at = match &**error {
                    FoldError::Start(located) | FoldError::Rejected { error: located, .. } => {
                        format!(":{located}")
                    }
                    FoldError::Io { line, error, .. } => format!(":{line}: {error}"),
                    FoldError::PastEnd { .. } => String::new(),
                };
                write!(
                    f,
                    "{}{at}; the log no longer replays; run sunfold replay on it",
                    path.display()
                )
            }
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
    with_session::<G, T, E>(path, |session| {
        let fold = fold::<G, E>(path, session)?;
        work(session, fold)
    })
}

/// The fold of the log of `session`, at `path`, as the game `G`.
pub fn fold<G: Game, E: From<TableError<G>>>(
    path: &Path,
    session: &Session<'_>,
) -> Result<Fold<G>, E> {
    session.fold::<G>().map_err(|error| {
        E::from(TableError::Replay {
            path: path.to_owned(),
            error: Box::new(error),
        })
    })
}

/// Opens the log at `path` under its exclusive lock, reads it whole, and
/// runs `work` on the session, unfolded. The lock is held until `work`
/// returns; a log of game `G` is expected.
pub fn with_session<G: Game, T, E: From<TableError<G>>>(
    path: &Path,
    work: impl FnOnce(&mut Session<'_>) -> Result<T, E>,
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
    work(&mut session)
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
    let undoing = undoing(fold);
    let appended = session.append(fold, line)?;
    let said = said(&before, fold, &appended.entry, undoing);
    Ok(Said { appended, said })
}

/// The table's clock: the time an entry is written, in the local offset.
pub fn now() -> chrono::DateTime<chrono::FixedOffset> {
    let now = chrono::Local::now();
    now.with_timezone(now.offset())
}

/// Where the time an entry is written comes from: the machine's clock
/// ([`SystemClock`]), or a test's.
pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<FixedOffset>;
}

/// The machine's clock, in the local offset: [`now`].
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<FixedOffset> {
        now()
    }
}

/// The `at` for the next line of the log of `session`: the clock's time,
/// or the last line's `at` when the clock reads earlier (it was set back,
/// or another machine wrote that line), so that the times of a log never
/// go backwards.
pub fn stamp(session: &Session<'_>, clock: &dyn Clock) -> DateTime<FixedOffset> {
    let now = clock.now();
    match last_at(session) {
        Some(last) if last > now => last.with_timezone(now.offset()),
        _ => now,
    }
}

/// The `at` of the last line of the log of `session`, if it has one.
fn last_at(session: &Session<'_>) -> Option<DateTime<FixedOffset>> {
    #[derive(serde::Deserialize)]
    struct At {
        at: Option<String>,
    }
    let (first, _, mut lines) = session.opened().into_parts();
    let mut last = first;
    while let Ok(Some(line)) = lines.next_line() {
        last.clear();
        last.extend_from_slice(line.bytes);
    }
    let at = serde_json::from_slice::<At>(&last).ok()?.at?;
    DateTime::parse_from_rfc3339(&at).ok()
}

/// What each entry after event `after` of the log of `session` did: its
/// seq, its kind, what it did in words (as [`append`] says it), and the
/// fold just after it; for a listener that reconnects and must miss
/// nothing. The log was folded when the lock was taken, so it replays;
/// should it not, the entries stop at the first that does not.
pub fn since<G: Present>(
    session: &Session<'_>,
    after: u64,
    mut each: impl FnMut(u64, &'static str, String, &Fold<G>),
) {
    let (first, terminated, mut lines) = session.opened().into_parts();
    let start = crate::log::Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    let Ok((mut fold, _)) = Fold::<G>::start(&start) else {
        return;
    };
    while let Ok(Some(line)) = lines.next_line() {
        if fold.events() <= after {
            if fold.feed(&line).is_err() {
                return;
            }
            continue;
        }
        let Ok(record) = crate::log::decode::<G>(&line) else {
            return;
        };
        let before = fold.state().clone();
        let undoing = undoing(&fold);
        let Ok(seq) = fold.feed(&line) else {
            return;
        };
        let said = said(&before, &fold, &record.entry, undoing);
        each(seq, record.entry.kind(), said, &fold);
    }
}

/// The decision an undo would take back now, in words.
fn undoing<G: Present>(fold: &Fold<G>) -> Option<String> {
    fold.undoable()
        .map(|(s, event)| format!("took back event {s}: {}", G::describe(event)))
}

/// What `entry` did to the state `before`, now `fold`'s, in words.
fn said<G: Present>(
    before: &G::State,
    fold: &Fold<G>,
    entry: &Entry<G::Event>,
    undoing: Option<String>,
) -> String {
    match entry {
        Entry::Game(event) => G::said(before, fold.state(), event),
        Entry::Meta(Meta::Undone { .. }) => undoing.unwrap_or_default(),
        Entry::Meta(Meta::Claimed { scores, called }) => {
            let scores: Vec<String> = scores
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            let called = if *called { "; the game is called" } else { "" };
            format!("claimed {}{called}", scores.join(", "))
        }
    }
}

/// The digital dice of the next roll: from the start event's `dice_seed`,
/// the 3 dice after the 3 × (round − 1) drawn for earlier rounds; `None`
/// for a log without a seed, whose dice are rolled at the table.
pub fn digital_dice(state: &crate::soleils::State) -> Option<[u8; 3]> {
    let seed = state.dice_seed()?;
    let mut rng = crate::kit::rng::SeededRng::new(seed);
    for _ in 0..3 * u32::from(state.round()) {
        rng.die();
    }
    Some([rng.die(), rng.die(), rng.die()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soleils::Soleils;
    use std::sync::Mutex;

    /// A clock that reads each of its times in turn, as a machine's clock
    /// that is set back would.
    struct Readings(Mutex<Vec<&'static str>>);

    impl Clock for Readings {
        fn now(&self) -> DateTime<FixedOffset> {
            let at = self.0.lock().unwrap().remove(0);
            DateTime::parse_from_rfc3339(at).unwrap()
        }
    }

    /// Why a test's append failed, in words.
    struct Failed(String);

    impl From<TableError<Soleils>> for Failed {
        fn from(error: TableError<Soleils>) -> Failed {
            Failed(error.to_string())
        }
    }

    /// Appends the raw entry `json` to the log at `path` as the table
    /// server does, its time stamped from `clock`.
    fn append_at(path: &Path, json: &str, clock: &dyn Clock) {
        let done = with_table::<Soleils, _, Failed>(path, |session, mut fold| {
            let at = stamp(session, clock);
            let prev = Session::prev(&fold);
            let line = entry::served_line::<Soleils>(json, fold.events(), prev, at, None)
                .map_err(|e| Failed(e.to_string()))?;
            assert!(append(session, &mut fold, line).is_ok(), "{json} is legal");
            Ok(())
        });
        if let Err(Failed(error)) = done {
            panic!("{error}");
        }
    }

    #[test]
    fn given_a_clock_set_back_when_entries_are_appended_then_their_times_never_go_backwards() {
        let dir = std::env::temp_dir().join(format!("sunfold-table-clock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match.jsonl");
        let golden = include_str!("../../replays/soleils-2p-round-limit.jsonl");
        std::fs::write(&path, format!("{}\n", golden.lines().next().unwrap())).unwrap();
        let clock = Readings(Mutex::new(vec![
            "2026-07-01T12:00:00+02:00",
            // Set back an hour, then to 1999, then right again.
            "2026-07-01T11:00:00+02:00",
            "1999-01-01T00:00:00Z",
            "2026-07-01T12:30:00+02:00",
        ]));
        for json in [
            r#"{"type":"rolled","dice":[5,6,2]}"#,
            r#"{"type":"placed","player":"Ann","box":"C2b","value":5}"#,
            r#"{"type":"undone","undoes":2}"#,
            r#"{"type":"placed","player":"Ann","box":"C2b","value":5}"#,
        ] {
            append_at(&path, json, &clock);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let times: Vec<String> = text
            .lines()
            .skip(1)
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["at"].to_string())
            .collect();
        // The times set back are written as the last line's, in the
        // clock's offset.
        assert_eq!(
            times,
            [
                "\"2026-07-01T12:00:00+02:00\"",
                "\"2026-07-01T12:00:00+02:00\"",
                "\"2026-07-01T10:00:00Z\"",
                "\"2026-07-01T12:30:00+02:00\"",
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
