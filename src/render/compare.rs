//! The drawn report of `sunfold compare` (and of `simulate`, which has no
//! variant B): the score distributions of both variants side by side, and
//! every difference B – A with its 95% interval.
//!
//! Page 1 names the batch and the variants, draws the distribution of final
//! scores as grouped bars (A solid, B hatched, so that it reads in black and
//! white) with each variant's mean marked, then the significant differences.
//! The other differences follow on a new page, section by section, and last
//! the figures only one variant has (the zones of one sheet). Each
//! difference is one row of a forest plot: the estimate as a dot, its
//! interval as a bar, a line at 0. Figures of different units never share a
//! scale: each panel holds one section's figures of one unit, on its own
//! axis, labelled with that unit.

use super::paper::{MARGIN, Paper};
use super::scene::{Anchor, Canvas, Color, Frame, Item, Page, Scene, Stroke, Weight};
use super::text;
use crate::sim::{Estimate, Report, Row, Section, Unit, VariantInfo};

/// Variant A: solid fill.
const A_COLOR: Color = Color(20, 80, 180);
/// Variant B: hatched, on a light tint.
const B_COLOR: Color = Color(200, 70, 40);
const B_TINT: Color = Color(251, 228, 219);
/// Every other row of a panel.
const STRIPE: Color = Color(243, 243, 243);
/// The bars of what is not significant.
const MUTED: Color = Color(135, 135, 135);
const GRID: Color = Color(215, 215, 215);

/// Space kept at the bottom of every page for the footer.
const FOOTER: f32 = 7.0;
/// A block's title and its explanation.
const BLOCK_TITLE: f32 = 11.0;
/// A block's title on the pages it continues on.
const BLOCK_CONTINUED: f32 = 8.0;
/// A panel's title line, which also carries the column headers.
const PANEL_TITLE: f32 = 6.0;
const ROW: f32 = 5.0;
/// The axis under a panel's rows: ticks, tick labels and the unit.
const AXIS: f32 = 9.0;
const PANEL_GAP: f32 = 4.5;
/// The fewest rows of a panel worth starting at the bottom of a page.
const MIN_ROWS: usize = 3;
/// A panel of at most so many rows is never cut across pages.
const KEEP_TOGETHER: usize = 12;

/// A text style.
#[derive(Clone, Copy)]
struct Font {
    size: f32,
    weight: Weight,
    color: Color,
}

const fn font(size: f32, weight: Weight, color: Color) -> Font {
    Font {
        size,
        weight,
        color,
    }
}

const BODY: Font = font(2.8, Weight::Regular, Color::BLACK);
const BODY_BOLD: Font = font(2.8, Weight::Bold, Color::BLACK);
const BODY_GREY: Font = font(2.8, Weight::Regular, Color::GREY);
const NOTE: Font = font(2.8, Weight::Oblique, Color::GREY);
const SMALL: Font = font(2.5, Weight::Regular, Color::BLACK);
const SMALL_GREY: Font = font(2.5, Weight::Regular, Color::GREY);
const PANEL_HEAD: Font = font(3.5, Weight::Bold, Color::BLACK);
const BLOCK_HEAD: Font = font(4.6, Weight::Bold, Color::BLACK);

/// Writes `text` with its `anchor` at `(x, y)`, shrunk if it would be
/// wider than `max`.
fn write(
    c: &mut Canvas,
    (x, y): (f32, f32),
    max: f32,
    font: Font,
    anchor: Anchor,
    text: impl Into<String>,
) {
    c.text_fit(x, y, font.size, max, text, anchor, font.weight, font.color);
}

