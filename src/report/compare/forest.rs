//! Forest panels: the figures grouped into panels of one section and one
//! unit, each panel's scale and axis, its value columns, and drawing a
//! panel of differences (or of A's estimates) or of figures only one
//! variant has.

use crate::render::scene::{Anchor, Canvas, Color, Stroke};
use crate::report::kit::style::{
    BODY, BODY_BOLD, BODY_GREY, GRID, MUTED, NOTE, PANEL_HEAD, SMALL_GREY, STRIPE, write,
};
use crate::report::kit::ticks::{axis, decimals, nice_step};
use crate::stats::{Estimate, Section, Unit};
use crate::workbench::Row;

/// A panel's title line, which also carries the column headers.
pub(super) const PANEL_TITLE: f32 = 6.0;
pub(super) const ROW: f32 = 5.0;
/// The axis under a panel's rows: ticks, tick labels and the unit.
pub(super) const AXIS: f32 = 9.0;

/// What a panel's rows show.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// B – A, against a line at 0.
    Difference,
    /// A alone (a `simulate` report).
    Estimate,
    /// The value of a figure that only A or only B has.
    Single,
}

/// The figures of one section and one unit, on one scale.
pub(super) struct Panel<'a> {
    pub(super) title: String,
    pub(super) unit: Unit,
    pub(super) rows: Vec<&'a Row>,
}

impl Panel<'_> {
    /// How many lines of rows the panel draws.
    pub(super) fn lines(&self, mode: Mode) -> usize {
        if mode == Mode::Single {
            let only_a = self.rows.iter().filter(|r| r.a.is_some()).count();
            only_a.max(self.rows.len() - only_a)
        } else {
            self.rows.len()
        }
    }
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Points => "points",
        Unit::Share => "shares",
        Unit::Count => "counts",
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The rows grouped by section, in section order, and within a section by
/// unit, in the order the units first appear (for single figures, which
/// need no common scale, by section alone).
pub(super) fn panels<'a>(rows: &[&'a Row], mode: Mode) -> Vec<Panel<'a>> {
    let mut sections: Vec<Section> = rows.iter().map(|r| r.metric.section).collect();
    sections.sort();
    sections.dedup();
    let mut panels = Vec::new();
    for section in sections {
        let of_section = || {
            rows.iter()
                .copied()
                .filter(move |r| r.metric.section == section)
        };
        let mut units: Vec<Unit> = Vec::new();
        for row in of_section() {
            if !units.contains(&row.metric.unit) {
                units.push(row.metric.unit);
            }
        }
        let title = capitalised(section.title());
        if mode == Mode::Single {
            panels.push(Panel {
                title,
                unit: units[0],
                rows: of_section().collect(),
            });
            continue;
        }
        for &unit in &units {
            panels.push(Panel {
                title: if units.len() > 1 {
                    format!("{title} – {}", unit_name(unit))
                } else {
                    title.clone()
                },
                unit,
                rows: of_section().filter(|r| r.metric.unit == unit).collect(),
            });
        }
    }
    panels
}

/// What a panel's rows draw: the difference, or A's estimate.
fn shown(row: &Row, mode: Mode) -> Option<Estimate> {
    let e = match mode {
        Mode::Difference => row.difference,
        Mode::Estimate => row.a,
        Mode::Single => None,
    }?;
    (e.estimate.is_finite() && e.ci95.iter().all(|v| v.is_finite())).then_some(e)
}

/// A panel's axis, in the units a person reads (shares as percent).
pub(super) struct Scale {
    lo: f64,
    hi: f64,
    step: f64,
    /// From the report's unit to the axis's: 100 for shares.
    factor: f64,
}

