//! What `simulate` and `compare` report: one model, drawn as text and JSON by
//! the command line and as a chart page by the renderer, so the three never
//! disagree.

use crate::bots::variant::VariantInfo;
use crate::stats::metric::{Estimate, Metric, Section};
use schemars::JsonSchema;
use serde::Serialize;

/// One figure: its value under A, under B (in a comparison), and the
/// paired difference B − A.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Row {
    pub metric: Metric,
    /// `None` when variant A has no such figure (a zone only B's sheet has).
    pub a: Option<Estimate>,
    pub b: Option<Estimate>,
    /// B − A over paired games; `None` unless both variants have the figure.
    pub difference: Option<Estimate>,
    /// The two-sided p-value of the difference against 0.
    pub p_value: Option<f64>,
    /// The difference is significant after Holm's correction across every
    /// figure of the comparison ([`crate::stats::metric::holm`]).
    pub holm: bool,
}

impl Row {
    /// The difference is significant after Holm's correction across the
    /// comparison's figures: a report of some fifty figures would
    /// otherwise find two or three by chance alone.
    pub fn significant(&self) -> bool {
        self.holm
    }
}

/// Marks the rows whose difference is significant after Holm's correction
/// over every row with a p-value.
pub fn correct(rows: &mut [Row]) {
    let tested: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].p_value.is_some())
        .collect();
    let p: Vec<f64> = tested.iter().filter_map(|&i| rows[i].p_value).collect();
    for (&i, significant) in tested.iter().zip(crate::stats::metric::holm(&p)) {
        rows[i].holm = significant;
    }
}

/// The lowest and highest score a seat reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SeatRange {
    /// 1-based.
    pub seat: usize,
    /// The seat's bot, or `rotated` when the bots turn seats.
    pub bot: String,
    pub min: i64,
    pub max: i64,
}

/// How often a kind of bot won.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct BotWins {
    pub bot: String,
    /// Its share of all games won (ties share a win).
    pub of_games: f64,
    /// Its win rate per seat: the mean, over the games it played, of its
    /// wins (ties shared) per seat it held; the by-bot figure's value.
    pub per_seat: f64,
}

/// Every seat's final score, counted in buckets of equal width.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Histogram {
    /// The width of a bucket, in points.
    pub width: i64,
    /// The lowest score of each bucket, in order.
    pub from: Vec<i64>,
    /// Seats' scores per bucket under A.
    pub a: Vec<u64>,
    /// Seats' scores per bucket under B, in a comparison.
    pub b: Option<Vec<u64>>,
}

impl Histogram {
    /// "40–44", "-20 to -11", or "40" for buckets one point wide.
    pub fn label(&self, bucket: usize) -> String {
        let from = self.from[bucket];
        let to = from + self.width - 1;
        if self.width == 1 {
            from.to_string()
        } else if from < 0 {
            format!("{from} to {to}")
        } else {
            format!("{from}–{to}")
        }
    }
}

/// The outcome of `simulate` (no B) or `compare`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The game, the batch's size and its seed.
    pub head: crate::workbench::Head,
    /// The bot of each seat in the first game.
    pub bots: Vec<String>,
    /// Whether the bots turn seats from game to game ([`crate::bots::lineup`]).
    pub rotated: bool,
    pub a: VariantInfo,
    pub b: Option<VariantInfo>,
    /// What differs between A's rules and B's, by JSON path (a comparison).
    pub changes: Vec<crate::bots::Change>,
    /// Every figure, in section order.
    pub rows: Vec<Row>,
    /// Per seat, under A.
    pub seats_a: Vec<SeatRange>,
    /// Per seat, under B.
    pub seats_b: Option<Vec<SeatRange>>,
    /// Per kind of bot, under A (simulate reports it).
    pub bot_wins: Vec<BotWins>,
    pub histogram: Histogram,
}

impl Report {
    /// The rows of one section.
    pub fn section(&self, section: Section) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(move |r| r.metric.section == section)
    }

    /// The row of a metric id.
    pub fn row(&self, id: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.metric.id == id)
    }
}
