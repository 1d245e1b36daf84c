//! Paper sizes and imposition: placing sheets 1, 2 or 4 to a page, with cut
//! lines, inside a printable margin.

use super::scene::{Canvas, Color, Draw, Frame, Item, Page, Stroke};

/// The margin kept clear on every page, in millimetres. Home printers need
/// about 5 mm; we keep twice that.
pub const MARGIN: f32 = 10.0;

/// The natural size of a portrait page's content, in millimetres: A4
/// inside the margin. Sheets and scored replays are drawn at this size,
/// then fitted to the paper.
pub const CONTENT_WIDTH: f32 = 190.0;
pub const CONTENT_HEIGHT: f32 = 277.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
    A5,
}

impl Paper {
    /// Portrait width and height in millimetres.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
            Paper::A5 => (148.0, 210.0),
        }
    }
}

/// A page's boxes for a print shop, in millimetres from its top left: the
/// rectangle `(x, y, w, h)` it is cut to (its PDF `TrimBox`), and how far
/// its backgrounds run past that (its `BleedBox`, the trim grown by it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintBoxes {
    pub trim: (f32, f32, f32, f32),
    pub bleed: f32,
}

/// Where each of the sheets on one page goes.
pub struct Layout {
    pub width: f32,
    pub height: f32,
    /// Slots `(x, y, w, h)` inside the margins.
    pub slots: Vec<(f32, f32, f32, f32)>,
    /// Dashed cut lines between slots.
    pub cuts: Vec<(f32, f32, f32, f32)>,
}

/// The page layout for `per_page` sheets (1, 2 or 4) on `paper`.
pub fn layout(paper: Paper, per_page: u8) -> Layout {
    let (w, h) = paper.size();
    match per_page {
        2 => {
            // Landscape, two halves side by side.
            let (w, h) = (h, w);
            let half = w / 2.0;
            Layout {
                width: w,
                height: h,
                slots: vec![
                    (MARGIN, MARGIN, half - 2.0 * MARGIN, h - 2.0 * MARGIN),
                    (half + MARGIN, MARGIN, half - 2.0 * MARGIN, h - 2.0 * MARGIN),
                ],
                cuts: vec![(half, 0.0, half, h)],
            }
        }
        4 => {
            let (hw, hh) = (w / 2.0, h / 2.0);
            let slot =
                |x: f32, y: f32| (x + MARGIN, y + MARGIN, hw - 2.0 * MARGIN, hh - 2.0 * MARGIN);
            Layout {
                width: w,
                height: h,
                slots: vec![slot(0.0, 0.0), slot(hw, 0.0), slot(0.0, hh), slot(hw, hh)],
                cuts: vec![(hw, 0.0, hw, h), (0.0, hh, w, hh)],
            }
        }
        _ => Layout {
            width: w,
            height: h,
            slots: vec![(MARGIN, MARGIN, w - 2.0 * MARGIN, h - 2.0 * MARGIN)],
            cuts: Vec::new(),
        },
    }
}

/// The frame that fits content of natural size `(cw, ch)` into a slot,
/// centred, never enlarged.
pub fn fit(slot: (f32, f32, f32, f32), cw: f32, ch: f32) -> Frame {
    let (x, y, w, h) = slot;
    let scale = (w / cw).min(h / ch).min(1.0);
    Frame {
        scale,
        dx: x + (w - cw * scale) / 2.0,
        dy: y + (h - ch * scale) / 2.0,
    }
}

/// Places pieces of content (each drawn by a closure into a frame, at a
/// natural size) `per_page` to a page, with cut lines between them.
pub fn impose<'a>(
    paper: Paper,
    per_page: u8,
    natural: (f32, f32),
    pieces: Vec<Draw<'a>>,
) -> Vec<Page> {
    let layout = layout(paper, per_page);
    let slots = layout.slots.len();
    pieces
        .chunks(slots)
        .map(|chunk| {
            let mut items: Vec<Item> = Vec::new();
            for (piece, &slot) in chunk.iter().zip(&layout.slots) {
                let mut canvas = Canvas {
                    items: &mut items,
                    frame: fit(slot, natural.0, natural.1),
                };
                piece(&mut canvas);
            }
            let mut canvas = Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            };
            for &(x1, y1, x2, y2) in &layout.cuts {
                canvas.line(x1, y1, x2, y2, Stroke::dashed(Color::GREY, 0.2, 2.0, 1.5));
            }
            Page {
                width: layout.width,
                height: layout.height,
                items,
            }
        })
        .collect()
}
