//! How the Summertime components are laid out for printing: print-and-play
//! sheets with crop marks and duplex backs, or one piece a page for a card
//! printer. The pieces themselves are drawn in [`super::cards`].

use crate::render::paper::{MARGIN, Paper, PrintBoxes};
use crate::render::scene::{Canvas, Color, Draw, Frame, Item, Page, Stroke};

/// How far inside the cut a print shop's artwork keeps its ink: the 3 mm
/// safe area card printers ask for. Only a piece's background comes nearer,
/// and runs on past the cut into the bleed.
pub const SAFE: f32 = 3.0;

/// How the pieces are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Print-and-play: as many pieces as fit on each sheet of paper, with
    /// crop marks, each front page followed by its back page mirrored for
    /// duplex printing.
    Sheets,
    /// For a card printer: one piece a page, at its trim size plus the
    /// bleed, each front followed by its back, each page with its own
    /// `TrimBox`.
    PerCard,
}

impl Layout {
    /// The bleed when none is asked for: none on sheets, and 3 mm for a
    /// card printer, which trims every card.
    pub fn default_bleed(self) -> Bleed {
        match self {
            Layout::Sheets => Bleed(0.0),
            Layout::PerCard => Bleed(3.0),
        }
    }
}

impl std::str::FromStr for Layout {
    type Err = LayoutError;

    fn from_str(text: &str) -> Result<Layout, LayoutError> {
        match text {
            "sheets" => Ok(Layout::Sheets),
            "per-card" => Ok(Layout::PerCard),
            _ => Err(LayoutError::Layout(text.to_owned())),
        }
    }
}

/// How far a piece's background runs past its cut lines, 0 to 5 mm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bleed(pub f32);

impl std::str::FromStr for Bleed {
    type Err = LayoutError;

    fn from_str(text: &str) -> Result<Bleed, LayoutError> {
        match text.trim().parse::<f32>() {
            Ok(mm) if (0.0..=5.0).contains(&mm) => Ok(Bleed(mm)),
            _ => Err(LayoutError::Bleed(text.to_owned())),
        }
    }
}

/// A layout or a bleed asked for by name that there is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    Layout(String),
    Bleed(String),
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayoutError::Layout(text) => write!(
                f,
                "expected a layout of sheets or per-card, but found {text:?}"
            ),
            LayoutError::Bleed(text) => write!(
                f,
                "expected a bleed of 0 to 5 mm, such as 3, but found {text:?}"
            ),
        }
    }
}

impl std::error::Error for LayoutError {}

/// A piece to lay out, and the colour its background bleeds in.
pub struct Piece<'a> {
    pub draw: Draw<'a>,
    pub bleed: Color,
}

/// Lays `fronts` and their `backs`, each `w` × `h`, out as `layout` says:
/// on `paper` with `gap` between pieces for [`Layout::Sheets`], one a page
/// for [`Layout::PerCard`]. Each page comes with its print boxes.
pub fn lay_out(
    layout: Layout,
    paper: Paper,
    size: (f32, f32),
    gap: f32,
    bleed: f32,
    fronts: Vec<Piece>,
    backs: Vec<Piece>,
) -> Vec<(Page, PrintBoxes)> {
    match layout {
        Layout::Sheets => sheets(paper, size, gap, bleed, fronts, backs),
        Layout::PerCard => per_card(size, bleed, fronts, backs),
    }
}

