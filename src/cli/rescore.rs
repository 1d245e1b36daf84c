//! `sunfold rescore`: replay recorded matches under other rules.
//!
//! Each log is first folded under its own rules, exactly as `audit` does
//! (hash chain, `undone` entries, claims). Its start event is then rewritten
//! with the changed rules, and the decisions that were not taken back by an
//! `undone` entry are applied again, in order, with the dice and the cards
//! the log recorded. A decision that was taken back is never replayed, even
//! if the new rules would refuse it.
//!
//! What a run changes, checked once, before any log is read, with the same
//! messages and exit codes as `sunfold new`:
//!
//! - `--option NAME=VALUE` (62 Soleils): applied onto each log's own options,
//!   so a log recorded under `sun_bonus=exact` stays exact unless the run
//!   names `sun_bonus`;
//! - `--template FILE` (62 Soleils): the sheet, in place of each log's own;
//! - `--deck FILE` (Summertime): the deck, in place of each log's own.
//!   Summertime has no options, so `--deck` with `--option` is refused.
//!
//! A log of the other game is `skipped`. With no change at all, every log is
//! replayed under its own rules, which must give `same` for every valid log.
//! Claimed scores (`claimed` entries) are not compared.
//!
//! Every file gets one outcome, printed in file order whatever `--jobs`:
//!
//! | outcome | text | meaning |
//! |---|---|---|
//! | `same` | `same` | every player has the same total |
//! | `scores_changed` | `scores changed` | new totals, the same winners |
//! | `winner_changed` | `winner changed` | the winners (the players with the highest total; several when tied) differ |
//! | `illegal` | `illegal` | a decision breaks the new rules: the first one, located as `replay` locates it (`FILE:LINE: event SEQ (type): reason`); a start event the new rules cannot set up (a deck without a card the log deals) is illegal at line 1 |
//! | `unfinished` | `unfinished` | the log holds a finished match under its own rules, but under the new ones the match is not over: a decision is still pending (a bonus digit won by passing a threshold), or rounds remain |
//! | `invalid` | `invalid` | the log is broken under its own rules: its first located error, as `audit` prints it |
//! | `skipped` | `skipped` | the change is for the other game: `--template` and `--option` change 62 Soleils logs only, `--deck` Summertime logs only |
//! | `unreadable` | `unreadable` | the file could not be read |
//!
//! A text line is the outcome, padded to 15 columns, then the file and the
//! details: `same  FILE: Ann 54, Bob 61`, `winner changed FILE: Bob → Ann;
//! Ann 54 → 63, Bob 61`, `illegal  FILE:LINE: event SEQ (type): reason`. A
//! summary follows: `of 1,000 matches, 700 same, 140 change scores, 112
//! change winner, 37 become illegal, …`, with every outcome's count.
//!
//! A match that is not finished in its log is compared by its scores so far.
//! A match that would end earlier under the new rules is `illegal` at the
//! first decision after the new end, whose reason says the game is over.
//!
//! With `--format json`, each file is one JSON line, and the summary goes to
//! standard error:
//!
//! ```json
//! {"file":"a.jsonl","game":"soleils","outcome":"same","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"scores_changed","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"winner_changed","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"unfinished","before":R,"after":R,"pending":["Ann: a bonus digit or a decline"]}
//! {"file":"a.jsonl","game":"soleils","outcome":"illegal","before":R,"error":E}
//! {"file":"a.jsonl","game":"soleils","outcome":"invalid","error":E}
//! {"file":"a.jsonl","game":"summertime","outcome":"skipped","reason":"--option changes soleils logs only"}
//! {"file":"a.jsonl","game":null,"outcome":"unreadable","error":E}
//! ```
//!
//! where a result `R` is `{"scores":{"Ann":54,"Bob":61},"winners":["Bob"]}`
//! (`before` under the log's own rules, `after` under the new ones; for
//! `unfinished`, `after` holds the scores so far), and an error `E` is
//! `{"line":37,"seq":36,"type":"bonus_placed","message":"…"}` as in `audit`
//! (`game` is null when the first line does not name one). The keys of an
//! object come in alphabetical order.
//!
//! Exit codes: 0 when every file was read and is valid under its own rules,
//! whatever the new rules make of it; 1 when a log is invalid under its own
//! rules; 2 for bad arguments (checked before any log is read) or a file that
//! cannot be read (the other files are still reported).

