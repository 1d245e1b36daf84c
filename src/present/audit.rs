//! The JSON lines of `sunfold audit` and `sunfold rescore`, one per log
//! file, as types: `sunfold schema audit-line` and `sunfold schema
//! rescore-line` print their schemas, and the audit of one log.

use super::Present;
use crate::log::{Fold, FoldError, GameKind, Located, OpenError, Opened};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::io::BufRead;

/// One line of `sunfold audit --format json`: one log file.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct AuditLine {
    pub file: String,
    /// `soleils` or `summertime`, once the first line is read.
    pub game: Option<String>,
    /// No rule broken; with `--strict-claims`, also no claim that differs.
    pub valid: bool,
    /// Events folded: all of them for a valid file, those before the error
    /// otherwise.
    pub events: u64,
    /// Whether every line carries the hash of the previous one; `null` when
    /// the file could not be read that far.
    pub chained: Option<bool>,
    /// The first problem, located.
    pub error: Option<AuditError>,
    /// The scores of a file folded to its end.
    pub result: Option<Outcome>,
    /// The last scores claimed on paper, against the recomputed ones.
    pub claims: Option<Claims>,
    /// Where a log of an older format became a dead end, if it did: its
    /// game can never end.
    pub stuck: Option<AuditError>,
    /// Entries of a log of an older format that the current rules refuse:
    /// an undo after the end, claims before it.
    pub lenient: Vec<AuditError>,
    /// Who posted the entries to the table's server, where they say so
    /// (log format 4 on); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub posted: Option<super::posted::Posted>,
    /// For an event log (its first line is `created`), read to its end:
    /// the event it describes; absent for a match log. `events` then
    /// counts its entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<EventSummary>,
}

/// An event log that audits: its players and rounds.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct EventSummary {
    /// The players registered or arrived, dropped ones too.
    pub players: usize,
    /// The rounds seated.
    pub seated: u32,
    /// The rounds the event was created with.
    pub rounds: u32,
    /// The results attached (corrections not counted again).
    pub results: usize,
    pub closed: bool,
}

#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct AuditError {
    pub line: usize,
    pub seq: Option<u64>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub message: String,
    /// What to do about it, when something can be done: `sunfold repair
    /// FILE` for a torn last line or blank lines at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

/// Where a match stands at the end of its log.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// How the game ended, or that claims called it; `null` if the log
    /// stops before the end.
    pub ended: Option<String>,
    /// The players with rank 1 (more than one on a tie).
    pub winners: Vec<String>,
    /// Every player, in seating order.
    pub players: Vec<Standing>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Standing {
    pub player: String,
    pub score: i64,
    /// 1 for the best; tied players share a rank.
    pub rank: u32,
}

/// The last `claimed` entry of a log against the recomputed scores.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Claims {
    /// The seq of the `claimed` entry.
    pub seq: u64,
    /// Whether every claim equals the recomputed score.
    pub agree: bool,
    /// Each claimed score that differs, and each player with no claim.
    pub differ: Vec<ClaimDiff>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ClaimDiff {
    pub player: String,
    /// `null` when the player has no claim.
    pub claimed: Option<i64>,
    pub recomputed: i64,
}

/// One line of `sunfold rescore --format json`: one file's outcome. Its
/// schema is `sunfold schema rescore-line`
/// (docs/schema/rescore-line.schema.json). The fields come in alphabetical
/// order; those an outcome does not have are left out.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreLine {
    /// The result under the new rules (so far, for `unfinished`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<RescoreResult>,
    /// The result under the log's own rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<RescoreResult>,
    /// The first decision the new rules refuse (`illegal`), the log's own
    /// first error (`invalid`), or why the file could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RescoreError>,
    pub file: String,
    /// `soleils` or `summertime`; null when the first line names no game.
    pub game: Option<&'static str>,
    /// `same`, `scores_changed`, `winner_changed`, `illegal`, `unfinished`,
    /// `invalid`, `skipped` or `unreadable`.
    pub outcome: &'static str,
    /// For `unfinished`: the decisions the match still waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<Vec<String>>,
    /// For `skipped`: why the change does not apply to this file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The scores and the winners (everyone with the highest total).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreResult {
    pub scores: std::collections::BTreeMap<String, i64>,
    pub winners: Vec<String>,
}

