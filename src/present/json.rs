//! The JSON reports of `replay`, `status` and `template check`, as types.
//!
//! Each derives `Serialize` and `JsonSchema`, so the schema that
//! `sunfold schema NAME` prints (and `docs/schema/` keeps) is the shape the
//! command writes. The state of a game is one of the two state views.

use super::Present;
use super::command::Group;
use crate::kit::game::Game;
use crate::log::{DecodeError, Fold, Located, LogError};
use crate::soleils::{self, Gains, Mark};
use crate::summertime;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// `sunfold replay --format json` of a valid log.
#[derive(Serialize, JsonSchema)]
pub struct ReplayReport<S> {
    pub file: String,
    /// `soleils` or `summertime`.
    pub game: String,
    /// Always `true`: a log that breaks a rule gives an [`ErrorReport`].
    pub valid: bool,
    /// Events folded, the start event included.
    pub events: u64,
    /// Whether every line after the first carries the hash of the one
    /// before; `null` for a log of one line.
    pub chained: Option<bool>,
    /// Events taken back by an `undone` entry.
    pub undone: Vec<Undone>,
    /// The last `claimed` entry against the recomputed scores; `null`
    /// without one.
    pub claims: Option<ClaimsView>,
    /// Where a log of an older format became a dead end; `null` if its
    /// game can still end.
    pub dead_end: Option<DeadEndView>,
    /// The entries of a log of an older format that the current rules
    /// refuse: an undo after the end, claims before it.
    pub lenient: Vec<LenientView>,
    /// Who posted the entries to the table's server, where they say so
    /// (log format 4 on); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub posted: Option<super::posted::Posted>,
    /// The state at the end (or after `--at`), with the scores.
    pub state: S,
}

/// An event taken back.
#[derive(Serialize, JsonSchema)]
pub struct Undone {
    /// The seq of the event taken back.
    pub seq: u64,
    /// The seq of the `undone` entry.
    pub by: u64,
    /// The event, in words.
    pub event: String,
}

/// What `sunfold replay` says of a valid log at `file`, folded in `fold`:
/// its events and hash chain, the events taken back (struck through), the
/// game and what the claims and the log's format say.
pub fn replay_text<G: Present>(file: &str, fold: &Fold<G>) -> String {
    let events = fold.events();
    let chain = match fold.chained() {
        Some(true) => format!("chained: all {} hashes verified", events - 1),
        Some(false) => "not chained: no hash chain, so no tamper evidence".to_owned(),
        None => "chained: nothing to verify yet".to_owned(),
    };
    let mut text = format!("{file}: {events} events, valid; {chain}\n");
    for taken in fold.taken_back() {
        text += &format!(
            "  undone: {} (event {}, taken back by event {})\n",
            strike(&G::describe(&taken.event)),
            taken.seq,
            taken.by
        );
    }
    text += &G::text(fold.state(), fold.called());
    let posted = super::posted::posted(fold).map(|p| p.text());
    for line in audit_lines(fold)
        .into_iter()
        .chain(posted.into_iter().flatten())
    {
        text += &line;
        text.push('\n');
    }
    text
}

/// Text struck through with a combining long stroke, for undone events.
fn strike(text: &str) -> String {
    text.chars().flat_map(|c| [c, '\u{0336}']).collect()
}

/// `sunfold replay --format json` of a valid log at `file`, folded in `fold`.
pub fn replay_report<G: Present>(file: String, fold: &Fold<G>) -> ReplayReport<G::View> {
    let undone = fold
        .taken_back()
        .iter()
        .map(|t| Undone {
            seq: t.seq,
            by: t.by,
            event: G::describe(&t.event),
        })
        .collect();
    ReplayReport {
        file,
        game: G::NAME.to_owned(),
        valid: true,
        events: fold.events(),
        chained: fold.chained(),
        undone,
        claims: claims(fold),
        dead_end: dead_end(fold),
        lenient: lenient(fold),
        posted: super::posted::posted(fold),
        state: G::view(fold.state()),
    }
}

/// The last `claimed` entry against the recomputed scores.
#[derive(Serialize, JsonSchema)]
pub struct ClaimsView {
    /// The seq of the `claimed` entry.
    pub seq: u64,
    pub players: Vec<ClaimView>,
}

#[derive(Serialize, JsonSchema)]
pub struct ClaimView {
    pub player: String,
    /// `null` when the entry claims nothing for this player.
    pub claimed: Option<i64>,
    pub recomputed: i64,
    pub agrees: bool,
}

