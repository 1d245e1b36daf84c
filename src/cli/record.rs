//! Recording a match live: `new`, one verb per decision, `append`, `undo`,
//! `claim`, `status` and `repair`.
//!
//! Every append takes an exclusive lock on the file, re-reads and folds it
//! under the lock, checks the new line with the same fold that `replay` uses
//! (so a refusal has the same located reason), writes the whole line with
//! one write, and fsyncs before reporting success. A refused entry leaves
//! the file's bytes unchanged.

use super::present::Present;
use super::replay::{fail, fold_file, read_first};
use super::{Exit, Format, io_error};
use crate::game::Game;
use crate::log::{Entry, Envelope, Fold, GameKind, Line, Meta, to_line};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// What a command appends.
#[derive(Clone, Debug)]
pub enum Verb {
    Roll {
        dice: Option<Vec<u8>>,
    },
    Place {
        player: String,
        box_id: String,
        value: u8,
    },
    Crab {
        player: String,
        to: Option<String>,
    },
    Sun {
        player: String,
        value: u8,
    },
    Bonus {
        player: String,
        placed: Option<(String, u8)>,
    },
    Buy {
        player: String,
        card: String,
    },
    Play {
        player: String,
        card: String,
        cell: (i32, i32),
    },
    EndTurn {
        player: String,
    },
    Flip {
        player: String,
    },
    Pass {
        player: String,
    },
    Reveal {
        given: Option<(u8, String, Option<Vec<String>>)>,
    },
    Discard,
    Append {
        json: String,
    },
    Undo,
    Claim {
        scores: BTreeMap<String, i64>,
    },
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
            | Verb::Discard => Some(GameKind::Summertime),
            Verb::Append { .. } | Verb::Undo | Verb::Claim { .. } => None,
        }
    }
}

fn now() -> chrono::DateTime<chrono::FixedOffset> {
    let now = chrono::Local::now();
    now.with_timezone(now.offset())
}

/// One line: a game event or a meta entry, in its envelope.
fn line_of<E: serde::Serialize>(entry: Entry<E>, seq: u64, prev: Option<String>) -> String {
    let at = Some(now());
    match entry {
        Entry::Game(event) => to_line(&Envelope {
            seq,
            at,
            prev,
            event,
        }),
        Entry::Meta(event) => to_line(&Envelope {
            seq,
            at,
            prev,
            event,
        }),
    }
}

/// Where a new line's `prev` comes from: chained logs and logs of only a
/// start line are (or become) chained; hand-written unchained logs stay so.
fn prev_for<G: Game>(fold: &Fold<G>) -> Option<String> {
    (fold.chained() != Some(false)).then(|| fold.last_hash().to_owned())
}

fn usage(message: String) -> Exit {
    eprintln!("sunfold: {message}");
    Exit::Usage
}

/// Appends the entry a verb describes, under an exclusive lock.
pub fn record(path: &Path, verb: Verb) -> Exit {
    let file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) => return io_error(path, &e),
    };
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = match lock.write() {
        Ok(guard) => guard,
        Err(e) => return io_error(path, &e),
    };
    let mut bytes = Vec::new();
    if let Err(e) = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut bytes))
    {
        return io_error(path, &e);
    }
    let opened = match read_first(path, &bytes[..], Format::Text) {
        Ok(opened) => opened,
        Err(exit) => return exit,
    };
    if let Some(game) = verb.game()
        && game != opened.game
    {
        let (wanted, found) = match game {
            GameKind::Soleils => ("62 Soleils", "Summertime"),
            GameKind::Summertime => ("Summertime", "62 Soleils"),
        };
        return usage(format!(
            "{}: expected a {wanted} log for this command, but found a {found} game",
            path.display()
        ));
    }
    let line = match opened.game {
        GameKind::Soleils => checked::<Soleils>(path, opened, &verb, soleils_entry),
        GameKind::Summertime => checked::<Summertime>(path, opened, &verb, summertime_entry),
    };
    let (line, seq, kind, said) = match line {
        Ok(checked) => checked,
        Err(exit) => return exit,
    };
    let mut out = Vec::with_capacity(line.len() + 1);
    if bytes.last().is_some_and(|&b| b != b'\n') {
        out.push(b'\n');
    }
    out.extend_from_slice(line.as_bytes());
    if let Err(e) = write_durably(&mut file, &out) {
        return io_error(path, &e);
    }
    println!("{}: appended event {seq} ({kind})", path.display());
    println!("{said}");
    Exit::Valid
}

