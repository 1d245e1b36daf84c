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
//! 1. the decisions worth measuring are found. With at most the game's
//!    [`Searched::EVERY_CHOICE`] legal choices (for a hint, at most
//!    [`HINT_EVERY_CHOICE`] in either game), that is every one of them,
//!    and nothing is searched. Otherwise the search bot searches the state
//!    before the decision, for the seat that took it
//!    ([`Searcher::search`]), [`SEARCHES`] times on independent seeds;
//! 2. the decision taken and every search's pick (every choice, when all
//!    are measured) are played out [`MEASURE`] times `rollouts` times on
//!    the same futures, fresh ones that no search saw
//!    ([`Searcher::evaluate`]): each one's expected final score and value,
//!    with 95% intervals. The one that measured best (the highest sum of
//!    values, which is exact) is the best decision, the earlier one's on a
//!    tie, so that nothing measured did better than the best. The search's
//!    own estimate of its pick is not used: it chose among the values it
//!    estimated;
//! 3. the points lost are the best one's value minus the taken one's,
//!    rollout by rollout, with their interval. When the taken decision
//!    does at least as well on those futures, it is its own best and
//!    nothing is lost: nothing measured did better. A searched decision
//!    that lost also says in how many of the searches it was beaten beyond
//!    the noise.
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
    /// The independent searches: [`SEARCHES`], or 0 when every choice was
    /// measured (the only legal choice included).
    pub searches: u32,
}

impl<A> Judgement<A> {
    /// Every legal choice was measured, and none searched for.
    pub fn every_choice(&self) -> bool {
        self.searches == 0
    }
}

/// The seed of decision `seq`'s search and of its evaluation.
fn decision_seed(seed: u64, seq: u64, step: u64) -> u64 {
    seed.wrapping_mul(0xA076_1D64_78BD_642F)
        .wrapping_add(seq.wrapping_mul(0xE703_7ED1_A0B4_28DB))
        .wrapping_add(step)
}

/// The verdict on a decision that is its own best: nothing lost.
fn stands<A: Copy>(choices: usize, searches: u32, action: A, taken: Evaluation) -> Judgement<A> {
    Judgement {
        held: 0,
        searches,
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

/// The judging bot when none is named: `search:N` with the game's
/// [`Searched::JUDGING_ROLLOUTS`], the budget at which its verdicts on the
/// least stable golden replay hold from one seed to another (docs/bots.md
/// has the measure). A search bot that plays (`--bot search`) has its own,
/// smaller default.
pub fn judging_bot<G: Searched>(named: Option<crate::bots::Bot>) -> crate::bots::Bot {
    named.unwrap_or(crate::bots::Bot::Search(G::JUDGING_ROLLOUTS))
}

/// How many times the search's budget of rollouts the measure of a
/// decision and of the picks gets: with the interval a half as wide, fewer
/// verdicts sit on the edge of the noise, where another seed flips them.
pub const MEASURE: u32 = 4;

/// The independent searches each position gets, unless every choice is
/// measured. Their picks are played out on fresh futures; the one that
/// measured best is the verdict's pick, and a costly decision says in how
/// many of them it was beaten.
pub const SEARCHES: u32 = 3;

/// How many of each search's runners-up a hint measures beside the
/// picks: the more of the close decisions are measured, the more often
/// two seeds that pick differently each name the other's pick.
pub const RIVALS: usize = 3;

/// The most legal choices at which a hint measures every one of them, in
/// either game, instead of the searches' picks and runners-up: one
/// position costs far less than a whole match, and a seed's pick is then
/// always among what another seed measured.
pub const HINT_EVERY_CHOICE: usize = 16;

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
    /// minus its own, never below 0: every other choice, or the searches'
    /// other picks and their [`RIVALS`] runners-up. The first is the
    /// runner-up; none with one legal choice.
    pub others: Vec<(A, Evaluation)>,
}

/// The search bot's pick for `seat` in `state`, where the next decision
/// is seq `seq`, and its estimates: the decision that measured best of
/// every choice (up to [`HINT_EVERY_CHOICE`] of them), or of the searches'
/// picks and their runners-up. Recorded next, [`judge`] calls it the best
/// there, with the same estimates: nothing it measures did better, as
/// each decision's rollouts are the same whatever is measured beside it.
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
    } = searched(
        state,
        seat,
        seq,
        rollouts,
        seed,
        searcher,
        HINT_EVERY_CHOICE.max(G::EVERY_CHOICE),
    );
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
    /// Each search's pick, each once, in the order of the searches; every
    /// legal choice, unsearched, when all are measured.
    picks: Vec<A>,
    /// Each search's pick, one per search; none when every choice is
    /// measured.
    each: Vec<A>,
    /// The searches' runners-up that no search picked, each once, up to
    /// [`RIVALS`] of each search.
    seconds: Vec<A>,
}

