//! The drawn ladder of `sunfold ladder -o`, in the style of the comparison
//! report (its heading, text styles, ticks and footer):
//!
//! - the heading: the game, the games and players, the seed, the variant,
//!   and how the rating is made;
//! - a forest plot of the ratings on one axis, strongest on top: each
//!   bot's rating as a dot, its 95% bootstrap interval as a bar, a line at
//!   the anchor's 0, the numbers beside;
//! - a table of each bot's win rate per seat, matches won and mean score,
//!   each with its 95% interval;
//! - the skill line: the strongest bot listed against the weakest.
//!
//! One page: eight bots with their gaps fit A4 and Letter, and three fit
//! A5, the gaps in columns; where they do not fit (eight bots on A5), the
//! blocks that do not fit move to a second page rather than overlap.
//!
//! Its text and JSON are in [`text`].

pub mod text;

use crate::render::paper::{MARGIN, Paper};
use crate::render::scene::{Anchor, Canvas, Color, Frame, Item, Scene, Stroke, Weight};
use crate::render::text::Fonts;
use crate::report::kit::page::{FOOTER, with_footers};
use crate::report::kit::style::{
    BLOCK_HEAD, BODY, BODY_BOLD, BODY_GREY, Font, GRID, MUTED, NOTE, SMALL_GREY, STRIPE, font,
    plural, width_of, wrap, write,
};
use crate::report::kit::ticks::{axis, decimals, nice_step};
use crate::stats::Estimate;
use crate::workbench::{FEW, Figure, Ladder};

/// A row of the forest plot.
const ROW: f32 = 5.0;
/// A line of running text: the gaps, the skill line.
const LINE: f32 = 3.8;
/// The forest's header line, above its rows.
const HEAD: f32 = 6.0;
/// The axis under the forest: ticks, labels and what the axis is.
const AXIS: f32 = 9.5;
/// A table row holding a value and its interval on one line, or on two.
const ONE_LINE: f32 = 5.0;
const TWO_LINES: f32 = 8.0;
const GAP: f32 = 3.0;
/// Space between blocks.
const BLOCK_GAP: f32 = 4.5;
/// A block's explanation, under its title.
const BLOCK_NOTE: Font = font(2.7, Weight::Regular, Color::GREY);
const VARIANT: Font = font(3.0, Weight::Regular, Color::BLACK);

/// Everything is drawn inside the margins.
const FRAME: Frame = Frame {
    scale: 1.0,
    dx: MARGIN,
    dy: MARGIN,
};