/// `replay` or `status --format json` of a log that is malformed or breaks
/// a rule: the report is on standard output, and the exit code is 1.
#[derive(Serialize, JsonSchema)]
pub struct ErrorReport<S> {
    pub file: String,
    /// `soleils` or `summertime`; absent when the first line names no game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Always `false`.
    pub valid: bool,
    pub error: ErrorDetail,
    /// The seq of the last event folded before the error; absent when the
    /// error is on the first line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_valid_seq: Option<u64>,
    /// The state after `last_valid_seq`: what the line was checked against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_before_error: Option<S>,
    /// The command that shows that state (`sunfold replay FILE --at
    /// SEQ`); absent when the error is on the first line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_before_command: Option<String>,
    /// What to do about the damage, as the text says it under the error:
    /// `repair` for a torn last line or blank lines at the end, the event
    /// verbs for an event log; absent when there is nothing to advise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<super::failure::AdviceReport>,
}

/// The first malformed or illegal line, located.
#[derive(Serialize, JsonSchema)]
pub struct ErrorDetail {
    /// The line number, from 1.
    pub line: usize,
    /// The line's seq, when it could be read.
    pub seq: Option<u64>,
    /// The line's type, when it could be read.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Why, as `expected X, but found Y`.
    pub message: String,
    /// The legal events at that point, in words, when the line was a
    /// well-formed event.
    pub alternatives: Vec<String>,
}

impl ErrorDetail {
    /// The detail of a located error, with the legal alternatives in words.
    pub fn of<E: std::fmt::Display>(error: &Located<E>, alternatives: Vec<String>) -> Self {
        ErrorDetail {
            line: error.line,
            seq: error.seq,
            kind: error.kind.clone(),
            message: error.error.to_string(),
            alternatives,
        }
    }
}

/// The JSON report of a log whose first line cannot be read, with the
/// `advice` the text gives.
pub fn unopened_json(
    file: String,
    located: &Located<DecodeError>,
    advice: super::failure::Advice,
) -> serde_json::Value {
    let report = ErrorReport::<()> {
        advice: advice.report(&file),
        file,
        game: None,
        valid: false,
        error: ErrorDetail::of(located, Vec::new()),
        last_valid_seq: None,
        state_before_error: None,
        state_before_command: None,
    };
    serde_json::to_value(report).expect("reports serialize")
}

/// The JSON report of a log of `G` that breaks at `error`, with the legal
/// alternatives in words, the state it was checked against with the seq of
/// its last event (`before`) and the command that shows it when past the
/// first line, and the `advice` the text gives.
pub fn failure_json<G: Present>(
    file: String,
    error: &LogError<G>,
    alternatives: Vec<String>,
    before: Option<(&G::State, u64)>,
    advice: super::failure::Advice,
) -> serde_json::Value {
    let report = ErrorReport {
        advice: advice.report(&file),
        state_before_command: before
            .map(|(_, last)| super::failure::state_before_command(&file, last)),
        file,
        game: Some(G::NAME.to_owned()),
        valid: false,
        error: ErrorDetail::of(error, alternatives),
        last_valid_seq: before.map(|(_, last)| last),
        state_before_error: before.map(|(state, _)| G::view(state)),
    };
    serde_json::to_value(report).expect("reports serialize")
}

/// `sunfold status --format json`.
#[derive(Serialize, JsonSchema)]
pub struct StatusReport<S, E> {
    pub file: String,
    pub game: String,
    /// Events so far, the start event included.
    pub events: u64,
    pub chained: Option<bool>,
    /// The round or turn, or how the game ended.
    pub progress: String,
    /// Whose decision is pending, and what it is; empty once the game is
    /// over.
    pub pending: Vec<String>,
    /// The legal next events, in words.
    pub legal: Vec<String>,
    /// The same, as entries that `sunfold append` takes unchanged.
    pub legal_events: Vec<E>,
    /// The same, as commands to paste, grouped by decision.
    pub commands: Vec<Group>,
    /// The decision `sunfold undo` would take back, in words.
    pub undoable: Option<String>,
    pub claims: Option<ClaimsView>,
    pub state: S,
}

/// A 62 Soleils state.
#[derive(Serialize, JsonSchema)]
pub struct SoleilsView {
    /// The sheet's name.
    pub template: String,
    pub options: soleils::Options,
    /// The rounds rolled so far.
    pub round: u16,
    /// This round's dice, once rolled.
    pub dice: Option<[u8; 3]>,
    /// How the game ended, once it has.
    pub ended: Option<String>,
    pub players: Vec<SheetView>,
    /// The score table, in seating order.
    pub score: Vec<soleils::ScoreLine>,
}