use super::batch::{CHUNK, collect, pool, progress};
use super::error::CliError;
use super::{Exit, Format, variant};
use crate::game::{EventKind, Game};
use crate::log::{Entry, Fold, GameKind, Line, LineReader, Located, OpenError};
use crate::present::Present;
use crate::present::audit::{RescoreError, RescoreLine, RescoreResult};
use crate::sim::{SoleilsVariant, SummertimeVariant};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct RescoreArgs {
    /// Log files, or folders searched for .jsonl files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// A rule option to change, such as sun_bonus=exact; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// 62 Soleils: replay on this sheet template instead of each log's own.
    #[arg(long, conflicts_with = "deck")]
    pub template: Option<PathBuf>,
    /// Summertime: replay with this deck instead of each log's own.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads; every core if left out.
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The rules a run changes, checked once before any log is read.
struct Change {
    /// `NAME=VALUE` options for 62 Soleils logs, already checked.
    options: Vec<String>,
    template: Option<SoleilsVariant>,
    deck: Option<SummertimeVariant>,
}

impl Change {
    fn from_args(args: &RescoreArgs) -> Result<Change, CliError> {
        if let Some(deck) = &args.deck {
            // A --deck run is a Summertime run, which has no options.
            let deck = variant::summertime(Some(deck), &args.options)?;
            return Ok(Change {
                options: Vec::new(),
                template: None,
                deck: Some(deck),
            });
        }
        let sheet = variant::soleils(args.template.as_deref(), &args.options)?;
        Ok(Change {
            options: args.options.clone(),
            template: args.template.is_some().then_some(sheet),
            deck: None,
        })
    }

    fn changes_soleils(&self) -> bool {
        !self.options.is_empty() || self.template.is_some()
    }

    fn changes_summertime(&self) -> bool {
        self.deck.is_some()
    }
}

/// What the rescore needs of a game beyond [`Present`].
trait Rescore: Present {
    /// The start event under the changed rules, or why this log is skipped.
    fn restart(start: &Self::Start, change: &Change) -> Result<Self::Start, String>;
    /// Whether the match is over.
    fn finished(state: &Self::State) -> bool;
}

impl Rescore for Soleils {
    fn restart(start: &soleils::Start, change: &Change) -> Result<soleils::Start, String> {
        if change.changes_summertime() {
            return Err("--deck changes summertime logs only".to_owned());
        }
        let mut start = start.clone();
        // Checked by Change::from_args: this cannot fail any more.
        start.options = variant::soleils_options(start.options, &change.options)
            .map_err(|_| "the --option values cannot be applied".to_owned())?;
        if let Some(sheet) = &change.template {
            start.template = sheet.raw.clone();
        }
        Ok(start)
    }

    fn finished(state: &soleils::State) -> bool {
        state.ended().is_some()
    }
}

impl Rescore for Summertime {
    fn restart(start: &summertime::Start, change: &Change) -> Result<summertime::Start, String> {
        if change.changes_soleils() {
            let what = if change.template.is_some() {
                "--template"
            } else {
                "--option"
            };
            return Err(format!("{what} changes soleils logs only"));
        }
        let mut start = start.clone();
        if let Some(deck) = &change.deck {
            start.deck = deck.raw.clone();
        }
        Ok(start)
    }

    fn finished(state: &summertime::State) -> bool {
        state.ended().is_some()
    }
}

/// Each player's total, in seating order.
type Totals = Vec<(String, i64)>;

enum Outcome {
    Same(Totals),
    ScoresChanged {
        before: Totals,
        after: Totals,
    },
    WinnerChanged {
        before: Totals,
        after: Totals,
    },
    Illegal {
        before: Totals,
        error: Located<String>,
    },
    Unfinished {
        before: Totals,
        after: Totals,
        pending: Vec<String>,
    },
    Invalid(Located<String>),
    Skipped(String),
    Unreadable(String),
}

const INVALID: usize = 5;
const UNREADABLE: usize = 7;

impl Outcome {
    /// The name of the outcome in JSON.
    fn name(&self) -> &'static str {
        OUTCOMES[self.index()]
    }

    /// Its place in [`OUTCOMES`] and in the summary.
    fn index(&self) -> usize {
        match self {
            Outcome::Same(_) => 0,
            Outcome::ScoresChanged { .. } => 1,
            Outcome::WinnerChanged { .. } => 2,
            Outcome::Illegal { .. } => 3,
            Outcome::Unfinished { .. } => 4,
            Outcome::Invalid(_) => INVALID,
            Outcome::Skipped(_) => 6,
            Outcome::Unreadable(_) => UNREADABLE,
        }
    }
}

