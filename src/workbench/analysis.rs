//! Judging decisions with the search bot: a position's best decision
//! ([`best`], what `hint` gives), and a recorded decision against it
//! ([`judge`], what `analyse` gives), both played out on the same futures,
//! and the points lost.
//!
//! A decision is judged in three steps, all seeded by the batch's seed and
//! the decision's seq, so that the same log and seed give the same report
//! on any number of threads, and `hint` at a position picks what `analyse`
//! calls best there, with the same estimates:
//!
//! 1. the search bot searches the state before the decision, for the seat
//!    that took it ([`Searcher::search`]), [`SEARCHES`] times on
//!    independent seeds. When their picks differ, each is played out on
//!    futures of its own, and the best of them is the best decision;
//! 2. the decision taken and every pick are played out [`MEASURE`] times
//!    `rollouts` times on the same futures, fresh ones that neither the searches nor the
//!    choice among them saw ([`Searcher::evaluate`]): each one's expected
//!    final score and value, with 95% intervals. The search's own estimate
//!    of its pick is not used: the best of several noisy values is biased
//!    upwards;
//! 3. the points lost are the best one's value minus the taken one's,
//!    rollout by rollout, with their interval. When the taken decision
//!    does at least as well on those futures, it is its own best and
//!    nothing is lost. A decision that lost also says in how many of the
//!    searches it was beaten beyond the noise.
//!
//! In Summertime the value is the lead (own score minus the other's), as
//! the search bot maximises it; in 62 Soleils it is the own score.

use crate::bots::search::{Evaluation, Searched, Searcher};
use crate::stats::metric::Estimate;

/// One recorded decision: the state before it, who took it, what it was.
pub struct Decision<S, A> {
    pub seq: u64,
    pub before: S,
    pub seat: usize,
    pub action: A,
}

/// The verdict on one decision.
#[derive(Clone, Debug)]
pub struct Judgement<A> {
    /// The legal choices the seat had.
    pub choices: usize,
    pub best: A,
    pub taken: Evaluation,
    /// The best decision's estimates; the taken one's when they coincide.
    pub best_eval: Evaluation,
    /// Best minus taken, on the same futures: 0 when they coincide.
    pub lost: Estimate,
    /// In how many of the searches the pick beat the decision taken beyond
    /// the noise of the rollouts, out of `searches`.
    pub held: u32,
    /// The independent searches: [`SEARCHES`], or 0 for the only legal
    /// choice.
    pub searches: u32,
}

/// The seed of decision `seq`'s search and of its evaluation.
fn decision_seed(seed: u64, seq: u64, step: u64) -> u64 {
    seed.wrapping_mul(0xA076_1D64_78BD_642F)
        .wrapping_add(seq.wrapping_mul(0xE703_7ED1_A0B4_28DB))
        .wrapping_add(step)
}

/// The verdict on a decision that is its own best: nothing lost.
fn stands<A: Copy>(choices: usize, action: A, taken: Evaluation) -> Judgement<A> {
    Judgement {
        held: 0,
        searches: if choices > 1 { SEARCHES } else { 0 },
        choices,
        best: action,
        taken,
        best_eval: taken,
        lost: Estimate {
            estimate: 0.0,
            ci95: [0.0, 0.0],
        },
    }
}

/// The judging bot's rollouts when `analyse`, `hint` or the viewer's
/// `--analyse` is given no `--bot`: the budget at which the verdicts on the
/// 4-player golden replay hold from one seed to another (docs/bots.md has
/// the measure). A search bot that plays (`--bot search`) has its own,
/// smaller default.
pub const JUDGING_ROLLOUTS: u32 = 192;

/// The judging bot when none is named: `search:`[`JUDGING_ROLLOUTS`].
pub fn judging_bot(named: Option<crate::bots::Bot>) -> crate::bots::Bot {
    named.unwrap_or(crate::bots::Bot::Search(JUDGING_ROLLOUTS))
}

/// How many times the search's budget of rollouts the measure of a
/// decision and of the picks gets: with the interval a half as wide, fewer
/// verdicts sit on the edge of the noise, where another seed flips them.
pub const MEASURE: u32 = 4;