/// One player's sheet.
#[derive(Serialize, JsonSchema)]
pub struct SheetView {
    pub name: String,
    /// The sun track's entries, in order.
    pub sun: Vec<u8>,
    pub sun_total: u16,
    /// For each threshold of the sheet, in order: whether its reward was
    /// won.
    pub thresholds_won: Vec<bool>,
    /// The written boxes, by box id.
    pub boxes: BTreeMap<String, Mark>,
    /// The zones whose every box is written.
    pub zones_done: Vec<String>,
    /// The groups whose every box is written.
    pub groups_done: Vec<String>,
    pub gains: Gains,
}

/// A Summertime state.
#[derive(Serialize, JsonSchema)]
pub struct SummertimeView {
    /// The deck's name.
    pub deck: String,
    /// `dealt` or `physical`.
    pub order: String,
    /// How the game ended, once it has.
    pub ended: Option<String>,
    /// The card face up in front of each stack, if any.
    pub display: Vec<Option<String>>,
    pub grid: Vec<CellView>,
    pub players: Vec<HandView>,
    pub turns: Vec<TurnView>,
    /// The score table, in seating order.
    pub score: Vec<summertime::ScoreLine>,
}

/// A card in the grid.
#[derive(Serialize, JsonSchema)]
pub struct CellView {
    /// `[x, y]`.
    pub cell: [i32; 2],
    pub card: String,
    /// Who played it.
    pub by: String,
    /// What it earned when played.
    pub points: u32,
    /// The turn it was played in.
    pub turn: u32,
}

/// A player's hand and tiles.
#[derive(Serialize, JsonSchema)]
pub struct HandView {
    pub name: String,
    pub points: u32,
    /// The cards in hand, by id.
    pub hand: Vec<String>,
    /// Cards in hand whose face is not known (physical games).
    pub unseen_in_hand: u8,
    /// The tiles face up, per item.
    pub tiles_up: Vec<u8>,
    /// The tiles face down, per item.
    pub tiles_down: Vec<u8>,
}

/// One turn.
#[derive(Serialize, JsonSchema)]
pub struct TurnView {
    pub turn: u32,
    pub player: String,
    /// `bought CARD`, `tiles_flipped` or `passed`.
    pub action: String,
    pub plays: Vec<PlayView>,
    /// The player's points after the turn.
    pub total: u32,
}

/// A card played in a turn.
#[derive(Serialize, JsonSchema)]
pub struct PlayView {
    pub card: String,
    pub cell: [i32; 2],
    pub points: u32,
}

/// `sunfold template check --format json`.
#[derive(Serialize, JsonSchema)]
pub struct TemplateReport {
    pub file: String,
    /// Whether the file is a sound sheet or deck.
    pub valid: bool,
    /// `sheet` or `deck`, once the file's `game` says which.
    pub kind: Option<String>,
    /// The sheet's or deck's `name`, when valid.
    pub name: Option<String>,
    /// What it holds, in words, when valid.
    pub summary: Option<String>,
    /// Every problem found, each with its JSON path.
    pub problems: Vec<Problem>,
    /// What is possible but improbable, such as a zone few ways of writing
    /// complete: a sound file may have warnings, and they do not make it
    /// invalid.
    pub warnings: Vec<Problem>,
}

/// One problem of a template or deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Problem {
    /// Where, such as `zones[2].flag`; `$` for the whole file.
    pub path: String,
    /// Why, as `expected X, but found Y`.
    pub message: String,
}

/// The last `claimed` entry against the recomputed scores.
pub fn claims<G: Present>(fold: &Fold<G>) -> Option<ClaimsView> {
    let (seq, claimed) = fold.claims().last()?;
    let players = G::totals(fold.state())
        .into_iter()
        .map(|(player, recomputed)| {
            let claimed = claimed.get(&player).copied();
            ClaimView {
                agrees: claimed == Some(recomputed),
                player,
                claimed,
                recomputed,
            }
        })
        .collect();
    Some(ClaimsView { seq: *seq, players })
}

/// What `replay` and `status` say about claimed scores, as text lines.
pub fn audit_lines<G: Present>(fold: &Fold<G>) -> Vec<String> {
    let mut lines = format_lines(fold);
    lines.extend(claims_lines(fold));
    lines
}

/// What a log of an older format holds that the current rules refuse:
/// where its game became a dead end, and the way out; the entries past
/// the end or before it.
fn format_lines<G: Present>(fold: &Fold<G>) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(dead) = fold.dead_end() {
        lines.push(format!(
            "\nstuck since line {} (event {}): {}",
            dead.line, dead.seq, dead.reason
        ));
        lines.push(format!(
            "  the game can never end; an undo takes back event {} and every entry after it",
            dead.seq
        ));
    }
    for note in lenient(fold) {
        lines.push(format!(
            "\nline {} (event {}): {}, kept as log format {} accepted it",
            note.line,
            note.seq,
            note.what,
            fold.format()
        ));
    }
    lines
}

