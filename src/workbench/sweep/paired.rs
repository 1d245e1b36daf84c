//! A sweep's rows against its base row, game by game: every row plays the
//! same games, so each figure's difference from the base row is paired,
//! as `compare`'s B − A is, and its interval is over the games' own
//! differences. Holm's correction runs across every row and figure.

use crate::stats::metric::{Estimate, Metric, Unit, holm};
use crate::stats::sums::{Sums, paired_shares, paired_shares_p_value};
use crate::workbench::tally::Tally;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every point's tally, and each point's figures minus the base point's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Points {
    /// One tally per point, in the order of the report's rows.
    pub tallies: Vec<Tally>,
    /// Per point, per figure of the report: the sums of the point's value
    /// minus the base point's, over the games where both measure it.
    pub differences: Vec<Vec<Sums>>,
}

impl Points {
    /// No games yet: `tallies`, and `figures` figures per point.
    pub fn new(tallies: Vec<Tally>, figures: usize) -> Self {
        let differences = vec![vec![Sums::default(); figures]; tallies.len()];
        Points {
            tallies,
            differences,
        }
    }

    /// Adds the differences of the game every tally added last: each
    /// point's value of each of `figures` minus `base`'s.
    pub fn add_differences(&mut self, base: usize, figures: &[String]) {
        for (p, sums) in self.differences.iter_mut().enumerate() {
            for (f, id) in figures.iter().enumerate() {
                let value = |t: &Tally| t.last_value(id).filter(|x| !x.is_nan());
                if let (Some(x), Some(b)) = (value(&self.tallies[p]), value(&self.tallies[base])) {
                    sums[f].add(x - b);
                }
            }
        }
    }

    /// Adds the games of `other`, the same points.
    pub fn merge(&mut self, other: &Points) {
        super::merge(&mut self.tallies, &other.tallies);
        for (a, b) in self.differences.iter_mut().zip(&other.differences) {
            for (x, y) in a.iter_mut().zip(b) {
                x.merge(y);
            }
        }
    }

    /// Whether `other` tallies the same points and figures.
    pub fn fits(&self, other: &Points) -> bool {
        super::fits(&self.tallies, &other.tallies)
            && self.differences.len() == other.differences.len()
            && self
                .differences
                .iter()
                .zip(&other.differences)
                .all(|(a, b)| a.len() == b.len())
    }

    /// The same points with no games.
    pub fn empty(&self) -> Points {
        let figures = self.differences.first().map_or(0, Vec::len);
        Points::new(self.tallies.iter().map(Tally::empty).collect(), figures)
    }

    pub fn games(&self) -> u64 {
        self.tallies.first().map_or(0, Tally::games)
    }
}

/// A row's figure minus the base row's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Difference {
    /// The mean of the games' differences, with its 95% interval: a
    /// share's is Newcombe's paired interval, within [−1, 1].
    #[serde(flatten)]
    pub difference: Estimate,
    /// Significant after Holm's correction across every row and figure.
    pub significant: bool,
}

/// Each row's differences from the base row, figure by figure: `None` for
/// the base row itself and where a row or the base lacks the figure.
pub fn differences(
    points: &Points,
    base: usize,
    figures: &[Metric],
) -> Vec<Vec<Option<Difference>>> {
    let mut out: Vec<Vec<Option<Difference>>> = points
        .differences
        .iter()
        .enumerate()
        .map(|(p, sums)| {
            sums.iter()
                .map(|d| {
                    (p != base && d.count() > 0).then(|| Difference {
                        difference: d.estimate(),
                        significant: false,
                    })
                })
                .collect()
        })
        .collect();
    let tested: Vec<(usize, usize)> = out
        .iter()
        .enumerate()
        .flat_map(|(p, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, d)| d.is_some())
                .map(move |(f, _)| (p, f))
        })
        .collect();
    // A share's p-value is that of Newcombe's interval, which it is shown
    // with; any other's is the mean's.
    let share_sums = |p: usize, f: usize| {
        let id = figures[f].id.as_str();
        match (
            figures[f].unit,
            points.tallies[base].sums_of(id),
            points.tallies[p].sums_of(id),
        ) {
            (Unit::Share, Some(a), Some(b)) => Some((a, b, &points.differences[p][f])),
            _ => None,
        }
    };
    let p_values: Vec<f64> = tested
        .iter()
        .map(|&(p, f)| match (out[p][f], share_sums(p, f)) {
            (None, _) => 1.0,
            (Some(_), Some((a, b, d))) => paired_shares_p_value(a, b, d),
            (Some(d), None) => d.difference.p_value(),
        })
        .collect();
    for (&(p, f), significant) in tested.iter().zip(holm(&p_values)) {
        if let Some(d) = &mut out[p][f] {
            d.significant = significant;
            // A share's interval is Newcombe's over the same games.
            if let Some((a, b, sums)) = share_sums(p, f) {
                d.difference = paired_shares(a, b, sums);
            }
        }
    }
    out
}
