//! Exact running sums of per-game values, which add up to the same bits in
//! any order: what lets worker threads tally their own games and shards on
//! other machines be merged, with output byte-identical to one thread.
//!
//! Each value is put on a grid of 2⁻⁶⁴ (its whole part and its fraction in
//! 64 bits, rounded down: a deterministic function of the game alone, and
//! exact for every value a report has, as they are counts and shares of at
//! most a dozen players). Its square goes on the same grid. From there on,
//! everything is integer addition, which neither rounds nor depends on
//! order. Means and intervals are computed from the sums at the end.

use crate::stats::metric::Estimate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A sum on the grid of 2⁻⁶⁴: `whole + frac · 2⁻⁶⁴`, written in JSON as
/// the string `"WHOLE+FRAC"` (two decimal integers), so that no JSON
/// reader rounds it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fixed {
    whole: i128,
    /// Fractions of 2⁻⁶⁴, carried into `whole` only when read: 2⁶⁴ adds
    /// would be needed to overflow it.
    frac: u128,
}

impl PartialEq for Fixed {
    fn eq(&self, other: &Fixed) -> bool {
        let (a, b) = (self.carried(), other.carried());
        (a.whole, a.frac) == (b.whole, b.frac)
    }
}

impl Eq for Fixed {}

const TWO_64: f64 = 18_446_744_073_709_551_616.0;

impl Fixed {
    /// Adds `x` on the grid: `floor(x)` and the fraction's top 64 bits.
    pub fn add(&mut self, x: f64) {
        let whole = x.floor();
        // x − floor(x) is exact, in [0, 1); scaling by 2⁶⁴ is exact too.
        let frac = ((x - whole) * TWO_64) as u64;
        self.whole += whole as i128;
        self.frac += u128::from(frac);
    }

    pub fn merge(&mut self, other: &Fixed) {
        self.whole += other.whole;
        self.frac += other.frac;
        self.carry();
    }

    fn carry(&mut self) {
        self.whole += (self.frac >> 64) as i128;
        self.frac &= u128::from(u64::MAX);
    }

    /// The same sum with its fraction below 2⁶⁴: one form for one value.
    fn carried(mut self) -> Fixed {
        self.carry();
        self
    }

    /// The sum as a float, rounded the same way whatever the order of adds.
    pub fn value(&self) -> f64 {
        let c = self.carried();
        c.whole as f64 + c.frac as f64 / TWO_64
    }
}

impl Serialize for Fixed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.carried();
        s.serialize_str(&format!("{}+{}", c.whole, c.frac))
    }
}

impl<'de> Deserialize<'de> for Fixed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let parsed = text.rsplit_once('+').and_then(|(whole, frac)| {
            let frac: u64 = frac.parse().ok()?;
            Some(Fixed {
                whole: whole.parse().ok()?,
                frac: u128::from(frac),
            })
        });
        parsed.ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected an exact sum such as \"12+345\", but found {text:?}"
            ))
        })
    }
}

impl JsonSchema for Fixed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Fixed".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "An exact sum, WHOLE + FRAC · 2^-64, as \"WHOLE+FRAC\".",
            "type": "string",
            "pattern": "^-?[0-9]+\\+[0-9]+$"
        })
    }
}

/// The count, sum and sum of squares of a figure's per-game values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sums {
    pub n: u64,
    pub sum: Fixed,
    pub squares: Fixed,
}

impl Sums {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.add_uncounted(x);
    }

    /// Adds a value to the sums without counting it: for a figure whose
    /// count is set at the end ([`Sums::with_count`]), zeros being skipped.
    pub fn add_uncounted(&mut self, x: f64) {
        self.sum.add(x);
        self.squares.add(x * x);
    }

    pub fn merge(&mut self, other: &Sums) {
        self.n += other.n;
        self.sum.merge(&other.sum);
        self.squares.merge(&other.squares);
    }

    /// The same sums over `n` values, the ones not added being zeros.
    pub fn with_count(mut self, n: u64) -> Self {
        self.n = n;
        self
    }

    pub fn count(&self) -> u64 {
        self.n
    }

    fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum.value() / self.n as f64
        }
    }

    /// The mean with its 95% confidence interval, from the normal
    /// approximation. With fewer than two values the interval is the mean
    /// alone.
    pub fn estimate(&self) -> Estimate {
        let mean = self.mean();
        let centred = self.squares.value() - self.sum.value() * mean;
        crate::stats::metric::normal(mean, centred, self.n)
    }

    /// A share's estimate: the mean of per-game values in [0, 1], with the
    /// 95% Wilson score interval over the games ([`crate::stats::Moments::share`]).
    pub fn share(&self) -> Estimate {
        crate::stats::metric::wilson(self.mean(), self.n)
    }
}

