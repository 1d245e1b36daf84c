//! What `sunfold hint --format json` prints, as a type: `sunfold schema
//! hint-report` prints its schema.

use super::Present;
use super::analysis::estimate_text;
use super::command;
use crate::bots::{Searcher, Simulated};
use crate::stats::Estimate;
use crate::workbench::analysis::best;

/// What `sunfold hint --format json` prints (`sunfold schema hint-report`).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct HintReport<E> {
    pub file: String,
    pub game: String,
    pub bot: String,
    pub seed: u64,
    pub hints: Vec<Hint<E>>,
}

impl<E> HintReport<E> {
    /// The report of `hints` on the log `file` of `G`, by `bot` seeded `seed`.
    pub fn of<G: Present<Event = E>>(
        file: String,
        bot: crate::bots::Bot,
        seed: u64,
        hints: Vec<Hint<E>>,
    ) -> Self {
        HintReport {
            file,
            game: G::NAME.to_owned(),
            bot: bot.name(),
            seed,
            hints,
        }
    }
}

impl Refused {
    /// It, for the log `file`: a refusal of the log's state names the file.
    pub fn located(&self, file: &str) -> String {
        match self {
            Refused::GameOver { .. } | Refused::NoDecision { .. } => format!("{file}: {self}"),
            _ => self.to_string(),
        }
    }
}

/// The best decision for one player.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Hint<E> {
    pub player: String,
    /// In words: "Ann placed 5 in K1d".
    pub said: String,
    /// The decision as a command to paste.
    pub command: Option<String>,
    /// The decision as an entry that `sunfold append` takes unchanged.
    pub event: E,
    /// The player's expected final score after it, played out on fresh
    /// futures after the search, as `analyse` measures it.
    pub expected_score: Estimate,
    /// The expected value the search maximised: the score, or in
    /// Summertime the lead over the other player.
    pub expected_value: Estimate,
    /// The rollouts of those estimates.
    pub rollouts: u64,
    /// How many legal choices the player has.
    pub choices: usize,
    /// The next best decision measured; none with one legal choice.
    pub runner_up: Option<RunnerUp<E>>,
    /// The other decisions measured whose margin's interval holds 0, as
    /// the runner-up's may: near ties too, best measured first.
    pub near_ties: Vec<RunnerUp<E>>,
}

/// The decision a hint was chosen over, measured on the same futures.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct RunnerUp<E> {
    /// In words: "Ann placed 3 in K2b".
    pub said: String,
    /// It as an entry that `sunfold append` takes unchanged.
    pub event: E,
    /// The player's expected final score after it.
    pub expected_score: Estimate,
    /// The hint's expected value minus this one's, rollout by rollout on the
    /// same futures, with its 95% interval; never below 0, as the hint is
    /// the decision that measured best on those futures.
    pub margin: Estimate,
    /// The margin's interval holds 0: the two are a near tie, and another
    /// seed may well pick the runner-up.
    pub near_tie: bool,
}

/// Why there is no hint to give.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("expected a game in progress to give a hint for, but the game is over ({ending})")]
    GameOver { ending: String },
    #[error("expected a player's decision to give a hint for, but the table waits for {waits}")]
    NoDecision { waits: String },
    #[error("expected a player of this game ({}), but found {found:?}{suggestion}", known.join(", "))]
    UnknownPlayer {
        known: Vec<String>,
        found: String,
        /// "; did you mean …?" when a name is close, or nothing.
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected a player who must decide now ({}), but found {found}, who has nothing to decide", deciders.join(", "))]
    NotDeciding {
        deciders: Vec<String>,
        found: String,
    },
}

