//! The figures a batch of games reports, and the arithmetic of their
//! means and 95% confidence intervals.
//!
//! Every figure is the mean over games of one number per game: a seat's
//! score, a seat's share of the win, the rounds played, whether the game
//! ended one way, the share of players who completed a zone. A mean's
//! interval is the mean ± 1.96 standard errors of the per-game values; a
//! share's is the Wilson score interval over the games ([`Moments::share`]),
//! which does not collapse to [0, 0] for a share never seen. A paired
//! difference is the mean rule applied to the per-game differences
//! `b_i − a_i`, which is what makes pairing pay: the luck both variants
//! share cancels game by game. A difference of shares that are 0 or 1 in
//! each game gets Newcombe's paired interval instead ([`paired_shares`]),
//! which has width even when no game differs
//! ([`crate::stats::sums::paired_shares`] says which applies when).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where a figure belongs in a report; reports list sections in this order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Score,
    Win,
    Source,
    Bots,
    Skill,
    Fairness,
    Length,
    End,
    Completion,
    Boxes,
    Sun,
    Cards,
    Distribution,
}

impl Section {
    /// The heading of the section in text and drawn reports.
    pub fn title(self) -> &'static str {
        match self {
            Section::Score => "mean score",
            Section::Win => "win rate (ties share a win)",
            Section::Source => "score by source, per player",
            Section::Bots => "by bot (ties share a win; bots turn seats from game to game)",
            Section::Skill => "skill against luck: the strongest bot against the weakest",
            Section::Fairness => {
                "seat fairness: each seat's win rate when the strongest bot holds it, the same lineup turned through the seats"
            }
            Section::Length => "game length",
            Section::End => "how the game ended",
            Section::Completion => "zone flags and groups completed, per player",
            Section::Boxes => {
                "boxes written, per player: a zone's share when not completed; crab and frog use"
            }
            Section::Sun => "sun thresholds, per player",
            Section::Cards => "cards",
            Section::Distribution => "score distribution: share of all seats' scores",
        }
    }
}

/// What a figure counts, which decides how it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Score points.
    Points,
    /// A probability or a share, 0 to 1, shown as a percentage.
    Share,
    /// A count: rounds, turns, cards.
    Count,
}

impl Unit {
    /// The value as a person reads it: points and counts with two
    /// decimals, shares as a percentage.
    pub fn show(self, value: f64) -> String {
        match self {
            Unit::Points | Unit::Count => decimal(value, 2, false),
            Unit::Share => format!("{}%", decimal(100.0 * value, 1, false)),
        }
    }

    /// A difference as a person reads it: signed, shares in percentage points.
    pub fn show_difference(self, value: f64) -> String {
        // A difference that rounds to nothing has no sign.
        match self {
            Unit::Points | Unit::Count => decimal(value, 2, true),
            Unit::Share => format!("{} pp", decimal(100.0 * value, 1, true)),
        }
    }
}

/// `x` with `places` decimals, with its sign when `signed`: what rounds to
/// zero prints as zero with no sign, so that no figure reads "-0.00".
pub fn decimal(x: f64, places: usize, signed: bool) -> String {
    let shown = if signed {
        format!("{x:+.places$}")
    } else {
        format!("{x:.places$}")
    };
    if shown.chars().all(|c| matches!(c, '0' | '.' | '+' | '-')) {
        format!("{:.places$}", 0.0)
    } else {
        shown
    }
}

/// One figure of a report.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Metric {
    /// A stable key for scripts: `mean_score`, `win_rate.seat_1`,
    /// `zone_flag.koinobori`, `sun_won.32`.
    pub id: String,
    pub section: Section,
    /// What a person reads: "seat 1", "Koinobori flag", "32 reached".
    pub label: String,
    pub unit: Unit,
}

impl Metric {
    pub fn new(
        id: impl Into<String>,
        section: Section,
        label: impl Into<String>,
        unit: Unit,
    ) -> Self {
        Metric {
            id: id.into(),
            section,
            label: label.into(),
            unit,
        }
    }
}

/// One label for a figure that A and B name differently, such as an end
/// limit each variant sets itself: the words they share once, and each
/// variant's own part beside its letter, so that neither is shown with the
/// other's number. `by the sun limit (62)` and `by the sun limit (60)` give
/// `by the sun limit (A 62, B 60)`. The shared words end and begin where a
/// word does, so 62 and 60 are not cut into a shared 6.
pub fn both_labels(a: &str, b: &str) -> String {
    if a == b {
        return a.to_owned();
    }
    let (x, y): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prefix = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
    while prefix > 0 && x[prefix - 1].is_alphanumeric() {
        prefix -= 1;
    }
    let room = x.len().min(y.len()) - prefix;
    let mut suffix = x
        .iter()
        .rev()
        .zip(y.iter().rev())
        .take(room)
        .take_while(|(p, q)| p == q)
        .count();
    while suffix > 0 && x[x.len() - suffix].is_alphanumeric() {
        suffix -= 1;
    }
    let part = |v: &[char]| v[prefix..v.len() - suffix].iter().collect::<String>();
    let (own_a, own_b) = (part(&x), part(&y));
    if own_a.trim().is_empty() || own_b.trim().is_empty() {
        return format!("A: {a}; B: {b}");
    }
    format!(
        "{}A {}, B {}{}",
        x[..prefix].iter().collect::<String>(),
        own_a.trim(),
        own_b.trim(),
        x[x.len() - suffix..].iter().collect::<String>()
    )
}