/// The ladder drawn on one page of `paper` (two if it cannot fit).
pub fn report(ladder: &Ladder, paper: Paper) -> Scene {
    let (page_w, page_h) = paper.size();
    let width = page_w - 2.0 * MARGIN;
    let height = page_h - 2.0 * MARGIN;
    let mut sheet = Sheet {
        pages: vec![Vec::new()],
        y: 0.0,
        bottom: height - FOOTER,
    };
    let title = format!("{}: ladder", ladder.head.title);
    sheet.y = heading(&mut sheet.canvas(), width, ladder, &title) + BLOCK_GAP;

    let forest = Forest::new(ladder, width);
    let anchor = ladder.anchor.as_deref().unwrap_or("no bot");
    let mut note = format!(
        "Each bot's Bradley–Terry strength on the Elo scale, strongest on top: the dot is the rating, the bar its 95% bootstrap interval, the vertical line {anchor} = 0. A bar in grey contains 0: that bot is not told apart from {anchor}. 200 points more wins about 76% of the matches."
    );
    if ladder.rungs.iter().any(|r| r.rating.is_none()) {
        note.push_str(" A bot that never won, or never lost, against the rated others has no finite rating: no dot, and the reason beside; the others are rated without its matches.");
    }
    let thin: Vec<String> = (text::thin(ladder).into_iter())
        .map(|(bot, few)| format!("{bot} (on {few})"))
        .collect();
    if !thin.is_empty() {
        note.push_str(&format!(
            " A rating on fewer than {FEW} wins or losses says which side of the others a bot is on, not how far: {}.",
            thin.join(", ")
        ));
    }
    let top = sheet.block(width, "Ratings", &note, forest.height());
    sheet
        .canvas()
        .group("ratings", |c| forest.draw(c, ladder, top));

    let table = Table::new(ladder, width);
    let note = if ladder.head.players == 2 {
        "Games won: a game is one match between two bots, the higher score wins, a tie halves; with its 95% interval over the games. Seats: the seats each bot played."
    } else {
        "Win rate per seat: the games won per seat played, a tie shared. Matches won: within a game, seat against seat of another bot, the higher score wins, a tie halves. Each with its 95% interval over the games."
    };
    let top = sheet.block(width, "Results by bot", note, table.height());
    sheet
        .canvas()
        .group("results by bot", |c| table.draw(c, ladder, top));

    let gaps = text::gaps(ladder);
    if !gaps.is_empty() {
        let mut note = text::GAPS_NOTE.to_owned();
        note[..1].make_ascii_uppercase();
        note.push('.');
        // In columns, read down then across, as many as fit side by side.
        let widest = (gaps.iter().map(|g| width_of(g, BODY))).fold(0.0, f32::max) + 2.0 * GAP;
        let columns = ((width / widest).floor() as usize)
            .clamp(1, 3)
            .min(gaps.len());
        let rows = gaps.len().div_ceil(columns);
        let column_w = width / columns as f32;
        let body = rows as f32 * LINE;
        let top = sheet.block(width, "Gaps between neighbours", &note, body);
        sheet.canvas().group("gaps between neighbours", |c| {
            for (i, line) in gaps.iter().enumerate() {
                let (x, y) = (
                    (i / rows) as f32 * column_w,
                    top + 3.0 + (i % rows) as f32 * LINE,
                );
                let room = column_w - GAP;
                write(c, (x, y), room, BODY, Anchor::Start, line.as_str());
            }
        });
    }

    let lines = skill_lines(ladder, width);
    let body = lines.len() as f32 * LINE;
    let top = sheet.block(width, "Skill against luck", "", body);
    sheet.canvas().group("skill against luck", |c| {
        for (i, line) in lines.iter().enumerate() {
            let y = top + 3.0 + i as f32 * LINE;
            write(c, (0.0, y), width, BODY, Anchor::Start, line.as_str());
        }
    });

    let footer = format!(
        "{title} · {} · seed {}",
        plural(ladder.head.games, "game", "games"),
        ladder.head.seed
    );
    let pages = with_footers(
        sheet.pages,
        FRAME,
        (page_w, page_h),
        (width, height),
        &footer,
    );
    Scene { title, pages }
}

/// The pages drawn so far, and where the next block goes on the last one.
struct Sheet {
    pages: Vec<Vec<Item>>,
    y: f32,
    /// Where a page's body ends: the footer lies below.
    bottom: f32,
}

impl Sheet {
    fn canvas(&mut self) -> Canvas<'_> {
        Canvas {
            items: self.pages.last_mut().expect("at least one page"),
            frame: FRAME,
        }
    }

    /// Draws a block's title and its note, on a new page if the block
    /// (`body` tall) would not fit below; returns where its body starts.
    fn block(&mut self, width: f32, title: &str, note: &str, body: f32) -> f32 {
        let notes = if note.is_empty() {
            Vec::new()
        } else {
            wrap(note, BLOCK_NOTE, width, 6)
        };
        let head = 7.0 + 3.6 * notes.len() as f32;
        if self.y > 0.0 && self.y + head + body > self.bottom {
            self.pages.push(Vec::new());
            self.y = 0.0;
        }
        let y = self.y;
        let mut c = self.canvas();
        write(
            &mut c,
            (0.0, y + 5.0),
            width,
            BLOCK_HEAD,
            Anchor::Start,
            title,
        );
        for (i, line) in notes.into_iter().enumerate() {
            let at = (0.0, y + 9.2 + 3.6 * i as f32);
            write(&mut c, at, width, BLOCK_NOTE, Anchor::Start, line);
        }
        self.y = y + head + body + BLOCK_GAP;
        y + head
    }
}