/// The decisions worth measuring for `seat` in `state`: every legal
/// choice when there are at most `every_up_to` (the game's
/// [`Searched::EVERY_CHOICE`] for `analyse`), else what [`SEARCHES`]
/// independent searches pick.
fn searched<G: Searched>(
    state: &G::State,
    seat: usize,
    seq: u64,
    rollouts: u32,
    seed: u64,
    searcher: &mut Searcher<G>,
    every_up_to: usize,
) -> Searches<G::Action> {
    let mut options = Vec::new();
    G::options(state, seat, &mut options);
    if options.len() <= every_up_to.max(1) {
        return Searches {
            choices: options.len(),
            picks: options,
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
        seconds.extend(candidates.iter().skip(1).take(RIVALS).map(|c| c.action));
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

/// The base of the futures a decision and the best are measured on, for
/// the decision seq `seq` judged with `seed`: the same whichever
/// decisions are measured beside it.
pub fn measuring(seed: u64, seq: u64) -> u64 {
    decision_seed(seed, seq, 1)
}

/// Judges one decision with `rollouts` rollouts for each of the
/// [`SEARCHES`] searches, and [`MEASURE`] times as many for the measure
/// of the decision and of each pick, or of every choice.
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
    } = searched(
        before,
        *seat,
        *seq,
        rollouts,
        seed,
        searcher,
        G::EVERY_CHOICE,
    );
    // The decision taken first, then every other pick, on the same futures.
    let mut actions = vec![taken];
    actions.extend(picks.iter().copied().filter(|&p| p != taken));
    let measure = rollouts.saturating_mul(MEASURE);
    let measured = searcher.evaluate(before, *seat, &actions, measure, measuring(seed, *seq));
    let at = |action| actions.iter().position(|&a| a == action).unwrap_or(0);
    let best = measured.best_of(picks.iter().map(|&p| at(p))).unwrap_or(0);
    if best == 0 || measured.total(best) <= measured.total(0) {
        // The best pick, or as good on these futures: the decision stands.
        return stands(choices, each.len() as u32, taken, measured.against(0, 0));
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
    /// with its 95% interval; `null` when nothing measured did better,
    /// which is not a loss known to be 0: when the choices were searched,
    /// a better move that no search found is beyond what the measure can
    /// know.
    pub points_lost: Option<Estimate>,
    /// The verdict in words: "the only legal choice", "no better decision
    /// found in 3 searches at search:192", "beaten in 2 of 3 searches",
    /// and when every choice was measured "the best of all 4 choices" or
    /// "beaten by the best of all 4 choices".
    pub verdict: String,
    /// Points were lost and the interval leaves out 0.
    pub costly: bool,
    /// In how many of the independent searches the pick beat the decision
    /// taken beyond the noise of the rollouts: how stable the verdict is.
    pub held: u32,
    /// The independent searches of this decision: 0 when every choice was
    /// measured, as for the only legal choice.
    pub searches: u32,
    /// Every legal choice was played out on the same futures, and none
    /// searched for: the verdict rests on the rollouts' noise alone.
    pub every_choice: bool,
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