/// A running mean and variance (Welford's method), added to in game order
/// so that the same games give the same bits whatever the thread count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
    }

    /// The moments of `n` zeros, exactly as adding them one by one gives.
    pub fn zeros(n: u64) -> Self {
        Moments {
            n,
            mean: 0.0,
            m2: 0.0,
        }
    }

    pub fn count(&self) -> u64 {
        self.n
    }

    /// The mean with its 95% confidence interval, from the normal
    /// approximation (every report rests on hundreds of games or more).
    /// With fewer than two values the interval is the mean alone.
    pub fn estimate(&self) -> Estimate {
        normal(self.mean, self.m2, self.n)
    }
}

/// The mean of `n` values with its 95% confidence interval from the normal
/// approximation, given the sum of their squared deviations from the mean
/// (`centred`). With fewer than two values the interval is the mean alone.
pub(super) fn normal(mean: f64, centred: f64, n: u64) -> Estimate {
    let half = if n < 2 {
        0.0
    } else {
        let variance = (centred / (n - 1) as f64).max(0.0);
        Z95 * (variance / n as f64).sqrt()
    };
    Estimate {
        estimate: mean,
        ci95: [mean - half, mean + half],
    }
}

impl Moments {
    /// A share's estimate: the mean of per-game values in [0, 1], with the
    /// 95% Wilson score interval over the games played. Unlike the normal
    /// approximation it is honest at 0 and 1: a share never seen in 8,000
    /// games is [0%, 0.05%], not [0%, 0%]. The games are the independent
    /// draws, so a share of the seats of a game (a zone flag, a bucket of
    /// the score distribution) counts each game once, which makes its
    /// interval no narrower than the truth. With no games it is [0, 1].
    pub fn share(&self) -> Estimate {
        wilson(self.mean, self.n)
    }
}

/// The share `count` of `n` independent draws, with its 95% Wilson score
/// interval; [0, 1] with no draws.
pub fn share_of(count: u64, n: u64) -> Estimate {
    let mean = if n == 0 { 0.0 } else { count as f64 / n as f64 };
    wilson(mean, n)
}

/// The mean of `n` values from their sum and the sum of their squares
/// (exact integers, so that partial sums merge exactly), with its 95%
/// interval from the normal approximation.
pub fn mean_of(sum: u64, squares: u64, n: u64) -> Estimate {
    let mean = if n == 0 { 0.0 } else { sum as f64 / n as f64 };
    let centred = (squares as f64 - sum as f64 * mean).max(0.0);
    normal(mean, centred, n)
}

/// The estimate of a share with mean `mean` over `n` games, with the 95%
/// Wilson score interval ([`Moments::share`]).
pub(super) fn wilson(mean: f64, n: u64) -> Estimate {
    wilson_at(mean, n, Z95)
}

