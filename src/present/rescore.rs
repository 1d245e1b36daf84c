//! Recorded matches replayed under other rules: each log folded under its
//! own rules, as `audit` does, then its start event rewritten with the
//! changed rules and the decisions not taken back applied again, in
//! order, with the dice and cards the log recorded. `sunfold rescore`
//! documents the outcomes.

use super::Present;
use super::audit::{RescoreError, RescoreLine, RescoreResult};
use crate::bots::{SoleilsVariant, SummertimeVariant};
use crate::kit::game::{EventKind, Game};
use crate::log::{Entry, Fold, GameKind, Line, Located, OpenError, Opened};
use crate::soleils::{self, Setting, Soleils};
use crate::summertime::{self, Summertime};
use std::collections::HashSet;
use std::io::BufRead;

/// The rules a run changes, checked before any log is read.
#[derive(Default)]
pub struct Change {
    /// Rule options for 62 Soleils logs, applied onto each log's own.
    pub settings: Vec<Setting>,
    /// 62 Soleils: the sheet, in place of each log's own.
    pub template: Option<SoleilsVariant>,
    /// Summertime: the deck, in place of each log's own.
    pub deck: Option<SummertimeVariant>,
}

impl Change {
    fn changes_soleils(&self) -> bool {
        !self.settings.is_empty() || self.template.is_some()
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
        start.options = start.options.with(&change.settings);
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
pub type Totals = Vec<(String, i64)>;

/// What the new rules make of one log.
pub enum Outcome {
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

/// The place in [`OUTCOMES`] of an invalid log, and of an unreadable one.
pub const INVALID: usize = 5;
pub const UNREADABLE: usize = 7;

impl Outcome {
    /// The name of the outcome in JSON.
    pub fn name(&self) -> &'static str {
        OUTCOMES[self.index()]
    }

    /// Its place in [`OUTCOMES`] and in the summary.
    pub fn index(&self) -> usize {
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
pub const OUTCOMES: [&str; 8] = [
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

/// `of 1,000 matches, 700 same, 112 change winner, …`: every outcome.
pub fn summary(files: u64, counts: &[u64; OUTCOMES.len()]) -> String {
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

/// The outcome under `change` of a log as its opening went, and its game
/// when its first line names one.
pub fn rescore_opened<R: BufRead>(
    opened: Result<Opened<R>, OpenError>,
    change: &Change,
) -> (Option<&'static str>, Outcome) {
    match opened {
        Ok(opened) => {
            let (game, outcome) = rescore(opened, change);
            (Some(game), outcome)
        }
        Err(OpenError::Io(e)) => {
            let reason = format!("cannot be read: {}", crate::log::io_reason(&e));
            (None, Outcome::Unreadable(reason))
        }
        Err(OpenError::Decode(error)) => (None, Outcome::Invalid(error.map(|e| e.to_string()))),
    }
}

/// The game of the opened log, and what the new rules make of it.
pub fn rescore<R: BufRead>(opened: Opened<R>, change: &Change) -> (&'static str, Outcome) {
    let game = opened.game();
    let (first, terminated, lines) = opened.into_parts();
    let first = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    match game {
        GameKind::Soleils => (
            Soleils::NAME,
            rescore_log::<Soleils, R>(&first, lines, change),
        ),
        GameKind::Summertime => (
            Summertime::NAME,
            rescore_log::<Summertime, R>(&first, lines, change),
        ),
    }
}

/// One decision of the log: its line, its seq and the event.
struct Decision<E> {
    line: usize,
    seq: u64,
    event: E,
}

fn rescore_log<G: Rescore, R: BufRead>(
    first: &Line,
    mut lines: crate::log::LineReader<R>,
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
                    crate::log::io_reason(&e)
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
pub fn text_line(file: &str, outcome: &Outcome) -> String {
    let (what, detail) = match outcome {
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

/// One JSON line per file: `game` is `None` when the first line names
/// none.
pub fn json_line(file: String, game: Option<&'static str>, outcome: &Outcome) -> RescoreLine {
    let mut line = RescoreLine {
        after: None,
        before: None,
        error: None,
        file,
        game,
        outcome: outcome.name(),
        pending: None,
        reason: None,
    };
    match outcome {
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
