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
//!    independent seeds;
//! 2. the decision taken and every search's pick are played out [`MEASURE`]
//!    times `rollouts` times on the same futures, fresh ones that no search
//!    saw ([`Searcher::evaluate`]): each one's expected final score and
//!    value, with 95% intervals. The pick that measured best (the highest
//!    sum of values, which is exact) is the best decision, the earlier
//!    search's on a tie, so that no search's pick measured better than the
//!    best. The search's own estimate of its pick is not used: it chose
//!    among the values it estimated;
//! 3. the points lost are the best one's value minus the taken one's,
//!    rollout by rollout, with their interval. When the taken decision
//!    does at least as well on those futures, it is its own best and
//!    nothing is lost: no search's pick measured better. A decision that
//!    lost also says in how many of the searches it was beaten beyond the
//!    noise.
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
/// out on fresh futures; the one that measured best is the verdict's pick,
/// and a costly decision says in how many of them it was beaten.
pub const SEARCHES: u32 = 3;

/// A position's best decision, by [`best`].
#[derive(Clone, Debug)]
pub struct Best<A> {
    /// The legal choices the seat has.
    pub choices: usize,
    pub action: A,
    /// Its estimates, on the measuring futures.
    pub eval: Evaluation,
    /// The other decisions measured, best measured first, each with its
    /// estimates on the same futures and `against_first` the best's value
    /// minus its own, never below 0: the searches' other picks and their
    /// second bests. The first is the runner-up; none with one legal
    /// choice.
    pub others: Vec<(A, Evaluation)>,
}

/// The search bot's pick for `seat` in `state`, where the next decision
/// is seq `seq`, and its estimates: the decision that measured best of
/// the searches' picks and their second bests. Recorded next, [`judge`]
/// calls it the best there, with the same estimates: no search's pick
/// measured better.
pub fn best<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> Best<G::Action> {
    let Searches {
        choices,
        picks,
        seconds,
        ..
    } = searched(state, seat, seq, rollouts, seed, searcher);
    let mut actions = picks;
    actions.extend(seconds);
    let measure = rollouts.saturating_mul(MEASURE);
    // Each action's rollouts are its own, so its estimates are the same
    // whichever actions are measured beside it, as `judge` measures them.
    let measured = searcher.evaluate(state, seat, &actions, measure, measuring(seed, seq));
    let best = measured.best_of(0..actions.len()).unwrap_or(0);
    let mut rest: Vec<usize> = (0..actions.len()).filter(|&i| i != best).collect();
    rest.sort_by(|&a, &b| {
        measured
            .total(b)
            .total_cmp(&measured.total(a))
            .then(a.cmp(&b))
    });
    Best {
        choices,
        action: actions[best],
        eval: measured.against(best, best),
        others: (rest.into_iter())
            .map(|r| {
                let mut eval = measured.against(r, r);
                eval.against_first = measured.against(best, r).against_first;
                (actions[r], eval)
            })
            .collect(),
    }
}

/// What the independent searches of a position found.
struct Searches<A> {
    /// How many legal choices the seat has.
    choices: usize,
    /// Each search's pick, each once, in the order of the searches; the
    /// only legal choice, unsearched, when there is one.
    picks: Vec<A>,
    /// Each search's pick, one per search; none for the only legal choice.
    each: Vec<A>,
    /// The searches' second bests that no search picked, each once.
    seconds: Vec<A>,
}

/// The [`SEARCHES`] independent searches of `seat`'s decision in `state`.
fn searched<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
) -> Searches<G::Action> {
    let mut options = Vec::new();
    G::options(state, seat, &mut options);
    if let [only] = options[..] {
        return Searches {
            choices: 1,
            picks: vec![only],
            each: Vec::new(),
            seconds: Vec::new(),
        };
    }
    let mut state = state.clone();
    let mut seconds = Vec::new();
    let mut each: Vec<G::Action> = Vec::new();
    for search in 0..u64::from(SEARCHES) {
        let base = decision_seed(seed, seq, 3 + search);
        searcher.search(&mut state, seat, rollouts, base);
        let candidates = searcher.candidates();
        seconds.extend(candidates.get(1).map(|c| c.action));
        each.push(candidates[0].action);
    }
    let mut picks: Vec<G::Action> = Vec::new();
    for &pick in &each {
        if !picks.contains(&pick) {
            picks.push(pick);
        }
    }
    let mut others: Vec<G::Action> = Vec::new();
    for second in seconds {
        if !picks.contains(&second) && !others.contains(&second) {
            others.push(second);
        }
    }
    Searches {
        choices: options.len(),
        picks,
        each,
        seconds: others,
    }
}

/// The base of the futures a decision and the best are measured on.
fn measuring(seed: u64, seq: u64) -> u64 {
    decision_seed(seed, seq, 1)
}

/// Judges one decision with `rollouts` rollouts for each of the
/// [`SEARCHES`] searches, and [`MEASURE`] times as many for the measure
/// of the decision and of each pick.
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
    let Searches {
        choices,
        picks,
        each,
        ..
    } = searched(before, *seat, *seq, rollouts, seed, searcher);
    // The decision taken first, then every other pick, on the same futures.
    let mut actions = vec![taken];
    actions.extend(picks.iter().copied().filter(|&p| p != taken));
    let measure = rollouts.saturating_mul(MEASURE);
    let measured = searcher.evaluate(before, *seat, &actions, measure, measuring(seed, *seq));
    let at = |action| actions.iter().position(|&a| a == action).unwrap_or(0);
    let best = measured.best_of(picks.iter().map(|&p| at(p))).unwrap_or(0);
    if best == 0 || measured.total(best) <= measured.total(0) {
        // The best pick, or as good on these futures: the decision stands.
        return stands(choices, taken, measured.against(0, 0));
    }
    let beaten = |pick| {
        let gap = measured.against(at(pick), 0).against_first;
        gap.estimate > 0.0 && gap.excludes_zero()
    };
    let best_eval = measured.against(best, 0);
    Judgement {
        choices,
        best: actions[best],
        taken: measured.against(0, 0),
        best_eval,
        lost: best_eval.against_first,
        held: each.iter().filter(|&&pick| beaten(pick)).count() as u32,
        searches: each.len() as u32,
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