/// A located error, as `audit --format json` gives it.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreError {
    /// The line of the file, or 0 when the file could not be read.
    pub line: usize,
    pub message: String,
    pub seq: Option<u64>,
    /// The entry's `type`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// What the audit of one log found: as much as it could read.
#[derive(Debug, Default)]
pub struct Audited {
    /// The game the start line names, once it is read.
    pub game: Option<&'static str>,
    /// Events folded: all of them for a valid log, those before the error
    /// otherwise.
    pub events: u64,
    pub chained: Option<bool>,
    /// The first problem, located.
    pub error: Option<Located<String>>,
    /// What to do about it.
    pub advice: super::failure::Advice,
    /// The standings of a log folded to its end.
    pub result: Option<Outcome>,
    /// The last scores claimed on paper, against the recomputed ones.
    pub claims: Option<Claims>,
    /// Where the game became a dead end (a log of an older format).
    pub stuck: Option<AuditError>,
    /// What a log of an older format holds that the current rules refuse.
    pub lenient: Vec<AuditError>,
    /// Who posted the entries, where they say so.
    pub posted: Option<super::posted::Posted>,
    /// The event an event log describes, read to its end.
    pub event: Option<EventSummary>,
}

impl Audited {
    /// A log that could not be read as far as line `line` (0: not opened).
    pub fn unreadable(line: usize, message: String) -> Audited {
        Audited {
            error: Some(Located {
                line,
                seq: None,
                kind: None,
                error: message,
            }),
            ..Audited::default()
        }
    }

    /// The audit of a log as its opening went: what it could not give
    /// (its first line unread), or what it gave.
    pub fn opened<R: BufRead>(opened: Result<Opened<R>, OpenError>) -> Audited {
        match opened {
            Ok(opened) => Audited::of(opened),
            Err(OpenError::Io(e)) => Audited::unreadable(1, format!("cannot be read: {e}")),
            Err(OpenError::Decode(error)) => Audited {
                error: Some(error.map(|e| e.to_string())),
                ..Audited::default()
            },
        }
    }

    /// Folds the opened log to its end, as the game it names.
    pub fn of<R: BufRead>(opened: Opened<R>) -> Audited {
        match opened.game() {
            GameKind::Soleils => fold_quietly::<Soleils, R>(opened),
            GameKind::Summertime => fold_quietly::<Summertime, R>(opened),
        }
    }

    /// The JSON line of the file `file`; `valid` may also count claims
    /// that differ (`--strict-claims`).
    pub fn line(&self, file: String, valid: bool) -> AuditLine {
        let advice = self.advice.said(&file).map(|a| a.trim_start().to_owned());
        AuditLine {
            file,
            game: self.game.map(str::to_owned),
            valid,
            events: self.events,
            chained: self.chained,
            error: self.error.as_ref().map(|e| AuditError {
                line: e.line,
                seq: e.seq,
                kind: e.kind.clone(),
                message: e.error.clone(),
                advice: advice.clone(),
            }),
            result: self.result.clone(),
            claims: self.claims.clone(),
            stuck: self.stuck.clone(),
            lenient: self.lenient.clone(),
            posted: self.posted.clone(),
            event: self.event.clone(),
        }
    }

