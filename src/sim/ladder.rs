//! A strength ladder: seat-rotated tables of several bots, each bot's win
//! rate and mean score, and a Bradley–Terry rating on the Elo scale.
//!
//! - **Tables.** Game `i` seats the bots by [`super::lineup`]: every bot
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

use super::metric::{Estimate, Moments};
use super::run::Bot;
use crate::rng::SeededRng;
use schemars::JsonSchema;
use serde::Serialize;

/// Bootstrap refits behind a rating's interval.
pub const BOOTSTRAP: usize = 200;

/// One game's outcome as the ladder needs it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LadderGame {
    /// Index into the ladder's bots, per seat.
    pub seats: Vec<usize>,
    pub totals: Vec<i64>,
}

/// One bot's line of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Rung {
    /// `random`, `greedy`, `search:64`.
    pub bot: String,
    /// Seats it played over all games.
    pub seats: u64,
    /// Its wins per seat played (ties share a win), over the games it
    /// played, with the 95% Wilson interval (games are the draws).
    pub win_rate: Estimate,
    /// Its mean score per seat, over the games it played.
    pub mean_score: Estimate,
    /// Its share of the matches it played against each other bot, seat
    /// against seat: the higher score wins, a tie counts half; with the
    /// 95% Wilson interval, over the games.
    pub match_share: Estimate,
    /// Bradley–Terry strength on the Elo scale, anchored at 0; the 95%
    /// interval from the bootstrap.
    pub rating: Estimate,
}

/// What `sunfold ladder` reports.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Ladder {
    /// The game, the batch's size and its seed.
    #[serde(flatten)]
    pub head: super::Head,
    /// The variant the ladder was played under.
    pub variant: super::VariantInfo,
    /// The bot rated 0.
    pub anchor: String,
    /// The bots, strongest rating first.
    pub rungs: Vec<Rung>,
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
    pub score_gap: Estimate,
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
    variant: super::VariantInfo,
    bots: &[Bot],
    games: &[LadderGame],
) -> Ladder {
    let k = bots.len();
    let anchor = bots
        .iter()
        .position(|&b| b == Bot::Random)
        .unwrap_or_else(|| {
            (0..k)
                .min_by_key(|&i| bots[i].strength())
                .expect("a ladder has bots")
        });
    let mut win_rate = vec![Moments::default(); k];
    let mut mean_score = vec![Moments::default(); k];
    let mut match_share = vec![Moments::default(); k];
    let mut seats = vec![0u64; k];
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
    let rating = bradley_terry(&wins, &played, k, anchor);
    // The bootstrap: games drawn with replacement, the model fitted again.
    let mut rng = SeededRng::new(seed ^ 0xB007_57A9_0000_0001);
    let mut refits: Vec<Vec<f64>> = vec![Vec::with_capacity(BOOTSTRAP); k];
    let per_game: Vec<(Vec<f64>, Vec<f64>)> = games
        .iter()
        .map(|g| {
            let (mut w, mut p) = (vec![0.0; k * k], vec![0.0; k * k]);
            matches(g, k, &mut w, &mut p);
            (w, p)
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
    let mut rungs: Vec<Rung> = (0..k)
        .map(|b| {
            let mut sorted = refits[b].clone();
            sorted.sort_by(f64::total_cmp);
            let ci95 = if sorted.is_empty() {
                [rating[b], rating[b]]
            } else {
                [quantile(&sorted, 0.025), quantile(&sorted, 0.975)]
            };
            Rung {
                bot: bots[b].name(),
                seats: seats[b],
                win_rate: win_rate[b].share(),
                mean_score: mean_score[b].estimate(),
                match_share: match_share[b].share(),
                rating: Estimate {
                    estimate: rating[b],
                    ci95,
                },
            }
        })
        .collect();
    rungs.sort_by(|a, b| b.rating.estimate.total_cmp(&a.rating.estimate));
    let skill = skill(bots, games);
    Ladder {
        head: super::Head {
            game,
            title,
            players,
            games: games.len() as u64,
            seed,
        },
        variant,
        anchor: bots[anchor].name(),
        rungs,
        skill,
    }
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
        score_gap: gap.estimate(),
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