/// The title, the batch, how the rating is made, and the variant; returns
/// where they end.
fn heading(c: &mut Canvas, width: f32, ladder: &Ladder, title: &str) -> f32 {
    let caption = format!(
        "{} of {}, seats rotating so that every bot plays every seat; seed {}.",
        plural(ladder.head.games, "game", "games"),
        plural(ladder.head.players as u64, "player", "players"),
        ladder.head.seed
    );
    let status = format!(
        "rating: Bradley–Terry, Elo scale, {} = 0, 95% bootstrap interval",
        ladder.anchor.as_deref().unwrap_or("no bot")
    );
    c.heading(Fonts::builtin(), width, title, &caption, &status);
    let mut y = 26.5;
    let text = format!("Variant: {}", ladder.variant);
    for line in wrap(&text, VARIANT, width, 3) {
        write(c, (0.0, y), width, VARIANT, Anchor::Start, line);
        y += 4.0;
    }
    y - 2.0
}

/// A number rounded to `places`, without a negative zero.
fn rounded(value: f64, places: usize) -> f64 {
    let p = 10f64.powi(places as i32);
    let r = (value * p).round() / p;
    if r == 0.0 { 0.0 } else { r }
}

/// A rating: signed, whole, 0 without a sign; a dash when undefined.
fn rating(value: f64) -> String {
    if !value.is_finite() {
        return "—".to_owned();
    }
    let r = rounded(value, 0);
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r:+.0}")
    }
}

fn finite(e: &Estimate) -> bool {
    e.estimate.is_finite() && e.ci95.iter().all(|v| v.is_finite())
}

/// A share as a percentage and its interval, kept within 0 and 100%.
fn percent(e: &Estimate) -> (String, String) {
    if !finite(e) {
        return ("—".to_owned(), String::new());
    }
    let p = |v: f64| rounded(100.0 * v.clamp(0.0, 1.0), 1);
    (
        format!("{:.1}%", p(e.estimate)),
        format!("[{:.1}, {:.1}]", p(e.ci95[0]), p(e.ci95[1])),
    )
}

/// A number of points and its interval, or in words when it has none.
fn points(e: &Figure, signed: bool) -> (String, String) {
    if !finite(e) {
        return ("—".to_owned(), String::new());
    }
    let show = |v: f64| {
        let r = rounded(v, 1);
        if signed && r != 0.0 {
            format!("{r:+.1}")
        } else {
            format!("{r:.1}")
        }
    };
    (show(e.estimate), text::spread(e, show))
}

/// The ratings' axis.
struct Scale {
    lo: f64,
    hi: f64,
    step: f64,
}

impl Scale {
    fn new(ladder: &Ladder) -> Scale {
        let (mut lo, mut hi) = (0.0f64, 0.0f64);
        for e in (ladder.rungs.iter()).filter_map(|r| r.rating.map(|f| f.value).filter(finite)) {
            lo = lo.min(e.ci95[0]).min(e.estimate);
            hi = hi.max(e.ci95[1]).max(e.estimate);
        }
        if hi - lo < 1.0 {
            (lo, hi) = (lo - 100.0, hi + 100.0);
        }
        let step = nice_step((hi - lo) / 5.0);
        let lo = (lo / step + 1e-9).floor() * step;
        let hi = ((hi / step - 1e-9).ceil() * step).max(lo + step);
        Scale { lo, hi, step }
    }

    fn x(&self, value: f64, (x, w): (f32, f32)) -> f32 {
        let t = (value - self.lo) / (self.hi - self.lo);
        x + (t.clamp(0.0, 1.0) as f32) * w
    }

    fn ticks(&self) -> Vec<f64> {
        let first = (self.lo / self.step).round() as i64;
        let last = (self.hi / self.step).round() as i64;
        (first..=last).map(|k| k as f64 * self.step).collect()
    }

    fn label(&self, tick: f64) -> String {
        let places = decimals(self.step);
        let r = rounded(tick, places);
        if r == 0.0 {
            "0".to_owned()
        } else {
            format!("{r:+.places$}")
        }
    }
}

/// The forest plot of the ratings: its columns and its scale.
struct Forest {
    rows: usize,
    label_w: f32,
    plot: (f32, f32),
    /// Right edge of the rating, left edge of its interval.
    value_right: f32,
    interval: (f32, f32),
    scale: Scale,
    width: f32,
}

