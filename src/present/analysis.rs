//! A recorded match judged decision by decision by the search bot: the
//! decisions still standing in a log, the report `sunfold analyse` prints
//! (as JSON, or as text here), and the HTML viewer's marks.

use super::Present;
use super::command;
use crate::bots::Bot;
use crate::bots::Searcher;
use crate::kit::game::Game;
use crate::log::{Change, FoldError, Opened};
use crate::stats::Estimate;
use crate::workbench::analysis::{
    AnalysisReport, Decision, DecisionReport, Judged, PlayerSummary, judge,
};
use rayon::prelude::*;
use std::io::BufRead;

/// A decision still standing in the log, with its line.
pub struct Recorded<G: Game> {
    pub line: usize,
    /// The seq of the event before it: `replay --at` that shows the state.
    pub before_seq: u64,
    pub decision: Decision<G::State, G::Action>,
    pub event: G::Event,
}

/// The decisions still standing in a log, and the state at its end.
pub struct Decisions<G: Game> {
    pub recorded: Vec<Recorded<G>>,
    pub end: G::State,
}

/// Every decision of a log that folds cleanly, undone ones left out, and
/// the state at its end. A log that does not fold is the error a whole
/// fold gives.
pub fn decisions<G: Present, R: BufRead>(opened: Opened<R>) -> Result<Decisions<G>, FoldError<G>> {
    let mut steps = opened.steps::<G>()?;
    let mut recorded: Vec<Recorded<G>> = Vec::new();
    let mut last_seq = 0;
    while let Some(step) = steps.next() {
        let step = match step {
            Ok(step) => step,
            Err(error) => return Err(steps.into_error(error)),
        };
        match step.change {
            Change::Event(event) => {
                if let Some(seat) = G::actor(&step.before, &event)
                    && let Ok(action) = G::resolve(&step.before, &event)
                {
                    recorded.push(Recorded {
                        line: step.line,
                        before_seq: last_seq,
                        decision: Decision {
                            seq: step.seq,
                            before: step.before,
                            seat,
                            action,
                        },
                        event,
                    });
                }
            }
            Change::Undone(taken) => recorded.retain(|r| r.decision.seq != taken.seq),
            Change::Claimed(_) => {}
        }
        last_seq = step.seq;
    }
    Ok(Decisions {
        recorded,
        end: steps.into_fold().into_state(),
    })
}

impl<G: Present> Decisions<G> {
    /// Keeps only the decisions of the player named `name`, and gives
    /// their seat; `None`, with every decision kept, when no seat is
    /// named so. Each decision is judged on its own (seeded by the
    /// batch's seed and its seq), so one player's figures are the same
    /// whichever other decisions are judged beside them.
    pub fn keep_player(&mut self, name: &str) -> Option<usize> {
        let seat = G::player_names(&self.end).iter().position(|n| n == name)?;
        self.recorded.retain(|r| r.decision.seat == seat);
        Some(seat)
    }
}