fn width_of(text: &str, font: Font) -> f32 {
    text::width(text, font.size, font.weight)
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The report as pages of `paper`.
pub fn report(report: &Report, paper: Paper) -> Scene {
    let (page_w, page_h) = paper.size();
    let width = page_w - 2.0 * MARGIN;
    let height = page_h - 2.0 * MARGIN;
    let mut pages = Pages {
        width,
        bottom: height - FOOTER,
        pages: vec![Vec::new()],
        y: 0.0,
    };
    let top = front(&mut pages.canvas(), width, report) + 4.0;
    let chart_h = (height * 0.3).clamp(56.0, 84.0);
    pages.canvas().group("distribution of final scores", |c| {
        distribution(c, (0.0, top, width, chart_h), report)
    });
    pages.y = top + chart_h + 6.0;
    for block in blocks(report) {
        if block.mode == Mode::Single && block.panels.is_empty() {
            continue;
        }
        if block.new_page {
            pages.new_page();
        }
        draw_block(&mut pages, &block);
    }

    let title = match report.b {
        Some(_) => format!("{}: comparison", report.title),
        None => format!("{}: simulation", report.title),
    };
    let games = match report.b {
        Some(_) => plural(report.games, "paired game", "paired games"),
        None => plural(report.games, "game", "games"),
    };
    let footer = format!("{title} · {games} · seed {}", report.seed);
    let count = pages.pages.len();
    let pages = pages
        .pages
        .into_iter()
        .enumerate()
        .map(|(i, mut items)| {
            let mut c = Canvas {
                items: &mut items,
                frame: Pages::FRAME,
            };
            let y = height - 1.0;
            let number = format!("page {} of {count}", i + 1);
            let room = width - width_of(&number, SMALL_GREY) - 5.0;
            c.line(
                0.0,
                y - 3.8,
                width,
                y - 3.8,
                Stroke::solid(Color::LIGHT, 0.2),
            );
            write(&mut c, (0.0, y), room, SMALL_GREY, Anchor::Start, &footer);
            write(&mut c, (width, y), width, SMALL_GREY, Anchor::End, number);
            Page {
                width: page_w,
                height: page_h,
                items,
            }
        })
        .collect();
    Scene { title, pages }
}

/// The pages drawn so far, and where the next thing goes on the last one,
/// in millimetres from the top margin.
struct Pages {
    width: f32,
    /// Where the body of a page ends: the footer lies below.
    bottom: f32,
    pages: Vec<Vec<Item>>,
    y: f32,
}

impl Pages {
    /// Everything is drawn inside the margins.
    const FRAME: Frame = Frame {
        scale: 1.0,
        dx: MARGIN,
        dy: MARGIN,
    };

    fn canvas(&mut self) -> Canvas<'_> {
        Canvas {
            items: self.pages.last_mut().expect("at least one page"),
            frame: Self::FRAME,
        }
    }

    fn room(&self) -> f32 {
        self.bottom - self.y
    }

    fn fresh(&self) -> bool {
        self.y <= 0.0
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = 0.0;
    }
}

/// What a panel's rows show.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// B – A, against a line at 0.
    Difference,
    /// A alone (a `simulate` report).
    Estimate,
    /// The value of a figure that only A or only B has.
    Single,
}

/// A titled list of panels.
struct Block<'a> {
    title: &'static str,
    note: &'static str,
    /// Said when there are no panels.
    empty: &'static str,
    panels: Vec<Panel<'a>>,
    mode: Mode,
    /// Starts on a page of its own.
    new_page: bool,
}

/// The blocks after the distribution: for a comparison the significant
/// differences, the others, and the figures of one variant; else every
/// figure of A.
fn blocks(report: &Report) -> Vec<Block<'_>> {
    if report.b.is_none() {
        let all: Vec<&Row> = report.rows.iter().collect();
        return vec![Block {
            title: "Every figure",
            note: "The mean per game as a dot, its 95% confidence interval as a bar.",
            empty: "No figures.",
            panels: panels(&all, Mode::Estimate),
            mode: Mode::Estimate,
            new_page: false,
        }];
    }
    let (significant, rest): (Vec<&Row>, Vec<&Row>) =
        report.rows.iter().partition(|r| r.significant());
    let (rest, single): (Vec<&Row>, Vec<&Row>) =
        rest.into_iter().partition(|r| r.difference.is_some());
    vec![
        Block {
            title: "Significant differences",
            note: "B – A where its 95% interval leaves out 0: the dot is the estimate, the bar its 95% interval, the vertical line no difference.",
            empty: "None: every 95% interval of B – A contains 0.",
            panels: panels(&significant, Mode::Difference),
            mode: Mode::Difference,
            new_page: false,
        },
        Block {
            title: if significant.is_empty() {
                "All differences"
            } else {
                "Other differences"
            },
            note: "B – A where its 95% interval contains 0: the hollow dot is the estimate, the grey bar its 95% interval.",
            empty: "None: every difference is significant.",
            panels: panels(&rest, Mode::Difference),
            mode: Mode::Difference,
            new_page: true,
        },
        Block {
            title: "Figures only one variant has",
            note: "Measured under A only (left) or B only (right), such as the zones of one sheet: their value, and no difference.",
            empty: "",
            panels: panels(&single, Mode::Single),
            mode: Mode::Single,
            new_page: false,
        },
    ]
}