/// The rating of a bot and its interval, as written beside its bar.
fn rating_texts(ladder: &Ladder, i: usize) -> (String, String) {
    let r = &ladder.rungs[i];
    match (r.rating, text::unrated(r.record)) {
        (_, Some(why)) => ("—".to_owned(), why.to_owned()),
        (Some(e), None) if ladder.anchor.as_deref() != Some(r.bot.as_str()) => (
            rating(e.estimate),
            format!("[{}, {}]", rating(e.ci95[0]), rating(e.ci95[1])),
        ),
        (e, None) => (
            rating(e.map_or(f64::NAN, |e| e.estimate)),
            "anchor".to_owned(),
        ),
    }
}

/// The width of the bots' names column, shared by the forest and the table.
fn label_width(ladder: &Ladder, width: f32) -> f32 {
    let widest = ladder
        .rungs
        .iter()
        .map(|r| width_of(&r.bot, BODY_BOLD))
        .fold(width_of("bot", SMALL_GREY), f32::max);
    (widest + 3.0).clamp(16.0, width * 0.3)
}

impl Forest {
    fn new(ladder: &Ladder, width: f32) -> Forest {
        let label_w = label_width(ladder, width);
        let texts: Vec<(String, String)> = (0..ladder.rungs.len())
            .map(|i| rating_texts(ladder, i))
            .collect();
        let value_w = texts
            .iter()
            .map(|(v, _)| width_of(v, BODY_BOLD))
            .fold(width_of("rating", SMALL_GREY), f32::max)
            + 1.0;
        let interval_w = texts
            .iter()
            .map(|(_, i)| width_of(i, BODY))
            .fold(width_of("95% interval", SMALL_GREY), f32::max)
            + 1.0;
        let plot_x = label_w + GAP;
        let plot_w = width - plot_x - value_w - interval_w - 2.0 * GAP;
        let value_right = plot_x + plot_w + GAP + value_w;
        Forest {
            rows: ladder.rungs.len(),
            label_w,
            plot: (plot_x, plot_w),
            value_right,
            interval: (value_right + GAP, interval_w),
            scale: Scale::new(ladder),
            width,
        }
    }

    fn height(&self) -> f32 {
        HEAD + self.rows as f32 * ROW + AXIS
    }

