//! A sweep: one variant played at every value, or every combination of
//! values, of one or more places of its rules, each on the same games.
//!
//! Game `i` of every point is played from the same seed with the same
//! bots in the same seats, as `compare` plays A and B, so the rows differ
//! by the rules and not by the luck. Each point keeps a [`Tally`] of its
//! own; the report picks the figures asked for from each point's report.
//!
//! - [`spec`]: what `--set PATH=VALUES` says, checked;
//! - here: the figures, the run a partial report names, and the report.
//!
//! Its files: `spec.rs` (reading `--set`), [`swept`] (a game's rules as a
//! document, and a point's variant checked), [`paired`] (each row's
//! differences from the base row, game by game).

mod paired;
pub mod spec;
mod swept;

use crate::bots::variant::VariantInfo;
use crate::stats::metric::{Estimate, Metric, Section, Unit};
use crate::workbench::figures::Report;
use crate::workbench::tally::Tally;
pub use paired::{Difference, Points};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
pub use spec::{Axis, MAX_POINTS, SetError, SetValue, Step, Target};
pub use swept::{PointError, Swept};

/// What every part of a sharded sweep says of it besides the run: the
/// places and values swept, and the figures reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SweepRun {
    pub axes: Vec<Axis>,
    /// The figure ids of the report, in order.
    pub figures: Vec<String>,
    /// The row the others are set against, from 0.
    #[serde(default)]
    pub base: usize,
}

/// One point of a sweep: its values, one per axis, and its figures, one
/// per figure of the report.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct SweepRow {
    pub values: Vec<SetValue>,
    /// `null` where this point has no such figure (a threshold id that the
    /// point's own threshold renamed, a score no seat reached).
    pub figures: Vec<Option<Estimate>>,
    /// Per figure, this row's value minus the base row's, game by game;
    /// `null` in the base row and where either lacks the figure.
    pub differences: Vec<Option<Difference>>,
}

/// What `sunfold sweep` reports.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Sweep {
    /// The game, the batch's size and its seed.
    #[serde(flatten)]
    pub head: crate::workbench::Head,
    /// The bot of each seat in the first game.
    pub bots: Vec<String>,
    /// Whether the bots turn seats from game to game.
    pub rotated: bool,
    /// The variant every point starts from.
    pub variant: VariantInfo,
    /// The places swept and their values, in the order given.
    pub axes: Vec<Axis>,
    /// The figures of every row, in order.
    pub figures: Vec<Metric>,
    /// One row per combination of values: the first axis outermost, the
    /// last changing fastest.
    pub rows: Vec<SweepRow>,
    /// The row the differences are taken from, from 0 (`--base`).
    pub base: usize,
    /// How many differences Holm's correction runs across.
    pub tests: usize,
}

impl Sweep {
    /// The base row as `path=value, …`, when other rows are set against it.
    pub fn base_named(&self) -> Option<String> {
        let base = self.rows.get(self.base).filter(|_| self.rows.len() > 1)?;
        let named: Vec<String> = self
            .axes
            .iter()
            .zip(&base.values)
            .map(|(a, v)| format!("{}={v}", a.path))
            .collect();
        Some(named.join(", "))
    }
}

/// Why `--figure` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FigureError {
    #[error("expected a figure id of the simulate report, such as {known}, but found {found:?}")]
    Unknown { found: String, known: String },
    #[error("expected each figure once, but found {found} twice")]
    Repeated { found: String },
}

/// Ids of the score distribution name a bucket, which exists where a score
/// fell; they are taken without checking.
fn distribution_id(id: &str) -> bool {
    id.strip_prefix("score_share.")
        .is_some_and(|n| n.trim_start_matches('-').parse::<u64>().is_ok())
}

/// The figures to report: those `asked`, each a figure of at least one
/// point (`empty` holds each point's report before any game), or by
/// default the mean score, the game's length and every seat's win rate.
pub fn figures(empty: &[Report], asked: &[String]) -> Result<Vec<String>, FigureError> {
    let known = |id: &str| empty.iter().any(|r| r.row(id).is_some()) || distribution_id(id);
    if asked.is_empty() {
        let first = empty.first();
        let length = first
            .and_then(|r| r.section(Section::Length).next())
            .map(|r| r.metric.id.clone());
        let seats = first
            .into_iter()
            .flat_map(|r| r.section(Section::Win))
            .map(|r| r.metric.id.clone())
            .filter(|id| id.starts_with("win_rate."));
        return Ok(std::iter::once("mean_score".to_owned())
            .chain(length)
            .chain(seats)
            .filter(|id| known(id))
            .collect());
    }
    for (i, id) in asked.iter().enumerate() {
        if asked[..i].contains(id) {
            return Err(FigureError::Repeated { found: id.clone() });
        }
        if !known(id) {
            let examples: Vec<&str> = empty
                .first()
                .map(|r| r.rows.iter().map(|r| r.metric.id.as_str()).collect())
                .unwrap_or_default();
            let known = match examples.len() {
                0..=8 => examples.join(", "),
                n => format!("{} (and {} more)", examples[..8].join(", "), n - 8),
            };
            return Err(FigureError::Unknown {
                found: id.clone(),
                known,
            });
        }
    }
    Ok(asked.to_vec())
}

