//! Recording a match live: `new`, one verb per decision, `append`, `undo`,
//! `claim`, `status` and `repair`.
//!
//! Every append takes an exclusive lock on the file, re-reads and folds it
//! under the lock, checks the new line with the same fold that `replay` uses
//! (so a refusal has the same located reason), writes the whole line with
//! one write, and fsyncs before reporting success. A refused entry leaves
//! the file's bytes unchanged.

use super::error::{Alternatives, CliError};
use super::game::{ForGame, Shown, dispatch};
use super::{Exit, Format};
use crate::log::{
    AppendError, CreateError, GameKind, LockError, Opened, Recorder, RepairError, Session,
};
use crate::present::Present;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::table::decide::{self, Decide, Decision, Refusal, Request};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The recording commands: each appends one entry, under an exclusive lock.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum Verb {
    /// 62 Soleils: roll the three dice (digital dice from the log's seed, or
    /// --dice 3,4,6 for real ones).
    #[command(after_help = RECORD_HELP)]
    Roll {
        file: PathBuf,
        #[arg(long, value_delimiter = ',', value_name = "A,B,C")]
        dice: Option<Vec<u8>>,
    },
    /// 62 Soleils: PLAYER writes VALUE into BOX.
    #[command(after_help = RECORD_HELP)]
    Place {
        file: PathBuf,
        player: String,
        #[arg(value_name = "BOX")]
        box_id: String,
        value: u8,
    },
    /// 62 Soleils: PLAYER copies the crab value into the neighbour TARGET, or --decline.
    #[command(after_help = RECORD_HELP)]
    Crab {
        file: PathBuf,
        player: String,
        #[arg(required_unless_present = "decline")]
        target: Option<String>,
        #[arg(long, conflicts_with = "target")]
        decline: bool,
    },
    /// 62 Soleils: PLAYER adds VALUE to the sun track.
    #[command(after_help = RECORD_HELP)]
    Sun {
        file: PathBuf,
        player: String,
        value: u8,
    },
    /// 62 Soleils: PLAYER writes the bonus digit VALUE into BOX, or --decline.
    #[command(after_help = RECORD_HELP)]
    Bonus {
        file: PathBuf,
        player: String,
        #[arg(value_name = "BOX", required_unless_present = "decline")]
        box_id: Option<String>,
        #[arg(required_unless_present = "decline")]
        value: Option<u8>,
        #[arg(long, conflicts_with_all = ["box_id", "value"])]
        decline: bool,
    },
    /// Summertime: PLAYER buys a face-up CARD (its id, or the stack number 0-2).
    #[command(after_help = RECORD_HELP)]
    Buy {
        file: PathBuf,
        player: String,
        card: String,
    },
    /// Summertime: PLAYER plays CARD at CELL, written x,y.
    #[command(after_help = RECORD_HELP)]
    Play {
        file: PathBuf,
        player: String,
        card: String,
        #[arg(value_parser = crate::table::decide::cell, allow_hyphen_values = true)]
        cell: (i32, i32),
    },
    /// Summertime: PLAYER ends a turn in which they bought.
    #[command(name = "end-turn", after_help = RECORD_HELP)]
    EndTurn { file: PathBuf, player: String },
    /// Summertime: PLAYER turns all face-down tiles face up.
    #[command(after_help = RECORD_HELP)]
    Flip { file: PathBuf, player: String },
    /// Summertime: PLAYER passes.
    #[command(after_help = RECORD_HELP)]
    Pass { file: PathBuf, player: String },
    /// Summertime: turn up the next card (dealt games), or STACK CARD --behind
    /// ITEMS as seen on the table (physical games).
    #[command(after_help = RECORD_HELP)]
    Reveal {
        file: PathBuf,
        stack: Option<u8>,
        #[arg(requires = "stack")]
        card: Option<String>,
        #[arg(long, value_delimiter = ',', requires = "card", value_name = "A,B,C")]
        behind: Option<Vec<String>>,
    },
    /// Summertime: the face-up cards leave the game after two passes.
    #[command(after_help = RECORD_HELP)]
    Discard { file: PathBuf },
    /// Append any entry given as JSON; seq, at and prev are filled in.
    #[command(after_help = RECORD_HELP)]
    Append { file: PathBuf, json: String },
    /// Take back the last decision (not across a roll or a reveal): appends
    /// an "undone" entry, it never erases.
    #[command(after_help = RECORD_HELP)]
    Undo { file: PathBuf },
    /// Record the scores claimed on paper, NAME=SCORE each, or --from FILE.
    #[command(after_help = RECORD_HELP)]
    Claim {
        file: PathBuf,
        #[arg(value_parser = crate::table::decide::claim, required_unless_present = "from")]
        scores: Vec<(String, i64)>,
        /// A JSON file {"Ann": 54, "Bob": 61}.
        #[arg(long, conflicts_with = "scores")]
        from: Option<PathBuf>,
        /// Call the game before its end (on time, say): it is over here.
        #[arg(long)]
        called: bool,
    },
}