/// The analysis of the decisions of a log (see [`decisions`]) by a search
/// bot with `rollouts` rollouts, seeded `seed`, on `pool`. `file` is the
/// log's path as the report names it, and in the commands it gives.
pub fn report<G: Present>(
    file: &str,
    recorded: &[Recorded<G>],
    end: &G::State,
    rollouts: u32,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> AnalysisReport {
    let judged: Vec<_> = pool.install(|| {
        recorded
            .par_iter()
            .map_init(Searcher::<G>::new, |searcher, r| {
                judge::<G>(&r.decision, rollouts, seed, searcher)
            })
            .collect()
    });
    let names = G::player_names(end);
    let quoted = command::quote(file);
    let decisions: Vec<DecisionReport> = recorded
        .iter()
        .zip(&judged)
        .map(|(r, j)| {
            let before = &r.decision.before;
            let best = G::describe_action(before, j.best);
            let judged = |said: String, e: &crate::bots::search::Evaluation| Judged {
                said,
                expected_score: e.score,
                expected_value: e.value,
                rollouts: e.rollouts,
            };
            let costly = j.lost.estimate > 0.0 && j.lost.excludes_zero();
            // A decision that nothing measured beat on the measure's
            // futures: not a loss known to be 0, only none found.
            let found = j.best != r.decision.action && j.lost.estimate > 0.0;
            let verdict = if j.choices < 2 {
                "the only legal choice".to_owned()
            } else if j.every_choice() && !found {
                format!("the best of all {} choices", j.choices)
            } else if j.every_choice() {
                format!("beaten by the best of all {} choices", j.choices)
            } else if !found {
                format!(
                    "no better decision found in {} searches at {}",
                    j.searches,
                    Bot::Search(rollouts).name()
                )
            } else {
                format!("beaten in {} of {} searches", j.held, j.searches)
            };
            DecisionReport {
                seq: r.decision.seq,
                line: r.line,
                player: names[r.decision.seat].clone(),
                choices: j.choices,
                taken: judged(G::describe(&r.event), &j.taken),
                best: judged(G::describe(&best), &j.best_eval),
                points_lost: found.then_some(j.lost),
                verdict,
                costly,
                held: j.held,
                searches: j.searches,
                every_choice: j.every_choice(),
                state_before: format!("sunfold replay {quoted} --at {}", r.before_seq),
            }
        })
        .collect();
    let players = names
        .iter()
        .map(|name| {
            let mine: Vec<&DecisionReport> =
                decisions.iter().filter(|d| &d.player == name).collect();
            let mut costliest: Vec<&&DecisionReport> = mine.iter().filter(|d| d.costly).collect();
            let lost = |d: &DecisionReport| d.points_lost.map_or(0.0, |e| e.estimate);
            costliest.sort_by(|a, b| lost(b).total_cmp(&lost(a)).then(a.seq.cmp(&b.seq)));
            PlayerSummary {
                player: name.clone(),
                decisions: mine.len(),
                points_lost: mine.iter().map(|d| lost(d).max(0.0)).sum(),
                costly: mine.iter().filter(|d| d.costly).count(),
                costliest: costliest.iter().take(3).map(|d| d.seq).collect(),
            }
        })
        .collect();
    AnalysisReport {
        file: file.to_owned(),
        game: G::NAME.to_owned(),
        bot: Bot::Search(rollouts).name(),
        seed,
        rollouts,
        value: value_meaning::<G>().to_owned(),
        decisions,
        players,
    }
}

/// The analysis of the decisions of the player named `player` alone in
/// `decisions`, as [`report`] gives them (the same figures), with that
/// player's summary alone; `None` when no seat is named so.
pub fn player_report<G: Present>(
    file: &str,
    mut decisions: Decisions<G>,
    player: &str,
    rollouts: u32,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> Option<AnalysisReport> {
    decisions.keep_player(player)?;
    let mut report = report::<G>(
        file,
        &decisions.recorded,
        &decisions.end,
        rollouts,
        seed,
        pool,
    );
    report.players.retain(|p| p.player == player);
    Some(report)
}

/// What a point of value is in `G`.
fn value_meaning<G: Game>() -> &'static str {
    if G::NAME == "summertime" {
        "lead"
    } else {
        "score"
    }
}

/// The analysis as text: the costly decisions, then each player's summary.
pub fn analysis_text(report: &AnalysisReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let unit = unit(report);
    writeln!(out, "{}", heading(report)).unwrap();
    let costly: Vec<&DecisionReport> = report.decisions.iter().filter(|d| d.costly).collect();
    if costly.is_empty() {
        writeln!(
            out,
            "\nno decision lost points beyond the noise of the rollouts"
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "\ncostly decisions (the loss's 95% interval leaves out 0):"
        )
        .unwrap();
        for d in &costly {
            decision_text(&mut out, d, unit);
        }
    }
    writeln!(out, "\nby player:").unwrap();
    for p in &report.players {
        writeln!(out, "  {}", player_text(p, unit)).unwrap();
        for d in costliest(report, p) {
            writeln!(
                out,
                "    event {} (line {}): {} lost {} {unit}; {}",
                d.seq,
                d.line,
                d.taken.said,
                lost_text(d),
                d.state_before
            )
            .unwrap();
        }
    }
    out
}

/// The analysis's first line: what was judged, by what, and what a
/// point lost means.
pub fn heading(report: &AnalysisReport) -> String {
    format!(
        "{}: {} judged by {} (seed {}); points lost are {}, best minus taken on the same futures",
        report.file,
        decision_count(report.decisions.len()),
        report.bot,
        report.seed,
        if report.value == "lead" {
            "points of lead over the other player"
        } else {
            "points of the player's own final score"
        }
    )
}

/// What a point lost is in `report`: the game's own, or a point of lead.
pub fn unit(report: &AnalysisReport) -> &'static str {
    if report.value == "lead" {
        "points of lead"
    } else {
        "points"
    }
}

