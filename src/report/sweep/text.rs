//! The report of `sunfold sweep` as text and as JSON: a header naming the
//! game, the batch and the variant swept from, then one line per value (or
//! combination of values), one column per figure with its 95% interval.

use crate::stats::metric::decimal;
use crate::stats::{Estimate, Unit};
use crate::workbench::sweep::spec::{group_name, groups};
use crate::workbench::sweep::{Difference, Sweep};
use std::fmt::Write;

/// A figure with its interval, or a dash where the point has none.
pub fn cell(unit: Unit, e: Option<&Estimate>) -> String {
    let Some(e) = e else {
        return "—".to_owned();
    };
    match unit {
        Unit::Share => format!(
            "{}% [{}, {}]",
            decimal(100.0 * e.estimate, 1, false),
            decimal(100.0 * e.ci95[0], 1, false),
            decimal(100.0 * e.ci95[1], 1, false)
        ),
        _ => format!(
            "{} [{}, {}]",
            decimal(e.estimate, 2, false),
            decimal(e.ci95[0], 2, false),
            decimal(e.ci95[1], 2, false)
        ),
    }
}

use crate::kit::words::plural;

/// The sweep as text.
pub fn text(sweep: &Sweep) -> String {
    let mut out = String::new();
    let groups = groups(&sweep.axes);
    let paths: Vec<String> = groups
        .iter()
        .map(|g| group_name(&sweep.axes[g.clone()]))
        .collect();
    let bots = if sweep.rotated {
        format!("bots {} turning seats", sweep.bots.join(","))
    } else {
        let mut kinds = sweep.bots.clone();
        kinds.dedup();
        kinds.join(",")
    };
    writeln!(
        out,
        "{}: sweep of {} over {}, {} each on the same seeds, {}, {bots}; seed {}",
        sweep.head.title,
        paths.join(" × "),
        if groups.len() > 1 {
            plural(sweep.rows.len() as u64, "combination", "combinations")
        } else {
            plural(sweep.rows.len() as u64, "value", "values")
        },
        plural(sweep.head.games, "game", "games"),
        plural(sweep.head.players as u64, "player", "players"),
        sweep.head.seed
    )
    .unwrap();
    writeln!(out, "variant: {}", sweep.variant).unwrap();
    writeln!(
        out,
        "each figure: its mean over the games [95% interval]; a share in percent [Wilson interval]"
    )
    .unwrap();
    let all: Vec<usize> = (0..sweep.rows.len()).collect();
    table(&mut out, sweep, &all, |r, f| {
        cell(sweep.figures[f].unit, sweep.rows[r].figures[f].as_ref())
    });
    let others: Vec<usize> = all.into_iter().filter(|&r| r != sweep.base).collect();
    if let Some(named) = sweep.base_named() {
        writeln!(
            out,
            "\ndifferences from the base row ({named}), game by game: each figure minus the base row's [95% interval]; * significant after Holm's correction across {}",
            plural(sweep.tests as u64, "difference", "differences")
        )
        .unwrap();
        table(&mut out, sweep, &others, |r, f| {
            difference(sweep.figures[f].unit, sweep.rows[r].differences[f].as_ref())
        });
    }
    out
}

/// A difference from the base row with its interval and `*` when
/// significant, or a dash where there is none.
fn difference(unit: Unit, d: Option<&Difference>) -> String {
    let Some(d) = d else {
        return "—".to_owned();
    };
    let e = &d.difference;
    let mark = if d.significant { " *" } else { "  " };
    let (scale, places) = if unit == Unit::Share {
        (100.0, 1)
    } else {
        (1.0, 2)
    };
    let show = |x: f64| decimal(scale * x, places, true);
    let unit = if unit == Unit::Share { " pp" } else { "" };
    if e.ci95[0] == e.ci95[1] {
        // No spread: the difference is this in every game.
        return format!("{}{unit} in every game{mark}", show(e.estimate));
    }
    format!(
        "{}{unit} [{}, {}]{mark}",
        show(e.estimate),
        show(e.ci95[0]),
        show(e.ci95[1])
    )
}

/// `rows` of the sweep as a table: one column per axis, then one per
/// figure (`cell(row, figure)`), each as wide as its widest line.
fn table(out: &mut String, sweep: &Sweep, rows: &[usize], cell: impl Fn(usize, usize) -> String) {
    let mut columns: Vec<Vec<String>> = Vec::new();
    for (a, axis) in sweep.axes.iter().enumerate() {
        let mut column = vec![axis.path.clone(), String::new()];
        column.extend(rows.iter().map(|&r| sweep.rows[r].values[a].to_string()));
        columns.push(column);
    }
    for (f, figure) in sweep.figures.iter().enumerate() {
        let mut column = vec![figure.id.clone(), figure.label.clone()];
        column.extend(rows.iter().map(|&r| cell(r, f)));
        columns.push(column);
    }
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    out.push('\n');
    for line in 0..rows.len() + 2 {
        let mut text = String::from(" ");
        for (c, column) in columns.iter().enumerate() {
            let cell = &column[line];
            let pad = widths[c] - cell.chars().count();
            text.push_str("  ");
            if c < sweep.axes.len() || line < 2 {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            } else {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            }
        }
        writeln!(out, "{}", text.trim_end()).unwrap();
    }
}

/// The sweep as one line of JSON (`sunfold schema sweep-report`).
pub fn json(sweep: &Sweep) -> String {
    serde_json::to_string(sweep).expect("a sweep serializes")
}