/// Writes the bytes at the end of the file and fsyncs them.
fn write_durably(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
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

type Builder<G> = fn(&Fold<G>, &Verb) -> Result<<G as Game>::Event, Exit>;

/// Folds the locked bytes, builds the new line and checks it with the same
/// fold that `replay` uses. Returns the line, its seq, its type, and what
/// it did in words.
fn checked<G: Present>(
    path: &Path,
    opened: super::replay::Opened<&[u8]>,
    verb: &Verb,
    build: Builder<G>,
) -> Result<(String, u64, String, String), Exit> {
    let mut fold = fold_file::<G, _>(path, opened, None, Format::Text, &mut |_| {})?;
    let seq = fold.events();
    let prev = prev_for(&fold);
    let line = match verb {
        Verb::Append { json } => appended_line(json, seq, prev)?,
        Verb::Undo => {
            let undoes = fold.undoable().map_or(seq.saturating_sub(1), |(s, _)| s);
            line_of::<G::Event>(Entry::Meta(Meta::Undone { undoes }), seq, prev)
        }
        Verb::Claim { scores } => line_of::<G::Event>(
            Entry::Meta(Meta::Claimed {
                scores: scores.clone(),
            }),
            seq,
            prev,
        ),
        _ => line_of(Entry::Game(build(&fold, verb)?), seq, prev),
    };
    let before = fold.state().clone();
    let undoing = fold
        .undoable()
        .map(|(s, event)| format!("took back event {s}: {}", G::describe(event)));
    let number = seq as usize + 1;
    let text = line.trim_end_matches('\n');
    let candidate = Line {
        number,
        bytes: text.as_bytes(),
        terminated: true,
    };
    match fold.feed(&candidate) {
        Ok(_) => {
            // The line was just accepted, so it decodes; once more here for
            // its type and what it did.
            let entry = crate::log::decode::<G>(&candidate).map(|r| r.entry).ok();
            let kind = entry.as_ref().map_or("", Entry::kind).to_owned();
            let said = match entry {
                Some(Entry::Game(event)) => G::said(&before, fold.state(), &event),
                Some(Entry::Meta(Meta::Undone { .. })) => undoing.unwrap_or_default(),
                Some(Entry::Meta(Meta::Claimed { scores })) => {
                    let scores: Vec<String> = scores
                        .iter()
                        .map(|(name, n)| format!("{name} {n}"))
                        .collect();
                    format!("claimed {}", scores.join(", "))
                }
                None => String::new(),
            };
            Ok((line, seq, kind, said))
        }
        Err(error) => {
            let alternatives = fold
                .rejected()
                .map(|event| G::alternatives(fold.state(), event))
                .unwrap_or_default();
            let state = Some((fold.state(), fold.events() - 1));
            Err(fail::<G>(path, Format::Text, &error, state, &alternatives))
        }
    }
}

/// A raw JSON entry from `append`, completed with seq, at and prev when it
/// leaves them out.
fn appended_line(json: &str, seq: u64, prev: Option<String>) -> Result<String, Exit> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        usage(format!(
            "the entry to append: {}",
            crate::json_error::describe(&e)
        ))
    })?;
    let found = match &value {
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Null => "null",
        serde_json::Value::Object(_) => "an object",
    };
    let serde_json::Value::Object(given) = value else {
        return Err(usage(format!(
            "the entry to append: expected a JSON object, but found {found}"
        )));
    };
    let mut object = serde_json::Map::new();
    object.insert(
        "seq".into(),
        given.get("seq").cloned().unwrap_or(seq.into()),
    );
    object.insert(
        "at".into(),
        given
            .get("at")
            .cloned()
            .unwrap_or(now().to_rfc3339().into()),
    );
    if let Some(prev) = given.get("prev").cloned().or(prev.map(Into::into)) {
        object.insert("prev".into(), prev);
    }
    for (key, value) in given {
        object.entry(key).or_insert(value);
    }
    let mut line = serde_json::Value::Object(object).to_string();
    line.push('\n');
    Ok(line)
}