/// Every outcome, as JSON names it.
const OUTCOMES: [&str; 8] = [
    "same",
    "scores_changed",
    "winner_changed",
    "illegal",
    "unfinished",
    "invalid",
    "skipped",
    "unreadable",
];

/// How the summary line counts each outcome.
const COUNTED: [&str; 8] = [
    "same",
    "change scores",
    "change winner",
    "become illegal",
    "end unfinished",
    "invalid under their own rules",
    "skipped",
    "unreadable",
];

struct Rescored {
    path: PathBuf,
    game: Option<&'static str>,
    outcome: Outcome,
}

pub fn run(args: RescoreArgs) -> Result<Exit, CliError> {
    let change = Change::from_args(&args)?;
    let files = collect(&args.paths)?;
    let pool = pool(args.jobs)?;
    let bar = progress(files.len() as u64, "files");
    let mut counts = [0u64; OUTCOMES.len()];
    for (n, chunk) in files.chunks(CHUNK).enumerate() {
        let results: Vec<Rescored> =
            pool.install(|| chunk.par_iter().map(|p| rescore_file(p, &change)).collect());
        let mut out = String::new();
        for r in results {
            counts[r.outcome.index()] += 1;
            match args.format {
                Format::Text => out.push_str(&text_line(&r)),
                Format::Json => out.push_str(
                    &serde_json::to_string(&json_line(&r)).expect("rescore lines serialize"),
                ),
            }
            out.push('\n');
        }
        // Results go to standard output even while the bar is drawn.
        match &bar {
            Some(bar) => bar.suspend(|| print!("{out}")),
            None => print!("{out}"),
        }
        if let Some(bar) = &bar {
            bar.set_position(((n + 1) * CHUNK).min(files.len()) as u64);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let summary = summary(files.len() as u64, &counts);
    match args.format {
        Format::Text => println!("{summary}"),
        Format::Json => eprintln!("{summary}"),
    }
    Ok(if counts[UNREADABLE] > 0 {
        Exit::Usage
    } else if counts[INVALID] > 0 {
        Exit::Invalid
    } else {
        Exit::Valid
    })
}

/// `of 1,000 matches, 700 same, 112 change winner, …`: every outcome.
fn summary(files: u64, counts: &[u64; OUTCOMES.len()]) -> String {
    let plural = if files == 1 { "match" } else { "matches" };
    let mut text = format!("of {} {plural}", thousands(files));
    for (count, what) in counts.iter().zip(COUNTED) {
        text.push_str(&format!(", {} {what}", thousands(*count)));
    }
    text
}

/// 1234567 as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn rescore_file(path: &Path, change: &Change) -> Rescored {
    let (game, outcome) = rescore_path(path, change);
    Rescored {
        path: path.to_owned(),
        game,
        outcome,
    }
}

/// The game of the log at `path`, when its first line names one, and the
/// outcome.
fn rescore_path(path: &Path, change: &Change) -> (Option<&'static str>, Outcome) {
    let unreadable = |e: std::io::Error| {
        Outcome::Unreadable(format!("cannot be read: {}", super::error::io_reason(&e)))
    };
    let opened = match crate::log::open_file(path) {
        Ok(opened) => opened,
        Err(OpenError::Io(e)) => return (None, unreadable(e)),
        Err(OpenError::Decode(error)) => {
            return (None, Outcome::Invalid(error.map(|e| e.to_string())));
        }
    };
    let game = opened.game();
    let (first, terminated, lines) = opened.into_parts();
    let first = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    match game {
        GameKind::Soleils => (
            Some(Soleils::NAME),
            rescore_log::<Soleils>(&first, lines, change),
        ),
        GameKind::Summertime => (
            Some(Summertime::NAME),
            rescore_log::<Summertime>(&first, lines, change),
        ),
    }
}

/// One decision of the log: its line, its seq and the event.
struct Decision<E> {
    line: usize,
    seq: u64,
    event: E,
}

fn rescore_log<G: Rescore>(
    first: &Line,
    mut lines: LineReader<BufReader<std::fs::File>>,
    change: &Change,
) -> Outcome {
    // The log under its own rules, keeping every decision with its place.
    let (mut fold, record) = match Fold::<G>::start(first) {
        Ok(started) => started,
        Err(e) => return Outcome::Invalid(e.map(|e| e.to_string())),
    };
    // Fold::start accepts nothing but a start event.
    let Entry::Game(event) = &record.entry else {
        unreachable!("Fold::start accepts only a start event")
    };
    let start = G::as_start(event).expect("Fold::start accepts only a start event");
    let mut decisions = Vec::new();
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let line = lines.lines_read() + 1;
                return Outcome::Unreadable(format!(
                    "line {line} cannot be read: {}",
                    super::error::io_reason(&e)
                ));
            }
        };
        match fold.feed_event(&line) {
            Err(e) => return Outcome::Invalid(e.map(|e| e.to_string())),
            Ok((seq, Some(event))) => decisions.push(Decision {
                line: line.number,
                seq,
                event,
            }),
            Ok((_, None)) => {}
        }
    }
    let before = G::totals(fold.state());

    // The same decisions under the new rules.
    let start = match G::restart(start, change) {
        Ok(start) => start,
        Err(reason) => return Outcome::Skipped(reason),
    };
    let mut state = match G::setup(&start) {
        Ok(state) => state,
        Err(e) => {
            let error = Located {
                line: first.number,
                seq: Some(record.seq),
                kind: Some(record.entry.kind().to_owned()),
                error: e.to_string(),
            };
            return Outcome::Illegal { before, error };
        }
    };
    let taken_back: HashSet<u64> = fold.taken_back().iter().map(|t| t.seq).collect();
    for decision in decisions.iter().filter(|d| !taken_back.contains(&d.seq)) {
        if let Err(e) = G::apply(&mut state, &decision.event) {
            let error = Located {
                line: decision.line,
                seq: Some(decision.seq),
                kind: Some(decision.event.kind().to_owned()),
                error: e.to_string(),
            };
            return Outcome::Illegal { before, error };
        }
    }
    let after = G::totals(&state);
    if G::finished(fold.state()) && !G::finished(&state) {
        let pending = G::pending_lines(&state);
        return Outcome::Unfinished {
            before,
            after,
            pending,
        };
    }
    if winners(&before) != winners(&after) {
        Outcome::WinnerChanged { before, after }
    } else if before != after {
        Outcome::ScoresChanged { before, after }
    } else {
        Outcome::Same(after)
    }
}

