//! The score distribution of a batch, added to game by game in flat memory.
//!
//! Every seat's final score falls in a bucket of one width. Each bucket's
//! figure is, per game, the share of the seats whose score falls in it, so
//! that its interval (and, paired, the interval of B − A) follows the rule
//! of every other figure.
//!
//! The width is the game's own ([`width_for`]: 5 points for a 62 Soleils
//! sheet, 10 for a Summertime deck), so that a figure's id
//! (`score_share.FROM`) is the same for a sheet whatever the seed, the bots
//! or the number of games. (It was once picked from the range of the first
//! [`FIX_AFTER`] games, which a seed could change; that range is still
//! kept, so that partial reports keep their format.) Every game is added at
//! every width of [`WIDTHS`], as exact [`Sums`], so that any run of games
//! can be tallied apart and merged (a worker thread's share, a shard on
//! another machine). A game adds nothing to a bucket it has no score in, so a
//! bucket's sums are those of its games' shares with zeros wherever it was
//! not met.

use crate::stats::metric::{Estimate, Metric, Section, Unit};
use crate::stats::sums::Sums;
use crate::workbench::figures::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Games whose range fixes the bucket width.
pub const FIX_AFTER: u64 = 512;

/// Every width a distribution may take, narrowest first: the first with at
/// most 12 buckets over the range of the first [`FIX_AFTER`] games.
const WIDTHS: [i64; 12] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10_000];

/// The bucket width of a game's score distribution, by the kind of its
/// variant (`sheet` for 62 Soleils, `deck` for Summertime): fixed, so that
/// the figures' ids are stable.
pub fn width_for(kind: &str) -> i64 {
    match kind {
        "deck" => 10,
        _ => 5,
    }
}

/// One bucket's sums; each [`Sums`] counts no games, the distribution does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bucket {
    a: Sums,
    b: Sums,
    difference: Sums,
    count_a: u64,
    count_b: u64,
}

impl Bucket {
    fn merge(&mut self, other: &Bucket) {
        self.a.merge(&other.a);
        self.b.merge(&other.b);
        self.difference.merge(&other.difference);
        self.count_a += other.count_a;
        self.count_b += other.count_b;
    }
}

/// One variant's distribution, or two variants' side by side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Distribution {
    paired: bool,
    games: u64,
    /// The lowest and highest score (A's or B's) of the games numbered
    /// below [`FIX_AFTER`] that were added.
    early: Option<[i64; 2]>,
    /// Per width of [`WIDTHS`], the buckets by number: a score `s` falls in
    /// `s.div_euclid(width)`.
    widths: Vec<BTreeMap<i64, Bucket>>,
    /// Reused per game: A's scores and B's, sorted.
    #[serde(skip)]
    sorted: (Vec<i64>, Vec<i64>),
}

/// One row of the distribution: its figure and its estimates.
pub struct BucketRow {
    pub metric: Metric,
    pub a: Estimate,
    pub b: Option<Estimate>,
    pub difference: Option<Estimate>,
    /// The difference's two-sided p-value, from its interval.
    pub p_value: Option<f64>,
}

impl Distribution {
    pub fn new(paired: bool) -> Self {
        Distribution {
            paired,
            games: 0,
            early: None,
            widths: vec![BTreeMap::new(); WIDTHS.len()],
            sorted: (Vec::new(), Vec::new()),
        }
    }

    /// Adds game `i`'s scores: A's, and B's in a comparison.
    pub fn add(&mut self, i: u64, a: &[i64], b: Option<&[i64]>) {
        let b = b.unwrap_or(&[]);
        if i < FIX_AFTER {
            for &s in a.iter().chain(b) {
                let [lo, hi] = self.early.get_or_insert([s, s]);
                *lo = (*lo).min(s);
                *hi = (*hi).max(s);
            }
        }
        let (na, nb) = (a.len().max(1) as f64, b.len().max(1) as f64);
        // Sorted, each width's buckets come in order, each in one run.
        let (sa, sb) = (&mut self.sorted.0, &mut self.sorted.1);
        sa.clear();
        sa.extend_from_slice(a);
        sa.sort_unstable();
        sb.clear();
        sb.extend_from_slice(b);
        sb.sort_unstable();
        for (&width, buckets) in WIDTHS.iter().zip(&mut self.widths) {
            let (mut i, mut j) = (0, 0);
            while i < sa.len() || j < sb.len() {
                let k = match (sa.get(i), sb.get(j)) {
                    (Some(x), Some(y)) => x.div_euclid(width).min(y.div_euclid(width)),
                    (Some(x), None) => x.div_euclid(width),
                    (None, Some(y)) => y.div_euclid(width),
                    (None, None) => break,
                };
                let from = (i, j);
                while sa.get(i).is_some_and(|s| s.div_euclid(width) == k) {
                    i += 1;
                }
                while sb.get(j).is_some_and(|s| s.div_euclid(width) == k) {
                    j += 1;
                }
                let (ca, cb) = ((i - from.0) as u64, (j - from.1) as u64);
                let bucket = buckets.entry(k).or_default();
                let share_a = ca as f64 / na;
                bucket.a.add_uncounted(share_a);
                bucket.count_a += ca;
                if self.paired {
                    let share_b = cb as f64 / nb;
                    bucket.b.add_uncounted(share_b);
                    bucket.difference.add_uncounted(share_b - share_a);
                    bucket.count_b += cb;
                }
            }
        }
        self.games += 1;
    }

