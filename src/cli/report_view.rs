//! `simulate` and `compare` reports as text and as JSON, from the one
//! [`Report`] model that the drawn report uses too.
//!
//! Text: a header naming the game, the batch and the variants; then, for a
//! comparison, the significant differences first (strongest first), then the
//! rest section by section. Every figure printed is in the JSON.

use crate::sim::{Estimate, Report, Row, Section, Unit};
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// A section's short name, in front of a figure's label when rows of
/// several sections share one list.
fn short(section: Section) -> &'static str {
    match section {
        Section::Score => "score",
        Section::Win => "win rate",
        Section::Length => "length",
        Section::End => "ended",
        Section::Completion => "completed",
        Section::Sun => "sun",
        Section::Cards => "cards",
        Section::Distribution => "distribution",
    }
}

fn interval(unit: Unit, e: &Estimate) -> String {
    match unit {
        Unit::Share => format!(
            "[{:.1}%, {:.1}%]",
            clean(100.0 * e.ci95[0]),
            clean(100.0 * e.ci95[1])
        ),
        _ => format!("[{:.2}, {:.2}]", clean(e.ci95[0]), clean(e.ci95[1])),
    }
}

/// No "-0.00": a value that rounds to zero prints without a sign.
fn clean(x: f64) -> f64 {
    if x.abs() < 5e-7 { 0.0 } else { x }
}

/// A signed bound; exactly 0 has no sign.
fn signed(x: f64, decimals: usize) -> String {
    if x.abs() < 1e-12 {
        format!("{:.decimals$}", 0.0)
    } else {
        format!("{x:+.decimals$}")
    }
}

fn signed_interval(unit: Unit, e: &Estimate) -> String {
    match unit {
        Unit::Share => format!(
            "[{}, {}] pp",
            signed(100.0 * e.ci95[0], 1),
            signed(100.0 * e.ci95[1], 1)
        ),
        _ => format!("[{}, {}]", signed(e.ci95[0], 2), signed(e.ci95[1], 2)),
    }
}

fn value(unit: Unit, e: Option<&Estimate>) -> String {
    e.map_or("—".to_owned(), |e| unit.show(clean(e.estimate)))
}

fn header(out: &mut String, report: &Report) {
    let bots = report.bots.join(",");
    match &report.b {
        None => {
            writeln!(
                out,
                "{}: {} games, {} players, bots {bots}, seed {}",
                report.title, report.games, report.players, report.seed
            )
            .unwrap();
            writeln!(out, "variant: {}", report.a).unwrap();
            writeln!(
                out,
                "each figure is a mean per game, with its 95% confidence interval"
            )
            .unwrap();
        }
        Some(b) => {
            writeln!(
                out,
                "{}: {} paired games, {} players, bots {bots}, seed {}",
                report.title, report.games, report.players, report.seed
            )
            .unwrap();
            writeln!(out, "A: {}", report.a).unwrap();
            writeln!(out, "B: {b}").unwrap();
            writeln!(
                out,
                "game i of A and of B sees the same {} and the same bot seeds;",
                if report.game == "summertime" {
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
            unit.show(clean(a.estimate)),
            interval(unit, a),
        );
        writeln!(out, "{}", line.trim_end()).unwrap();
        if s == Section::Score && row.metric.id == format!("mean_score.seat_{}", report.players) {
            seat_ranges(out, report);
        }
    }
    writeln!(out, "\nwin rate per bot (ties share a win):").unwrap();
    for w in &report.bot_wins {
        writeln!(
            out,
            "  {:<7} {:>6.2}% of games, {:>6.2}% per seat played",
            w.bot,
            100.0 * w.of_games,
            100.0 * w.per_seat
        )
        .unwrap();
    }
}

fn seat_ranges(out: &mut String, report: &Report) {
    let ranges = |seats: &[crate::sim::SeatRange]| {
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
    if significant.is_empty() {
        writeln!(
            out,
            "\nno significant difference: every 95% interval of B − A contains 0"
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "\n{} significant difference{} (the interval leaves out 0), strongest first:",
            significant.len(),
            if significant.len() == 1 { "" } else { "s" }
        )
        .unwrap();
        let compared = report
            .rows
            .iter()
            .filter(|r| r.difference.is_some())
            .count();
        writeln!(
            out,
            "  (of {compared} figures compared, about {:.0} may leave out 0 by chance alone at 95%)",
            compared as f64 / 20.0
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

fn estimate(e: &Estimate) -> Value {
    json!({"estimate": e.estimate, "ci95": e.ci95})
}

fn head(report: &Report) -> Map<String, Value> {
    let mut head = Map::new();
    head.insert("game".into(), json!(report.game));
    head.insert("title".into(), json!(report.title));
    head.insert("players".into(), json!(report.players));
    head.insert("games".into(), json!(report.games));
    head.insert("seed".into(), json!(report.seed));
    head.insert("bots".into(), json!(report.bots));
    head.insert(
        "figures".into(),
        json!(report.rows.iter().map(|r| &r.metric).collect::<Vec<_>>()),
    );
    head.insert("histogram".into(), json!(report.histogram));
    head
}

/// The report as one JSON object.
///
/// `simulate`: `{game, title, players, games, seed, bots, figures, histogram,
/// variant, values: {ID: {estimate, ci95}}, seats, win_rate_per_bot}`.
///
/// `compare`: the same head, then `a` and `b`, each
/// `{variant, seats, ID: {estimate, ci95}...}`, and `difference`,
/// `{ID: {estimate, ci95, significant}}` for every figure both variants have.
/// `figures` lists each ID with its section, label and unit.
pub fn json(report: &Report) -> Value {
    let mut object = head(report);
    match &report.b {
        None => {
            object.insert("variant".into(), json!(report.a));
            let values: Map<String, Value> = report
                .rows
                .iter()
                .filter_map(|r| r.a.as_ref().map(|a| (r.metric.id.clone(), estimate(a))))
                .collect();
            object.insert("values".into(), Value::Object(values));
            object.insert("seats".into(), json!(report.seats_a));
            object.insert("win_rate_per_bot".into(), json!(report.bot_wins));
        }
        Some(b) => {
            let side = |info: &crate::sim::VariantInfo,
                        seats: &[crate::sim::SeatRange],
                        pick: fn(&Row) -> Option<&Estimate>| {
                let mut side = Map::new();
                side.insert("variant".into(), json!(info));
                side.insert("seats".into(), json!(seats));
                for row in &report.rows {
                    if let Some(e) = pick(row) {
                        side.insert(row.metric.id.clone(), estimate(e));
                    }
                }
                Value::Object(side)
            };
            object.insert(
                "a".into(),
                side(&report.a, &report.seats_a, |r| r.a.as_ref()),
            );
            object.insert(
                "b".into(),
                side(b, report.seats_b.as_deref().unwrap_or(&[]), |r| {
                    r.b.as_ref()
                }),
            );
            let difference: Map<String, Value> = report
                .rows
                .iter()
                .filter_map(|r| {
                    r.difference.as_ref().map(|d| {
                        let mut e = estimate(d);
                        e["significant"] = json!(d.excludes_zero());
                        (r.metric.id.clone(), e)
                    })
                })
                .collect();
            object.insert("difference".into(), Value::Object(difference));
        }
    }
    Value::Object(object)
}