/// The players with the highest total, in seating order.
fn winners(totals: &Totals) -> Vec<&str> {
    let best = totals.iter().map(|(_, t)| *t).max();
    totals
        .iter()
        .filter(|(_, t)| Some(*t) == best)
        .map(|(name, _)| name.as_str())
        .collect()
}

/// `Ann 54, Bob 61`.
fn scores(totals: &Totals) -> String {
    let shown: Vec<String> = totals.iter().map(|(n, t)| format!("{n} {t}")).collect();
    shown.join(", ")
}

/// `Ann 54 → 50, Bob 61`: each total, with its old value where it changed.
fn changes(before: &Totals, after: &Totals) -> String {
    let shown: Vec<String> = after
        .iter()
        .map(|(name, new)| match before.iter().find(|(n, _)| n == name) {
            Some((_, old)) if old != new => format!("{name} {old} → {new}"),
            _ => format!("{name} {new}"),
        })
        .collect();
    shown.join(", ")
}

/// `Bob`, or `Ann and Bob (tied)`.
fn won(totals: &Totals) -> String {
    match winners(totals).as_slice() {
        [] => "nobody".to_owned(),
        [one] => (*one).to_owned(),
        many => format!("{} (tied)", many.join(" and ")),
    }
}

/// One line per file: the outcome, padded, then the file and what changed.
fn text_line(r: &Rescored) -> String {
    let file = r.path.display();
    let (what, detail) = match &r.outcome {
        Outcome::Same(totals) => ("same", format!("{file}: {}", scores(totals))),
        Outcome::ScoresChanged { before, after } => (
            "scores changed",
            format!("{file}: {}", changes(before, after)),
        ),
        Outcome::WinnerChanged { before, after } => (
            "winner changed",
            format!(
                "{file}: {} → {}; {}",
                won(before),
                won(after),
                changes(before, after)
            ),
        ),
        Outcome::Illegal { error, .. } => ("illegal", format!("{file}:{error}")),
        Outcome::Unfinished {
            before,
            after,
            pending,
        } => (
            "unfinished",
            format!(
                "{file}: the log ends, but under the new rules the match goes on, waiting for {}; so far {}",
                pending.join("; "),
                changes(before, after)
            ),
        ),
        Outcome::Invalid(error) => ("invalid", format!("{file}:{error}")),
        Outcome::Skipped(reason) => ("skipped", format!("{file}: {reason}")),
        Outcome::Unreadable(reason) => ("unreadable", format!("{file}: {reason}")),
    };
    format!("{what:<15}{detail}")
}