impl Scale {
    pub(super) fn new(panel: &Panel, mode: Mode) -> Scale {
        let factor = precision(panel.unit).0;
        // A difference is always seen against 0.
        let (mut lo, mut hi) = if mode == Mode::Difference {
            (0.0, 0.0)
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        };
        for e in panel.rows.iter().filter_map(|r| shown(r, mode)) {
            lo = lo.min(e.ci95[0] * factor).min(e.estimate * factor);
            hi = hi.max(e.ci95[1] * factor).max(e.estimate * factor);
        }
        if !(lo.is_finite() && hi.is_finite()) {
            (lo, hi) = (0.0, 0.0);
        }
        if hi - lo < 1e-4 {
            // Nothing to spread (a variant against itself): one unit, or one
            // percentage point, either side.
            let centre = (lo + hi) / 2.0;
            (lo, hi) = (centre - 1.0, centre + 1.0);
            if mode == Mode::Estimate && panel.unit == Unit::Share {
                if hi > 100.0 {
                    (lo, hi) = (lo - (hi - 100.0), 100.0);
                }
                if lo < 0.0 {
                    (lo, hi) = (0.0, hi - lo);
                }
            }
        }
        let step = nice_step((hi - lo) / 5.0);
        let lo = (lo / step + 1e-9).floor() * step;
        let hi = ((hi / step - 1e-9).ceil() * step).max(lo + step);
        Scale {
            lo,
            hi,
            step,
            factor,
        }
    }

    /// Where `value`, in the report's unit, falls in a plot from `x` of width `w`.
    fn x(&self, value: f64, x: f32, w: f32) -> f32 {
        let t = (value * self.factor - self.lo) / (self.hi - self.lo);
        x + (t.clamp(0.0, 1.0) as f32) * w
    }

    /// The ticks, in the axis's unit.
    fn ticks(&self) -> Vec<f64> {
        let first = (self.lo / self.step).round() as i64;
        let last = (self.hi / self.step).round() as i64;
        (first..=last)
            .map(|k| if k == 0 { 0.0 } else { k as f64 * self.step })
            .collect()
    }

    fn tick_label(&self, tick: f64, unit: Unit, mode: Mode) -> String {
        let places = decimals(self.step);
        match mode {
            _ if tick == 0.0 && mode == Mode::Difference => "0".to_owned(),
            Mode::Difference => format!("{tick:+.places$}"),
            _ if unit == Unit::Share => format!("{tick:.places$}%"),
            _ => format!("{tick:.places$}"),
        }
    }
}

fn axis_label(unit: Unit, mode: Mode) -> &'static str {
    match (mode, unit) {
        (Mode::Difference, Unit::Points) => "B – A, in points",
        (Mode::Difference, Unit::Share) => "B – A, in percentage points",
        (Mode::Difference, Unit::Count) => "B – A, as a count",
        (_, Unit::Points) => "points",
        (_, Unit::Share) => "percent",
        (_, Unit::Count) => "count",
    }
}

/// How a unit's numbers are shown: the factor (shares as percent) and
/// the decimals `Unit::show` uses.
fn precision(unit: Unit) -> (f64, usize) {
    match unit {
        Unit::Share => (100.0, 1),
        Unit::Points | Unit::Count => (1.0, 2),
    }
}

/// `value` rounded to `places` decimals, without a negative zero.
fn rounded(value: f64, places: usize) -> f64 {
    let p = 10f64.powi(places as i32);
    let r = (value * p).round() / p;
    if r == 0.0 { 0.0 } else { r }
}

/// `value` in the report's unit, rounded to what `Unit::show` prints, so
/// that a tiny negative number does not print as "-0.0".
fn shown_value(unit: Unit, value: f64) -> f64 {
    let (factor, places) = precision(unit);
    rounded(value * factor, places) / factor
}

/// `value` with `places` decimals; 0 without a sign.
fn number(value: f64, places: usize, signed: bool) -> String {
    let r = rounded(value, places);
    if signed && r != 0.0 {
        format!("{r:+.places$}")
    } else {
        format!("{r:.places$}")
    }
}