/// The best decision now for `wanted`, or for everyone who must decide
/// now, by a search bot with `rollouts` rollouts seeded `seed`, where the
/// next entry is seq `next`: the pick and the estimates that `analyse`
/// gives with the same bot and seed, once the decision is recorded next
/// ([`best`]). `file` is the log's path, for the commands to paste.
pub fn hints<G: Present>(
    file: &str,
    state: &G::State,
    next: u64,
    wanted: Option<&str>,
    rollouts: u32,
    seed: u64,
) -> Result<Vec<Hint<G::Event>>, Refused> {
    let names = G::player_names(state);
    if let Some(ending) = G::ending(state) {
        return Err(Refused::GameOver { ending });
    }
    let mut deciders = Vec::new();
    <G as Simulated>::deciders(state, &mut deciders);
    if deciders.is_empty() {
        let waits = G::pending_lines(state).join("; ");
        return Err(Refused::NoDecision { waits });
    }
    if let Some(wanted) = wanted {
        let Some(seat) = names.iter().position(|n| n == wanted) else {
            let suggestion = crate::kit::suggest::closest(wanted, names.iter().map(String::as_str));
            return Err(Refused::UnknownPlayer {
                known: names,
                found: wanted.to_owned(),
                suggestion,
            });
        };
        if !deciders.contains(&seat) {
            return Err(Refused::NotDeciding {
                deciders: deciders.iter().map(|&p| names[p].clone()).collect(),
                found: wanted.to_owned(),
            });
        }
        deciders = vec![seat];
    }
    let path = std::path::Path::new(file);
    let mut searcher = Searcher::<G>::new();
    let mut hints = Vec::new();
    for &seat in &deciders {
        let best = best::<G>(state, seat, next, rollouts, seed, &mut searcher);
        let event = G::describe_action(state, best.action);
        let command = command::grouped::<G>(path, state, std::slice::from_ref(&event))
            .into_iter()
            .next()
            .and_then(|g| g.commands.into_iter().next());
        let mut others = best.others.iter().map(|&(action, eval)| {
            let margin = eval.against_first;
            let event = G::describe_action(state, action);
            RunnerUp {
                said: G::describe(&event),
                event,
                expected_score: eval.score,
                near_tie: !margin.excludes_zero(),
                margin,
            }
        });
        let runner_up = others.next();
        let near_ties = others.filter(|o| o.near_tie).collect();
        hints.push(Hint {
            runner_up,
            near_ties,
            player: names[seat].clone(),
            said: G::describe(&event),
            command,
            event,
            expected_score: best.eval.score,
            expected_value: best.eval.value,
            rollouts: best.eval.rollouts,
            choices: best.choices,
        });
    }
    Ok(hints)
}

/// The hints as text: each decision with why, the command to paste, and
/// the entry `sunfold append` takes.
pub fn hint_text<E: serde::Serialize>(file: &str, hints: &[Hint<E>]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for h in hints {
        let of = match h.choices {
            1 => "the only legal choice".to_owned(),
            n => format!("best of {n} choices"),
        };
        let why = format!(
            "expected final score {} over {} rollouts, {of}",
            estimate_text(&h.expected_score),
            h.rollouts,
        );
        writeln!(out, "{}: {} ({why})", h.player, h.said).unwrap();
        if let Some(r) = &h.runner_up {
            let how = if r.near_tie {
                "a near tie".to_owned()
            } else {
                "clearly behind".to_owned()
            };
            writeln!(
                out,
                "  runner-up: {} (expected final score {}), {} behind: {how}",
                r.said,
                estimate_text(&r.expected_score),
                estimate_text(&r.margin),
            )
            .unwrap();
        }
        for tie in &h.near_ties {
            writeln!(
                out,
                "  also a near tie: {} (expected final score {}), {} behind",
                tie.said,
                estimate_text(&tie.expected_score),
                estimate_text(&tie.margin),
            )
            .unwrap();
        }
        if let Some(command) = &h.command {
            writeln!(out, "  {command}").unwrap();
        }
        let entry = serde_json::to_string(&h.event).expect("events serialize");
        writeln!(
            out,
            "  sunfold append {} '{}'",
            command::quote(file),
            entry.replace('\'', r"'\''")
        )
        .unwrap();
    }
    out
}