fn die(value: u8) -> Result<soleils::Die, Exit> {
    soleils::Die::new(value).ok_or_else(|| {
        usage(format!(
            "expected a die value from 1 to 6, but found {value}"
        ))
    })
}

fn soleils_entry(fold: &Fold<Soleils>, verb: &Verb) -> Result<soleils::Event, Exit> {
    use soleils::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, Step, SunEntered};
    let state = fold.state();
    Ok(match verb.clone() {
        Verb::Roll { dice } => {
            let dice = match dice {
                Some(dice) if dice.len() == 3 => dice,
                Some(dice) => {
                    return Err(usage(format!(
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
        } => Event::Placed(Placed {
            player,
            box_id,
            value: die(value)?,
        }),
        Verb::Crab { player, to: None } => Event::CrabDeclined(PlayerOnly { player }),
        Verb::Crab {
            player,
            to: Some(to),
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
        Verb::Sun { player, value } => Event::SunEntered(SunEntered {
            player,
            value: die(value)?,
        }),
        Verb::Bonus {
            player,
            placed: None,
        } => Event::BonusDeclined(PlayerOnly { player }),
        Verb::Bonus {
            player,
            placed: Some((box_id, value)),
        } => Event::BonusPlaced(BonusPlaced {
            player,
            box_id,
            value: die(value)?,
        }),
        _ => unreachable!("only 62 Soleils verbs reach here"),
    })
}

/// The dice `sunfold roll` draws without `--dice`: from the start event's
/// `dice_seed`, the 3 dice after the 3 × (round − 1) drawn for earlier rounds.
fn digital_dice(fold: &Fold<Soleils>) -> Result<Vec<u8>, Exit> {
    let Some(seed) = fold.state().dice_seed() else {
        return Err(usage(
            "expected --dice 3,4,6: this log has no dice_seed for digital dice (sunfold new writes one)".to_owned(),
        ));
    };
    let mut rng = crate::rng::SeededRng::new(seed);
    for _ in 0..3 * u32::from(fold.state().round()) {
        rng.die();
    }
    Ok(vec![rng.die(), rng.die(), rng.die()])
}

fn summertime_entry(fold: &Fold<Summertime>, verb: &Verb) -> Result<summertime::Event, Exit> {
    use summertime::{Bought, Discarded, Event, Phase, Played, PlayerOnly, Revealed};
    let state = fold.state();
    let deck = state.deck();
    Ok(match verb.clone() {
        Verb::Buy { player, card } => {
            // A stack number names the face-up card in front of that stack.
            let card = match card.parse::<usize>() {
                Ok(stack) if stack < 3 => {
                    state.display()[stack].map_or(card, |c| deck.card(c).id.clone())
                }
                _ => card,
            };
            Event::Bought(Bought { player, card })
        }
        Verb::Play { player, card, cell } => Event::Played(Played {
            player,
            card,
            cell: [cell.0, cell.1],
        }),
        Verb::EndTurn { player } => Event::TurnEnded(PlayerOnly { player }),
        Verb::Flip { player } => Event::TilesFlipped(PlayerOnly { player }),
        Verb::Pass { player } => Event::Passed(PlayerOnly { player }),
        Verb::Reveal {
            given: Some((stack, card, behind)),
        } => {
            let behind = match behind {
                None => None,
                Some(items) if items.len() == 3 => {
                    Some([items[0].clone(), items[1].clone(), items[2].clone()])
                }
                Some(items) => {
                    return Err(usage(format!(
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
        Verb::Reveal { given: None } => {
            // In a dealt game the order says which card comes next.
            let Phase::Reveal(stacks) = state.phase() else {
                return Err(usage(
                    "expected a reveal to be due, but none is: nothing to turn up now".to_owned(),
                ));
            };
            if !state.is_dealt() {
                return Err(usage(
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
        Verb::Discard => Event::Discarded(Discarded {
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

/// What `replay` and `status` say about claimed scores.
pub(super) struct ClaimsReport {
    pub lines: Vec<String>,
    pub json: serde_json::Value,
}

/// Compares the latest claimed scores with the recomputed ones.
pub(super) fn claims_report<G: Present>(fold: &Fold<G>) -> ClaimsReport {
    let Some((seq, claimed)) = fold.claims().last() else {
        return ClaimsReport {
            lines: Vec::new(),
            json: serde_json::Value::Null,
        };
    };
    let totals = G::totals(fold.state());
    let mut lines = vec![format!(
        "\nclaims (event {seq}), against the recomputed scores:"
    )];
    let mut entries = Vec::new();
    for (name, total) in &totals {
        let claim = claimed.get(name);
        let verdict = match claim {
            None => "no claim".to_owned(),
            Some(c) if c == total => format!("claimed {c}, recomputed {total}: agrees"),
            Some(c) => format!(
                "claimed {c}, recomputed {total}: DIFFERS by {:+}",
                total - c
            ),
        };
        lines.push(format!("  {name}: {verdict}"));
        entries.push(serde_json::json!({"player": name, "claimed": claim, "recomputed": total, "agrees": claim == Some(total)}));
    }
    if entries.iter().any(|e| e["agrees"] == false) {
        lines.push("  the breakdown of the recomputed scores is in the table above".to_owned());
    }
    ClaimsReport {
        lines,
        json: serde_json::json!({"seq": seq, "players": entries}),
    }
}

/// `sunfold status`: where the game stands and what may happen next.
pub fn status(path: &Path, all: bool, format: Format) -> Exit {
    let opened = match super::replay::open(path, format) {
        Ok(opened) => opened,
        Err(exit) => return exit,
    };
    match opened.game {
        GameKind::Soleils => status_of::<Soleils>(path, opened, all, format),
        GameKind::Summertime => status_of::<Summertime>(path, opened, all, format),
    }
}

fn status_of<G: Present>(
    path: &Path,
    opened: super::replay::Opened,
    all: bool,
    format: Format,
) -> Exit {
    let fold = match fold_file::<G, _>(path, opened, None, format, &mut |_| {}) {
        Ok(fold) => fold,
        Err(exit) => return exit,
    };
    let state = fold.state();
    let events = G::legal_events(state);
    let legal: Vec<String> = {
        let mut seen = std::collections::HashSet::new();
        events
            .iter()
            .map(G::describe)
            .filter(|d| seen.insert(d.clone()))
            .collect()
    };
    let undo = fold
        .undoable()
        .map(|(seq, e)| format!("event {seq}: {}", G::describe(e)));
    match format {
        Format::Json => {
            let report = serde_json::json!({
                "file": path.display().to_string(),
                "game": G::NAME,
                "events": fold.events(),
                "chained": fold.chained(),
                "progress": G::progress(state),
                "pending": G::pending(state),
                "legal": legal,
                // The same, as entries `sunfold append` takes unchanged.
                "legal_events": events,
                "undoable": undo,
                "claims": claims_report::<G>(&fold).json,
                "state": G::json(state),
            });
            println!("{report:#}");
        }
        Format::Text => {
            println!(
                "{}: {}, {} events",
                path.display(),
                G::progress(state),
                fold.events()
            );
            let pending = G::pending(state);
            if pending.is_empty() {
                println!("nothing pending: the game is over");
            } else {
                println!("waiting for:");
                for p in &pending {
                    println!("  {p}");
                }
            }
            const SHORT: usize = 12;
            let shown = if all {
                legal.len()
            } else {
                legal.len().min(SHORT)
            };
            if !legal.is_empty() {
                let more = if shown < legal.len() {
                    format!(" ({shown} of {}; --all for every one)", legal.len())
                } else {
                    String::new()
                };
                println!("legal next events{more}:");
                for event in &legal[..shown] {
                    println!("  {event}");
                }
            }
            if let Some(undo) = undo {
                println!("undo would take back {undo}");
            }
            println!();
            print!("{}", G::text(state));
            for line in claims_report::<G>(&fold).lines {
                println!("{line}");
            }
        }
    }
    Exit::Valid
}

/// `sunfold repair`: removes a torn last line, and only that.
pub fn repair(path: &Path) -> Exit {
    let file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(e) => return io_error(path, &e),
    };
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = match lock.write() {
        Ok(guard) => guard,
        Err(e) => return io_error(path, &e),
    };
    let mut bytes = Vec::new();
    if let Err(e) = file.read_to_end(&mut bytes) {
        return io_error(path, &e);
    }
    let shown = path.display();
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        println!("{shown}: nothing to repair: the last line is complete");
        return Exit::Valid;
    }
    let cut = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let tail = &bytes[cut..];
    if serde_json::from_slice::<serde_json::Value>(tail).is_ok() {
        println!("{shown}: nothing to repair: the last line is complete JSON without a newline");
        return Exit::Valid;
    }
    // Any other damage is reported, never repaired.
    let kept = &bytes[..cut];
    if !kept.is_empty() {
        let opened = match read_first(path, kept, Format::Text) {
            Ok(opened) => opened,
            Err(_) => {
                eprintln!(
                    "sunfold: {shown}: repair removes only a torn last line; the damage above is not that"
                );
                return Exit::Invalid;
            }
        };
        let whole = match opened.game {
            GameKind::Soleils => {
                fold_file::<Soleils, _>(path, opened, None, Format::Text, &mut |_| {}).map(|_| ())
            }
            GameKind::Summertime => {
                fold_file::<Summertime, _>(path, opened, None, Format::Text, &mut |_| {})
                    .map(|_| ())
            }
        };
        if whole.is_err() {
            eprintln!(
                "sunfold: {shown}: repair removes only a torn last line; the damage above is not that"
            );
            return Exit::Invalid;
        }
    }
    let line = bytes[..cut].iter().filter(|&&b| b == b'\n').count() + 1;
    let mut backup = path.as_os_str().to_owned();
    backup.push(".torn");
    let backup = std::path::PathBuf::from(backup);
    let saved = std::fs::write(&backup, tail).and_then(|_| File::open(&backup)?.sync_all());
    if let Err(e) = saved {
        return io_error(&backup, &e);
    }
    if let Err(e) = file.set_len(cut as u64).and_then(|_| file.sync_all()) {
        return io_error(path, &e);
    }
    println!(
        "{shown}: removed the torn line {line} ({} bytes, kept in {})",
        tail.len(),
        backup.display()
    );
    Exit::Valid
}

/// Writes a new log's start line, refusing to overwrite unless `force`.
pub fn create<G: Present>(path: &Path, start: G::Event, force: bool) -> Exit {
    let line = line_of(Entry::Game(start), 0, None);
    let candidate = Line {
        number: 1,
        bytes: line.trim_end().as_bytes(),
        terminated: true,
    };
    if let Err(error) = Fold::<G>::start(&candidate) {
        return fail::<G>(path, Format::Text, &error, None, &[]);
    }
    let mut options = OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return usage(format!(
                "{}: expected a new file, but it exists; use --force to overwrite it",
                path.display()
            ));
        }
        Err(e) => return io_error(path, &e),
    };
    if let Err(e) = file
        .write_all(line.as_bytes())
        .and_then(|_| file.sync_all())
    {
        return io_error(path, &e);
    }
    // Make the new file's name durable too.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
    println!("{}: started a {} game", path.display(), G::NAME);
    Exit::Valid
}