const RECORD_HELP: &str = "\
Every recording command locks the file, checks the new entry against the
whole log first, and writes it only if it is legal; an illegal entry is
refused with its reason and the file stays byte for byte unchanged.

Exit codes:
  0  the entry was appended
  1  the entry is illegal, or the log is malformed
  2  bad arguments, or a file that cannot be read or written";

impl Verb {
    /// The decision it names, for a verb of one game.
    fn decision(&self) -> Option<Decision> {
        Some(match self.clone() {
            Verb::Roll { dice, .. } => Decision::Roll { dice },
            Verb::Place {
                player,
                box_id,
                value,
                ..
            } => Decision::Place {
                player,
                box_id,
                value,
            },
            Verb::Crab { player, target, .. } => Decision::Crab { player, target },
            Verb::Sun { player, value, .. } => Decision::Sun { player, value },
            Verb::Bonus {
                player,
                box_id,
                value,
                ..
            } => Decision::Bonus {
                player,
                box_id,
                value,
            },
            Verb::Buy { player, card, .. } => Decision::Buy { player, card },
            Verb::Play {
                player, card, cell, ..
            } => Decision::Play { player, card, cell },
            Verb::EndTurn { player, .. } => Decision::EndTurn { player },
            Verb::Flip { player, .. } => Decision::Flip { player },
            Verb::Pass { player, .. } => Decision::Pass { player },
            Verb::Reveal {
                stack,
                card,
                behind,
                ..
            } => Decision::Reveal {
                stack,
                card,
                behind,
            },
            Verb::Discard { .. } => Decision::Discard,
            Verb::Append { .. } | Verb::Undo { .. } | Verb::Claim { .. } => return None,
        })
    }

    /// What it asks to append; a claim's scores read from `--from`.
    fn request(&self) -> Result<Request, CliError> {
        Ok(match self {
            Verb::Append { json, .. } => Request::Json(json.clone()),
            Verb::Undo { .. } => Request::Undo,
            Verb::Claim {
                scores,
                from,
                called,
                ..
            } => Request::Claim {
                scores: match from {
                    None => scores.iter().cloned().collect(),
                    Some(from) => super::read_json::<BTreeMap<String, i64>>(from)?,
                },
                called: *called,
            },
            _ => Request::Decision(self.decision().expect("a verb of one game")),
        })
    }

    /// The log it appends to.
    fn file(&self) -> &Path {
        match self {
            Verb::Roll { file, .. }
            | Verb::Place { file, .. }
            | Verb::Crab { file, .. }
            | Verb::Sun { file, .. }
            | Verb::Bonus { file, .. }
            | Verb::Buy { file, .. }
            | Verb::Play { file, .. }
            | Verb::EndTurn { file, .. }
            | Verb::Flip { file, .. }
            | Verb::Pass { file, .. }
            | Verb::Reveal { file, .. }
            | Verb::Discard { file }
            | Verb::Append { file, .. }
            | Verb::Undo { file }
            | Verb::Claim { file, .. } => file,
        }
    }
}

use crate::table::now;

/// Appends the entry a verb describes, under an exclusive lock, through the
/// library's [`Recorder`].
pub fn record(verb: Verb) -> Result<Exit, CliError> {
    let path = verb.file();
    let mut recorder = Recorder::open(path).map_err(|e| CliError::io(path, e))?;
    let mut session = recorder.lock().map_err(|error| match error {
        LockError::Io(e) => CliError::io(path, e),
        LockError::Open(error) => super::game::opening(path, Format::Text, error),
    })?;
    if let Some(decision) = verb.decision() {
        decision.check_game(path, session.game()).map_err(refusal)?;
    }
    let said = match session.game() {
        GameKind::Soleils => checked::<Soleils>(path, &mut session, &verb),
        GameKind::Summertime => checked::<Summertime>(path, &mut session, &verb),
    }?;
    println!("{said}");
    Ok(Exit::Valid)
}

/// A decision refused as its kind says: a usage error, or a refusal.
fn refusal(refusal: Refusal) -> CliError {
    match refusal {
        Refusal::Usage(message) => CliError::Usage(message),
        Refusal::Refused(message) => CliError::Refused(message),
    }
}

