//! The search bot: flat Monte Carlo over a seat's legal actions, with
//! sequential halving to spend the budget on the promising ones, common
//! random numbers so that candidates are compared on the same futures, and
//! the greedy bot playing every seat to the end of each rollout.
//!
//! - **Budget.** `search:N` plays about `N` rollouts per decision (at least
//!   one per candidate it keeps). A decision with one legal action costs
//!   nothing. Candidates beyond `N / 2` are cut by the greedy bot's own
//!   ranking before any rollout.
//! - **Sequential halving** (Karnin, Koren and Somekh, 2013): the rollouts
//!   are spent in ⌈log₂ k⌉ rounds; after each, the better half of the
//!   candidates by mean value goes on, so the last two share most of the
//!   budget.
//! - **Common random numbers.** Rollout `j` of every candidate starts from
//!   the same sample of what the seat cannot see, rolls the same dice and
//!   gives the bots the same random draws. Two candidates are then compared
//!   on the same futures, which removes most of the luck from their
//!   difference.
//! - **What a seat knows.** A rollout applies the candidate to a copy of
//!   the table, where it is legal, and only then draws what the seat cannot
//!   see ([`Searched::resample`]): in 62 Soleils nothing (all is public); in
//!   Summertime the stacks and the other player's dealt cards are drawn
//!   again from the cards the seat has not seen, keeping the prices on the
//!   stacks' backs. The real arrangement is never read. In a physical game
//!   the log does not know the seat's own dealt cards either: drawn after
//!   the candidate, a card it plays from them is one it held, and the rest
//!   of its hand is drawn from the others.
//! - **Value.** The figure a rollout ends with: in 62 Soleils the seat's
//!   final score (the sheets barely interact, so a higher own score is what
//!   wins); in Summertime the seat's final score minus the other player's
//!   (the grid is shared: a play that feeds the opponent costs).
//!
//! Everything is drawn from the seat's own stream: the same seed gives the
//! same decision, on any thread.

use crate::bots::run::{Buffers, Simulated, playout};
use crate::kit::rng::SeededRng;
use crate::soleils::{self, Soleils};
use crate::stats::metric::{Estimate, Moments};
use crate::summertime::{self, Summertime};

/// Rollouts per decision of `--bot search` without a number.
pub const DEFAULT_ROLLOUTS: u32 = 64;

/// A game the search bot can play.
pub trait Searched:
    Simulated + crate::kit::game::Game<State: Send + Sync, Event: Send + Sync>
{
    /// What a rollout ends with for seat `p`, the figure search maximises.
    fn value(state: &Self::State, p: usize) -> f64;
    /// The number of seats at the table.
    fn player_count(state: &Self::State) -> usize;
    /// Judging a decision (`analyse`, `hint`): the most legal choices at
    /// which every one of them is measured, instead of the few that
    /// searches pick; 0 for never. Chosen per game by how stable the
    /// verdicts are from one seed to another (docs/bots.md).
    const EVERY_CHOICE: usize;
    /// The judging bot's rollouts when `analyse` or `hint` is given no
    /// `--bot`, chosen by the same measure (docs/bots.md).
    const JUDGING_ROLLOUTS: u32;
    /// Buffers for [`Searched::resample`], reused between calls.
    type Unseen: Default + Send;
    /// Draws again, from `rng`, what `seat` cannot see at `table`, in
    /// place: the table still agrees with everything the seat sees. It
    /// reads nothing the seat cannot see. A search applies its candidate
    /// first and draws after it (see [`Searcher::rollout`]).
    fn resample(
        table: &mut Self::State,
        seat: usize,
        unseen: &mut Self::Unseen,
        rng: &mut SeededRng,
    );
    /// [`Searched::resample`] of a copy of `state`, written into `out`.
    fn sample(
        state: &Self::State,
        seat: usize,
        unseen: &mut Self::Unseen,
        rng: &mut SeededRng,
        out: &mut Self::State,
    ) {
        out.clone_from(state);
        Self::resample(out, seat, unseen, rng);
    }
}

impl Searched for Soleils {
    fn value(state: &soleils::State, p: usize) -> f64 {
        f64::from(soleils::total_of(state, p))
    }
    fn player_count(state: &soleils::State) -> usize {
        state.players().len()
    }
    /// Never: the searches' picks hold at 0.93 from one seed to another,
    /// and measuring every choice up to 16 would double the time.
    const EVERY_CHOICE: usize = 0;
    const JUDGING_ROLLOUTS: u32 = 192;
    type Unseen = ();
    /// Everything is public: nothing to draw.
    fn resample(_: &mut soleils::State, _: usize, _: &mut (), _: &mut SeededRng) {}
}