/// A row's value and its interval as text. A significant difference gets
/// more decimals than usual when the usual ones would round it, or an end
/// of its interval, to 0.
fn value_texts(unit: Unit, e: &Estimate, mode: Mode, significant: bool) -> (String, String) {
    let (factor, usual) = precision(unit);
    let mut places = usual;
    while significant
        && places < usual + 4
        && [e.estimate, e.ci95[0], e.ci95[1]]
            .iter()
            .any(|&v| rounded(v * factor, places) == 0.0)
    {
        places += 1;
    }
    let signed = mode == Mode::Difference;
    let interval = format!(
        "[{}, {}]",
        number(e.ci95[0] * factor, places, signed),
        number(e.ci95[1] * factor, places, signed)
    );
    let value = match mode {
        _ if places > usual => {
            let suffix = if unit == Unit::Share { " pp" } else { "" };
            format!("{}{suffix}", number(e.estimate * factor, places, true))
        }
        Mode::Difference => unit.show_difference(shown_value(unit, e.estimate)),
        Mode::Estimate | Mode::Single => unit.show(shown_value(unit, e.estimate)),
    };
    (value, interval)
}

/// The columns of a panel, from its left edge.
struct Columns {
    /// Width of the labels.
    label: f32,
    /// Left edge and width of the plot.
    plot: (f32, f32),
    /// Right edge and width of the estimate.
    value: (f32, f32),
    /// Left edge and width of the interval.
    interval: (f32, f32),
    /// Right edges of A's and B's values, when there is room for them.
    a_b: Option<(f32, f32)>,
    ab_width: f32,
}

impl Columns {
    fn new(width: f32, mode: Mode) -> Columns {
        let gap = 2.5;
        let (value_w, interval_w, ab_width) = (15.0, 23.0, 12.0);
        let ab = mode == Mode::Difference && width >= 150.0;
        let ab_w = if ab { 2.0 * (ab_width + gap) } else { 0.0 };
        // What the label and the plot share.
        let rest = width - value_w - interval_w - 2.0 * gap - ab_w;
        let label = (rest * 0.36).clamp(28.0, 50.0);
        let value_right = rest + value_w;
        Columns {
            label,
            plot: (label + gap, rest - label - 2.0 * gap),
            value: (value_right, value_w),
            interval: (value_right + gap, interval_w),
            a_b: ab.then_some((width - ab_width - gap, width)),
            ab_width,
        }
    }
}