/// Folds the locked log, builds the new line, checks it with the same fold
/// that `replay` uses and appends it. Returns what was appended and what it
/// did, in words.
fn checked<G: Present + Decide>(
    path: &Path,
    session: &mut Session<'_>,
    verb: &Verb,
) -> Result<String, CliError> {
    let mut fold = session
        .fold::<G>()
        .map_err(|error| super::game::folding(path, Format::Text, error))?;
    // Never earlier than the last line's time, even if the clock went back.
    let at = crate::table::stamp(session, &crate::table::SystemClock);
    let line = decide::line(session, &fold, verb.request()?, at).map_err(refusal)?;
    match crate::table::append::<G>(session, &mut fold, line) {
        Ok(crate::table::Said { appended, said }) => Ok(format!(
            "{}: appended event {} ({})\n{said}",
            path.display(),
            appended.seq,
            appended.kind
        )),
        Err(AppendError::Io(e)) => Err(CliError::io(path, e)),
        Err(AppendError::Rejected(error)) => {
            let alternatives = Alternatives::commands(path, &fold);
            Err(super::game::failure::<G>(
                path,
                Format::Text,
                &error,
                Some(&fold),
                alternatives,
            ))
        }
    }
}

/// `sunfold status`: where the game stands and what may happen next.
pub fn status(path: &Path, all: bool, format: Format) -> Result<Exit, CliError> {
    struct Status<'a> {
        path: &'a Path,
        all: bool,
        format: Format,
    }
    impl<R: BufRead> ForGame<R> for Status<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            status_of::<G, R>(self.path, opened, self.all, self.format)
        }
    }
    let opened = super::game::open(path, format)?;
    dispatch(opened, Status { path, all, format })
}

fn status_of<G: Present, R: BufRead>(
    path: &Path,
    opened: Opened<R>,
    all: bool,
    format: Format,
) -> Result<Exit, CliError> {
    let fold = super::game::fold::<G, _>(path, opened, None, format, &mut |_| {})?;
    match format {
        Format::Json => {
            let report = crate::table::status::<G>(path, &fold, crate::table::Viewer::Referee);
            println!(
                "{:#}",
                serde_json::to_value(report).expect("reports serialize")
            );
        }
        Format::Text => print!("{}", crate::present::json::status_text(path, &fold, all)),
    }
    Ok(Exit::Valid)
}

/// `sunfold repair`: removes a torn last line and blank lines at the end,
/// and only these, from a match log or an event log. A log damaged above
/// them is left as it is: the damage is reported, with what to do.
pub fn repair(path: &Path) -> Result<Exit, CliError> {
    struct Whole<'a>(&'a Path);
    impl<R: BufRead> ForGame<R> for Whole<'_> {
        type Output = Result<(), CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            super::game::fold::<G, _>(self.0, opened, None, Format::Text, &mut |_| {}).map(|_| ())
        }
    }
    let shown = path.display();
    let whole = |kept: &[u8]| {
        // An event log is checked as the event commands read it.
        if crate::event::is_event_log(kept) {
            return (crate::event::EventLog::read(kept).map(|_| ()))
                .map_err(|error| CliError::event_file(path, error));
        }
        crate::log::open(kept)
            .map_err(|error| super::game::opening(path, Format::Text, error))
            .and_then(|opened| dispatch(opened, Whole(path)))
    };
    match crate::log::repair(path, whole) {
        Ok(repaired) => println!("{}", repaired.said(&shown.to_string())),
        Err(RepairError::Io { path, error }) => return Err(CliError::io(&path, error)),
        // Any other damage is reported, never repaired: say what it is.
        Err(RepairError::Damaged(damage)) => {
            let message = untouched(&shown.to_string(), damage.line());
            return Err(CliError::Untouched {
                damage: Box::new(damage),
                message,
            });
        }
    }
    Ok(Exit::Valid)
}

/// Why `repair` left the log `shown`, damaged at `line`, as it is, and
/// what to do instead.
fn untouched(shown: &str, line: Option<usize>) -> String {
    let head =
        "expected damage only at the end (a torn last line, blank lines), which repair removes";
    match line {
        Some(1) => format!(
            "{shown}: {head}, but found line 1 damaged; nothing was changed: mend line 1 by hand"
        ),
        Some(line) => format!(
            "{shown}: {head}, but found line {line} damaged; nothing was changed: mend line {line} by hand, or keep the lines before it (head -n {} {})",
            line - 1,
            crate::present::command::quote(shown)
        ),
        None => format!("{shown}: {head}, but found damage above them; nothing was changed"),
    }
}

/// Writes a new log's start line, refusing to overwrite unless `force`.
pub fn create<G: Present>(path: &Path, start: G::Event, force: bool) -> Result<Exit, CliError> {
    match Recorder::create::<G>(path, start, Some(now()), force) {
        Ok(()) => {
            println!("{}: started a {} game", path.display(), G::NAME);
            Ok(Exit::Valid)
        }
        Err(CreateError::Rejected(error)) => Err(super::game::failure::<G>(
            path,
            Format::Text,
            &error,
            None,
            Alternatives::None,
        )),
        Err(CreateError::Exists) => Err(CliError::exists(path)),
        Err(CreateError::Io(e)) => Err(CliError::io(path, e)),
    }
}