/// Summertime's unseen cards and a shuffled copy of them.
#[derive(Default)]
pub struct SummertimeUnseen {
    hidden: summertime::Hidden,
    cards: Vec<summertime::deck::CardIndex>,
    pool: Vec<summertime::deck::CardIndex>,
}

impl Searched for Summertime {
    fn value(state: &summertime::State, p: usize) -> f64 {
        f64::from(summertime::total_of(state, p)) - f64::from(summertime::total_of(state, 1 - p))
    }
    fn player_count(_: &summertime::State) -> usize {
        2
    }
    /// Most decisions have few choices, and the searches, drawing the
    /// hidden cards again, miss a better one too often to be relied on.
    const EVERY_CHOICE: usize = 16;
    const JUDGING_ROLLOUTS: u32 = 512;
    type Unseen = SummertimeUnseen;
    /// The unseen cards shuffled into the hidden places; then each stack's
    /// top is swapped for an unseen card whose back shows the price the
    /// seat sees, if there is one. (A physical log can declare a back that
    /// no unseen card shows: that stack's top is then any unseen card.)
    fn resample(
        table: &mut summertime::State,
        seat: usize,
        unseen: &mut SummertimeUnseen,
        rng: &mut SeededRng,
    ) {
        summertime::hidden(table, seat, &mut unseen.hidden);
        let hidden = &unseen.hidden;
        let pool = &mut unseen.pool;
        pool.clear();
        pool.extend(&hidden.unseen);
        for i in (1..pool.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            pool.swap(i, j);
        }
        // The stack tops first, each drawn among the cards with its back.
        // A stack without a back the seat sees has no top to keep.
        let cards = &mut unseen.cards;
        cards.clear();
        cards.resize(hidden.places(), 0);
        let hands: usize = hidden.hands.iter().sum();
        let mut tops = [None; 3];
        let mut at = hands;
        for ((top, &count), back) in tops.iter_mut().zip(&hidden.stacks).zip(&hidden.backs) {
            if count > 0 {
                *top = back.map(|back| (at, back));
            }
            at += count;
        }
        let mut used = 0;
        let deck = table.deck();
        for &(top, back) in tops.iter().flatten() {
            let fits = (used..pool.len()).find(|&i| deck.card(pool[i]).cost == back);
            let i = fits.unwrap_or(used);
            pool.swap(used, i);
            cards[top] = pool[used];
            used += 1;
        }
        let mut rest = pool[used..].iter().copied();
        for (i, card) in cards.iter_mut().enumerate() {
            if !tops.iter().flatten().any(|&(top, _)| top == i) {
                *card = rest.next().expect("one card per place");
            }
        }
        hidden.fill_in(table, seat, cards);
    }
}

/// One candidate action and its rollouts so far.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<A> {
    pub action: A,
    /// Its rank by the greedy bot's own value, 0 for the best.
    pub greedy_rank: usize,
    /// The value of each rollout.
    pub value: Moments,
    /// The seat's own final score of each rollout.
    pub score: Moments,
}

impl<A> Candidate<A> {
    pub fn rollouts(&self) -> u64 {
        self.value.count()
    }
    fn mean(&self) -> f64 {
        self.value.estimate().estimate
    }
}

/// What the search bot keeps between decisions so that nothing is
/// allocated per rollout once its buffers have grown.
pub struct Searcher<G: Searched> {
    buffers: Buffers<G>,
    candidates: Vec<Candidate<G::Action>>,
    ranked: Vec<(f64, usize)>,
    unseen: G::Unseen,
    rollout: Option<G::State>,
    /// Each seat's stream in a rollout.
    seats: Vec<SeededRng>,
}

impl<G: Searched> Default for Searcher<G> {
    fn default() -> Self {
        Searcher {
            buffers: Buffers::new(12),
            candidates: Vec::new(),
            ranked: Vec::new(),
            unseen: Default::default(),
            rollout: None,
            seats: Vec::new(),
        }
    }
}

