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
//!
//! This file lays the report out: the heading (`heading.rs`) and the
//! distribution (`distribution.rs`) on page 1, then block after block of
//! forest panels (`forest.rs`), cut into pages, each with its footer.
//!
//! Its text and JSON, for `simulate` too, are in [`text`].

mod distribution;
mod forest;
mod heading;
pub mod text;

use crate::render::paper::{MARGIN, Paper};
use crate::render::scene::{Anchor, Canvas, Color, Frame, Item, Scene, Weight};
use crate::report::kit::page::{FOOTER, with_footers};
use crate::report::kit::style::{BLOCK_HEAD, BODY, font, plural, write};
use crate::workbench::{Report, Row};
use distribution::distribution;
use forest::{AXIS, Mode, PANEL_TITLE, Panel, ROW, Scale, draw_panel, draw_single, panels};
use heading::front;

/// A block's title and its explanation.
const BLOCK_TITLE: f32 = 11.0;
/// A block's title on the pages it continues on.
const BLOCK_CONTINUED: f32 = 8.0;

const PANEL_GAP: f32 = 4.5;
/// The fewest rows of a panel worth starting at the bottom of a page.
const MIN_ROWS: usize = 3;
/// A panel of at most so many rows is never cut across pages.
const KEEP_TOGETHER: usize = 12;

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
        Some(_) => format!("{}: comparison", report.head.title),
        None => format!("{}: simulation", report.head.title),
    };
    let games = match report.b {
        Some(_) => plural(report.head.games, "paired game", "paired games"),
        None => plural(report.head.games, "game", "games"),
    };
    let footer = format!("{title} · {games} · seed {}", report.head.seed);
    let pages = with_footers(
        pages.pages,
        Pages::FRAME,
        (page_w, page_h),
        (width, height),
        &footer,
    );
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
            note: "B – A significant after Holm's correction over every figure: the dot is the estimate, the bar its 95% interval, the vertical line no difference.",
            empty: "None after Holm's correction over every figure.",
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
            note: "B – A not significant after Holm's correction: the hollow dot is the estimate, the grey bar its 95% interval.",
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
