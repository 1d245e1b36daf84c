//! A strength ladder: seat-rotated tables of several bots, each bot's win
//! rate and mean score, and a Bradley–Terry rating on the Elo scale.
//!
//! - **Tables.** Game `i` seats the bots by [`crate::bots::lineup`]: every bot
//!   plays every seat equally often, and with more bots than seats every
//!   group of bots meets.
//! - **Pairwise results.** Within a game, every two seats held by different
//!   bots are one match: the higher score wins it, equal scores halve it.
//! - **Rating.** The Bradley–Terry model, P(a beats b) = γa / (γa + γb),
//!   fitted by Hunter's MM algorithm (2004) to those matches, shown on the
//!   Elo scale (400 · log₁₀ γ) with the anchor bot at 0: `random` when it
//!   plays, else the weakest listed. A difference of 200 means the stronger
//!   wins about 76% of its matches.
//! - **Intervals.** Win rates and scores: the normal interval over games.
//!   Ratings: the 2.5th and 97.5th percentiles of 200 bootstrap refits,
//!   games resampled with replacement (seeded, so the same seed gives the
//!   same interval). Matches within one game are not independent, which
//!   is why the games, not the matches, are resampled.
//! - **What a rating rests on.** A bot that won none of its matches
//!   against the others, or lost none (ties aside), has no Bradley–Terry
//!   strength that wins and losses fix: without ties the likelihood grows
//!   without end as it moves away, and only the fitting prior holds it
//!   (and, through it, every rating anchored on it). Such a bot gets no rating, its [`Record`] says why,
//!   and the others are fitted again without its matches, until every
//!   rated bot has won and lost against the rated others. The anchor is
//!   then the documented one if it is still rated, else the weakest rated
//!   bot.
//! - **A rating on few wins or losses.** A rated bot with fewer than
//!   [`FEW`] wins or fewer than [`FEW`] losses against the rated others
//!   has a finite rating, but the prior still moves it much: one loss in
//!   300 matches says "far stronger", not how far. Its rung counts them
//!   and says so ([`Rung::few`]).

use crate::bots::run::Bot;
use crate::kit::rng::SeededRng;
use crate::stats::metric::{Estimate, Moments};
use schemars::JsonSchema;
use serde::Serialize;

/// Bootstrap refits behind a rating's interval.
pub const BOOTSTRAP: usize = 200;

/// A rated bot with fewer wins, or fewer losses, than this against the
/// rated others has a rating that rests on few of them ([`Rung::few`]).
pub const FEW: u64 = 5;

/// One game's outcome as the ladder needs it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LadderGame {
    /// Index into the ladder's bots, per seat.
    pub seats: Vec<usize>,
    pub totals: Vec<i64>,
}

impl LadderGame {
    /// The game `seats` played, by the index of each seat's bot in `bots`.
    pub fn of(bots: &[Bot], seats: &[Bot], totals: Vec<i64>) -> LadderGame {
        let seats = seats
            .iter()
            .map(|s| bots.iter().position(|b| b == s).expect("a listed bot"))
            .collect();
        LadderGame { seats, totals }
    }
}

/// Refuses a ladder of fewer than two bots, or of a bot listed twice.
pub fn check_bots(bots: &[Bot]) -> Result<(), String> {
    let mut distinct = bots.to_vec();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != bots.len() || distinct.len() < 2 {
        let names: Vec<String> = bots.iter().map(|b| b.name()).collect();
        return Err(format!(
            "expected at least two different bots, each once, but found --bots {}",
            names.join(",")
        ));
    }
    Ok(())
}

/// What a bot's rating rests on. A tie is neither a win nor a loss here:
/// a bot that only drew where it did not lose would be rated by its ties
/// and the prior, not by its wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Record {
    /// It won and lost matches against the other rated bots: its rating
    /// rests on games.
    WinsAndLosses,
    /// It won none of its matches against the bots still rated (ties
    /// aside): its rating would rest on the prior and its ties alone.
    NeverWon,
    /// It lost none of its matches against the bots still rated (ties
    /// aside): its rating would rest on the prior and its ties alone.
    NeverLost,
    /// It met none of the bots still rated.
    NoMatches,
}

/// Why a figure of the ladder has no spread to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exact {
    /// The anchor's rating: 0 by the scale's definition, in every refit.
    Anchor,
    /// The figure was the same in every game (or every refit), so its
    /// interval has no width.
    SameInEveryGame,
}

/// A figure of the ladder with its 95% interval, and in words when that
/// interval has no width, so that a zero-width `ci95` is never bare.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Figure {
    #[serde(flatten)]
    pub value: Estimate,
    /// Why the interval has no width: `anchor` or `same_in_every_game`;
    /// absent when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
}