/// One forest panel: a title line with the column headers, one row per
/// figure, the axis. `head` is the top, the width and the title.
pub(super) fn draw_panel(
    c: &mut Canvas,
    (y, width, title): (f32, f32, &str),
    unit: Unit,
    rows: &[&Row],
    scale: &Scale,
    mode: Mode,
) {
    let cols = Columns::new(width, mode);
    let (plot_x, plot_w) = cols.plot;
    let (value_right, value_w) = cols.value;
    let (interval_left, interval_w) = cols.interval;
    let base = y + 4.3;
    let title_w = cols.label + plot_w;
    write(c, (0.0, base), title_w, PANEL_HEAD, Anchor::Start, title);
    let value_head = if mode == Mode::Difference {
        "B – A"
    } else {
        "mean"
    };
    write(
        c,
        (value_right, base),
        value_w,
        SMALL_GREY,
        Anchor::End,
        value_head,
    );
    let interval_head = "95% interval";
    write(
        c,
        (interval_left, base),
        interval_w,
        SMALL_GREY,
        Anchor::Start,
        interval_head,
    );
    if let Some((a_right, b_right)) = cols.a_b {
        write(
            c,
            (a_right, base),
            cols.ab_width,
            SMALL_GREY,
            Anchor::End,
            "A",
        );
        write(
            c,
            (b_right, base),
            cols.ab_width,
            SMALL_GREY,
            Anchor::End,
            "B",
        );
    }

    let rows_top = y + PANEL_TITLE;
    let rows_bottom = rows_top + rows.len() as f32 * ROW;
    c.line(
        0.0,
        rows_top,
        width,
        rows_top,
        Stroke::solid(Color::GREY, 0.25),
    );
    for i in (1..rows.len()).step_by(2) {
        let top = rows_top + i as f32 * ROW;
        c.rect(0.0, top, width, ROW, 0.0, Some(STRIPE), None);
    }
    let ticks = scale.ticks();
    let to_x = |tick: f64| scale.x(tick / scale.factor, plot_x, plot_w);
    for &t in &ticks {
        c.line(
            to_x(t),
            rows_top,
            to_x(t),
            rows_bottom,
            Stroke::solid(GRID, 0.2),
        );
    }
    if mode == Mode::Difference {
        let zx = to_x(0.0);
        c.line(
            zx,
            rows_top,
            zx,
            rows_bottom + 1.0,
            Stroke::solid(Color::BLACK, 0.35),
        );
    }

    for (i, row) in rows.iter().enumerate() {
        let mid = rows_top + (i as f32 + 0.5) * ROW;
        let base = mid + 1.0;
        let significant = mode == Mode::Difference && row.significant();
        // Drawn in black: what is significant, and every estimate of A alone.
        let strong = significant || mode == Mode::Estimate;
        let label_font = if significant { BODY_BOLD } else { BODY };
        let label = row.metric.label.clone();
        write(
            c,
            (1.0, base),
            cols.label - 1.5,
            label_font,
            Anchor::Start,
            label,
        );
        match shown(row, mode) {
            Some(e) => {
                let ink = if strong { Color::BLACK } else { MUTED };
                let x0 = scale.x(e.ci95[0], plot_x, plot_w);
                let x1 = scale.x(e.ci95[1], plot_x, plot_w);
                let thick = if strong { 0.9 } else { 0.5 };
                let bar = (x1 - x0).max(0.0);
                c.rect(x0, mid - thick / 2.0, bar, thick, 0.0, Some(ink), None);
                // Caps, unless the dot would hide them.
                if bar > 3.0 {
                    for cap in [x0, x1] {
                        c.line(cap, mid - 1.1, cap, mid + 1.1, Stroke::solid(ink, 0.3));
                    }
                }
                let mx = scale.x(e.estimate, plot_x, plot_w);
                if strong {
                    c.circle(mx, mid, 1.15, Some(Color::BLACK), None);
                } else {
                    let outline = Some(Stroke::solid(Color::BLACK, 0.3));
                    c.circle(mx, mid, 1.0, Some(Color::WHITE), outline);
                }
                let (value, interval) = value_texts(unit, &e, mode, significant);
                let value_font = if significant { BODY_BOLD } else { BODY };
                write(
                    c,
                    (value_right, base),
                    value_w,
                    value_font,
                    Anchor::End,
                    value,
                );
                let interval_font = if strong { BODY } else { BODY_GREY };
                let at = (interval_left, base);
                write(c, at, interval_w, interval_font, Anchor::Start, interval);
            }
            None => {
                let middle = (plot_x + plot_w / 2.0, base);
                write(c, middle, plot_w, NOTE, Anchor::Middle, "no value");
                write(c, (value_right, base), value_w, BODY_GREY, Anchor::End, "—");
            }
        }
        if let Some((a_right, b_right)) = cols.a_b {
            for (right, e) in [(a_right, row.a), (b_right, row.b)] {
                let text = e
                    .filter(|e| e.estimate.is_finite())
                    .map_or("—".to_owned(), |e| {
                        unit.show(shown_value(unit, e.estimate))
                    });
                write(c, (right, base), cols.ab_width, BODY, Anchor::End, text);
            }
        }
    }

    let labels: Vec<String> = ticks
        .iter()
        .map(|&t| scale.tick_label(t, unit, mode))
        .collect();
    axis(c, (plot_x, plot_w, rows_bottom), &ticks, labels, to_x);
    let unit_at = (plot_x + plot_w / 2.0, rows_bottom + 7.3);
    write(
        c,
        unit_at,
        plot_w,
        SMALL_GREY,
        Anchor::Middle,
        axis_label(unit, mode),
    );
}