/// The figures of one section and one unit, on one scale.
struct Panel<'a> {
    title: String,
    unit: Unit,
    rows: Vec<&'a Row>,
}

impl Panel<'_> {
    /// How many lines of rows the panel draws.
    fn lines(&self, mode: Mode) -> usize {
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
fn panels<'a>(rows: &[&'a Row], mode: Mode) -> Vec<Panel<'a>> {
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

/// Draws a block, panel after panel, starting new pages as needed. A panel
/// is cut across pages only when it is long; its pieces share its scale.
fn draw_block(pages: &mut Pages, block: &Block) {
    let width = pages.width;
    let single = block.mode == Mode::Single;
    // What a panel takes besides its rows.
    let fixed = PANEL_TITLE + if single { 1.0 } else { AXIS };
    let first = block.panels.first();
    let first_rows = first.map_or(0, |p| p.lines(block.mode).min(MIN_ROWS));
    if pages.room() < BLOCK_TITLE + fixed + first_rows as f32 * ROW && !pages.fresh() {
        pages.new_page();
    }
    block_title(pages, block, false);
    if block.panels.is_empty() {
        let y = pages.y + 3.0;
        write(
            &mut pages.canvas(),
            (0.0, y),
            width,
            BODY,
            Anchor::Start,
            block.empty,
        );
        pages.y += 8.0;
        return;
    }
    for panel in &block.panels {
        let scale = Scale::new(panel, block.mode);
        let (left, right): (Vec<&Row>, Vec<&Row>) = if single {
            panel.rows.iter().partition(|r| r.a.is_some())
        } else {
            (panel.rows.clone(), Vec::new())
        };
        let lines = panel.lines(block.mode);
        let mut done = 0;
        while done < lines {
            let left_over = lines - done;
            let fit = ((pages.room() - fixed) / ROW).floor().max(0.0) as usize;
            let may_cut = left_over > KEEP_TOGETHER && fit >= MIN_ROWS;
            if fit < left_over && !may_cut && !pages.fresh() {
                pages.new_page();
                block_title(pages, block, true);
                continue;
            }
            let n = fit.clamp(1, left_over);
            let title = if done == 0 {
                panel.title.clone()
            } else {
                format!("{} (continued)", panel.title)
            };
            let y = pages.y;
            let range = done..done + n;
            pages.canvas().group(title.clone(), |c| {
                let head = (y, width, title.as_str());
                if single {
                    let (a, b) = (clip(&left, range.clone()), clip(&right, range.clone()));
                    draw_single(c, head, a, b, n);
                } else {
                    let rows = &left[range.clone()];
                    draw_panel(c, head, panel.unit, rows, &scale, block.mode);
                }
            });
            pages.y += fixed + n as f32 * ROW + PANEL_GAP;
            done += n;
        }
    }
}

/// The part of `rows` in `range`, which may run past its end.
fn clip<'a, 'b>(rows: &'a [&'b Row], range: std::ops::Range<usize>) -> &'a [&'b Row] {
    let end = range.end.min(rows.len());
    &rows[range.start.min(end)..end]
}

fn block_title(pages: &mut Pages, block: &Block, continued: bool) {
    let (width, y) = (pages.width, pages.y);
    let mut c = pages.canvas();
    if continued {
        let title = format!("{} (continued)", block.title);
        write(
            &mut c,
            (0.0, y + 5.0),
            width,
            BLOCK_HEAD,
            Anchor::Start,
            title,
        );
        pages.y += BLOCK_CONTINUED;
    } else {
        write(
            &mut c,
            (0.0, y + 5.0),
            width,
            BLOCK_HEAD,
            Anchor::Start,
            block.title,
        );
        let note = font(2.7, Weight::Regular, Color::GREY);
        write(
            &mut c,
            (0.0, y + 9.2),
            width,
            note,
            Anchor::Start,
            block.note,
        );
        pages.y += BLOCK_TITLE;
    }
}