/// The independent searches each position gets. Their picks are played
/// out on fresh futures; the best of them is the verdict's pick, and a
/// costly decision says in how many of them it was beaten.
pub const SEARCHES: u32 = 3;

/// A position's best decision, by [`best`].
#[derive(Clone, Copy, Debug)]
pub struct Best<A> {
    /// The legal choices the seat has.
    pub choices: usize,
    pub action: A,
    /// Its estimates, on the measuring futures.
    pub eval: Evaluation,
    /// The next best decision the searches found, with its estimates on
    /// the same futures (`against_first` is its value minus the best's);
    /// none with one legal choice.
    pub runner_up: Option<(A, Evaluation)>,
}

/// The search bot's pick for `seat` in `state`, where the next decision
/// is seq `seq`, and its estimates: see [`judge`], whose best it is.
pub fn best<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> Best<G::Action> {
    let (choices, picks, seconds) = searched(state, seat, seq, rollouts, seed, searcher);
    let action = chosen(state, seat, seq, &picks, rollouts, seed, searcher);
    let measure = rollouts.saturating_mul(MEASURE);
    // The runner-up: another search's pick, else a search's second best.
    let runner = picks.iter().chain(&seconds).copied().find(|&a| a != action);
    let mut actions = vec![action];
    actions.extend(runner);
    // Each action's rollouts are its own, so the best's estimates are the
    // same with or without the runner-up beside it.
    let evaluated = searcher.evaluate(state, seat, &actions, measure, measuring(seed, seq));
    Best {
        choices,
        action,
        eval: evaluated[0],
        runner_up: runner.map(|a| (a, evaluated[1])),
    }
}

/// How many choices the seat has, and each independent search's pick; the
/// only legal choice, unsearched, when there is one.
fn picks<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> (usize, Vec<G::Action>) {
    let (choices, picks, _) = searched(state, seat, seq, rollouts, seed, searcher);
    (choices, picks)
}

/// [`picks`], and each search's second best decision where it has one.
fn searched<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> (usize, Vec<G::Action>, Vec<G::Action>) {
    let mut options = Vec::new();
    G::options(state, seat, &mut options);
    if let [only] = options[..] {
        return (1, vec![only], Vec::new());
    }
    let mut state = state.clone();
    let mut seconds = Vec::new();
    let picks = (0..u64::from(SEARCHES))
        .map(|search| {
            let base = decision_seed(seed, seq, 3 + search);
            searcher.search(&mut state, seat, rollouts, base);
            let candidates = searcher.candidates();
            seconds.extend(candidates.get(1).map(|c| c.action));
            candidates[0].action
        })
        .collect();
    (options.len(), picks, seconds)
}

/// The best of `picks`: when the searches disagree, the one with the best
/// value played out on futures of its own, apart from the measuring ones,
/// so that choosing the best of noisy values does not bias its measure.
/// Ties go to the earlier search.
fn chosen<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    picks: &[G::Action],
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> G::Action {
    let mut distinct: Vec<G::Action> = Vec::new();
    for &pick in picks {
        if !distinct.contains(&pick) {
            distinct.push(pick);
        }
    }
    if let [one] = distinct[..] {
        return one;
    }
    let evaluated = searcher.evaluate(state, seat, &distinct, rollouts, selecting(seed, seq));
    let mut best = 0;
    for (i, e) in evaluated.iter().enumerate() {
        if e.value.estimate > evaluated[best].value.estimate {
            best = i;
        }
    }
    distinct[best]
}

/// The base of the futures a decision and the best are measured on.
fn measuring(seed: u64, seq: u64) -> u64 {
    decision_seed(seed, seq, 1)
}

/// The base of the futures that choose among the searches' picks.
fn selecting(seed: u64, seq: u64) -> u64 {
    decision_seed(seed, seq, 2)
}

