//! The drawn sweep of `sunfold sweep -o`, in the style of the comparison
//! and ladder reports (their heading, text styles, ticks and footer):
//!
//! - the heading: the game, the games and players, the seed, the variant
//!   swept from, what was swept;
//! - one panel per figure, two to a row: the figure against the values of
//!   the first `--set`, the line through the means, the band its 95%
//!   interval. With several `--set`s, one line per combination of the
//!   others' values, told apart by colour, dash and marker (their bands
//!   drawn as thin edges, so that none hides another), with a legend;
//! - a point with no such figure leaves a gap in its line.
//!
//! Panels go on as many pages as they need.
//!
//! Its text and JSON are in [`text`].

pub mod text;

use crate::render::chart::{PALETTE, dash, marker};
use crate::render::paper::{MARGIN, Paper};
use crate::render::scene::{Anchor, Canvas, Color, Frame, Item, Scene, Stroke, Weight};
use crate::render::text::Fonts;
use crate::report::kit::page::{FOOTER, with_footers};
use crate::report::kit::style::{
    BODY, BODY_BOLD, Font, GRID, SMALL, SMALL_GREY, font, plural, width_of, wrap, write,
};
use crate::report::kit::ticks::{decimals, nice_step};
use crate::stats::Unit;
use crate::workbench::sweep::spec::{group_name, groups};
use crate::workbench::sweep::{SetValue, Sweep};

const NOTE: Font = font(2.7, Weight::Regular, Color::GREY);
const VARIANT: Font = font(3.0, Weight::Regular, Color::BLACK);
/// A panel's height, its gap to the next, and the gap between columns.
const PANEL_H: f32 = 68.0;
const PANEL_GAP: f32 = 6.0;
const COLUMN_GAP: f32 = 8.0;
/// Inside a panel: the title line, the y labels' column, the x axis below.
const TITLE_H: f32 = 9.0;
const Y_LABELS: f32 = 12.0;
const X_AXIS: f32 = 10.0;
/// A legend line.
const LEGEND_LINE: f32 = 4.6;

/// The size `Canvas::heading` writes a title in.
const TITLE_SIZE: f32 = 7.0;

const FRAME: Frame = Frame {
    scale: 1.0,
    dx: MARGIN,
    dy: MARGIN,
};

/// The colour of series `i` mixed with white: its band.
fn tint(i: usize) -> Color {
    let Color(r, g, b) = PALETTE[i % PALETTE.len()];
    let mix = |v: u8| (f32::from(v) + (255.0 - f32::from(v)) * 0.78).round() as u8;
    Color(mix(r), mix(g), mix(b))
}

/// The lines of a panel: one per combination of the values of every axis
/// but the first, each with the rows it runs through, in the order of the
/// first axis's values.
struct Lines {
    /// `axis=value, …` of each line; empty with one axis.
    labels: Vec<String>,
    /// Per line, per value of the first axis, the row.
    rows: Vec<Vec<usize>>,
}