impl Figure {
    /// `value`, marked the same in every game when its interval has no
    /// width.
    pub fn of(value: Estimate) -> Figure {
        let same = value.ci95[0] == value.ci95[1];
        Figure {
            value,
            exact: same.then_some(Exact::SameInEveryGame),
        }
    }
}

impl std::ops::Deref for Figure {
    type Target = Estimate;
    fn deref(&self) -> &Estimate {
        &self.value
    }
}

/// The rating gap between two neighbours of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Gap {
    pub stronger: String,
    pub weaker: String,
    /// The stronger's rating minus the weaker's, with the 95% interval of
    /// that difference over the bootstrap refits: each refit draws the
    /// same games for both, so the gap is paired, and its interval is
    /// narrower than the two ratings' intervals side by side suggest.
    pub rating_gap: Figure,
}

/// One bot's line of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Rung {
    /// `random`, `greedy`, `search:64`.
    pub bot: String,
    /// Games it sat at.
    pub games: u64,
    /// Seats it played over all games (more than its games where it held
    /// several seats of one game).
    pub seats: u64,
    /// Its wins per seat played (ties share a win), over the games it
    /// played, with the 95% Wilson interval (games are the draws).
    pub win_rate: Estimate,
    /// Its mean score per seat, over the games it played.
    pub mean_score: Figure,
    /// Its share of the matches it played against each other bot, seat
    /// against seat: the higher score wins, a tie counts half; with the
    /// 95% Wilson interval, over the games.
    pub match_share: Estimate,
    /// What its rating rests on: wins and losses, or why it has none.
    pub record: Record,
    /// Its matches won outright against the rated bots other than itself
    /// (a tie is neither a win nor a loss).
    pub wins: u64,
    /// Its matches lost outright against the rated bots other than itself.
    pub losses: u64,
    /// It is rated, but on fewer than 5 wins or fewer than 5 losses: the
    /// fitting prior still moves its rating much, so that the figure and
    /// its interval say which side of the others it is on, not how far.
    pub few: bool,
    /// Bradley–Terry strength on the Elo scale, anchored at 0; the 95%
    /// interval from the bootstrap. `null` when no finite rating fits its
    /// games (see `record`). The anchor's says `"exact": "anchor"`.
    pub rating: Option<Figure>,
}

/// What `sunfold ladder` reports.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Ladder {
    /// The game, the batch's size and its seed.
    #[serde(flatten)]
    pub head: crate::workbench::Head,
    /// The variant the ladder was played under.
    pub variant: crate::bots::VariantInfo,
    /// The bot rated 0; `null` when no bot has a finite rating.
    pub anchor: Option<String>,
    /// The bots, strongest first: those that never lost, the rated ones by
    /// rating, those that never won.
    pub rungs: Vec<Rung>,
    /// The rating gap between each two neighbouring rated bots, in the
    /// order of `rungs`: the stronger's rating minus the weaker's, paired
    /// over the bootstrap refits.
    pub gaps: Vec<Gap>,
    /// Skill against luck: the strongest listed bot against the weakest,
    /// seat against seat, in the games where both played.
    pub skill: Skill,
}

/// How much the outcome follows skill, for one batch.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Skill {
    pub strongest: String,
    pub weakest: String,
    /// The strongest bot's share of its matches against the weakest (a tie
    /// counts half): 50% when luck decides everything, 100% when skill
    /// does; with the 95% Wilson interval, over the games.
    pub win_share: Estimate,
    /// The strongest bot's mean score minus the weakest's, per game where
    /// both played.
    pub score_gap: Figure,
}