// ---------------------------------------------------------------------------
// The first page's heading and the variants.

fn bots(report: &Report) -> String {
    match report.bots.first() {
        Some(first) if report.bots.iter().all(|b| b == first) => {
            format!(
                "{} {first} bot{}",
                report.bots.len(),
                if report.bots.len() == 1 { "" } else { "s" }
            )
        }
        _ => format!("bots by seat: {}", report.bots.join(", ")),
    }
}

/// The heading's status line of a comparison.
fn status(report: &Report) -> String {
    let with = report
        .rows
        .iter()
        .filter(|r| r.difference.is_some())
        .count();
    let significant = report.rows.iter().filter(|r| r.significant()).count();
    let single = report.rows.len() - with;
    let mut status = if significant == 0 {
        format!("No difference is significant: all {with} intervals of B – A contain 0.")
    } else {
        format!(
            "{significant} of {with} differences are significant: their 95% interval leaves out 0."
        )
    };
    if single > 0 {
        let figures = plural(single as u64, "figure", "figures");
        status.push_str(&format!(" {figures} only one variant has."));
    }
    status
}

/// Draws the heading and the variants; returns where they end.
fn front(c: &mut Canvas, width: f32, report: &Report) -> f32 {
    let players = plural(report.players as u64, "player", "players");
    let (title, caption, status) = match &report.b {
        Some(_) => (
            format!("{}: comparison", report.title),
            format!(
                "{} of {players}, seed {}, {}: game i of A and of B sees the same luck.",
                plural(report.games, "paired game", "paired games"),
                report.seed,
                bots(report)
            ),
            status(report),
        ),
        None => (
            format!("{}: simulation", report.title),
            format!(
                "{} of {players}, seed {}, {}.",
                plural(report.games, "game", "games"),
                report.seed,
                bots(report)
            ),
            "Each figure is a mean per game, with its 95% confidence interval.".to_owned(),
        ),
    };
    c.heading(width, &title, &caption, &status);
    let mut y = 27.5;
    let indent = 12.0;
    let wide = width - indent;
    let name = font(3.0, Weight::Regular, Color::BLACK);
    let variant = |c: &mut Canvas, y: &mut f32, which: &str, info: &VariantInfo, b: bool| {
        swatch(c, 0.0, *y - 2.9, 5.0, 3.4, b);
        let bold = Font {
            weight: Weight::Bold,
            ..name
        };
        write(c, (6.5, *y), indent - 6.5, bold, Anchor::Start, which);
        for line in wrap(&info.to_string(), name, wide, 3) {
            write(c, (indent, *y), wide, name, Anchor::Start, line);
            *y += 4.0;
        }
    };
    variant(c, &mut y, "A", &report.a, false);
    if let Some(b) = &report.b {
        variant(c, &mut y, "B", b, true);
        for line in wrap(&changes(&report.a, b), NOTE, wide, 3) {
            write(c, (indent, y), wide, NOTE, Anchor::Start, line);
            y += 3.6;
        }
    }
    y
}

/// What B changes of A, in words.
fn changes(a: &VariantInfo, b: &VariantInfo) -> String {
    let mut parts = Vec::new();
    if a.kind != b.kind || a.name != b.name || a.source != b.source {
        parts.push(format!(
            "the {} {:?} ({}) instead of {:?} ({})",
            b.kind, b.name, b.source, a.name, a.source
        ));
    }
    for (k, v) in &b.options {
        match a.options.iter().find(|(ka, _)| ka == k) {
            Some((_, va)) if va == v => {}
            Some((_, va)) => parts.push(format!("{k}={v} instead of {va}")),
            None => parts.push(format!("{k}={v}, which A does not have")),
        }
    }
    for (k, va) in &a.options {
        if !b.options.iter().any(|(kb, _)| kb == k) {
            parts.push(format!("no {k} (A: {va})"));
        }
    }
    if parts.is_empty() {
        "B is the same variant as A, so every difference is 0.".to_owned()
    } else {
        format!("B plays {}.", parts.join("; "))
    }
}