/// A player's summary line: "Ann: 20 decisions, 12.3 points lost, 2 costly".
pub fn player_text(p: &PlayerSummary, unit: &str) -> String {
    format!(
        "{}: {}, {} {unit} lost, {} costly",
        p.player,
        decision_count(p.decisions),
        tenths(p.points_lost),
        p.costly
    )
}

/// The costliest decisions of `p` in `report`, costliest first.
pub fn costliest<'a>(
    report: &'a AnalysisReport,
    p: &'a PlayerSummary,
) -> impl Iterator<Item = &'a DecisionReport> {
    (p.costliest.iter()).filter_map(|seq| report.decisions.iter().find(|d| d.seq == *seq))
}

/// "1 decision", "2 decisions".
fn decision_count(n: usize) -> String {
    format!("{n} {}", if n == 1 { "decision" } else { "decisions" })
}

fn decision_text(out: &mut String, d: &DecisionReport, unit: &str) {
    let [taken, better] = decision_lines(d, unit);
    out.push_str(&format!("  {taken}\n    {better}\n"));
}

/// A costly decision in `analyse`'s two lines, unindented: the decision
/// taken, then the better one and the points lost.
pub fn decision_lines(d: &DecisionReport, unit: &str) -> [String; 2] {
    [
        format!(
            "line {}, event {}: {} (expected score {})",
            d.line,
            d.seq,
            d.taken.said,
            estimate_text(&d.taken.expected_score)
        ),
        format!(
            "better: {} (expected score {}); lost {} {unit} over {} rollouts each; {}",
            d.best.said,
            estimate_text(&d.best.expected_score),
            lost_text(d),
            d.best.rollouts,
            d.verdict
        ),
    ]
}

/// The points a decision lost with their interval, or the verdict when no
/// search found a better decision.
fn lost_text(d: &DecisionReport) -> String {
    d.points_lost
        .as_ref()
        .map_or_else(|| d.verdict.clone(), estimate_text)
}

/// An estimate with its 95% interval: `4.2 [-43.9, 52.4]`. A value that
/// rounds to zero reads `0.0`, never `-0.0`.
pub fn estimate_text(e: &Estimate) -> String {
    let [low, high] = e.ci95.map(tenths);
    format!("{} [{low}, {high}]", tenths(e.estimate))
}

/// `x` to one decimal, without a sign on zero.
fn tenths(x: f64) -> String {
    match format!("{x:.1}") {
        zero if zero == "-0.0" => "0.0".to_owned(),
        text => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Given a report of one decision, when it is written as text, then it
    /// counts "1 decision", never "1 decisions".
    #[test]
    fn one_decision_is_counted_in_the_singular() {
        let e = Estimate {
            estimate: 20.0,
            ci95: [19.0, 21.0],
        };
        let judged = Judged {
            said: "Ann placed 5 in K1d".to_owned(),
            expected_score: e,
            expected_value: e,
            rollouts: 16,
        };
        let report = AnalysisReport {
            file: "one.jsonl".to_owned(),
            game: "soleils".to_owned(),
            bot: "search:4".to_owned(),
            seed: 1,
            rollouts: 4,
            value: "score".to_owned(),
            decisions: vec![DecisionReport {
                seq: 2,
                line: 2,
                player: "Ann".to_owned(),
                choices: 3,
                taken: judged.clone(),
                best: judged,
                points_lost: None,
                verdict: "no better decision found in 3 searches at search:4".to_owned(),
                costly: false,
                held: 0,
                searches: 3,
                every_choice: false,
                state_before: "sunfold replay one.jsonl --at 1".to_owned(),
            }],
            players: vec![PlayerSummary {
                player: "Ann".to_owned(),
                decisions: 1,
                points_lost: 0.0,
                costly: 0,
                costliest: Vec::new(),
            }],
        };
        let text = analysis_text(&report);
        assert!(
            text.starts_with("one.jsonl: 1 decision judged by"),
            "{text}"
        );
        assert!(
            text.contains("  Ann: 1 decision, 0.0 points lost"),
            "{text}"
        );
        assert!(!text.contains("1 decisions"), "{text}");
    }
}