/// The matches of one game: for each pair of bots (a, b), a's points
/// against b (1 a win, 0.5 a tie) and the matches played.
fn matches(game: &LadderGame, k: usize, wins: &mut [f64], played: &mut [f64]) {
    for (i, &a) in game.seats.iter().enumerate() {
        for (j, &b) in game.seats.iter().enumerate() {
            if a == b || i == j {
                continue;
            }
            played[a * k + b] += 1.0;
            wins[a * k + b] += match game.totals[i].cmp(&game.totals[j]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
    }
}

/// Bradley–Terry log-strengths by Hunter's MM iterations, with a small
/// prior (one drawn match against a virtual average bot) so that a bot that
/// wins or loses everything keeps a finite rating. `anchor` gets 0.
fn bradley_terry(wins: &[f64], played: &[f64], k: usize, anchor: usize) -> Vec<f64> {
    let mut gamma = vec![1.0; k];
    for _ in 0..500 {
        let mut next = vec![0.0; k];
        let mut change: f64 = 0.0;
        for a in 0..k {
            let won: f64 = (0..k).map(|b| wins[a * k + b]).sum::<f64>() + 0.5;
            let mut denominator = 1.0 / (gamma[a] + 1.0);
            for b in 0..k {
                let n = played[a * k + b];
                if n > 0.0 {
                    denominator += n / (gamma[a] + gamma[b]);
                }
            }
            next[a] = won / denominator;
        }
        // Scale so the geometric mean is 1: the model fixes only ratios.
        let mean = (next.iter().map(|g: &f64| g.ln()).sum::<f64>() / k as f64).exp();
        for a in 0..k {
            next[a] /= mean;
            change = change.max((next[a].ln() - gamma[a].ln()).abs());
        }
        gamma = next;
        if change < 1e-10 {
            break;
        }
    }
    let zero = gamma[anchor].log10();
    gamma.iter().map(|g| 400.0 * (g.log10() - zero)).collect()
}

/// The `q`-th quantile of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
}

/// The ladder of `bots` over `games`. `seed` drives the bootstrap.
pub fn ladder(
    game: &'static str,
    title: &'static str,
    players: usize,
    seed: u64,
    variant: crate::bots::VariantInfo,
    bots: &[Bot],
    games: &[LadderGame],
) -> Ladder {
    let k = bots.len();
    let mut win_rate = vec![Moments::default(); k];
    let mut mean_score = vec![Moments::default(); k];
    let mut match_share = vec![Moments::default(); k];
    let (mut seats, mut sat) = (vec![0u64; k], vec![0u64; k]);
    let (mut wins, mut played) = (vec![0.0; k * k], vec![0.0; k * k]);
    let (mut w, mut p) = (vec![0.0; k * k], vec![0.0; k * k]);
    for g in games {
        let best = g.totals.iter().copied().max().unwrap_or(0);
        let winners = g.totals.iter().filter(|&&t| t == best).count() as f64;
        w.iter_mut().for_each(|x| *x = 0.0);
        p.iter_mut().for_each(|x| *x = 0.0);
        matches(g, k, &mut w, &mut p);
        for b in 0..k {
            let (mut share, mut score, mut n) = (0.0, 0.0, 0.0);
            for (s, &bot) in g.seats.iter().enumerate() {
                if bot == b {
                    share += if g.totals[s] == best {
                        1.0 / winners
                    } else {
                        0.0
                    };
                    score += g.totals[s] as f64;
                    n += 1.0;
                }
            }
            if n > 0.0 {
                seats[b] += n as u64;
                sat[b] += 1;
                win_rate[b].add(share / n);
                mean_score[b].add(score / n);
            }
            let (won, of): (f64, f64) =
                (0..k).fold((0.0, 0.0), |(x, y), o| (x + w[b * k + o], y + p[b * k + o]));
            if of > 0.0 {
                match_share[b].add(won / of);
            }
        }
        for i in 0..k * k {
            wins[i] += w[i];
            played[i] += p[i];
        }
    }
    let mut beat = vec![0.0; k * k];
    for g in games {
        for (i, &a) in g.seats.iter().enumerate() {
            for (j, &b) in g.seats.iter().enumerate() {
                if a != b && g.totals[i] > g.totals[j] {
                    beat[a * k + b] += 1.0;
                }
            }
        }
    }
    let records = records(&beat, &played, k);
    let rated: Vec<bool> = records
        .iter()
        .map(|&r| r == Record::WinsAndLosses)
        .collect();
    // Wins and losses against the rated bots, itself aside.
    let count = |a: usize, of: &dyn Fn(usize, usize) -> f64| -> u64 {
        (0..k)
            .filter(|&b| b != a && rated[b])
            .map(|b| of(a, b))
            .sum::<f64>() as u64
    };
    let won: Vec<u64> = (0..k).map(|a| count(a, &|a, b| beat[a * k + b])).collect();
    let lost: Vec<u64> = (0..k).map(|a| count(a, &|a, b| beat[b * k + a])).collect();
    let anchor = anchor(bots, &rated);
    let fitted = anchor.map(|anchor| ratings(seed, k, anchor, &rated, games, &wins, &played));
    let rungs: Vec<Rung> = (0..k)
        .map(|b| Rung {
            bot: bots[b].name(),
            games: sat[b],
            seats: seats[b],
            win_rate: win_rate[b].share(),
            mean_score: Figure::of(mean_score[b].estimate()),
            match_share: match_share[b].share(),
            record: records[b],
            wins: won[b],
            losses: lost[b],
            few: rated[b] && won[b].min(lost[b]) < FEW,
            rating: fitted
                .as_ref()
                .and_then(|(r, _)| r[b])
                .map(|value| match anchor {
                    Some(a) if a == b => Figure {
                        value,
                        exact: Some(Exact::Anchor),
                    },
                    _ => Figure::of(value),
                }),
        })
        .collect();
    // Those that never lost on top, then by rating, those that never won
    // at the bottom; within each, by their share of the matches.
    let rank = |r: &Rung| match r.record {
        Record::NeverLost => 0,
        Record::WinsAndLosses => 1,
        Record::NeverWon => 2,
        Record::NoMatches => 3,
    };
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&rungs[a], &rungs[b]);
        rank(a)
            .cmp(&rank(b))
            .then_with(|| {
                let value = |r: &Rung| r.rating.map_or(f64::NEG_INFINITY, |e| e.estimate);
                value(b).total_cmp(&value(a))
            })
            .then_with(|| b.match_share.estimate.total_cmp(&a.match_share.estimate))
    });
    let gaps = fitted.map_or_else(Vec::new, |(ratings, refits)| {
        let rated: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&b| ratings[b].is_some())
            .collect();
        (rated.windows(2))
            .map(|pair| Gap {
                stronger: bots[pair[0]].name(),
                weaker: bots[pair[1]].name(),
                rating_gap: paired_gap(&ratings, &refits, pair[0], pair[1]),
            })
            .collect()
    });
    let mut slots: Vec<Option<Rung>> = rungs.into_iter().map(Some).collect();
    let rungs = order.iter().filter_map(|&b| slots[b].take()).collect();
    let skill = skill(bots, games);
    Ladder {
        head: crate::workbench::Head {
            game,
            title,
            players,
            games: games.len() as u64,
            seed,
        },
        variant,
        anchor: anchor.map(|a| bots[a].name()),
        rungs,
        gaps,
        skill,
    }
}