/// Figures only A or only B has: A's on the left, B's on the right, each
/// with its value; `lines` rows tall. `head` is the top, the width and the
/// title.
pub(super) fn draw_single(
    c: &mut Canvas,
    (y, width, title): (f32, f32, &str),
    left: &[&Row],
    right: &[&Row],
    lines: usize,
) {
    let gap = 8.0;
    let half = (width - gap) / 2.0;
    let value_w = 14.0;
    let base = y + 4.3;
    write(
        c,
        (0.0, base),
        half - value_w - 3.0,
        PANEL_HEAD,
        Anchor::Start,
        title,
    );
    let rows_top = y + PANEL_TITLE;
    let rows_bottom = rows_top + lines as f32 * ROW;
    c.line(
        0.0,
        rows_top,
        width,
        rows_top,
        Stroke::solid(Color::GREY, 0.25),
    );
    for i in (1..lines).step_by(2) {
        let top = rows_top + i as f32 * ROW;
        c.rect(0.0, top, width, ROW, 0.0, Some(STRIPE), None);
    }
    let rule = Stroke::solid(Color::LIGHT, 0.3);
    c.line(width / 2.0, rows_top, width / 2.0, rows_bottom, rule);
    c.line(0.0, rows_bottom, width, rows_bottom, rule);
    for (x, rows, header, b) in [
        (0.0, left, "only in A", false),
        (half + gap, right, "only in B", true),
    ] {
        write(
            c,
            (x + half, base),
            value_w + 10.0,
            SMALL_GREY,
            Anchor::End,
            header,
        );
        if rows.is_empty() && lines > 0 {
            write(
                c,
                (x + 1.0, rows_top + ROW / 2.0 + 1.0),
                half,
                NOTE,
                Anchor::Start,
                "none",
            );
        }
        for (i, row) in rows.iter().enumerate() {
            let base = rows_top + (i as f32 + 0.5) * ROW + 1.0;
            let label = row.metric.label.clone();
            write(
                c,
                (x + 1.0, base),
                half - value_w - 3.0,
                BODY,
                Anchor::Start,
                label,
            );
            let unit = row.metric.unit;
            let value = if b { row.b } else { row.a }
                .filter(|e| e.estimate.is_finite())
                .map_or("—".to_owned(), |e| {
                    unit.show(shown_value(unit, e.estimate))
                });
            write(c, (x + half, base), value_w, BODY, Anchor::End, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_no_negative_zero() {
        assert_eq!(number(-0.0004, 2, true), "0.00");
        assert_eq!(number(-0.004, 2, true), "0.00");
        assert_eq!(number(-0.006, 2, true), "-0.01");
        assert_eq!(number(3.0, 1, true), "+3.0");
        assert_eq!(shown_value(Unit::Share, -0.0001), 0.0);
    }

    #[test]
    fn a_significant_tiny_difference_gets_more_decimals() {
        let e = Estimate {
            estimate: -0.0006,
            ci95: [-0.0012, -0.0001],
        };
        let (value, interval) = value_texts(Unit::Count, &e, Mode::Difference, true);
        assert_eq!(value, "-0.0006");
        assert_eq!(interval, "[-0.0012, -0.0001]");
        let e = Estimate {
            estimate: 0.25,
            ci95: [0.2, 0.3],
        };
        let (value, interval) = value_texts(Unit::Share, &e, Mode::Difference, true);
        assert_eq!(value, Unit::Share.show_difference(0.25));
        assert_eq!(interval, "[+20.0, +30.0]");
    }
}
