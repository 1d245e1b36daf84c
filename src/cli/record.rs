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
use crate::game::Game;
use crate::log::{
    AppendError, CreateError, Entry, Fold, GameKind, LockError, Meta, Opened, Recorder,
    RepairError, Repaired, Session,
};
use crate::present::Present;
use crate::present::command as commands;
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
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
        #[arg(value_parser = parse_cell, allow_hyphen_values = true)]
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
        #[arg(value_parser = parse_claim, required_unless_present = "from")]
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

fn parse_cell(text: &str) -> Result<(i32, i32), String> {
    let n = |v: &str| v.trim().parse::<i32>().ok();
    match text.split_once(',').map(|(x, y)| (n(x), n(y))) {
        Some((Some(x), Some(y))) => Ok((x, y)),
        _ => Err(format!("expected a cell such as 2,-1, but found {text:?}")),
    }
}

fn parse_claim(text: &str) -> Result<(String, i64), String> {
    let (name, score) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=SCORE such as Ann=54, but found {text:?}"))?;
    let score = score
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("expected a whole score in {text:?}"))?;
    Ok((name.trim().to_owned(), score))
}

impl Verb {
    fn game(&self) -> Option<GameKind> {
        match self {
            Verb::Roll { .. }
            | Verb::Place { .. }
            | Verb::Crab { .. }
            | Verb::Sun { .. }
            | Verb::Bonus { .. } => Some(GameKind::Soleils),
            Verb::Buy { .. }
            | Verb::Play { .. }
            | Verb::EndTurn { .. }
            | Verb::Flip { .. }
            | Verb::Pass { .. }
            | Verb::Reveal { .. }
            | Verb::Discard { .. } => Some(GameKind::Summertime),
            Verb::Append { .. } | Verb::Undo { .. } | Verb::Claim { .. } => None,
        }
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
    if let Some(game) = verb.game()
        && game != session.game()
    {
        let (wanted, found) = match game {
            GameKind::Soleils => ("62 Soleils", "Summertime"),
            GameKind::Summertime => ("Summertime", "62 Soleils"),
        };
        return Err(CliError::Usage(format!(
            "{}: expected a {wanted} log for this command, but found a {found} game",
            path.display()
        )));
    }
    let said = match session.game() {
        GameKind::Soleils => checked::<Soleils>(path, &mut session, &verb, soleils_entry),
        GameKind::Summertime => checked::<Summertime>(path, &mut session, &verb, summertime_entry),
    }?;
    println!("{said}");
    Ok(Exit::Valid)
}

type Builder<G> = fn(&Fold<G>, &Verb) -> Result<<G as Game>::Event, CliError>;

/// Folds the locked log, builds the new line, checks it with the same fold
/// that `replay` uses and appends it. Returns what was appended and what it
/// did, in words.
fn checked<G: Present>(
    path: &Path,
    session: &mut Session<'_>,
    verb: &Verb,
    build: Builder<G>,
) -> Result<String, CliError> {
    let mut fold = session
        .fold::<G>()
        .map_err(|error| super::game::folding(path, Format::Text, error))?;
    // Never earlier than the last line's time, even if the clock went back.
    let at = crate::table::stamp(session, &crate::table::SystemClock);
    let line = match verb {
        Verb::Append { json, .. } => {
            crate::table::entry::line::<G>(json, fold.events(), Session::prev(&fold), at)
                .map_err(|e| CliError::Refused(e.to_string()))?
        }
        Verb::Undo { .. } => session.line(&fold, Session::undo(&fold), Some(at)),
        Verb::Claim {
            scores,
            from,
            called,
            ..
        } => {
            let scores = match from {
                None => scores.iter().cloned().collect(),
                Some(from) => super::read_json::<BTreeMap<String, i64>>(from)?,
            };
            let called = *called;
            let claimed = Entry::Meta(Meta::Claimed { scores, called });
            session.line(&fold, claimed, Some(at))
        }
        _ => session.line(&fold, Entry::Game(build(&fold, verb)?), Some(at)),
    };
    match crate::table::append::<G>(session, &mut fold, line) {
        Ok(crate::table::Said { appended, said }) => Ok(format!(
            "{}: appended event {} ({})\n{said}",
            path.display(),
            appended.seq,
            appended.kind
        )),
        Err(AppendError::Io(e)) => Err(CliError::io(path, e)),
        Err(AppendError::Rejected(error)) => {
            let alternatives = fold
                .rejected()
                .map(|event| {
                    let events = G::alternatives(fold.state(), event);
                    Alternatives::Commands(commands::grouped::<G>(path, fold.state(), &events))
                })
                .unwrap_or_default();
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

fn die(value: u8) -> Result<soleils::Die, CliError> {
    let refused = format!("expected a die value from 1 to 6, but found {value}");
    soleils::Die::new(value).ok_or(CliError::Refused(refused))
}

fn soleils_entry(fold: &Fold<Soleils>, verb: &Verb) -> Result<soleils::Event, CliError> {
    use soleils::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, Step, SunEntered};
    let state = fold.state();
    Ok(match verb.clone() {
        Verb::Roll { dice, .. } => {
            let dice = match dice {
                Some(dice) if dice.len() == 3 => dice,
                Some(dice) => {
                    return Err(CliError::Usage(format!(
                        "expected three dice such as 3,4,6, but found {}",
                        dice.len()
                    )));
                }
                None => digital_dice(fold)?,
            };
            Event::Rolled(Rolled {
                dice: [die(dice[0])?, die(dice[1])?, die(dice[2])?],
            })
        }
        Verb::Place {
            player,
            box_id,
            value,
            ..
        } => Event::Placed(Placed {
            player,
            box_id,
            value: die(value)?,
        }),
        Verb::Crab {
            player,
            target: None,
            ..
        } => Event::CrabDeclined(PlayerOnly { player }),
        Verb::Crab {
            player,
            target: Some(to),
            ..
        } => {
            // The copy comes from the crab box the player just wrote.
            let from = state
                .player_index(&player)
                .and_then(|p| match state.players()[p].turn.step() {
                    Step::Crab(b) => Some(state.template().boxes()[b].id.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| to.clone());
            Event::CrabCopied(CrabCopied { player, from, to })
        }
        Verb::Sun { player, value, .. } => Event::SunEntered(SunEntered {
            player,
            value: die(value)?,
        }),
        Verb::Bonus {
            player,
            box_id: Some(box_id),
            value: Some(value),
            ..
        } => Event::BonusPlaced(BonusPlaced {
            player,
            box_id,
            value: die(value)?,
        }),
        Verb::Bonus { player, .. } => Event::BonusDeclined(PlayerOnly { player }),
        _ => unreachable!("only 62 Soleils verbs reach here"),
    })
}

/// The dice `sunfold roll` draws without `--dice`, from the log's seed.
fn digital_dice(fold: &Fold<Soleils>) -> Result<Vec<u8>, CliError> {
    let refused = "expected --dice 3,4,6: this log has no dice_seed for digital dice (sunfold new writes one)";
    let dice = crate::table::digital_dice(fold.state());
    dice.map(|dice| dice.to_vec())
        .ok_or(CliError::Usage(refused.to_owned()))
}

fn summertime_entry(fold: &Fold<Summertime>, verb: &Verb) -> Result<summertime::Event, CliError> {
    use summertime::{Bought, Discarded, Event, Phase, Played, PlayerOnly, Revealed};
    let state = fold.state();
    let deck = state.deck();
    Ok(match verb.clone() {
        Verb::Buy { player, card, .. } => {
            // A stack number names the face-up card in front of that stack.
            let card = match card.parse::<usize>() {
                Ok(stack) if stack < 3 => {
                    state.display()[stack].map_or(card, |c| deck.card(c).id.clone())
                }
                _ => card,
            };
            Event::Bought(Bought { player, card })
        }
        Verb::Play {
            player, card, cell, ..
        } => Event::Played(Played {
            player,
            card,
            cell: [cell.0, cell.1],
        }),
        Verb::EndTurn { player, .. } => Event::TurnEnded(PlayerOnly { player }),
        Verb::Flip { player, .. } => Event::TilesFlipped(PlayerOnly { player }),
        Verb::Pass { player, .. } => Event::Passed(PlayerOnly { player }),
        Verb::Reveal {
            stack: Some(stack),
            card: Some(card),
            behind,
            ..
        } => {
            let behind = match behind {
                None => None,
                Some(items) if items.len() == 3 => {
                    Some([items[0].clone(), items[1].clone(), items[2].clone()])
                }
                Some(items) => {
                    return Err(CliError::Usage(format!(
                        "expected three items behind, such as coconut,coconut,shell, but found {}",
                        items.len()
                    )));
                }
            };
            Event::Revealed(Revealed {
                stack,
                card,
                behind,
            })
        }
        Verb::Reveal { .. } => {
            // In a dealt game the order says which card comes next.
            let Phase::Reveal(stacks) = state.phase() else {
                return Err(CliError::Refused(
                    "expected a reveal to be due, but none is: nothing to turn up now".to_owned(),
                ));
            };
            if !state.is_dealt() {
                return Err(CliError::Usage(
                    "expected STACK CARD --behind ITEMS in a physical game, whose order is unknown"
                        .to_owned(),
                ));
            }
            let stack = stacks[0];
            let card = deck
                .card(state.stacks()[usize::from(stack)].cards[0])
                .id
                .clone();
            Event::Revealed(Revealed {
                stack,
                card,
                behind: None,
            })
        }
        Verb::Discard { .. } => Event::Discarded(Discarded {
            cards: state
                .display()
                .iter()
                .flatten()
                .map(|&c| deck.card(c).id.clone())
                .collect(),
        }),
        _ => unreachable!("only Summertime verbs reach here"),
    })
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
        Format::Text => print!("{}", crate::present::report::status_text(path, &fold, all)),
    }
    Ok(Exit::Valid)
}

/// `sunfold repair`: removes a torn last line, and only that.
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
        crate::log::open(kept)
            .map_err(|error| super::game::opening(path, Format::Text, error))
            .and_then(|opened| dispatch(opened, Whole(path)))
    };
    match crate::log::repair(path, whole) {
        Ok(Repaired::Complete) => {
            println!("{shown}: nothing to repair: the last line is complete");
        }
        Ok(Repaired::CompleteJson) => {
            println!(
                "{shown}: nothing to repair: the last line is complete JSON without a newline"
            );
        }
        Ok(Repaired::Removed {
            line,
            bytes,
            backup,
        }) => println!(
            "{shown}: removed the torn line {line} ({bytes} bytes, kept in {})",
            backup.display()
        ),
        Err(RepairError::Io { path, error }) => return Err(CliError::io(&path, error)),
        // Any other damage is reported, never repaired: say what it is.
        Err(RepairError::Damaged(damage)) => {
            return Err(CliError::Untouched {
                damage: Box::new(damage),
                message: format!(
                    "{shown}: expected damage only on the last line, but found the damage above; repair removes only a torn last line"
                ),
            });
        }
    }
    Ok(Exit::Valid)
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
        Err(CreateError::Exists) => Err(CliError::Usage(format!(
            "{}: expected a new file, but it exists; use --force to overwrite it",
            path.display()
        ))),
        Err(CreateError::Io(e)) => Err(CliError::io(path, e)),
    }
}
