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
    /// How many decisions were played out on the same futures, this one
    /// included: every legal choice when there are few (as many as
    /// `choices`), else the searches' picks and their runners-up.
    pub measured: usize,
    /// The next best decision measured; none with one legal choice.
    pub runner_up: Option<RunnerUp<E>>,
    /// The other decisions measured that are near ties too, as the
    /// runner-up may be, best measured first.
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
    /// The margin is not told apart from 0 with Holm's correction over the
    /// margins of every decision measured beside the hint (a chance of at
    /// most 5% that any of them is called clearly behind when it is not):
    /// the two are a near tie, and another seed may well pick this one.
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
        let behind = clearly_behind(best.others.iter().map(|(_, eval)| eval.against_first));
        let mut others = (best.others.iter().zip(behind)).map(|(&(action, eval), behind)| {
            let event = G::describe_action(state, action);
            RunnerUp {
                said: G::describe(&event),
                event,
                expected_score: eval.score,
                near_tie: !behind,
                margin: eval.against_first,
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
            measured: best.others.len() + 1,
        });
    }
    Ok(hints)
}

/// Which of these margins (the best's value minus another decision's, on
/// the same futures) are told apart from 0 with Holm's correction: the
/// more decisions are measured, the more a single 95% interval would call
/// one clearly behind by chance.
pub fn clearly_behind(margins: impl Iterator<Item = Estimate>) -> Vec<bool> {
    let margins: Vec<Estimate> = margins.collect();
    let p: Vec<f64> = margins.iter().map(Estimate::p_value).collect();
    (crate::stats::metric::holm(&p).into_iter())
        .zip(&margins)
        .map(|(significant, m)| significant && m.estimate > 0.0)
        .collect()
}

/// The hints as text: each decision with why, the command to paste, and
/// the entry `sunfold append` takes.
pub fn hint_text<E: serde::Serialize>(file: &str, hints: &[Hint<E>]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for h in hints {
        let of = match (h.choices, h.measured) {
            (1, _) => "the only legal choice".to_owned(),
            (n, m) if m == n => format!("best of all {n} choices"),
            (n, m) => format!("best of the {m} measured of {n} choices"),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A margin `z` standard errors above 0, with its 95% interval.
    fn margin(z: f64) -> Estimate {
        let se = 0.25;
        Estimate {
            estimate: z * se,
            ci95: [z * se - 1.96 * se, z * se + 1.96 * se],
        }
    }

    /// Given three margins whose 95% intervals each leave out 0, with
    /// p-values of about 0.01, 0.02 and 0.04, when they are told apart
    /// with Holm's correction (0.05 / 3, 0.05 / 2, 0.05), then all three
    /// are clearly behind; and with 0.01, 0.03 and 0.04, only the first:
    /// 0.03 is above 0.05 / 2, and Holm stops there.
    #[test]
    fn near_ties_are_told_apart_with_holms_correction() {
        let (p01, p02, p03, p04) = (2.576, 2.326, 2.170, 2.054);
        let all = [margin(p04), margin(p01), margin(p02)];
        assert!(all.iter().all(Estimate::excludes_zero));
        assert_eq!(clearly_behind(all.into_iter()), [true, true, true]);
        let some = [margin(p04), margin(p03), margin(p01)];
        assert!(some.iter().all(Estimate::excludes_zero));
        assert_eq!(clearly_behind(some.into_iter()), [false, false, true]);
        // An exact tie is never behind; nor is a margin whose interval
        // holds 0, alone.
        assert_eq!(clearly_behind([margin(0.0)].into_iter()), [false]);
        assert_eq!(clearly_behind([margin(1.5)].into_iter()), [false]);
        assert_eq!(clearly_behind([margin(2.0)].into_iter()), [true]);
    }
}