/// Draws `piece`, `w` × `h`, at `(x, y)` as a print shop cuts it: its
/// background colour fills the piece and runs `bleed` past the cut, and
/// the piece itself is drawn scaled into the safe area, [`SAFE`] inside
/// the cut and centred, so that a cut that drifts leaves no sliver of a
/// frame and cuts no word.
fn shop(c: &mut Canvas, piece: &Piece, (x, y): (f32, f32), (w, h): (f32, f32), bleed: f32) {
    c.rect(
        x - bleed,
        y - bleed,
        w + 2.0 * bleed,
        h + 2.0 * bleed,
        0.0,
        Some(piece.bleed),
        None,
    );
    // The piece's frame is drawn on its edge: keep its stroke's half
    // inside the safe area too.
    let inset = SAFE + 0.2;
    let scale = ((w - 2.0 * inset) / w).min((h - 2.0 * inset) / h);
    let (dx, dy) = ((w - w * scale) / 2.0, (h - h * scale) / 2.0);
    c.within(x + dx, y + dy, scale, |c| (piece.draw)(c));
}

/// One piece a page, at trim size plus `bleed`, each front followed by
/// its back; the trim box is the piece, the bleed box the page.
fn per_card(
    (w, h): (f32, f32),
    bleed: f32,
    fronts: Vec<Piece>,
    backs: Vec<Piece>,
) -> Vec<(Page, PrintBoxes)> {
    let mut pages = Vec::new();
    for (front, back) in fronts.iter().zip(&backs) {
        for piece in [front, back] {
            let mut items: Vec<Item> = Vec::new();
            let mut canvas = Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            };
            shop(&mut canvas, piece, (bleed, bleed), (w, h), bleed);
            pages.push((
                Page {
                    width: w + 2.0 * bleed,
                    height: h + 2.0 * bleed,
                    items,
                },
                PrintBoxes {
                    trim: (bleed, bleed, w, h),
                    bleed,
                },
            ));
        }
    }
    pages
}

/// Crop marks at the corners of a `w` × `h` piece at `(x, y)`.
fn crop_marks(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32) {
    let s = Stroke::solid(Color::GREY, 0.2);
    let l = 3.0;
    for (cx, cy, dx, dy) in [
        (x, y, -1.0, -1.0),
        (x + w, y, 1.0, -1.0),
        (x, y + h, -1.0, 1.0),
        (x + w, y + h, 1.0, 1.0),
    ] {
        c.line(cx + dx * 0.8, cy, cx + dx * (0.8 + l), cy, s);
        c.line(cx, cy + dy * 0.8, cx, cy + dy * (0.8 + l), s);
    }
}