fn lines(sweep: &Sweep) -> Lines {
    let first = sweep.axes.first().map_or(0, |a| a.values.len()).max(1);
    // The axes linked to the first move along x with it.
    let along = groups(&sweep.axes).first().map_or(1, |g| g.end);
    let count = (sweep.rows.len() / first).max(1);
    // Rows run with the first axis outermost: row = v * count + line.
    let rows = (0..count)
        .map(|l| (0..first).map(|v| v * count + l).collect())
        .collect();
    let labels = (0..count)
        .map(|l| {
            sweep.rows.get(l).map_or(String::new(), |row| {
                sweep
                    .axes
                    .iter()
                    .zip(&row.values)
                    .skip(along)
                    .map(|(a, v)| format!("{}={v}", a.path))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        })
        .collect();
    Lines { labels, rows }
}

/// Where the first axis's values go along x, from 0 to 1: by their
/// number when every one is a number, else evenly in the order given.
fn positions(values: &[SetValue]) -> Vec<f32> {
    let numbers: Option<Vec<f64>> = values.iter().map(SetValue::number).collect();
    match numbers {
        Some(n) if n.len() > 1 => {
            let lo = n.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = n.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if hi > lo {
                // Half a step of room at each end.
                let pad = (hi - lo) / (2.0 * (n.len() - 1) as f64);
                n.iter()
                    .map(|x| ((x - lo + pad) / (hi - lo + 2.0 * pad)) as f32)
                    .collect()
            } else {
                vec![0.5; n.len()]
            }
        }
        _ => (0..values.len())
            .map(|i| (i as f32 + 0.5) / values.len().max(1) as f32)
            .collect(),
    }
}

/// A figure's value axis: round ticks over every mean and interval drawn.
struct Scale {
    lo: f64,
    hi: f64,
    step: f64,
    unit: Unit,
}

impl Scale {
    fn new(sweep: &Sweep, f: usize) -> Scale {
        let unit = sweep.figures[f].unit;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for e in sweep.rows.iter().filter_map(|r| r.figures[f].as_ref()) {
            for v in [e.estimate, e.ci95[0], e.ci95[1]] {
                if v.is_finite() {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        if unit == Unit::Share {
            (lo, hi) = (lo.max(0.0), hi.min(1.0));
        }
        if hi - lo < 1e-9 {
            let room = if unit == Unit::Share { 0.05 } else { 1.0 };
            (lo, hi) = (lo - room, hi + room);
        }
        let step = nice_step((hi - lo) / 4.0);
        let lo = (lo / step + 1e-9).floor() * step;
        let hi = ((hi / step - 1e-9).ceil() * step).max(lo + step);
        Scale { lo, hi, step, unit }
    }

    /// y of `value` in a plot from `top` down `h`.
    fn y(&self, value: f64, (top, h): (f32, f32)) -> f32 {
        let t = ((value - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0);
        top + h - t as f32 * h
    }

    fn ticks(&self) -> Vec<f64> {
        let first = (self.lo / self.step).round() as i64;
        let last = (self.hi / self.step).round() as i64;
        (first..=last).map(|k| k as f64 * self.step).collect()
    }

    fn label(&self, tick: f64) -> String {
        match self.unit {
            Unit::Share => {
                let places = decimals(100.0 * self.step);
                format!("{:.places$}%", clean(100.0 * tick))
            }
            _ => {
                let places = decimals(self.step);
                format!("{:.places$}", clean(tick))
            }
        }
    }
}

fn clean(x: f64) -> f64 {
    if x.abs() < 1e-9 { 0.0 } else { x }
}

/// What the x axis is: the first axis and those linked to it.
fn first_name(sweep: &Sweep) -> String {
    groups(&sweep.axes)
        .first()
        .map_or(String::new(), |g| group_name(&sweep.axes[g.clone()]))
}

/// The sweep drawn on pages of `paper`.
pub fn report(sweep: &Sweep, paper: Paper) -> Scene {
    let (page_w, page_h) = paper.size();
    let width = page_w - 2.0 * MARGIN;
    let height = page_h - 2.0 * MARGIN;
    let bottom = height - FOOTER;
    let swept: Vec<String> = groups(&sweep.axes)
        .into_iter()
        .map(|g| group_name(&sweep.axes[g]))
        .collect();
    let long = format!("{}: sweep of {}", sweep.head.title, swept.join(" × "));
    let title = if Fonts::builtin().width(&long, TITLE_SIZE, Weight::Bold) <= width {
        long
    } else {
        format!("{}: sweep", sweep.head.title)
    };
    let lines = lines(sweep);
    let mut pages: Vec<Vec<Item>> = vec![Vec::new()];
    let mut y = {
        let mut c = Canvas {
            items: &mut pages[0],
            frame: FRAME,
        };
        heading(&mut c, width, sweep, &title, &lines)
    };
    let columns = if width > 150.0 { 2 } else { 1 };
    let panel_w = (width - COLUMN_GAP * (columns - 1) as f32) / columns as f32;
    for (f, figure) in sweep.figures.iter().enumerate() {
        let column = f % columns;
        if column == 0 && f > 0 {
            y += PANEL_H + PANEL_GAP;
        }
        if column == 0 && y + PANEL_H > bottom {
            pages.push(Vec::new());
            y = 0.0;
        }
        let x = column as f32 * (panel_w + COLUMN_GAP);
        let mut c = Canvas {
            items: pages.last_mut().expect("a page"),
            frame: FRAME,
        };
        c.group(figure.id.clone(), |c| {
            panel(c, (x, y, panel_w, PANEL_H), sweep, f, &lines)
        });
    }
    let footer = format!(
        "{title} · {} per value · seed {}",
        plural(sweep.head.games, "game", "games"),
        sweep.head.seed
    );
    let pages = with_footers(pages, FRAME, (page_w, page_h), (width, height), &footer);
    Scene { title, pages }
}

/// The title, the batch, the variant, how to read the panels and the
/// legend; returns where they end.
fn heading(c: &mut Canvas, width: f32, sweep: &Sweep, title: &str, lines: &Lines) -> f32 {
    let bots = if sweep.rotated {
        format!("bots {} turning seats", sweep.bots.join(", "))
    } else {
        let mut kinds = sweep.bots.clone();
        kinds.dedup();
        kinds.join(", ")
    };
    let caption = format!(
        "{} per value, the same games at every value, {}, {bots}; seed {}.",
        plural(sweep.head.games, "game", "games"),
        plural(sweep.head.players as u64, "player", "players"),
        sweep.head.seed
    );
    let counts: Vec<String> = groups(&sweep.axes)
        .into_iter()
        .map(|g| {
            format!(
                "{} ({})",
                group_name(&sweep.axes[g.clone()]),
                plural(sweep.axes[g.start].values.len() as u64, "value", "values")
            )
        })
        .collect();
    let status = format!(
        "swept: {}; {}",
        counts.join(" × "),
        plural(sweep.rows.len() as u64, "point", "points")
    );
    c.heading(Fonts::builtin(), width, title, &caption, &status);
    let mut y = 26.5;
    let mut texts = vec![format!("Swept from: {}", sweep.variant)];
    for a in &sweep.axes {
        let mut shown: Vec<String> = a.values.iter().map(ToString::to_string).collect();
        if shown.len() > 12 {
            let last = shown.split_off(shown.len() - 2);
            shown.truncate(5);
            shown.push("…".to_owned());
            shown.extend(last);
        }
        texts.push(format!("{} = {}", a.path, shown.join(", ")));
    }
    for text in &texts {
        for line in wrap(text, VARIANT, width, 3) {
            write(c, (0.0, y), width, VARIANT, Anchor::Start, line);
            y += 4.0;
        }
    }
    let first = first_name(sweep);
    let note = if lines.rows.len() > 1 {
        format!(
            "Each panel: one figure against {first}, one line per combination of the other values, the lines set a little apart. A marker is the mean over the games, the bar through it the 95% interval. A gap: that value has no such figure."
        )
    } else {
        format!(
            "Each panel: one figure against {first}. A marker is the mean over the games, the band its 95% interval. A gap: that value has no such figure."
        )
    };
    let note = match sweep.base_named() {
        Some(named) => format!(
            "{note} A star: the value differs from the base row ({named}), game by game, after Holm's correction across {}.",
            plural(sweep.tests as u64, "difference", "differences")
        ),
        None => note,
    };
    for line in wrap(&note, NOTE, width, 4) {
        write(c, (0.0, y), width, NOTE, Anchor::Start, line);
        y += 3.6;
    }
    if lines.rows.len() > 1 {
        y += 1.5;
        let widest = lines
            .labels
            .iter()
            .map(|l| width_of(l, BODY))
            .fold(0.0, f32::max);
        let per_line = ((width / (widest + 12.0)).floor() as usize).clamp(1, 4);
        let room = width / per_line as f32;
        for (i, label) in lines.labels.iter().enumerate() {
            let lx = (i % per_line) as f32 * room;
            let ly = y + (i / per_line) as f32 * LEGEND_LINE;
            let color = PALETTE[i % PALETTE.len()];
            let stroke = Stroke {
                color,
                width: 0.45,
                dash: dash(i),
            };
            c.line(lx, ly - 0.9, lx + 7.0, ly - 0.9, stroke);
            marker(c, i, lx + 3.5, ly - 0.9, color);
            write(c, (lx + 8.5, ly), room - 10.0, BODY, Anchor::Start, label);
        }
        y += lines.rows.len().div_ceil(per_line) as f32 * LEGEND_LINE;
    }
    y + 3.0
}

/// One figure's panel in the box `(x, y, w, h)`.
fn panel(
    c: &mut Canvas,
    (x, y, w, h): (f32, f32, f32, f32),
    sweep: &Sweep,
    f: usize,
    lines: &Lines,
) {
    let figure = &sweep.figures[f];
    write(
        c,
        (x, y + 4.0),
        w,
        BODY_BOLD,
        Anchor::Start,
        figure.id.as_str(),
    );
    let id_w = width_of(&figure.id, BODY_BOLD) + 2.0;
    if id_w + 12.0 < w {
        let at = (x + id_w, y + 4.0);
        write(c, at, w - id_w, SMALL_GREY, Anchor::Start, &figure.label);
    }
    let scale = Scale::new(sweep, f);
    let (px, pw) = (x + Y_LABELS, w - Y_LABELS - 1.0);
    let (top, ph) = (y + TITLE_H, h - TITLE_H - X_AXIS);
    let plot = (top, ph);
    // Grid and value labels.
    for t in scale.ticks() {
        let ty = scale.y(t, plot);
        c.line(px, ty, px + pw, ty, Stroke::solid(GRID, 0.2));
        let at = (px - 1.2, ty + 0.9);
        write(c, at, Y_LABELS - 1.5, SMALL, Anchor::End, scale.label(t));
    }
    let axis = Stroke::solid(Color::BLACK, 0.3);
    c.line(px, top + ph, px + pw, top + ph, axis);
    c.line(px, top, px, top + ph, axis);
    // The first axis's values.
    let empty = Vec::new();
    let values = sweep.axes.first().map_or(&empty, |a| &a.values);
    let xs: Vec<f32> = positions(values).iter().map(|t| px + t * pw).collect();
    let labels: Vec<String> = values.iter().map(ToString::to_string).collect();
    let widest = labels
        .iter()
        .map(|l| width_of(l, SMALL))
        .fold(0.0, f32::max);
    let room = pw / values.len().max(1) as f32;
    let every = ((widest + 1.5) / room).ceil().max(1.0) as usize;
    for (i, (&vx, label)) in xs.iter().zip(&labels).enumerate() {
        c.line(vx, top + ph, vx, top + ph + 1.0, axis);
        if i % every == 0 {
            let at = (vx, top + ph + 3.8);
            write(c, at, room * every as f32, SMALL, Anchor::Middle, label);
        }
    }
    let name = first_name(sweep);
    let at = (px + pw / 2.0, top + ph + 8.0);
    write(c, at, pw, SMALL_GREY, Anchor::Middle, name);
    // One line: its band first, the line and markers over it. Several:
    // each point's interval as a bar, the lines set a little apart so
    // that no bar hides another.
    let several = lines.rows.len() > 1;
    let point = |row: usize| sweep.rows.get(row).and_then(|r| r.figures[f].as_ref());
    let spread = (room * 0.5).min(1.1 * lines.rows.len() as f32);
    let offset = |l: usize| {
        if several {
            spread * (l as f32 / (lines.rows.len() - 1) as f32 - 0.5)
        } else {
            0.0
        }
    };
    for (l, rows) in lines.rows.iter().enumerate() {
        let color = PALETTE[l % PALETTE.len()];
        for run in runs(rows, &point) {
            let dx = offset(l);
            let upper: Vec<(f32, f32)> = run
                .iter()
                .map(|&(v, e)| (xs[v] + dx, scale.y(e.ci95[1], plot)))
                .collect();
            let lower: Vec<(f32, f32)> = run
                .iter()
                .map(|&(v, e)| (xs[v] + dx, scale.y(e.ci95[0], plot)))
                .collect();
            if several {
                for (&(bx, top), &(_, bottom)) in upper.iter().zip(&lower) {
                    c.line(bx, top, bx, bottom, Stroke::solid(color, 0.3));
                }
            } else if run.len() > 1 {
                let mut band = upper.clone();
                band.extend(lower.iter().rev());
                c.lines(&band, true, Some(tint(l)), None);
            } else {
                // One point alone: its interval as a bar.
                let (bx, top) = upper[0];
                let (_, bottom) = lower[0];
                c.rect(bx - 1.0, top, 2.0, bottom - top, 0.0, Some(tint(l)), None);
            }
        }
    }
    for (l, rows) in lines.rows.iter().enumerate() {
        let color = PALETTE[l % PALETTE.len()];
        let stroke = Stroke {
            color,
            width: 0.45,
            dash: if several { dash(l) } else { None },
        };
        for run in runs(rows, &point) {
            let line: Vec<(f32, f32)> = run
                .iter()
                .map(|&(v, e)| (xs[v] + offset(l), scale.y(e.estimate, plot)))
                .collect();
            if line.len() > 1 {
                c.lines(&line, false, None, Some(stroke));
            }
            for &(mx, my) in &line {
                marker(c, if several { l } else { 0 }, mx, my, color);
            }
            // A star over each value that differs from the base row.
            for &(v, e) in &run {
                if sweep.rows[rows[v]].differences[f].is_some_and(|d| d.significant) {
                    let at = (xs[v] + offset(l), scale.y(e.ci95[1], plot) - 0.8);
                    write(c, at, 4.0, SMALL, Anchor::Middle, "*");
                }
            }
        }
    }
}

/// The stretches of a line with a figure at every value: `(value index,
/// estimate)`, a point without the figure ending a stretch.
fn runs<'a>(
    rows: &[usize],
    point: &impl Fn(usize) -> Option<&'a crate::stats::Estimate>,
) -> Vec<Vec<(usize, &'a crate::stats::Estimate)>> {
    let mut runs = Vec::new();
    let mut current = Vec::new();
    for (v, &row) in rows.iter().enumerate() {
        match point(row) {
            Some(e) if e.estimate.is_finite() => current.push((v, e)),
            _ => {
                if !current.is_empty() {
                    runs.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_placed_by_value_and_words_evenly() {
        let n = |v: &[i64]| positions(&v.iter().map(|&x| SetValue::Integer(x)).collect::<Vec<_>>());
        let at = n(&[26, 28, 32]);
        let expected = [1.5 / 9.0, 3.5 / 9.0, 7.5 / 9.0];
        assert!(
            at.iter().zip(expected).all(|(a, e)| (a - e).abs() < 1e-6),
            "{at:?}"
        );
        let words = [SetValue::Text("exact".into()), SetValue::Text("x".into())];
        assert_eq!(positions(&words), vec![0.25, 0.75]);
        assert_eq!(n(&[5]), vec![0.5]);
    }
}