/// The seed of rollout `j` of a decision seeded `base`.
fn rollout_seed(base: u64, j: u64) -> u64 {
    (base ^ 0x5DEE_CE66_D1CE_5EED).wrapping_add(j.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

impl<G: Searched> Searcher<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Plays rollout `j` of `action` for `seat` from `state`: the value and
    /// the seat's final score. `action` must be legal at `state`.
    ///
    /// The action is applied to the real table first, then what the seat
    /// cannot see is drawn: the draw then knows what the seat knew when it
    /// acted (in a physical Summertime game, that the card it plays from
    /// its unseen dealt cards is in its hand), so an action legal at
    /// `state` is never refused by a sample.
    pub fn rollout(
        &mut self,
        state: &G::State,
        seat: usize,
        action: G::Action,
        base: u64,
        j: u64,
    ) -> (f64, f64) {
        // Rollout j of every candidate draws the same sample and the same
        // dice (the table's stream), whatever its bots draw (their own).
        let seed = rollout_seed(base, j);
        let mut chance = SeededRng::new(seed);
        let mut order = SeededRng::new(seed ^ 0x0B07_5EED_0B07_5EED);
        let table = self.rollout.get_or_insert_with(|| state.clone());
        table.clone_from(state);
        G::apply_action(table, action)
            .expect("a candidate is legal at the table it was chosen from");
        G::resample(table, seat, &mut self.unseen, &mut chance);
        let players = G::player_count(table);
        self.seats.clear();
        self.seats.extend(
            (0..players as u64)
                .map(|p| SeededRng::new(seed ^ (p + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))),
        );
        playout::<G>(
            table,
            &mut chance,
            &mut order,
            &mut self.seats,
            &mut self.buffers,
        );
        (G::value(table, seat), G::total(table, seat) as f64)
    }

    /// Adds `count` rollouts to candidate `c`, continuing its numbering so
    /// that candidates with as many rollouts have seen the same futures.
    fn extend(&mut self, state: &G::State, seat: usize, c: usize, base: u64, count: u64) {
        let action = self.candidates[c].action;
        let from = self.candidates[c].rollouts();
        for j in from..from + count {
            let (value, score) = self.rollout(state, seat, action, base, j);
            self.candidates[c].value.add(value);
            self.candidates[c].score.add(score);
        }
    }

    /// The candidates of `seat`: its legal actions, best first by the
    /// greedy bot's value, at most `keep`.
    fn rank(&mut self, state: &mut G::State, seat: usize, keep: usize) {
        G::options(state, seat, &mut self.buffers.options);
        let before = G::total(state, seat);
        self.ranked.clear();
        for (i, &action) in self.buffers.options.iter().enumerate() {
            let value = G::total_after(state, action).map_or(f64::MIN, |after| {
                (after - before) as f64 + G::heuristic(state, action)
            });
            self.ranked.push((value, i));
        }
        // Stable: equal values keep the order of the legal actions.
        self.ranked
            .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        self.ranked.truncate(keep.max(1));
        self.candidates.clear();
        for (greedy_rank, &(_, i)) in self.ranked.iter().enumerate() {
            self.candidates.push(Candidate {
                action: self.buffers.options[i],
                greedy_rank,
                value: Moments::default(),
                score: Moments::default(),
            });
        }
    }

    /// The search bot's decision for `seat` with a budget of `rollouts`,
    /// drawing from `rng`. `state` is left as it was.
    pub fn choose(
        &mut self,
        state: &mut G::State,
        seat: usize,
        rollouts: u32,
        rng: &mut SeededRng,
    ) -> G::Action {
        let base = rng.next_u64();
        self.search(state, seat, rollouts, base);
        self.candidates[0].action
    }

    /// Runs the search and leaves the candidates it looked at in
    /// [`Searcher::candidates`], the chosen one first, then by how far each
    /// got and its mean value.
    pub fn search(&mut self, state: &mut G::State, seat: usize, rollouts: u32, base: u64) {
        let budget = u64::from(rollouts.max(1));
        self.rank(state, seat, (budget / 2).max(2) as usize);
        let mut alive = self.candidates.len();
        if alive == 1 {
            return;
        }
        let rounds = usize::BITS - (alive - 1).leading_zeros();
        let per_round = budget / u64::from(rounds);
        while alive > 1 {
            let each = (per_round / alive as u64).max(1);
            for c in 0..alive {
                self.extend(state, seat, c, base, each);
            }
            // Best mean first; the greedy rank breaks ties.
            self.candidates[..alive].sort_by(|a, b| {
                b.mean()
                    .partial_cmp(&a.mean())
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(a.greedy_rank.cmp(&b.greedy_rank))
            });
            alive = alive.div_ceil(2);
        }
    }

    /// The candidates of the last search.
    pub fn candidates(&self) -> &[Candidate<G::Action>] {
        &self.candidates
    }

    /// `actions` each played `rollouts` times on the same futures (the
    /// same `base`): each one's values and scores, rollout by rollout, so
    /// that any two of them compare on those futures ([`Measured`]).
    pub fn evaluate(
        &mut self,
        state: &G::State,
        seat: usize,
        actions: &[G::Action],
        rollouts: u32,
        base: u64,
    ) -> Measured {
        let n = u64::from(rollouts.max(1));
        let mut values = vec![Vec::with_capacity(n as usize); actions.len()];
        let mut scores = vec![Moments::default(); actions.len()];
        for (i, &action) in actions.iter().enumerate() {
            for j in 0..n {
                let (value, score) = self.rollout(state, seat, action, base, j);
                values[i].push(value);
                scores[i].add(score);
            }
        }
        Measured { values, scores }
    }
}

/// Actions played out on the same futures by [`Searcher::evaluate`]: each
/// one's value at every rollout, and its scores.
#[derive(Clone, Debug)]
pub struct Measured {
    values: Vec<Vec<f64>>,
    scores: Vec<Moments>,
}

impl Measured {
    /// Action `i`'s estimates, and its value minus action `reference`'s,
    /// rollout by rollout: the difference of their exact sums over the
    /// rollouts, so that two actions that sum the same differ by exactly
    /// 0, never by a rounding below it, with the interval of the
    /// differences around it.
    pub fn against(&self, i: usize, reference: usize) -> Evaluation {
        let mut value = Moments::default();
        let mut gap = Moments::default();
        for (&x, &other) in self.values[i].iter().zip(&self.values[reference]) {
            value.add(x);
            gap.add(x - other);
        }
        let mut against_first = gap.estimate();
        let n = self.values[i].len();
        if n > 0 {
            let exact = (self.total(i) - self.total(reference)) / n as f64;
            let shift = exact - against_first.estimate;
            against_first = Estimate {
                estimate: exact,
                ci95: against_first.ci95.map(|end| end + shift),
            };
        }
        Evaluation {
            value: value.estimate(),
            score: self.scores[i].estimate(),
            against_first,
            rollouts: n as u64,
        }
    }

    /// The sum of action `i`'s values over the rollouts: exact, as every
    /// value is a whole number of points, so that which of two actions
    /// measured better never turns on rounding.
    pub fn total(&self, i: usize) -> f64 {
        self.values[i].iter().sum()
    }

    /// Of the actions at `among`, the one that measured best (the highest
    /// [`Measured::total`]), the earlier on a tie; none when `among` is
    /// empty.
    pub fn best_of(&self, among: impl IntoIterator<Item = usize>) -> Option<usize> {
        among.into_iter().fold(None, |best, i| match best {
            Some(b) if self.total(b) >= self.total(i) => Some(b),
            _ => Some(i),
        })
    }
}

/// One action's estimates from [`Searcher::evaluate`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    pub value: Estimate,
    /// The seat's expected final score.
    pub score: Estimate,
    /// This action's value minus the reference action's (the first one
    /// measured, unless another is named), on the same futures.
    pub against_first: Estimate,
    pub rollouts: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::Ratio;

    /// Given random whole-number values of a few actions on shared futures,
    /// when the best and each margin are read from [`Measured`], then they
    /// are what a plain count gives in exact arithmetic: the highest sum,
    /// the earlier on a tie, and every margin against it at least 0.
    #[test]
    fn the_best_measured_and_its_margins_agree_with_exact_sums() {
        let mut rng = SeededRng::new(7);
        for case in 0..400 {
            let actions = 1 + rng.below(4) as usize;
            let n = 1 + rng.below(12) as usize;
            let spread = 1 + rng.below(40) as i64;
            let values: Vec<Vec<i64>> = (0..actions)
                .map(|_| {
                    (0..n)
                        .map(|_| rng.below(spread as u64) as i64 - spread / 2)
                        .collect()
                })
                .collect();
            let measured = Measured {
                values: (values.iter())
                    .map(|v| v.iter().map(|&x| x as f64).collect())
                    .collect(),
                scores: vec![Moments::default(); actions],
            };
            // The plain way: exact sums, the first of the highest.
            let sums: Vec<i64> = values.iter().map(|v| v.iter().sum()).collect();
            let top = *sums.iter().max().unwrap();
            let plain = sums.iter().position(|&s| s == top).unwrap();
            let best = measured.best_of(0..actions).unwrap();
            assert_eq!(best, plain, "case {case}: {values:?}");
            for other in 0..actions {
                let gap = measured.against(best, other).against_first.estimate;
                let exact = Ratio::new(sums[best] - sums[other], n as i64);
                let close = (gap - *exact.numer() as f64 / *exact.denom() as f64).abs() < 1e-9;
                assert!(close, "case {case}: {gap} against {exact}");
                assert!(gap >= 0.0, "case {case}: the best measured below {other}");
                if sums[best] == sums[other] {
                    assert_eq!(gap, 0.0, "case {case}: a tie is exactly 0");
                }
            }
        }
    }
}