/// Lays pieces of `w` × `h` out in a grid on pages, with crop marks; for
/// each front page, a back page with the columns mirrored for duplex.
///
/// The gap between pieces is `gap`, narrowed (down to 2 mm) when that fits
/// one more row or column, so that Letter holds 9 cards as A4 does. With a
/// bleed, each background runs `bleed` mm past the cut lines, the gap is at
/// least twice that, and the crop marks stand outside the grid, on the
/// page's edges, where no bleed covers them, and each piece is finished
/// for a print shop as [`shop`] draws it. The margin is then 5 mm
/// from the page's edge to the bleed's, where the marks stand, 1 mm off
/// the bleed and at least 3 mm long. Each page comes with its boxes: the
/// cut grid, and the bleed around it.
fn sheets(
    paper: Paper,
    (w, h): (f32, f32),
    gap: f32,
    bleed: f32,
    fronts: Vec<Piece>,
    backs: Vec<Piece>,
) -> Vec<(Page, PrintBoxes)> {
    let (pw, ph) = paper.size();
    let fit = |room: f32, size: f32| -> (usize, f32) {
        let least = (2.0 * bleed).max(2.0);
        let gap = gap.max(2.0 * bleed);
        let count = |gap: f32| (((room + gap) / (size + gap)).floor() as usize).max(1);
        let (n, tight) = (count(gap), count(least));
        if tight > n {
            // As wide a gap as still fits the extra piece.
            let spare = (room - tight as f32 * size) / (tight - 1).max(1) as f32;
            (tight, spare.min(gap).max(least))
        } else {
            (n, gap)
        }
    };
    // A print shop trims the sheet itself: with a bleed, the margin may
    // be the 5 mm that home printers need, not our usual 10.
    let margin = if bleed > 0.0 { MARGIN / 2.0 } else { MARGIN };
    let (columns, gap_x) = fit(pw - 2.0 * (margin + bleed), w);
    let (rows, gap_y) = fit(ph - 2.0 * (margin + bleed), h);
    let (grid_w, grid_h) = (
        columns as f32 * (w + gap_x) - gap_x,
        rows as f32 * (h + gap_y) - gap_y,
    );
    let x0 = (pw - grid_w) / 2.0;
    let y0 = (ph - grid_h) / 2.0;
    let per_page = columns * rows;
    let mut pages = Vec::new();
    for start in (0..fronts.len()).step_by(per_page) {
        for (side, mirrored) in [(&fronts, false), (&backs, true)] {
            let mut items: Vec<Item> = Vec::new();
            let mut canvas = Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            };
            let mut used = Vec::new();
            for (i, piece) in side.iter().enumerate().skip(start).take(per_page) {
                let slot = i - start;
                let column = if mirrored {
                    columns - 1 - slot % columns
                } else {
                    slot % columns
                };
                let x = x0 + column as f32 * (w + gap_x);
                let y = y0 + (slot / columns) as f32 * (h + gap_y);
                if bleed > 0.0 {
                    shop(&mut canvas, piece, (x, y), (w, h), bleed);
                    used.push((x, y));
                } else {
                    crop_marks(&mut canvas, x, y, w, h);
                    canvas.within(x, y, 1.0, |c| (piece.draw)(c));
                }
            }
            if bleed > 0.0 {
                edge_marks(&mut canvas, &used, (w, h), bleed, (pw, ph));
            }
            let on_page = side.len().saturating_sub(start).min(per_page);
            let used_rows = on_page.div_ceil(columns).max(1);
            let used_columns = on_page.min(columns).max(1);
            let x = if mirrored {
                x0 + (columns - used_columns) as f32 * (w + gap_x)
            } else {
                x0
            };
            let trim = (
                x,
                y0,
                used_columns as f32 * (w + gap_x) - gap_x,
                used_rows as f32 * (h + gap_y) - gap_y,
            );
            pages.push((
                Page {
                    width: pw,
                    height: ph,
                    items,
                },
                PrintBoxes { trim, bleed },
            ));
        }
    }
    pages
}

/// Crop marks for bled pieces: a short line on the page's margin in line
/// with every cut, clear of the bleed.
fn edge_marks(
    c: &mut Canvas,
    placed: &[(f32, f32)],
    (w, h): (f32, f32),
    bleed: f32,
    (pw, ph): (f32, f32),
) {
    let s = Stroke::solid(Color::BLACK, 0.2);
    let mut xs: Vec<f32> = placed.iter().flat_map(|&(x, _)| [x, x + w]).collect();
    let mut ys: Vec<f32> = placed.iter().flat_map(|&(_, y)| [y, y + h]).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f32::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 0.01);
    }
    let (Some(&top), Some(&bottom)) = (ys.first(), ys.last()) else {
        return;
    };
    let (Some(&left), Some(&right)) = (xs.first(), xs.last()) else {
        return;
    };
    let (top, bottom) = (top - bleed - 1.0, bottom + bleed + 1.0);
    let (left, right) = (left - bleed - 1.0, right + bleed + 1.0);
    // From 1 mm off the bleed to 1 mm short of the page's edge, 5 mm at
    // most: 3 mm where the margin is its least.
    let reach = |from: f32, edge: f32| (from - edge).abs().min(5.0);
    for &x in &xs {
        c.line(x, top, x, top - reach(top, 1.0), s);
        c.line(x, bottom, x, bottom + reach(bottom, ph - 1.0), s);
    }
    for &y in &ys {
        c.line(left, y, left - reach(left, 1.0), y, s);
        c.line(right, y, right + reach(right, pw - 1.0), y, s);
    }
}
