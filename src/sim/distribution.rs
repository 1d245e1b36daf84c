//! The score distribution of a batch, added to game by game in flat memory.
//!
//! Every seat's final score falls in a bucket of one width. Each bucket's
//! figure is, per game, the share of the seats whose score falls in it, so
//! that its interval (and, paired, the interval of B − A) follows the rule
//! of every other figure.
//!
//! The width is fixed from the first [`FIX_AFTER`] games (at most 12
//! buckets over their range), which are held until then; later games only
//! update running moments. A bucket first met at game `k` starts as `k`
//! zeros, which is exactly what adding those games' zero shares would have
//! given, so the result does not depend on when a bucket was met.

use super::metric::{Estimate, Metric, Moments, Section, Unit};
use super::report::Histogram;
use std::collections::BTreeMap;

/// Games held before the bucket width is fixed.
pub const FIX_AFTER: usize = 512;

#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    a: Moments,
    b: Moments,
    difference: Moments,
    count_a: u64,
    count_b: u64,
}

impl Bucket {
    fn zeros(games: u64) -> Self {
        Bucket {
            a: Moments::zeros(games),
            b: Moments::zeros(games),
            difference: Moments::zeros(games),
            ..Bucket::default()
        }
    }
}

/// One variant's distribution, or two variants' side by side.
pub struct Distribution {
    paired: bool,
    held: Vec<(Vec<i64>, Vec<i64>)>,
    /// 0 until fixed.
    width: i64,
    games: u64,
    /// By bucket number: a score `s` falls in `s.div_euclid(width)`.
    buckets: BTreeMap<i64, Bucket>,
}

/// One row of the distribution: its figure and its estimates.
pub struct BucketRow {
    pub metric: Metric,
    pub a: Estimate,
    pub b: Option<Estimate>,
    pub difference: Option<Estimate>,
}

fn share(scores: &[i64], width: i64, bucket: i64) -> f64 {
    let n = scores
        .iter()
        .filter(|s| s.div_euclid(width) == bucket)
        .count();
    n as f64 / scores.len().max(1) as f64
}

impl Distribution {
    pub fn new(paired: bool) -> Self {
        Distribution {
            paired,
            held: Vec::new(),
            width: 0,
            games: 0,
            buckets: BTreeMap::new(),
        }
    }

    /// Adds one game's scores: A's, and B's in a comparison.
    pub fn add(&mut self, a: &[i64], b: Option<&[i64]>) {
        if self.width == 0 {
            self.held
                .push((a.to_vec(), b.map_or_else(Vec::new, <[i64]>::to_vec)));
            if self.held.len() == FIX_AFTER {
                self.fix();
            }
        } else {
            self.stream(a, b.unwrap_or(&[]));
        }
    }

    /// Fixes the width from the games held, then adds them.
    fn fix(&mut self) {
        let held = std::mem::take(&mut self.held);
        let all = held.iter().flat_map(|(a, b)| a.iter().chain(b));
        let (lo, hi) = all.fold((i64::MAX, i64::MIN), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        self.width = if lo > hi {
            1
        } else {
            [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]
                .into_iter()
                .find(|w| hi.div_euclid(*w) - lo.div_euclid(*w) < 12)
                .unwrap_or(10_000)
        };
        for (a, b) in &held {
            self.stream(a, b);
        }
    }

    fn stream(&mut self, a: &[i64], b: &[i64]) {
        let width = self.width;
        for s in a.iter().chain(b) {
            let games = self.games;
            self.buckets
                .entry(s.div_euclid(width))
                .or_insert_with(|| Bucket::zeros(games));
        }
        for (&k, bucket) in &mut self.buckets {
            let sa = share(a, width, k);
            bucket.a.add(sa);
            bucket.count_a += a.iter().filter(|s| s.div_euclid(width) == k).count() as u64;
            if self.paired {
                let sb = share(b, width, k);
                bucket.b.add(sb);
                bucket.difference.add(sb - sa);
                bucket.count_b += b.iter().filter(|s| s.div_euclid(width) == k).count() as u64;
            }
        }
        self.games += 1;
    }

    /// The rows, lowest scores first, with a bucket for every width between
    /// the lowest and the highest score seen, and the histogram.
    pub fn finish(mut self) -> (Vec<BucketRow>, Histogram) {
        if self.width == 0 {
            self.fix();
        }
        if let (Some(&first), Some(&last)) =
            (self.buckets.keys().next(), self.buckets.keys().next_back())
        {
            for k in first..=last {
                let games = self.games;
                self.buckets
                    .entry(k)
                    .or_insert_with(|| Bucket::zeros(games));
            }
        }
        let width = self.width;
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
        let rows = self
            .buckets
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
                    a: bucket.a.share(),
                    b: self.paired.then(|| bucket.b.share()),
                    difference: self.paired.then(|| bucket.difference.estimate()),
                }
            })
            .collect();
        let histogram = Histogram {
            width,
            from: self.buckets.keys().map(|k| k * width).collect(),
            a: self.buckets.values().map(|b| b.count_a).collect(),
            b: self
                .paired
                .then(|| self.buckets.values().map(|b| b.count_b).collect()),
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
        for g in &games {
            streamed.add(g, None);
        }
        let (rows, histogram) = streamed.finish();
        // Width 1 over 0..=6 from the held games; 40 arrives later.
        assert_eq!(histogram.width, 1);
        let last = rows.last().unwrap();
        assert_eq!(last.metric.id, "score_share.40");
        let mut by_hand = Moments::default();
        for g in &games {
            by_hand.add(g.iter().filter(|&&s| s == 40).count() as f64 / 3.0);
        }
        assert_eq!(last.a, by_hand.share());
        assert_eq!(histogram.a.iter().sum::<u64>(), 3 * games.len() as u64);
        // Every bucket from 0 to 40 is there, empty ones too.
        assert_eq!(rows.len(), 41);
    }
}