/// Every point's tally, in the order of [`spec::points`]; merged point by
/// point, exactly, so the report is the same however the games were split.
pub fn merge(into: &mut [Tally], other: &[Tally]) {
    for (a, b) in into.iter_mut().zip(other) {
        a.merge(b);
    }
}

/// Whether `other` tallies the same points as `tallies`.
pub fn fits(tallies: &[Tally], other: &[Tally]) -> bool {
    !tallies.is_empty()
        && tallies.len() == other.len()
        && tallies.iter().zip(other).all(|(a, b)| a.fits(b))
        && other.iter().all(|t| t.games() == other[0].games())
}

/// One label for a figure its points name differently (an end limit each
/// point sets itself, `by the sun limit (58)`, `(60)`, …): the words they
/// share and `(per value)`, so that no row is shown with another's number.
fn shared_label(metrics: &[&Metric]) -> String {
    let first = metrics[0].label.as_str();
    if metrics.iter().all(|m| m.label == first) {
        return first.to_owned();
    }
    let mut shared = first.len();
    for m in metrics {
        let common = first
            .char_indices()
            .zip(m.label.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, c), _)| i + c.len_utf8());
        shared = shared.min(common);
    }
    // Cut back to the end of a whole word.
    let words = first[..shared]
        .rfind(' ')
        .map_or("", |i| first[..i].trim_end());
    if words.is_empty() {
        "per value".to_owned()
    } else {
        format!("{words} (per value)")
    }
}

/// The report of a sweep whose points are `tallies`, in the order of
/// [`spec::points`] over `run.axes`.
pub fn report(
    game: &'static str,
    title: &'static str,
    seed: u64,
    variant: VariantInfo,
    run: &SweepRun,
    points: Points,
) -> Sweep {
    let reports: Vec<Report> = points
        .tallies
        .iter()
        .map(|t| t.clone().report(game, title, seed))
        .collect();
    let figures: Vec<Metric> = run
        .figures
        .iter()
        .map(|id| {
            let metrics: Vec<&Metric> = reports
                .iter()
                .filter_map(|r| r.row(id))
                .map(|row| &row.metric)
                .collect();
            match metrics.first() {
                Some(first) => Metric {
                    label: shared_label(&metrics),
                    ..(*first).clone()
                },
                None => Metric::new(id.clone(), Section::Distribution, id, Unit::Share),
            }
        })
        .collect();
    let differences = paired::differences(&points, run.base, &figures);
    let tests = differences.iter().flatten().flatten().count();
    let rows = spec::points(&run.axes)
        .into_iter()
        .zip(&reports)
        .zip(differences)
        .map(|((point, report), differences)| SweepRow {
            values: point
                .iter()
                .zip(&run.axes)
                .map(|(&v, axis)| axis.values[v].clone())
                .collect(),
            figures: run
                .figures
                .iter()
                .map(|id| report.row(id).and_then(|row| row.a))
                .collect(),
            differences,
        })
        .collect();
    let first = reports.first();
    Sweep {
        head: crate::workbench::Head {
            game,
            title,
            players: first.map_or(0, |r| r.head.players),
            games: first.map_or(0, |r| r.head.games),
            seed,
        },
        bots: first.map_or_else(Vec::new, |r| r.bots.clone()),
        rotated: first.is_some_and(|r| r.rotated),
        variant,
        axes: run.axes.clone(),
        figures,
        rows,
        base: run.base,
        tests,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_that_differs_by_point_keeps_only_the_shared_words() {
        let m = |label: &str| Metric::new("ended.sun_limit", Section::End, label, Unit::Share);
        let (a, b, c) = (
            m("by the sun limit (58)"),
            m("by the sun limit (60)"),
            m("by the sun limit (62)"),
        );
        assert_eq!(shared_label(&[&a, &b, &c]), "by the sun limit (per value)");
        assert_eq!(shared_label(&[&a, &a]), "by the sun limit (58)");
        assert_eq!(
            shared_label(&[&m("58 reached"), &m("60 reached")]),
            "per value"
        );
    }
}
