//! `simulate` and `compare` reports as text and as JSON, from the one
//! [`Report`] model that the drawn report uses too.
//!
//! Text: a header naming the game, the batch and the variants; then, for a
//! comparison, the significant differences first (strongest first), then the
//! rest section by section. Every figure printed is in the JSON.

use crate::bots::VariantInfo;
use crate::stats::metric::decimal;
use crate::stats::{Estimate, Metric, Section, Unit};
use crate::workbench::{BotWins, Head, Histogram, Report, Row, SeatRange};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A section's short name, in front of a figure's label when rows of
/// several sections share one list.
fn short(section: Section) -> &'static str {
    match section {
        Section::Score => "score",
        Section::Win => "win rate",
        Section::Source => "source",
        Section::Bots => "by bot",
        Section::Skill => "skill",
        Section::Fairness => "fairness",
        Section::Length => "length",
        Section::End => "ended",
        Section::Completion => "completed",
        Section::Boxes => "boxes",
        Section::Sun => "sun",
        Section::Cards => "cards",
        Section::Distribution => "distribution",
    }
}

fn interval(unit: Unit, e: &Estimate) -> String {
    if same_in_every_game(e) {
        return SAME.to_owned();
    }
    bounds(unit, e)
}

/// A quantile of the game length (`….p10`, `….median`, `….p90`), whose
/// interval comes from ranks: a narrow one says the quantile is known, not
/// that every game was the same.
fn is_quantile(id: &str) -> bool {
    [".p10", ".median", ".p90"]
        .iter()
        .any(|suffix| id.ends_with(suffix))
}

fn bounds(unit: Unit, e: &Estimate) -> String {
    match unit {
        Unit::Share => format!(
            "[{}%, {}%]",
            decimal(100.0 * e.ci95[0], 1, false),
            decimal(100.0 * e.ci95[1], 1, false)
        ),
        _ => format!(
            "[{}, {}]",
            decimal(e.ci95[0], 2, false),
            decimal(e.ci95[1], 2, false)
        ),
    }
}

/// What an interval with no width says: the figure did not vary from game
/// to game (or pair to pair), so it carries no uncertainty to show. A share
/// seen in none of the games, or in all, has a width (Wilson's, Newcombe's).
const SAME: &str = "the same in every game";

fn same_in_every_game(e: &Estimate) -> bool {
    e.ci95[0] == e.ci95[1]
}

fn signed_interval(unit: Unit, e: &Estimate) -> String {
    if same_in_every_game(e) {
        return SAME.to_owned();
    }
    match unit {
        Unit::Share => format!(
            "[{}, {}] pp",
            decimal(100.0 * e.ci95[0], 1, true),
            decimal(100.0 * e.ci95[1], 1, true)
        ),
        _ => format!(
            "[{}, {}]",
            decimal(e.ci95[0], 2, true),
            decimal(e.ci95[1], 2, true)
        ),
    }
}

fn value(unit: Unit, e: Option<&Estimate>) -> String {
    e.map_or("—".to_owned(), |e| unit.show(e.estimate))
}