/// Where a log of an older format became a dead end.
#[derive(Serialize, JsonSchema)]
pub struct DeadEndView {
    /// The line that made the game a dead end.
    pub line: usize,
    pub seq: u64,
    /// Why no entry can ever end the game.
    pub reason: String,
}

/// An entry of a log of an older format that the current rules refuse.
#[derive(Serialize, JsonSchema)]
pub struct LenientView {
    pub line: usize,
    pub seq: u64,
    /// What it did: an undo after the end, or claims before it.
    pub what: String,
}

/// [`DeadEndView`] of `fold`, if its game is a dead end.
pub fn dead_end<G: Game>(fold: &Fold<G>) -> Option<DeadEndView> {
    fold.dead_end().map(|d| DeadEndView {
        line: d.line,
        seq: d.seq,
        reason: d.reason.clone(),
    })
}

/// Every [`LenientView`] of `fold`.
pub fn lenient<G: Game>(fold: &Fold<G>) -> Vec<LenientView> {
    (fold.lenient().iter())
        .map(|l| LenientView {
            line: l.line,
            seq: l.seq,
            what: l.what.to_string(),
        })
        .collect()
}

fn claims_lines<G: Present>(fold: &Fold<G>) -> Vec<String> {
    let Some(view) = claims(fold) else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "\nclaims (event {}), against the recomputed scores:",
        view.seq
    )];
    for claim in &view.players {
        let total = claim.recomputed;
        let verdict = match claim.claimed {
            None => "no claim".to_owned(),
            Some(c) if c == total => format!("claimed {c}, recomputed {total}: agrees"),
            Some(c) => format!(
                "claimed {c}, recomputed {total}: DIFFERS by {:+}",
                total - c
            ),
        };
        lines.push(format!("  {}: {verdict}", claim.player));
    }
    if view.players.iter().any(|c| !c.agrees) {
        lines.push("  the breakdown of the recomputed scores is in the table above".to_owned());
    }
    lines
}

/// What `sunfold status` says of a log being recorded, as text: where the
/// game stands, whom it waits for, the legal next entries as commands for
/// the file `file` (every one with `all`, a few per decision otherwise),
/// what undo would take back, the sheets or table, and the claims.
pub fn status_text<G: Present>(file: &std::path::Path, fold: &Fold<G>, all: bool) -> String {
    use std::fmt::Write;
    let state = fold.state();
    let mut out = String::new();
    let shown = file.display();
    writeln!(
        out,
        "{shown}: {}, {} events",
        G::progress(state),
        fold.events()
    )
    .unwrap();
    let pending = match fold.called() {
        Some(_) => Vec::new(),
        None => G::pending_lines(state),
    };
    if let Some(seq) = fold.called() {
        writeln!(
            out,
            "nothing pending: the game was called by the claims of event {seq}"
        )
        .unwrap();
    } else if pending.is_empty() {
        writeln!(out, "nothing pending: the game is over").unwrap();
    } else {
        writeln!(out, "waiting for:").unwrap();
        for p in &pending {
            writeln!(out, "  {p}").unwrap();
        }
    }
    // A called game takes no more entries.
    let legal = match fold.called() {
        Some(_) => Vec::new(),
        None => G::legal_events(state),
    };
    let groups = super::command::grouped::<G>(file, state, &legal);
    if !groups.is_empty() {
        writeln!(out, "legal next entries, by decision:").unwrap();
        for line in super::command::lines(&groups, all, "  ", "--all for every one") {
            writeln!(out, "{line}").unwrap();
        }
    }
    if let Some((seq, event)) = fold.undoable() {
        writeln!(
            out,
            "undo would take back event {seq}: {}: sunfold undo {}",
            G::describe(event),
            super::command::quote(&shown.to_string())
        )
        .unwrap();
    }
    writeln!(out).unwrap();
    out.push_str(&G::text(state, fold.called()));
    for line in audit_lines(fold) {
        writeln!(out, "{line}").unwrap();
    }
    out
}

/// The legal alternatives to the event `fold` rejected, in words, each
/// once (a physical reveal lists each card once per possible back cost);
/// `None` when the line did not decode to an event.
pub fn rejected_alternatives<G: Present>(fold: &Fold<G>) -> Option<Vec<String>> {
    let event = fold.rejected()?;
    let mut seen = std::collections::HashSet::new();
    Some(
        G::alternatives(fold.state(), event)
            .iter()
            .map(G::describe)
            .filter(|d| seen.insert(d.clone()))
            .collect(),
    )
}