fn result(totals: &Totals) -> Option<RescoreResult> {
    Some(RescoreResult {
        scores: totals.iter().cloned().collect(),
        winners: winners(totals).into_iter().map(str::to_owned).collect(),
    })
}

fn error(error: &Located<String>) -> Option<RescoreError> {
    Some(RescoreError {
        line: error.line,
        seq: error.seq,
        kind: error.kind.clone(),
        message: error.error.clone(),
    })
}

fn json_line(r: &Rescored) -> RescoreLine {
    let mut line = RescoreLine {
        after: None,
        before: None,
        error: None,
        file: r.path.display().to_string(),
        game: r.game,
        outcome: r.outcome.name(),
        pending: None,
        reason: None,
    };
    match &r.outcome {
        Outcome::Same(totals) => {
            line.before = result(totals);
            line.after = result(totals);
        }
        Outcome::ScoresChanged { before, after } | Outcome::WinnerChanged { before, after } => {
            line.before = result(before);
            line.after = result(after);
        }
        Outcome::Illegal { before, error: e } => {
            line.before = result(before);
            line.error = error(e);
        }
        Outcome::Unfinished {
            before,
            after,
            pending,
        } => {
            line.before = result(before);
            line.after = result(after);
            line.pending = Some(pending.clone());
        }
        Outcome::Invalid(e) => line.error = error(e),
        Outcome::Skipped(reason) => line.reason = Some(reason.clone()),
        Outcome::Unreadable(reason) => {
            line.error = Some(RescoreError {
                line: 0,
                seq: None,
                kind: None,
                message: reason.clone(),
            })
        }
    }
    line
}