    fn draw(&self, c: &mut Canvas, ladder: &Ladder, y: f32) {
        let (plot_x, plot_w) = self.plot;
        let (interval_left, interval_w) = self.interval;
        let width = self.width;
        let base = y + 4.3;
        write(
            c,
            (1.0, base),
            self.label_w,
            SMALL_GREY,
            Anchor::Start,
            "bot",
        );
        let value_w = self.value_right - plot_x - plot_w - GAP;
        let at = (self.value_right, base);
        write(c, at, value_w, SMALL_GREY, Anchor::End, "rating");
        let at = (interval_left, base);
        write(c, at, interval_w, SMALL_GREY, Anchor::Start, "95% interval");

        let top = y + HEAD;
        let bottom = top + self.rows as f32 * ROW;
        c.line(0.0, top, width, top, Stroke::solid(Color::GREY, 0.25));
        for i in (1..self.rows).step_by(2) {
            let row_top = top + i as f32 * ROW;
            c.rect(0.0, row_top, width, ROW, 0.0, Some(STRIPE), None);
        }
        let ticks = self.scale.ticks();
        for &t in &ticks {
            let x = self.scale.x(t, self.plot);
            c.line(x, top, x, bottom, Stroke::solid(GRID, 0.2));
        }
        let zero = self.scale.x(0.0, self.plot);
        c.line(
            zero,
            top,
            zero,
            bottom + 1.0,
            Stroke::solid(Color::BLACK, 0.35),
        );

        for (i, rung) in ladder.rungs.iter().enumerate() {
            let mid = top + (i as f32 + 0.5) * ROW;
            let base = mid + 1.0;
            let anchor = ladder.anchor.as_deref() == Some(rung.bot.as_str());
            let e = rung.rating.map(|f| f.value).filter(finite);
            let strong = !anchor && e.is_some_and(|e| e.excludes_zero());
            let label_font = if strong { BODY_BOLD } else { BODY };
            let at = (1.0, base);
            write(
                c,
                at,
                self.label_w - 1.5,
                label_font,
                Anchor::Start,
                &rung.bot,
            );
            if let Some(e) = e.filter(|_| !anchor) {
                let ink = if strong { Color::BLACK } else { MUTED };
                let x0 = self.scale.x(e.ci95[0], self.plot);
                let x1 = self.scale.x(e.ci95[1], self.plot);
                let thick = if strong { 0.9 } else { 0.6 };
                let bar = (x1 - x0).max(0.0);
                c.rect(x0, mid - thick / 2.0, bar, thick, 0.0, Some(ink), None);
                if bar > 3.0 {
                    for cap in [x0, x1] {
                        c.line(cap, mid - 1.2, cap, mid + 1.2, Stroke::solid(ink, 0.3));
                    }
                }
            }
            if let Some(e) = e {
                let mx = self.scale.x(e.estimate, self.plot);
                if strong {
                    c.circle(mx, mid, 1.2, Some(Color::BLACK), None);
                } else {
                    let outline = Some(Stroke::solid(Color::BLACK, 0.35));
                    c.circle(mx, mid, 1.1, Some(Color::WHITE), outline);
                }
            }
            let (value, interval) = rating_texts(ladder, i);
            let value_font = if strong { BODY_BOLD } else { BODY };
            let at = (self.value_right, base);
            write(c, at, value_w, value_font, Anchor::End, value);
            let interval_font = if anchor {
                NOTE
            } else if strong {
                BODY
            } else {
                BODY_GREY
            };
            let at = (interval_left, base);
            write(c, at, interval_w, interval_font, Anchor::Start, interval);
        }

        let labels: Vec<String> = ticks.iter().map(|&t| self.scale.label(t)).collect();
        let at = (plot_x, plot_w, bottom);
        axis(c, at, &ticks, labels, |t| self.scale.x(t, self.plot));
        let what = format!(
            "rating on the Elo scale, {} = 0",
            ladder.anchor.as_deref().unwrap_or("no bot")
        );
        let at = (plot_x + plot_w / 2.0, bottom + 7.4);
        write(c, at, plot_w, SMALL_GREY, Anchor::Middle, what);
    }
}

/// The table of each bot's results.
struct Table {
    rows: usize,
    label_w: f32,
    /// Left edge and width of the seats column.
    seats: (f32, f32),
    /// Left edge of each figure's column, and their common width.
    columns: Vec<f32>,
    column_w: f32,
    /// The widest value, which the intervals are written after.
    value_w: f32,
    /// Value and interval on one line.
    one_line: bool,
    width: f32,
}

/// The table's figures: with two players a game is one match, so the win
/// rate and the matches won are one column, "games won".
fn headings(ladder: &Ladder) -> Vec<&'static str> {
    if ladder.head.players == 2 {
        vec!["games won", "mean score"]
    } else {
        vec!["win rate per seat", "matches won", "mean score"]
    }
}

/// A bot's figures, each as its value and interval.
fn figures(ladder: &Ladder, i: usize) -> Vec<(String, String)> {
    let r = &ladder.rungs[i];
    let mut out = Vec::new();
    if ladder.head.players != 2 {
        out.push(percent(&r.win_rate));
    }
    out.push(percent(&r.match_share));
    out.push(points(&r.mean_score, false));
    out
}

impl Table {
    fn new(ladder: &Ladder, width: f32) -> Table {
        let label_w = label_width(ladder, width);
        let seats_w = ladder
            .rungs
            .iter()
            .map(|r| width_of(&r.seats.to_string(), BODY))
            .fold(width_of("seats", SMALL_GREY), f32::max);
        let seats = (label_w + GAP, seats_w);
        let first = label_w + GAP + seats_w + 2.0 * GAP;
        let count = headings(ladder).len();
        let column_w = (width - first) / count as f32;
        let columns = (0..count).map(|c| first + c as f32 * column_w).collect();
        let all: Vec<Vec<(String, String)>> = (0..ladder.rungs.len())
            .map(|i| figures(ladder, i))
            .collect();
        let value_w = all
            .iter()
            .flatten()
            .map(|(v, _)| width_of(v, BODY_BOLD))
            .fold(0.0, f32::max);
        let interval_w = all
            .iter()
            .flatten()
            .map(|(_, i)| width_of(i, BODY))
            .fold(0.0, f32::max);
        let one_line = value_w + 1.5 + interval_w <= column_w - GAP;
        Table {
            rows: ladder.rungs.len(),
            label_w,
            seats,
            columns,
            column_w,
            value_w,
            one_line,
            width,
        }
    }