/// "1 game", "2 games".
fn count(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn header(out: &mut String, report: &Report) {
    let mut bots = report.bots.join(",");
    if report.rotated {
        bots.push_str(" (turning one seat each game)");
    }
    let games = if report.b.is_some() {
        "paired game"
    } else {
        "game"
    };
    writeln!(
        out,
        "{}: {}, {}, bots {bots}, seed {}",
        report.head.title,
        count(report.head.games, games),
        count(report.head.players as u64, "player"),
        report.head.seed
    )
    .unwrap();
    match &report.b {
        None => {
            writeln!(out, "variant: {}", report.a).unwrap();
            writeln!(
                out,
                "each figure is a mean per game, with its 95% confidence interval"
            )
            .unwrap();
        }
        Some(b) => {
            writeln!(out, "A: {}", report.a).unwrap();
            writeln!(out, "B: {b}").unwrap();
            changes(out, report);
            writeln!(
                out,
                "game i of A and of B sees the same {} and the same bot seeds;",
                if report.head.game == "summertime" {
                    "deal"
                } else {
                    "dice"
                }
            )
            .unwrap();
            writeln!(
                out,
                "differences are B − A, each with its 95% confidence interval over the pairs"
            )
            .unwrap();
        }
    }
}

/// At most this many changes are listed in text; the JSON has them all.
const CHANGES_SHOWN: usize = 20;

/// What differs between A's rules and B's, by JSON path.
fn changes(out: &mut String, report: &Report) {
    if report.changes.is_empty() {
        writeln!(out, "what differs: nothing, A and B play the same rules").unwrap();
        return;
    }
    writeln!(out, "what differs, A → B:").unwrap();
    for change in report.changes.iter().take(CHANGES_SHOWN) {
        writeln!(out, "  {change}").unwrap();
    }
    if report.changes.len() > CHANGES_SHOWN {
        writeln!(
            out,
            "  … and {} more (the JSON report lists every one)",
            report.changes.len() - CHANGES_SHOWN
        )
        .unwrap();
    }
}

/// The text summary of `simulate` or the text report of `compare`.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    header(&mut out, report);
    if report.b.is_some() {
        comparison(&mut out, report);
    } else {
        summary(&mut out, report);
    }
    out
}

fn label_width(rows: &[&Row], with_section: bool) -> usize {
    rows.iter()
        .map(|r| {
            let l = r.metric.label.chars().count();
            if with_section {
                l + short(r.metric.section).len() + 2
            } else {
                l
            }
        })
        .max()
        .unwrap_or(0)
        .max(12)
}

fn summary(out: &mut String, report: &Report) {
    let mut section = None;
    let rows: Vec<&Row> = report.rows.iter().collect();
    let width = label_width(&rows, false);
    for row in &rows {
        let s = row.metric.section;
        if section != Some(s) {
            section = Some(s);
            writeln!(out, "\n{}:", s.title()).unwrap();
        }
        let Some(a) = &row.a else { continue };
        let unit = row.metric.unit;
        let bar = if s == Section::Distribution {
            format!("  {}", "█".repeat((a.estimate * 100.0).round() as usize))
        } else {
            String::new()
        };
        let line = format!(
            "  {:<width$}  {:>8}  {:<18}{bar}",
            row.metric.label,
            unit.show(a.estimate),
            if is_quantile(&row.metric.id) {
                bounds(unit, a)
            } else {
                interval(unit, a)
            },
        );
        writeln!(out, "{}", line.trim_end()).unwrap();
        if s == Section::Score
            && row.metric.id == format!("mean_score.seat_{}", report.head.players)
        {
            seat_ranges(out, report);
        }
    }
    writeln!(out, "\nwin rate per bot (ties share a win):").unwrap();
    for w in &report.bot_wins {
        writeln!(
            out,
            "  {:<7} {:>6.2}% of games, {:>6.2}% per seat",
            w.bot,
            100.0 * w.of_games,
            100.0 * w.per_seat
        )
        .unwrap();
    }
}