/// Bot `a`'s rating minus bot `b`'s, with the 2.5th and 97.5th
/// percentiles of that difference over the bootstrap refits (the same
/// refit for both: the games each draws are the same).
fn paired_gap(ratings: &[Option<Estimate>], refits: &[Vec<f64>], a: usize, b: usize) -> Figure {
    let of = |x: usize| ratings[x].map_or(0.0, |e| e.estimate);
    let estimate = of(a) - of(b);
    let mut sorted: Vec<f64> = refits[a]
        .iter()
        .zip(&refits[b])
        .map(|(x, y)| x - y)
        .collect();
    sorted.sort_by(f64::total_cmp);
    let ci95 = if sorted.is_empty() {
        [estimate, estimate]
    } else {
        [quantile(&sorted, 0.025), quantile(&sorted, 0.975)]
    };
    Figure::of(Estimate { estimate, ci95 })
}

/// Each bot's record against the bots still rated, from `beat` (a's
/// matches won outright against b; a tie is neither won nor lost): bots
/// that never won or never lost are set aside, and the others' records
/// taken again without their matches, until every bot left has won and
/// lost.
fn records(beat: &[f64], played: &[f64], k: usize) -> Vec<Record> {
    let mut records = vec![Record::WinsAndLosses; k];
    loop {
        let rated = |b: usize| records[b] == Record::WinsAndLosses;
        let next: Vec<Record> = (0..k)
            .map(|a| {
                if !rated(a) {
                    return records[a];
                }
                let (won, lost, of) =
                    (0..k)
                        .filter(|&b| rated(b))
                        .fold((0.0, 0.0, 0.0), |(x, y, z), b| {
                            (
                                x + beat[a * k + b],
                                y + beat[b * k + a],
                                z + played[a * k + b],
                            )
                        });
                if of == 0.0 {
                    Record::NoMatches
                } else if won == 0.0 {
                    Record::NeverWon
                } else if lost == 0.0 {
                    Record::NeverLost
                } else {
                    Record::WinsAndLosses
                }
            })
            .collect();
        if next == records {
            return records;
        }
        records = next;
    }
}

/// The bot rated 0: `random` when it is rated, else the weakest rated bot
/// by the documented order; none when no bot is rated.
fn anchor(bots: &[Bot], rated: &[bool]) -> Option<usize> {
    (0..bots.len())
        .filter(|&b| rated[b])
        .min_by_key(|&b| (bots[b] != Bot::Random, bots[b].strength()))
}