    /// The text of a valid log, for the file `file`: how it ended, the
    /// winners, every score, and each claim that differs.
    pub fn text(&self, file: &str) -> Vec<String> {
        if let Some(event) = &self.event {
            let game = self.game.unwrap_or("no game");
            let closed = if event.closed { ", closed" } else { "" };
            return vec![format!(
                "{file}: valid event log, {}, chained; a {game} event of {}, {} of {} seated, {}{closed}",
                crate::kit::words::plural(self.events, "entry", "entries"),
                crate::kit::words::plural(event.players as u64, "player", "players"),
                event.seated,
                crate::kit::words::plural(u64::from(event.rounds), "round", "rounds"),
                crate::kit::words::plural(event.results as u64, "result", "results")
            )];
        }
        let Some(result) = &self.result else {
            return Vec::new();
        };
        let ended = result.ended.as_deref().unwrap_or("unfinished");
        let scores: Vec<String> = result
            .players
            .iter()
            .map(|s| format!("{} {} (#{})", s.player, s.score, s.rank))
            .collect();
        let winners = if result.ended.is_some() {
            format!("; won by {}", result.winners.join(" and "))
        } else {
            String::new()
        };
        let mut lines = vec![format!(
            "{file}: valid, {}; {ended}{winners}; {}",
            crate::kit::words::plural(self.events, "event", "events"),
            scores.join(", ")
        )];
        if let Some(stuck) = &self.stuck {
            lines.push(format!(
                "  stuck since line {} (event {}): {}",
                stuck.line,
                stuck.seq.unwrap_or_default(),
                stuck.message
            ));
        }
        for note in &self.lenient {
            lines.push(format!(
                "  line {} (event {}): {}",
                note.line,
                note.seq.unwrap_or_default(),
                note.message
            ));
        }
        lines.extend(self.posted.iter().flat_map(super::posted::Posted::text));
        if let Some(claims) = &self.claims {
            for d in &claims.differ {
                let claimed = d
                    .claimed
                    .map_or("no claim".to_owned(), |c| format!("claimed {c}"));
                lines.push(format!(
                    "  claims (event {}): {} {claimed}, recomputed {}",
                    claims.seq, d.player, d.recomputed
                ));
            }
        }
        lines
    }
}

fn fold_quietly<G: Present, R: BufRead>(opened: Opened<R>) -> Audited {
    let mut audited = Audited {
        game: Some(G::NAME),
        ..Audited::default()
    };
    let fold = opened.fold::<G>(None, &mut |_| {}).map_err(|e| match e {
        FoldError::Io {
            line,
            events,
            error,
        } => {
            let error = Located {
                line,
                seq: None,
                kind: None,
                error: format!("cannot be read: {error}"),
            };
            (events, error)
        }
        FoldError::Start(error) => (0, error.map(|e| e.to_string())),
        FoldError::Rejected { error, fold } => (fold.events(), error.map(|e| e.to_string())),
        FoldError::PastEnd { .. } => unreachable!("no event to stop after was asked"),
    });
    match fold {
        Ok(fold) => {
            let (result, claims) = outcome(&fold);
            audited.events = fold.events();
            audited.chained = fold.chained();
            audited.result = Some(result);
            audited.claims = claims;
            audited.stuck = fold.dead_end().map(|d| AuditError {
                line: d.line,
                seq: Some(d.seq),
                kind: None,
                message: d.reason.clone(),
                advice: None,
            });
            audited.posted = super::posted::posted(&fold);
            audited.lenient = (fold.lenient().iter())
                .map(|l| AuditError {
                    line: l.line,
                    seq: Some(l.seq),
                    kind: None,
                    message: format!("{}, which log format {} accepted", l.what, fold.format()),
                    advice: None,
                })
                .collect();
        }
        Err((events, error)) => {
            audited.events = events;
            audited.error = Some(error);
        }
    }
    audited
}

/// The standings at the end of a folded log, and its last claims.
pub fn outcome<G: Present>(fold: &Fold<G>) -> (Outcome, Option<Claims>) {
    let totals = G::totals(fold.state());
    let players: Vec<Standing> = totals
        .iter()
        .map(|(player, score)| Standing {
            player: player.clone(),
            score: *score,
            rank: 1 + totals.iter().filter(|(_, t)| t > score).count() as u32,
        })
        .collect();
    let winners = players
        .iter()
        .filter(|s| s.rank == 1)
        .map(|s| s.player.clone())
        .collect();
    let called = fold
        .called()
        .map(|seq| format!("called by the claims of event {seq}"));
    let result = Outcome {
        ended: G::ending(fold.state()).or(called),
        winners,
        players,
    };
    let claims = fold.claims().last().map(|(seq, claimed)| {
        let differ: Vec<ClaimDiff> = totals
            .iter()
            .filter(|(name, total)| claimed.get(name) != Some(total))
            .map(|(name, total)| ClaimDiff {
                player: name.clone(),
                claimed: claimed.get(name).copied(),
                recomputed: *total,
            })
            .collect();
        Claims {
            seq: *seq,
            agree: differ.is_empty(),
            differ,
        }
    });
    (result, claims)
}