fn seat_ranges(out: &mut String, report: &Report) {
    let ranges = |seats: &[crate::workbench::SeatRange]| {
        seats
            .iter()
            .map(|s| format!("{}: {} to {}", s.seat, s.min, s.max))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(
        out,
        "  lowest and highest score by seat: {}",
        ranges(&report.seats_a)
    )
    .unwrap();
}

fn comparison(out: &mut String, report: &Report) {
    let mut significant: Vec<&Row> = report.rows.iter().filter(|r| r.significant()).collect();
    significant.sort_by(|x, y| {
        let (x, y) = (x.difference.unwrap(), y.difference.unwrap());
        y.strength().total_cmp(&x.strength())
    });
    let both: Vec<&Row> = report.rows.iter().collect();
    let width = label_width(&both, true);
    let columns = |out: &mut String| {
        writeln!(
            out,
            "  {:<width$}  {:>8}  {:>8}  {:>10}  95% interval of B − A",
            "figure", "A", "B", "B − A"
        )
        .unwrap();
    };
    let line = |out: &mut String, row: &Row| {
        let unit = row.metric.unit;
        let label = format!("{}: {}", short(row.metric.section), row.metric.label);
        let (difference, ci) = match &row.difference {
            Some(d) => (unit.show_difference(d.estimate), signed_interval(unit, d)),
            None => (
                "—".to_owned(),
                if row.a.is_none() {
                    "only in B".to_owned()
                } else {
                    "only in A".to_owned()
                },
            ),
        };
        writeln!(
            out,
            "  {label:<width$}  {:>8}  {:>8}  {difference:>10}  {ci}",
            value(unit, row.a.as_ref()),
            value(unit, row.b.as_ref()),
        )
        .unwrap();
    };
    let compared = report.rows.iter().filter(|r| r.p_value.is_some()).count();
    let correction = format!(
        "after Holm's correction over {compared} figures (at most a 5% chance of any false alarm)"
    );
    if significant.is_empty() {
        writeln!(out, "\nno significant difference {correction}").unwrap();
    } else {
        writeln!(
            out,
            "\n{} significant difference{} {correction}, strongest first:",
            significant.len(),
            if significant.len() == 1 { "" } else { "s" }
        )
        .unwrap();
        columns(out);
        for row in &significant {
            line(out, row);
        }
    }
    let rest: Vec<&Row> = report.rows.iter().filter(|r| !r.significant()).collect();
    if !rest.is_empty() {
        writeln!(
            out,
            "\n{}:",
            if significant.is_empty() {
                "every figure"
            } else {
                "not significant, or in one variant only"
            }
        )
        .unwrap();
        columns(out);
        for row in rest {
            line(out, row);
        }
    }
    writeln!(out).unwrap();
    for (name, seats) in [("A", Some(&report.seats_a)), ("B", report.seats_b.as_ref())] {
        if let Some(seats) = seats {
            let ranges: Vec<String> = seats
                .iter()
                .map(|s| format!("{}: {} to {}", s.seat, s.min, s.max))
                .collect();
            writeln!(
                out,
                "{name}: lowest and highest score by seat: {}",
                ranges.join(", ")
            )
            .unwrap();
        }
    }
}

/// What a simulate and a compare report both begin with.
#[derive(Serialize, JsonSchema)]
pub struct Batch {
    /// The game, the batch's size and its seed.
    #[serde(flatten)]
    pub head: Head,
    /// The bot of each seat in the first game.
    pub bots: Vec<String>,
    /// Whether the bots turn one seat each game, so that every bot plays
    /// every seat (true whenever the bots are not all the same).
    pub rotated: bool,
    /// Every figure's id, section, label and unit, in report order.
    pub figures: Vec<Metric>,
    /// Every seat's final score, counted in buckets (the same for A and B).
    pub histogram: Histogram,
}

impl Batch {
    fn of(report: &Report) -> Self {
        Batch {
            head: report.head.clone(),
            bots: report.bots.clone(),
            rotated: report.rotated,
            figures: report.rows.iter().map(|r| r.metric.clone()).collect(),
            histogram: report.histogram.clone(),
        }
    }
}

/// `sunfold simulate --format json`: one variant's figures. Its schema is
/// `sunfold schema simulate-report` (docs/schema/simulate-report.schema.json).
#[derive(Serialize, JsonSchema)]
pub struct SimulateReport {
    #[serde(flatten)]
    pub batch: Batch,
    pub variant: VariantInfo,
    /// Each figure's mean per game and its 95% interval, by id.
    pub values: BTreeMap<String, Estimate>,
    /// Each seat's bot and its lowest and highest score.
    pub seats: Vec<SeatRange>,
    /// Each kind of bot's share of the wins.
    pub win_rate_per_bot: Vec<BotWins>,
}

/// `sunfold compare --format json`: A, B and B − A. Its schema is
/// `sunfold schema compare-report` (docs/schema/compare-report.schema.json).
#[derive(Serialize, JsonSchema)]
pub struct CompareReport {
    #[serde(flatten)]
    pub batch: Batch,
    /// What differs between A's rules and B's, by JSON path in the
    /// template or deck (`end.sun_limit`) or `options.NAME`, in path order;
    /// empty when both play the same rules.
    pub changes: Vec<crate::bots::Change>,
    pub a: Side,
    pub b: Side,
    /// B − A over the paired games, by id, for every figure both have.
    pub difference: BTreeMap<String, Difference>,
    /// How `significant` is decided across the figures.
    pub correction: Correction,
}

/// The correction for testing many figures at once.
#[derive(Serialize, JsonSchema)]
pub struct Correction {
    /// `holm`: Holm's step-down correction, which keeps the chance of any
    /// false alarm among the figures at `family_wise_error`.
    pub method: &'static str,
    pub family_wise_error: f64,
    /// The figures tested: every figure both variants have.
    pub figures: usize,
}

/// One variant of a comparison.
#[derive(Serialize, JsonSchema)]
pub struct Side {
    pub variant: VariantInfo,
    pub seats: Vec<SeatRange>,
    /// Each figure this variant has, by id: its mean and 95% interval.
    #[serde(flatten)]
    pub figures: BTreeMap<String, Estimate>,
}

/// A paired difference B − A.
#[derive(Serialize, JsonSchema)]
pub struct Difference {
    pub estimate: f64,
    /// The 95% confidence interval of the difference, for this figure
    /// alone.
    pub ci95: [f64; 2],
    /// The two-sided p-value of the difference against 0.
    pub p_value: f64,
    /// Significant after Holm's correction across every figure compared
    /// (see `correction`): stricter than the interval leaving out 0.
    pub significant: bool,
}

fn figures(report: &Report, pick: fn(&Row) -> Option<&Estimate>) -> BTreeMap<String, Estimate> {
    report
        .rows
        .iter()
        .filter_map(|r| pick(r).map(|e| (r.metric.id.clone(), *e)))
        .collect()
}

/// The report as one JSON object: a [`SimulateReport`] without B, a
/// [`CompareReport`] with it.
pub fn json(report: &Report) -> String {
    let text = match &report.b {
        None => serde_json::to_string(&SimulateReport {
            batch: Batch::of(report),
            variant: report.a.clone(),
            values: figures(report, |r| r.a.as_ref()),
            seats: report.seats_a.clone(),
            win_rate_per_bot: report.bot_wins.clone(),
        }),
        Some(b) => serde_json::to_string(&CompareReport {
            batch: Batch::of(report),
            changes: report.changes.clone(),
            a: Side {
                variant: report.a.clone(),
                seats: report.seats_a.clone(),
                figures: figures(report, |r| r.a.as_ref()),
            },
            b: Side {
                variant: b.clone(),
                seats: report.seats_b.clone().unwrap_or_default(),
                figures: figures(report, |r| r.b.as_ref()),
            },
            difference: report
                .rows
                .iter()
                .filter_map(|r| {
                    r.difference.map(|d| {
                        let difference = Difference {
                            estimate: d.estimate,
                            ci95: d.ci95,
                            p_value: r.p_value.unwrap_or(1.0),
                            significant: r.significant(),
                        };
                        (r.metric.id.clone(), difference)
                    })
                })
                .collect(),
            correction: Correction {
                method: "holm",
                family_wise_error: crate::stats::ALPHA,
                figures: report.rows.iter().filter(|r| r.p_value.is_some()).count(),
            },
        }),
    };
    text.expect("reports serialize")
}