/// The rated bots' ratings with their bootstrap intervals, `None` for the
/// others, and each bot's rating in every refit, refit by refit. Only
/// matches between rated bots enter the fit.
fn ratings(
    seed: u64,
    k: usize,
    anchor: usize,
    rated: &[bool],
    games: &[LadderGame],
    wins: &[f64],
    played: &[f64],
) -> (Vec<Option<Estimate>>, Vec<Vec<f64>>) {
    let keep = |v: &[f64]| -> Vec<f64> {
        (0..k * k)
            .map(|i| {
                if rated[i / k] && rated[i % k] {
                    v[i]
                } else {
                    0.0
                }
            })
            .collect()
    };
    let rating = bradley_terry(&keep(wins), &keep(played), k, anchor);
    // The bootstrap: games drawn with replacement, the model fitted again.
    let mut rng = SeededRng::new(seed ^ 0xB007_57A9_0000_0001);
    let mut refits: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP); k];
    let per_game: Vec<(Vec<f64>, Vec<f64>)> = games
        .iter()
        .map(|g| {
            let (mut w, mut p) = (vec![0.0; k * k], vec![0.0; k * k]);
            matches(g, k, &mut w, &mut p);
            (keep(&w), keep(&p))
        })
        .collect();
    if !games.is_empty() {
        for _ in 0..BOOTSTRAP {
            let (mut bw, mut bp) = (vec![0.0; k * k], vec![0.0; k * k]);
            for _ in 0..games.len() {
                let (w, p) = &per_game[rng.below(games.len() as u64) as usize];
                for i in 0..k * k {
                    bw[i] += w[i];
                    bp[i] += p[i];
                }
            }
            for (b, r) in bradley_terry(&bw, &bp, k, anchor).into_iter().enumerate() {
                refits[b].push(r);
            }
        }
    }
    let ratings = (0..k)
        .map(|b| {
            rated[b].then(|| {
                let mut sorted = refits[b].clone();
                sorted.sort_by(f64::total_cmp);
                let ci95 = if sorted.is_empty() {
                    [rating[b], rating[b]]
                } else {
                    [quantile(&sorted, 0.025), quantile(&sorted, 0.975)]
                };
                Estimate {
                    estimate: rating[b],
                    ci95,
                }
            })
        })
        .collect();
    (ratings, refits)
}

/// The strongest listed bot against the weakest, by their documented
/// order (random, greedy, search by budget).
fn skill(bots: &[Bot], games: &[LadderGame]) -> Skill {
    let strongest = (0..bots.len())
        .max_by_key(|&i| bots[i].strength())
        .unwrap_or(0);
    let weakest = (0..bots.len())
        .min_by_key(|&i| bots[i].strength())
        .unwrap_or(0);
    let (mut share, mut gap) = (Moments::default(), Moments::default());
    for g in games {
        let (mut beats, mut pairs) = (0.0, 0.0);
        let (mut strong, mut ns, mut weak, mut nw) = (0.0, 0.0, 0.0, 0.0);
        for (i, &a) in g.seats.iter().enumerate() {
            if a == strongest {
                strong += g.totals[i] as f64;
                ns += 1.0;
            }
            if a == weakest {
                weak += g.totals[i] as f64;
                nw += 1.0;
            }
            for (j, &b) in g.seats.iter().enumerate() {
                if a == strongest && b == weakest && i != j {
                    pairs += 1.0;
                    beats += match g.totals[i].cmp(&g.totals[j]) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                }
            }
        }
        if pairs > 0.0 && strongest != weakest {
            share.add(beats / pairs);
            gap.add(strong / ns - weak / nw);
        }
    }
    Skill {
        strongest: bots[strongest].name(),
        weakest: bots[weakest].name(),
        win_share: share.share(),
        score_gap: Figure::of(gap.estimate()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bradley_terry_recovers_a_known_strength() {
        // a beats b 3 times in 4: γa / (γa + γb) = 3/4, so γa = 3 γb and
        // the rating gap is 400 · log10(3) ≈ 191 (a little less: the prior).
        let k = 2;
        let wins = vec![0.0, 300.0, 100.0, 0.0];
        let played = vec![0.0, 400.0, 400.0, 0.0];
        let r = bradley_terry(&wins, &played, k, 1);
        assert_eq!(r[1], 0.0);
        assert!((r[0] - 190.8).abs() < 1.0, "{r:?}");
    }

    #[test]
    fn seats_held_by_one_bot_are_no_match() {
        let game = LadderGame {
            seats: vec![0, 0, 1],
            totals: vec![5, 3, 4],
        };
        let (mut w, mut p) = (vec![0.0; 4], vec![0.0; 4]);
        matches(&game, 2, &mut w, &mut p);
        assert_eq!(p, vec![0.0, 2.0, 2.0, 0.0]);
        assert_eq!(w, vec![0.0, 1.0, 1.0, 0.0]);
    }
}