/// B − A of a share measured on the same games, from the sums of A's
/// values, B's and their differences, with an interval that is never
/// zero-width for a finite number of games unless the difference is fixed:
/// - a share of 0 or 1 in each game (a game won or not, a flag completed
///   or not): Newcombe's paired interval
///   ([`crate::stats::metric::paired_shares`]);
/// - a share of a game's seats (a zone's boxes written, per player): the
///   normal interval of the games' differences, as any figure's, which
///   uses the spread those shares really have; where every game's
///   difference is the same, Newcombe's, so that a difference seen in no
///   game is not one known to be 0;
/// - a share that holds the same value in every game of both (two games or
///   more), strictly between 0 and 1, is fixed by how the games are set up (a bot's win
///   rate per seat when the seating decides it), not observed: its
///   difference is that value's, with no spread.
///
/// Where A and B do not count the same games, Newcombe's takes them as
/// independent.
pub fn paired_shares(a: &Sums, b: &Sums, d: &Sums) -> Estimate {
    paired(a, b, d).0
}

/// The two-sided p-value of [`paired_shares`]'s difference, from the same
/// interval ([`crate::stats::metric::paired_shares_p_value`]): significant
/// at 5% exactly when that interval leaves out 0.
pub fn paired_shares_p_value(a: &Sums, b: &Sums, d: &Sums) -> f64 {
    paired(a, b, d).1
}

/// The estimate and p-value of B − A for a share.
fn paired(a: &Sums, b: &Sums, d: &Sums) -> (Estimate, f64) {
    let (ma, mb) = (a.mean(), b.mean());
    let n = d.n;
    let population = |s: &Sums, mean: f64| {
        if s.n == 0 {
            0.0
        } else {
            (s.squares.value() / s.n as f64 - mean * mean).max(0.0)
        }
    };
    let (var_a, var_b) = (population(a, ma), population(b, mb));
    let fixed = |m: f64| m > 0.0 && m < 1.0;
    if a.n > 1 && b.n > 1 && var_a == 0.0 && var_b == 0.0 && fixed(ma) && fixed(mb) {
        let difference = mb - ma;
        let fixed = Estimate {
            estimate: difference,
            ci95: [difference, difference],
        };
        return (fixed, if difference == 0.0 { 1.0 } else { 0.0 });
    }
    // Values of 0 and 1 alone: then x² = x in every game, and only then.
    let binary = |s: &Sums| s.squares == s.sum;
    let spread = {
        let e = d.estimate();
        e.ci95[1] > e.ci95[0]
    };
    if !(binary(a) && binary(b)) && spread && a.n == n && b.n == n {
        let e = d.estimate();
        let bounded = Estimate {
            estimate: e.estimate,
            ci95: [e.ci95[0].max(-1.0), e.ci95[1].min(1.0)],
        };
        return (bounded, e.p_value());
    }
    let correlation = if a.n == n && b.n == n && n > 0 {
        // Σab from Σa², Σb² and Σ(b − a)².
        let products = (a.squares.value() + b.squares.value() - d.squares.value()) / 2.0;
        let covariance = products / n as f64 - ma * mb;
        crate::stats::metric::paired_correlation(var_a, var_b, covariance, n)
    } else {
        0.0
    };
    let (a, b) = ((ma, a.n), (mb, b.n));
    (
        crate::stats::metric::paired_shares(a, b, correlation),
        crate::stats::metric::paired_shares_p_value(a, b, correlation),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::metric::Z95;

    #[test]
    fn sums_do_not_depend_on_the_order_of_adds() {
        let values: Vec<f64> = (0..1000)
            .map(|i| f64::from(i % 7) / 3.0 - 1.25 + f64::from(i % 11) * 17.5)
            .collect();
        let mut forward = Sums::default();
        values.iter().for_each(|&x| forward.add(x));
        let (mut left, mut right) = (Sums::default(), Sums::default());
        values.iter().rev().take(377).for_each(|&x| right.add(x));
        values.iter().take(623).for_each(|&x| left.add(x));
        right.merge(&left);
        assert_eq!(forward, right);
        assert_eq!(forward.estimate(), right.estimate());
        let text = serde_json::to_string(&forward).unwrap();
        assert_eq!(serde_json::from_str::<Sums>(&text).unwrap(), forward);
    }

    #[test]
    fn the_interval_of_known_values() {
        let mut m = Sums::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.add(x);
        }
        let e = m.estimate();
        assert_eq!(e.estimate, 2.5);
        let half = Z95 * (5.0f64 / 12.0).sqrt();
        assert!((e.ci95[0] - (2.5 - half)).abs() < 1e-12);
        let mut negative = Fixed::default();
        negative.add(-0.75);
        assert_eq!(negative.value(), -0.75);
    }
}