    fn row(&self) -> f32 {
        if self.one_line { ONE_LINE } else { TWO_LINES }
    }

    fn height(&self) -> f32 {
        HEAD + self.rows as f32 * self.row() + 1.0
    }

    fn draw(&self, c: &mut Canvas, ladder: &Ladder, y: f32) {
        let width = self.width;
        let base = y + 4.3;
        let room = self.column_w - GAP;
        write(
            c,
            (1.0, base),
            self.label_w,
            SMALL_GREY,
            Anchor::Start,
            "bot",
        );
        let (seats_x, seats_w) = self.seats;
        let at = (seats_x + seats_w, base);
        write(c, at, seats_w + GAP, SMALL_GREY, Anchor::End, "seats");
        for (x, name) in self.columns.iter().zip(headings(ladder)) {
            write(c, (*x, base), room, SMALL_GREY, Anchor::Start, name);
        }
        let top = y + HEAD;
        let row = self.row();
        let bottom = top + self.rows as f32 * row;
        c.line(0.0, top, width, top, Stroke::solid(Color::GREY, 0.25));
        for i in (1..self.rows).step_by(2) {
            let row_top = top + i as f32 * row;
            c.rect(0.0, row_top, width, row, 0.0, Some(STRIPE), None);
        }
        c.line(0.0, bottom, width, bottom, Stroke::solid(Color::LIGHT, 0.3));
        for (i, rung) in ladder.rungs.iter().enumerate() {
            let row_top = top + i as f32 * row;
            let base = if self.one_line {
                row_top + row / 2.0 + 1.0
            } else {
                row_top + 3.9
            };
            let at = (1.0, base);
            write(
                c,
                at,
                self.label_w - 1.5,
                BODY_BOLD,
                Anchor::Start,
                &rung.bot,
            );
            let seats = rung.seats.to_string();
            write(
                c,
                (seats_x + seats_w, base),
                seats_w,
                BODY,
                Anchor::End,
                seats,
            );
            for (x, (value, interval)) in self.columns.iter().zip(figures(ladder, i)) {
                if self.one_line {
                    let at = (x + self.value_w, base);
                    write(c, at, self.value_w, BODY_BOLD, Anchor::End, value);
                    let at = (x + self.value_w + 1.5, base);
                    let left = room - self.value_w - 1.5;
                    write(c, at, left, BODY_GREY, Anchor::Start, interval);
                } else {
                    write(c, (*x, base), room, BODY_BOLD, Anchor::Start, value);
                    let at = (*x, base + 3.4);
                    write(c, at, room, SMALL_GREY, Anchor::Start, interval);
                }
            }
        }
    }
}

/// The strongest bot listed against the weakest, in words, wrapped.
fn skill_lines(ladder: &Ladder, width: f32) -> Vec<String> {
    let s = &ladder.skill;
    let (share, share_interval) = percent(&s.win_share);
    let (gap, gap_interval) = points(&s.score_gap, true);
    let text = format!(
        "{} against {}, the strongest and the weakest bot listed, seat against seat in the games where both played: {} wins {share} {share_interval} of their matches (50% when luck decides everything, 100% when skill does); the mean score gap is {gap} {gap_interval} points per game.",
        s.strongest, s.weakest, s.strongest
    );
    wrap(&text, BODY, width, 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_have_no_negative_zero_and_round_to_whole_points() {
        assert_eq!(rating(-0.3), "0");
        assert_eq!(rating(0.0), "0");
        assert_eq!(rating(607.6), "+608");
        assert_eq!(rating(-41.5), "-42");
        assert_eq!(rating(f64::NAN), "—");
    }

    #[test]
    fn shares_stay_within_0_and_100_percent() {
        let e = Estimate {
            estimate: 0.05,
            ci95: [-0.018, 0.118],
        };
        assert_eq!(percent(&e), ("5.0%".to_owned(), "[0.0, 11.8]".to_owned()));
    }
}