/// Judges one decision with `rollouts` rollouts for each of the
/// [`SEARCHES`] searches and for the choice among their picks, and
/// [`MEASURE`] times as many for the measure of each.
pub fn judge<G: Searched>(
    decision: &Decision<G::State, G::Action>,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> Judgement<G::Action> {
    let Decision {
        seq, before, seat, ..
    } = decision;
    let taken = decision.action;
    let (choices, picks) = picks(before, *seat, *seq, rollouts, seed, searcher);
    let best = chosen(before, *seat, *seq, &picks, rollouts, seed, searcher);
    // The decision taken first, then every other pick, on the same futures.
    let mut actions = vec![taken];
    for &pick in &picks {
        if !actions.contains(&pick) {
            actions.push(pick);
        }
    }
    let measure = rollouts.saturating_mul(MEASURE);
    let evaluated = searcher.evaluate(before, *seat, &actions, measure, measuring(seed, *seq));
    let of = |action| evaluated[actions.iter().position(|&a| a == action).unwrap_or(0)];
    let best_eval = of(best);
    if best == taken || best_eval.against_first.estimate <= 0.0 {
        // The pick, or as good on these futures: the decision stands.
        return stands(choices, taken, evaluated[0]);
    }
    let beaten = |pick| {
        let gap = of(pick).against_first;
        gap.estimate > 0.0 && gap.excludes_zero()
    };
    Judgement {
        choices,
        best,
        taken: evaluated[0],
        best_eval,
        lost: best_eval.against_first,
        held: picks.iter().filter(|&&pick| beaten(pick)).count() as u32,
        searches: picks.len() as u32,
    }
}

/// What `sunfold analyse --format json` prints (`sunfold schema
/// analyse-report`); the HTML viewer reads it to mark costly decisions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct AnalysisReport {
    pub file: String,
    /// `soleils` or `summertime`.
    pub game: String,
    /// The judging bot, such as `search:192`.
    pub bot: String,
    pub seed: u64,
    /// Rollouts for the search and for each evaluation of a decision.
    pub rollouts: u32,
    /// What a point lost means: the seat's own final score (62 Soleils), or
    /// its lead over the other player (Summertime).
    pub value: String,
    /// Every decision still standing in the log (undone ones are left out),
    /// in log order.
    pub decisions: Vec<DecisionReport>,
    /// Per player, in seating order.
    pub players: Vec<PlayerSummary>,
}

/// One decision judged.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct DecisionReport {
    pub seq: u64,
    pub line: usize,
    pub player: String,
    /// How many legal choices the player had.
    pub choices: usize,
    pub taken: Judged,
    /// The bot's best decision: the same as `taken` when nothing is lost.
    pub best: Judged,
    /// The best decision's value minus the taken one's, on the same futures,
    /// with its 95% interval; `null` when no search found a better
    /// decision, which is not a loss known to be 0: a better move that no
    /// search found is beyond what the measure can know.
    pub points_lost: Option<Estimate>,
    /// The verdict in words: "the only legal choice", "no better decision
    /// found in 3 searches at search:192", or "beaten in 2 of 3 searches".
    pub verdict: String,
    /// Points were lost and the interval leaves out 0.
    pub costly: bool,
    /// In how many of the independent searches the pick beat the decision
    /// taken beyond the noise of the rollouts: how stable the verdict is.
    pub held: u32,
    /// The independent searches of this decision: 0 for the only legal
    /// choice.
    pub searches: u32,
    /// The command that shows the state before the decision.
    pub state_before: String,
}

/// A decision and what it is expected to lead to.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Judged {
    /// In words: "Ann placed 5 in K1d".
    pub said: String,
    /// The player's expected final score after it, with its 95% interval.
    pub expected_score: Estimate,
    /// The expected value (the score, or in Summertime the lead).
    pub expected_value: Estimate,
    pub rollouts: u64,
}

/// One player's decisions summed up.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct PlayerSummary {
    pub player: String,
    pub decisions: usize,
    /// The points lost over all their decisions (each decision's estimate,
    /// when positive).
    pub points_lost: f64,
    /// Decisions whose loss's interval leaves out 0.
    pub costly: usize,
    /// Their costly decisions (the loss's interval leaves out 0), at most
    /// three, by seq, costliest first.
    pub costliest: Vec<u64>,
}