    /// Adds another run of games' distribution to this one.
    pub fn merge(&mut self, other: &Distribution) {
        self.games += other.games;
        if let Some([lo, hi]) = other.early {
            let [a, b] = self.early.get_or_insert([lo, hi]);
            *a = (*a).min(lo);
            *b = (*b).max(hi);
        }
        for (mine, theirs) in self.widths.iter_mut().zip(&other.widths) {
            for (&k, bucket) in theirs {
                mine.entry(k).or_default().merge(bucket);
            }
        }
    }

    /// Whether `other` is a distribution of the same kind, with every width.
    pub fn fits(&self, other: &Distribution) -> bool {
        self.paired == other.paired && self.widths.len() == other.widths.len()
    }

    /// The rows, lowest scores first, with a bucket of `width` points (one
    /// of [`WIDTHS`]; see [`width_for`]) for every step between the lowest
    /// and the highest score seen, and the histogram.
    pub fn finish(self, width: i64) -> (Vec<BucketRow>, Histogram) {
        let index = WIDTHS.iter().position(|&w| w == width).unwrap_or(2);
        let width = WIDTHS[index];
        let mut buckets = self.widths.into_iter().nth(index).unwrap_or_default();
        if let (Some(&first), Some(&last)) = (buckets.keys().next(), buckets.keys().next_back()) {
            for k in first..=last {
                buckets.entry(k).or_default();
            }
        }
        let label = |from: i64| {
            let to = from + width - 1;
            if width == 1 {
                format!("score {from}")
            } else if from < 0 {
                format!("scores {from} to {to}")
            } else {
                format!("scores {from}–{to}")
            }
        };
        let games = self.games;
        let rows = buckets
            .iter()
            .map(|(&k, bucket)| {
                let from = k * width;
                BucketRow {
                    metric: Metric::new(
                        format!("score_share.{from}"),
                        Section::Distribution,
                        label(from),
                        Unit::Share,
                    ),
                    a: bucket.a.with_count(games).share(),
                    b: self.paired.then(|| bucket.b.with_count(games).share()),
                    difference: self.paired.then(|| {
                        crate::stats::sums::paired_shares(
                            &bucket.a.with_count(games),
                            &bucket.b.with_count(games),
                            &bucket.difference.with_count(games),
                        )
                    }),
                    p_value: self.paired.then(|| {
                        crate::stats::sums::paired_shares_p_value(
                            &bucket.a.with_count(games),
                            &bucket.b.with_count(games),
                            &bucket.difference.with_count(games),
                        )
                    }),
                }
            })
            .collect();
        let histogram = Histogram {
            width,
            from: buckets.keys().map(|k| k * width).collect(),
            a: buckets.values().map(|b| b.count_a).collect(),
            b: self
                .paired
                .then(|| buckets.values().map(|b| b.count_b).collect()),
        };
        (rows, histogram)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streaming past the held games gives what holding them all gives.
    #[test]
    fn a_late_bucket_starts_as_the_zeros_it_missed() {
        let games: Vec<Vec<i64>> = (0..(FIX_AFTER as i64 + 300))
            .map(|i| vec![i % 7, 3 + i % 5, if i > 600 { 40 } else { 2 }])
            .collect();
        let mut streamed = Distribution::new(false);
        for (i, g) in games.iter().enumerate() {
            streamed.add(i as u64, g, None);
        }
        let (rows, histogram) = streamed.finish(1);
        // Width 1 over 0..=6 from the held games; 40 arrives later.
        assert_eq!(histogram.width, 1);
        let last = rows.last().unwrap();
        assert_eq!(last.metric.id, "score_share.40");
        let mut by_hand = Sums::default();
        for g in &games {
            by_hand.add(g.iter().filter(|&&s| s == 40).count() as f64 / 3.0);
        }
        assert_eq!(last.a, by_hand.share());
        assert_eq!(histogram.a.iter().sum::<u64>(), 3 * games.len() as u64);
        // Every bucket from 0 to 40 is there, empty ones too.
        assert_eq!(rows.len(), 41);
    }

    /// Any split of the games, merged, gives what one distribution of them
    /// all gives, the width included (fixed by the first games, wherever
    /// they fall).
    #[test]
    fn split_and_merged_is_the_same_distribution() {
        let game = |i: i64| {
            (
                vec![i % 13, 40 - i % 9, 2 * (i % 5)],
                vec![i % 17, 3, 50 - i % 4],
            )
        };
        let mut whole = Distribution::new(true);
        for i in 0..700 {
            let (a, b) = game(i);
            whole.add(i as u64, &a, Some(&b));
        }
        for cut in [0, 1, 300, 511, 512, 699] {
            let (mut left, mut right) = (Distribution::new(true), Distribution::new(true));
            for i in 0..700 {
                let (a, b) = game(i);
                let part = if i < cut { &mut left } else { &mut right };
                part.add(i as u64, &a, Some(&b));
            }
            right.merge(&left);
            assert_eq!(right, whole, "cut at {cut}");
        }
        let (rows, histogram) = whole.clone().finish(5);
        assert_eq!(histogram.width, 5);
        assert_eq!(rows[0].metric.id, "score_share.0");
        // Every width a game may take is kept, whatever the games.
        assert_eq!(whole.finish(10).1.width, 10);
        assert!(rows.iter().all(|r| r.b.is_some() && r.difference.is_some()));
    }
}