/// Splits `text` at spaces into lines of at most `width`; a word wider
/// than that gets a line of its own. At most `max` lines: the last one takes
/// the rest (and is shrunk to fit when drawn).
fn wrap(text: &str, font: Font, width: f32, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty() || width_of(&candidate, font) <= width {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_owned()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    let max = max.max(1);
    if lines.len() > max {
        let rest = lines.split_off(max - 1).join(" ");
        lines.push(rest);
    }
    lines
}

/// A's or B's sample: A solid, B hatched on a tint with an outline.
fn swatch(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, b: bool) {
    if b {
        c.rect(x, y, w, h, 0.0, Some(B_TINT), None);
        hatch(c, (x, y, w, h), 0.9, Stroke::solid(B_COLOR, 0.22));
        c.rect(x, y, w, h, 0.0, None, Some(Stroke::solid(B_COLOR, 0.35)));
    } else {
        c.rect(x, y, w, h, 0.0, Some(A_COLOR), None);
    }
}

/// Diagonal lines inside the rectangle, `gap` apart.
fn hatch(c: &mut Canvas, (x, y, w, h): (f32, f32, f32, f32), gap: f32, stroke: Stroke) {
    if w <= 0.0 || h <= 0.0 {
        return;
    }
    // Lines from (x + d, y + h) up to (x + d + h, y), cut to [x, x + w].
    let mut d = -h + gap / 2.0;
    while d < w {
        let t0 = (-d / h).max(0.0);
        let t1 = ((w - d) / h).min(1.0);
        if t1 > t0 {
            let (x0, x1) = (x + d + t0 * h, x + d + t1 * h);
            c.line(x0, y + h - t0 * h, x1, y + h - t1 * h, stroke);
        }
        d += gap;
    }
}

// ---------------------------------------------------------------------------
// The distribution of final scores.

/// A step of 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The fewest decimals that show `step` exactly (at most 6).
fn decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// Each count's share of all of them.
fn shares(counts: &[u64]) -> Vec<f64> {
    let total = counts.iter().sum::<u64>().max(1) as f64;
    counts.iter().map(|&n| n as f64 / total).collect()
}

/// The line of a variant's mean: darker than its bars, so that it shows
/// across them too.
fn mean_stroke(b: bool) -> Stroke {
    if b {
        Stroke::dashed(Color(120, 35, 15), 0.5, 1.2, 0.7)
    } else {
        Stroke::solid(Color(5, 25, 75), 0.5)
    }
}

/// The legend of the distribution, right-aligned to `right` on baseline `y`.
fn legend(c: &mut Canvas, right: f32, y: f32, comparing: bool) {
    let mut entries = vec![("variant A", 0)];
    if comparing {
        entries.push(("variant B", 1));
    }
    entries.push(("mean", 2));
    let step = |label: &str| 6.5 + width_of(label, BODY) + 4.0;
    let mut x = right + 4.0 - entries.iter().map(|(l, _)| step(l)).sum::<f32>();
    for (label, kind) in entries {
        if kind < 2 {
            swatch(c, x, y - 2.7, 5.0, 3.2, kind == 1);
        } else {
            c.line(x + 1.2, y - 3.2, x + 1.2, y + 0.6, mean_stroke(false));
            if comparing {
                c.line(x + 3.6, y - 3.2, x + 3.6, y + 0.6, mean_stroke(true));
            }
        }
        write(c, (x + 6.5, y), f32::MAX, BODY, Anchor::Start, label);
        x += step(label);
    }
}

/// Grouped bars of every seat's final score per bucket, A beside B, in the
/// box `(x, y, w, h)`, with each variant's mean score marked.
fn distribution(c: &mut Canvas, (x, y, w, h): (f32, f32, f32, f32), report: &Report) {
    let histogram = &report.histogram;
    let n = histogram.from.len();
    let comparing = histogram.b.is_some();
    let title = "Final scores of all seats";
    write(c, (x, y + 4.0), w, BLOCK_HEAD, Anchor::Start, title);
    legend(c, x + w, y + 4.0, comparing);

    let (px, py) = (x + 11.0, y + 14.0);
    let (pw, ph) = (w - 11.0, h - 14.0 - 10.5);
    let bottom = py + ph;
    let a = shares(&histogram.a);
    let b = histogram.b.as_deref().map(shares);
    let highest = a
        .iter()
        .chain(b.iter().flatten())
        .fold(0.0, |m, &s| s.max(m))
        * 100.0;
    let step = nice_step((highest / 5.0).max(1.0));
    let top = ((highest / step).ceil() * step).max(step);
    let y_of = |share: f64| bottom - ((share * 100.0 / top) as f32).clamp(0.0, 1.0) * ph;
    let places = decimals(step);
    let ticks = (top / step).round() as usize;
    for k in 0..=ticks {
        let tick = k as f64 * step;
        let ty = bottom - (tick / top) as f32 * ph;
        if k > 0 {
            c.line(px, ty, px + pw, ty, Stroke::solid(Color::LIGHT, 0.2));
        }
        c.line(px - 1.0, ty, px, ty, Stroke::solid(Color::BLACK, 0.25));
        write(
            c,
            (px - 1.6, ty + 0.9),
            10.0,
            SMALL,
            Anchor::End,
            format!("{tick:.places$}%"),
        );
    }
    if n == 0 {
        let middle = (px + pw / 2.0, py + ph / 2.0);
        write(c, middle, pw, BODY_GREY, Anchor::Middle, "no games");
    }
    let group = pw / n.max(1) as f32;
    let (bar, gap) = if comparing {
        ((group * 0.38).min(10.0), 0.3)
    } else {
        ((group * 0.6).min(14.0), 0.0)
    };
    for i in 0..n {
        let cx = px + (i as f32 + 0.5) * group;
        let top_a = y_of(a[i]);
        let a_x = if comparing {
            cx - gap - bar
        } else {
            cx - bar / 2.0
        };
        c.rect(a_x, top_a, bar, bottom - top_a, 0.0, Some(A_COLOR), None);
        if let Some(b) = &b {
            let top_b = y_of(b[i]);
            let rect = (cx + gap, top_b, bar, bottom - top_b);
            if rect.3 > 0.0 {
                c.rect(rect.0, rect.1, rect.2, rect.3, 0.0, Some(B_TINT), None);
                hatch(c, rect, 1.0, Stroke::solid(B_COLOR, 0.25));
                let outline = Some(Stroke::solid(B_COLOR, 0.35));
                c.rect(rect.0, rect.1, rect.2, rect.3, 0.0, None, outline);
            }
        }
        let label = histogram.label(i);
        write(
            c,
            (cx, bottom + 3.6),
            group - 0.8,
            SMALL,
            Anchor::Middle,
            label,
        );
    }
    c.line(
        px,
        bottom,
        px + pw,
        bottom,
        Stroke::solid(Color::BLACK, 0.3),
    );
    c.line(px, py, px, bottom, Stroke::solid(Color::BLACK, 0.3));
    let axis = "final score (points), in buckets; bar height: share of that variant's seats";
    let axis_font = font(2.7, Weight::Regular, Color::GREY);
    write(
        c,
        (px + pw / 2.0, bottom + 8.3),
        pw,
        axis_font,
        Anchor::Middle,
        axis,
    );

    // The means, where the bucket of a score spans [from – ½, from + width – ½).
    if n == 0 {
        return;
    }
    let first = histogram.from[0] as f64 - 0.5;
    let bucket = histogram.width.max(1) as f64;
    let x_of = |score: f64| px + (((score - first) / bucket) as f32 * group).clamp(0.0, pw);
    let means = report.row("mean_score");
    let mut marks: Vec<(f64, bool)> = Vec::new();
    if let Some(e) = means.and_then(|r| r.a) {
        marks.push((e.estimate, false));
    }
    if let Some(e) = means.and_then(|r| r.b).filter(|_| comparing) {
        marks.push((e.estimate, true));
    }
    marks.retain(|(m, _)| m.is_finite());
    // The lower mean's tag goes left of its line, the higher one's right.
    let lower_is_b = marks.len() == 2 && marks[1].0 < marks[0].0;
    for &(mean, is_b) in &marks {
        let mx = x_of(mean);
        c.line(mx, bottom, mx, py - 4.5, mean_stroke(is_b));
        let tag = format!(
            "{} mean {}",
            if is_b { "B" } else { "A" },
            Unit::Points.show(mean)
        );
        let tag_font = font(2.8, Weight::Bold, if is_b { B_COLOR } else { A_COLOR });
        let tw = width_of(&tag, tag_font);
        let left = if marks.len() == 2 {
            is_b == lower_is_b
        } else {
            mx > px + pw / 2.0
        };
        let (tx, anchor) = if left {
            ((mx - 1.0).max(x + tw), Anchor::End)
        } else {
            ((mx + 1.0).min(x + w - tw), Anchor::Start)
        };
        write(c, (tx, py - 2.0), tw, tag_font, anchor, tag);
    }
}

// ---------------------------------------------------------------------------
// Forest panels.

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
struct Scale {
    lo: f64,
    hi: f64,
    step: f64,
    /// From the report's unit to the axis's: 100 for shares.
    factor: f64,
}

impl Scale {
    fn new(panel: &Panel, mode: Mode) -> Scale {
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
fn draw_panel(
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

    // The axis; every other tick label when they would touch, 0 keeping its own.
    c.line(
        plot_x,
        rows_bottom,
        plot_x + plot_w,
        rows_bottom,
        Stroke::solid(Color::BLACK, 0.3),
    );
    let labels: Vec<String> = ticks
        .iter()
        .map(|&t| scale.tick_label(t, unit, mode))
        .collect();
    let spacing = plot_w / (ticks.len().max(2) - 1) as f32;
    let widest = labels
        .iter()
        .map(|l| width_of(l, SMALL))
        .fold(0.0, f32::max);
    let every = if widest + 1.5 > spacing { 2 } else { 1 };
    let phase = ticks.iter().position(|&t| t == 0.0).unwrap_or(0) % every;
    for (i, (&t, label)) in ticks.iter().zip(labels).enumerate() {
        let tx = to_x(t);
        c.line(
            tx,
            rows_bottom,
            tx,
            rows_bottom + 1.0,
            Stroke::solid(Color::BLACK, 0.25),
        );
        if i % every == phase {
            write(
                c,
                (tx, rows_bottom + 3.6),
                spacing * every as f32,
                SMALL,
                Anchor::Middle,
                label,
            );
        }
    }
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
fn draw_single(
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
    fn steps_are_round_numbers() {
        assert_eq!(nice_step(0.4), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.0002), 0.0002);
        assert_eq!(nice_step(f64::NAN), 1.0);
        assert_eq!(decimals(2.5), 1);
        assert_eq!(decimals(0.00025), 5);
        assert_eq!(decimals(20.0), 0);
    }

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

    #[test]
    fn wrapping_keeps_every_word() {
        let text = "sheet \"Petit été\" (sheet-templates/petit-ete.json), sun_bonus=exact";
        let lines = wrap(text, BODY, 40.0, 5);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), text);
        for line in &lines {
            assert!(width_of(line, BODY) <= 40.0 || !line.contains(' '));
        }
        let lines = wrap(text, BODY, 10.0, 2);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn hatching_stays_inside_its_rectangle() {
        let mut items = Vec::new();
        let mut c = Canvas {
            items: &mut items,
            frame: Frame::IDENTITY,
        };
        hatch(
            &mut c,
            (10.0, 20.0, 3.0, 7.0),
            1.0,
            Stroke::solid(B_COLOR, 0.2),
        );
        assert!(!items.is_empty());
        for item in &items {
            let Item::Shape {
                shape: super::super::scene::Shape::Path { points, .. },
                ..
            } = item
            else {
                panic!("a line");
            };
            for p in points {
                assert!((10.0 - 1e-4..=13.0 + 1e-4).contains(&p.x), "{p:?}");
                assert!((20.0 - 1e-4..=27.0 + 1e-4).contains(&p.y), "{p:?}");
            }
        }
    }
}