/// [`wilson`] at the normal quantile `z` instead of 1.96.
fn wilson_at(mean: f64, n: u64, z: f64) -> Estimate {
    let p = mean.clamp(0.0, 1.0);
    if n == 0 {
        return Estimate {
            estimate: mean,
            ci95: [0.0, 1.0],
        };
    }
    let n = n as f64;
    let z2 = z * z;
    let scale = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / scale;
    let half = z / scale * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Estimate {
        estimate: mean,
        // At 0 and 1 the bound is exact, not a rounding away from it.
        ci95: [
            if p == 0.0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            if p == 1.0 {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        ],
    }
}

/// The difference `p_b − p_a` of two shares measured on the same games,
/// with Newcombe's hybrid score interval for paired proportions (method 10
/// of R. G. Newcombe, "Improved confidence intervals for the difference
/// between binomial proportions based on paired data", Statistics in
/// Medicine 17, 1998): each share's Wilson interval, joined through the
/// correlation of the games' values. `a` and `b` are each share with its
/// count of games, `correlation` that of the paired values, taken with
/// [`paired_correlation`] so that it stays below 1: then the interval has
/// width whenever the games are finite (100 games that all read 0 in both
/// variants give about [−3.7, +3.7] pp, not a difference known to be 0),
/// and its bounds stay within [−1, 1].
pub fn paired_shares(a: (f64, u64), b: (f64, u64), correlation: f64) -> Estimate {
    paired_shares_at(a, b, correlation, Z95)
}

/// The two-sided p-value of [`paired_shares`]'s difference against 0: the
/// level at which its interval just reaches 0, found by inverting the
/// interval, so that the difference is significant at 5% exactly when its
/// 95% interval leaves out 0. 1 for a difference of 0.
pub fn paired_shares_p_value(a: (f64, u64), b: (f64, u64), correlation: f64) -> f64 {
    let d = b.0 - a.0;
    if d == 0.0 || a.1 == 0 || b.1 == 0 {
        return 1.0;
    }
    // The bound on 0's side moves towards 0 as z grows.
    let clear = |z: f64| {
        let e = paired_shares_at(a, b, correlation, z);
        if d > 0.0 {
            e.ci95[0] > 0.0
        } else {
            e.ci95[1] < 0.0
        }
    };
    let (mut low, mut high) = (0.0, 40.0);
    if clear(high) {
        return 0.0;
    }
    for _ in 0..100 {
        let mid = (low + high) / 2.0;
        if clear(mid) {
            low = mid;
        } else {
            high = mid;
        }
    }
    erfc(low / std::f64::consts::SQRT_2).min(1.0)
}

/// [`paired_shares`] at the normal quantile `z`.
fn paired_shares_at(a: (f64, u64), b: (f64, u64), correlation: f64, z: f64) -> Estimate {
    let d = b.0 - a.0;
    if a.1 == 0 || b.1 == 0 {
        return Estimate {
            estimate: d,
            ci95: [-1.0, 1.0],
        };
    }
    let (pa, pb) = (a.0.clamp(0.0, 1.0), b.0.clamp(0.0, 1.0));
    let (wa, wb) = (wilson_at(pa, a.1, z).ci95, wilson_at(pb, b.1, z).ci95);
    let r = correlation.clamp(-1.0, 1.0);
    // Newcombe's p1 is B's share, p2 is A's.
    let (b_down, b_up) = (pb - wb[0], wb[1] - pb);
    let (a_down, a_up) = (pa - wa[0], wa[1] - pa);
    let below = b_down * b_down - 2.0 * r * b_down * a_up + a_up * a_up;
    let above = b_up * b_up - 2.0 * r * b_up * a_down + a_down * a_down;
    Estimate {
        estimate: d,
        ci95: [
            (d - below.max(0.0).sqrt()).max(-1.0),
            (d + above.max(0.0).sqrt()).min(1.0),
        ],
    }
}

/// The correlation of two shares' paired values over `n` games, from their
/// population variances and covariance, with Newcombe's continuity
/// correction: the covariance is moved 1/(2n) towards 0 (for values of 0
/// and 1 that is his `AD − BC − N/2`). It is below 1 in size for any finite
/// `n`, and 0 where either share does not vary.
pub fn paired_correlation(var_a: f64, var_b: f64, covariance: f64, n: u64) -> f64 {
    if n == 0 || var_a <= 0.0 || var_b <= 0.0 {
        return 0.0;
    }
    let shrunk = (covariance.abs() - 0.5 / n as f64).max(0.0);
    (covariance.signum() * shrunk / (var_a * var_b).sqrt()).clamp(-1.0, 1.0)
}

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Estimate {
    pub estimate: f64,
    pub ci95: [f64; 2],
}

impl Estimate {
    /// The two-sided p-value of the estimate against 0, from the normal
    /// approximation its interval rests on: 1 for an exact 0, 0 for a
    /// non-zero estimate with no spread. Take it before an interval is cut
    /// to what is possible.
    pub fn p_value(&self) -> f64 {
        let se = (self.ci95[1] - self.ci95[0]) / 2.0 / Z95;
        if self.estimate == 0.0 {
            1.0
        } else if se <= 0.0 {
            0.0
        } else {
            erfc(self.estimate.abs() / se / std::f64::consts::SQRT_2).min(1.0)
        }
    }

    /// The interval leaves out 0: the difference is significant at 5%.
    pub fn excludes_zero(&self) -> bool {
        self.ci95[0] > 0.0 || self.ci95[1] < 0.0
    }

    /// How many half-widths the estimate lies from 0; infinite for a
    /// non-zero estimate with no spread, 0 for an exact 0.
    pub fn strength(&self) -> f64 {
        let half = (self.ci95[1] - self.ci95[0]) / 2.0;
        if self.estimate == 0.0 {
            0.0
        } else if half == 0.0 {
            f64::INFINITY
        } else {
            self.estimate.abs() / half
        }
    }
}

/// The complementary error function, to a relative error below 1.2e-7
/// (Numerical Recipes' `erfcc`, a Chebyshev fit): enough for a p-value.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The family-wise error rate Holm's correction keeps figures within.
pub const ALPHA: f64 = 0.05;

/// Holm's step-down correction: which of these p-values are significant
/// with a chance of at most [`ALPHA`] that any of them is a false alarm.
/// The smallest p-value is held to ALPHA / m, the next to ALPHA / (m − 1),
/// and so on, stopping at the first that fails.
pub fn holm(p_values: &[f64]) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p_values[i].total_cmp(&p_values[j]).then(i.cmp(&j)));
    let mut significant = vec![false; m];
    for (k, &i) in order.iter().enumerate() {
        if p_values[i] > ALPHA / (m - k) as f64 {
            break;
        }
        significant[i] = true;
    }
    significant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_of_known_values() {
        let mut m = Moments::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.add(x);
        }
        let e = m.estimate();
        assert_eq!(e.estimate, 2.5);
        // s² = 5/3, se = sqrt(5/12)
        let half = Z95 * (5.0f64 / 12.0).sqrt();
        assert!((e.ci95[0] - (2.5 - half)).abs() < 1e-12);
        assert!((e.ci95[1] - (2.5 + half)).abs() < 1e-12);
    }

    #[test]
    fn each_variant_keeps_its_own_number_in_a_shared_label() {
        assert_eq!(
            both_labels("by the sun limit (62)", "by the sun limit (60)"),
            "by the sun limit (A 62, B 60)"
        );
        assert_eq!(
            both_labels("by the round limit (20)", "by the round limit (18)"),
            "by the round limit (A 20, B 18)"
        );
        assert_eq!(both_labels("seat 1", "seat 1"), "seat 1");
        assert_eq!(
            both_labels("Koinobori flag", "Carp flag"),
            "A Koinobori, B Carp flag"
        );
        assert_eq!(both_labels("flag", "flag 2"), "A flag, B flag 2");
    }

    #[test]
    fn a_share_never_seen_still_has_an_upper_bound() {
        let e = Moments::zeros(8000).share();
        assert_eq!(e.estimate, 0.0);
        assert_eq!(e.ci95[0], 0.0);
        // z² / (n + z²)
        let upper = Z95 * Z95 / (8000.0 + Z95 * Z95);
        assert!((e.ci95[1] - upper).abs() < 1e-12, "{e:?}");
        let mut always = Moments::default();
        for _ in 0..100 {
            always.add(1.0);
        }
        let e = always.share();
        assert_eq!(e.ci95[1], 1.0);
        assert!(
            (e.ci95[0] - 100.0 / (100.0 + Z95 * Z95)).abs() < 1e-12,
            "{e:?}"
        );
        assert_eq!(Moments::default().share().ci95, [0.0, 1.0]);
    }

    #[test]
    fn the_wilson_interval_of_known_values() {
        // 12 of 40: (p + z²/2n) / (1 + z²/n) ± z / (1 + z²/n) · √(p(1 − p)/n + z²/4n²)
        // = 0.3175 ± 0.1368.
        let mut m = Moments::default();
        for i in 0..40 {
            m.add(if i < 12 { 1.0 } else { 0.0 });
        }
        let e = m.share();
        assert!((e.estimate - 0.3).abs() < 1e-12);
        assert!((e.ci95[0] - 0.1807).abs() < 1e-4, "{e:?}");
        assert!((e.ci95[1] - 0.4543).abs() < 1e-4, "{e:?}");
    }

    #[test]
    fn p_values_of_known_intervals() {
        // An estimate 1.96 standard errors from 0 has p = 0.05.
        let e = Estimate {
            estimate: Z95,
            ci95: [0.0, 2.0 * Z95],
        };
        assert!((e.p_value() - 0.05).abs() < 1e-6, "{}", e.p_value());
        let e = Estimate {
            estimate: 1.0,
            ci95: [1.0 - Z95, 1.0 + Z95],
        };
        // 2 (1 − Φ(1)) = 0.3173
        assert!((e.p_value() - 0.317_310_5).abs() < 1e-6, "{}", e.p_value());
    }

    #[test]
    fn holm_holds_the_smallest_p_to_alpha_over_m() {
        // m = 4: 0.01 ≤ 0.05/4, 0.012 ≤ 0.05/3, 0.03 > 0.05/2 stops.
        assert_eq!(holm(&[0.03, 0.01, 0.012, 0.04]), [false, true, true, false]);
        // Alone, 0.04 would pass; among 20 figures it does not.
        let mut many = vec![0.5; 19];
        many.push(0.04);
        assert!(holm(&many).iter().all(|&s| !s));
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn constant_values_have_no_spread() {
        let mut m = Moments::default();
        for _ in 0..1000 {
            m.add(0.0);
        }
        let e = m.estimate();
        assert_eq!(e.ci95, [0.0, 0.0]);
        assert!(!e.excludes_zero());
    }
}
