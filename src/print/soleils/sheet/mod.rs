//! The 62 Soleils sheet, blank or filled from a game, drawn from the
//! template alone: any custom layout renders with no code change.
//!
//! The sheet is a vertical flow of blocks (header, legend, sun track,
//! thresholds, grid, flags, score box) at a natural size of
//! [`WIDTH`] × [`HEIGHT`] mm, paginated when it does not fit. The compact
//! sheet ([`Size::Compact`], two to a page or on A5) is narrower, with
//! larger words and smaller boxes, so that it prints at 6 pt or more when
//! shrunk. Large print doubles every size, drops colour, and gives each
//! zone its own place.
//!
//! Reading order: this file (the sheet, its sizes, blocks and tiles),
//! `style` (the inks and sizes of standard, compact and large print,
//! chosen once),
//! `paginate` (the pitch, the blocks' heights, the pages), `blocks` (the
//! header, legend, sun track, thresholds, flags and score box), `grid`
//! (the boxes), `icons` (the pictures drawn as shapes) and `large` (a zone
//! to a page, with its rule in words). `job` checks a print job's names and
//! flags before anything is drawn.

mod blocks;
mod grid;
mod icons;
pub mod job;
mod large;
mod paginate;
mod style;

use crate::render::paper::Paper;
use crate::render::scene::{Anchor, Canvas, Draw, Scene, Weight};
use crate::render::text::Fonts;
use crate::soleils::State;
use crate::soleils::template::{Reward, Template, ZoneKind};
use std::collections::BTreeSet;
use style::{Layout, Style};

/// The room for the sheet's title, left of the name line.
const TITLE_WIDTH: f32 = 110.0;

/// The natural width and height of one sheet page, in millimetres: a
/// page's content.
pub const WIDTH: f32 = crate::render::paper::CONTENT_WIDTH;
pub const HEIGHT: f32 = crate::render::paper::CONTENT_HEIGHT;

/// The natural width of the compact sheet, as tall as the others: it
/// fills half a landscape A4 page, or an A5 page, at 0.686 of its size,
/// and half a landscape Letter page at 0.684.
pub const COMPACT_WIDTH: f32 = 175.0;

/// The natural width of the phone's sheet: four boxes across, shown at
/// about 3.6 CSS pixels a millimetre on a 390-pixel screen.
pub const PHONE_WIDTH: f32 = 95.0;

/// The smallest text of the standard sheet, in millimetres at its natural
/// size: the box ids and the sun slots' numbers.
const STANDARD_SMALLEST: f32 = 2.3;

/// The three ways a sheet is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// One sheet to an A4 or Letter page, in colour.
    Standard,
    /// Narrower, with larger words and smaller boxes, to print two to a
    /// page or on A5 with every text at 6 pt or more.
    Compact,
    /// Twice the size, black on white, a zone to a page.
    Large,
    /// For a phone's screen: in colour, a quarter larger, narrow, the
    /// zones stacked in one column on one tall page.
    Phone,
}

impl Size {
    /// The natural width and height of a page of the sheet, in millimetres.
    pub fn natural(self) -> (f32, f32) {
        match self {
            Size::Compact => (COMPACT_WIDTH, HEIGHT),
            Size::Phone => (PHONE_WIDTH, HEIGHT),
            Size::Standard | Size::Large => (WIDTH, HEIGHT),
        }
    }

    /// The size for a sheet fitted into a slot of `(width, height)`
    /// millimetres: large print if asked, else the standard sheet unless
    /// its smallest text would print below `floor` millimetres, when the
    /// sheet turns compact.
    pub fn for_slot(large: bool, (width, height): (f32, f32), floor: f32) -> Size {
        let scale = (width / WIDTH).min(height / HEIGHT).min(1.0);
        if large {
            Size::Large
        } else if STANDARD_SMALLEST * scale < floor {
            Size::Compact
        } else {
            Size::Standard
        }
    }
}

/// What is drawn on a sheet besides the template.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Printed on the name line.
    pub name: Option<&'a str>,
    /// Twice the size, thick strokes, black on white, as many pages as needed.
    pub large: bool,
}

/// One player's sheet in a game: what to fill in.
#[derive(Clone, Copy)]
pub struct Filled<'a> {
    pub state: &'a State,
    pub player: usize,
}

/// Grid geometry: the pitch of a cell, and the rows and bands of a tile.
struct Geometry {
    pitch: f32,
    gap: f32,
    band: f32,
}

/// A part of the grid drawn on one page: some columns, some rows, and in
/// large print only the boxes of one zone.
#[derive(Clone)]
struct Tile {
    columns: (u16, u16),
    rows: Vec<u16>,
    zone: Option<usize>,
    /// The cell pitch, in mm.
    pitch: f32,
}

/// A block of the sheet's vertical flow, drawn across the page's width.
#[derive(Clone)]
enum Block {
    Header,
    Legend,
    Sun,
    Thresholds,
    /// A part of the grid, with a caption when the grid is split in tiles.
    Grid(Tile, Option<String>),
    /// Large print: one whole zone, with its rule in words.
    Zone {
        zone: usize,
        tiles: Vec<Tile>,
    },
    Flags,
    Score,
}

/// One sheet being laid out: the template, what fills it, and the style,
/// layout and geometry chosen for it.
struct Sheet<'a> {
    /// The fonts the sheet's words are measured in.
    fonts: &'a Fonts,
    template: &'a Template,
    /// The name printed on the name line of a blank sheet.
    name: Option<&'a str>,
    filled: Option<Filled<'a>>,
    style: Style,
    layout: Layout,
    geometry: Geometry,
    /// Rows that start a zone, which get a label band above them.
    label_rows: BTreeSet<u16>,
}

/// The pages of one sheet in the built-in fonts: [`pages_in`] with
/// [`Fonts::builtin`].
pub fn pages<'a>(
    template: &'a Template,
    options: Options<'a>,
    filled: Option<Filled<'a>>,
) -> Vec<Draw<'a>> {
    pages_in(Fonts::builtin(), template, options, filled)
}

/// The pages of one sheet, each drawn by a closure at the natural size,
/// laid out in `fonts`: standard, or large print if `options` ask.
pub fn pages_in<'a>(
    fonts: &'a Fonts,
    template: &'a Template,
    options: Options<'a>,
    filled: Option<Filled<'a>>,
) -> Vec<Draw<'a>> {
    let size = if options.large {
        Size::Large
    } else {
        Size::Standard
    };
    pages_sized(fonts, template, options.name, size, filled)
}

/// The pages of one sheet of `size`, each drawn by a closure at that
/// size's [`Size::natural`] size, laid out in `fonts` (large print wraps
/// its words, and so paginates, by their widths).
pub fn pages_sized<'a>(
    fonts: &'a Fonts,
    template: &'a Template,
    name: Option<&'a str>,
    size: Size,
    filled: Option<Filled<'a>>,
) -> Vec<Draw<'a>> {
    let sheet = std::rc::Rc::new(Sheet::new(fonts, template, name, size, filled));
    let pages = sheet.paginate();
    let count = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(page, blocks)| {
            let sheet = sheet.clone();
            Box::new(move |canvas: &mut Canvas| {
                sheet.draw_page(canvas, &blocks);
                if sheet.layout.footer > 0.0 {
                    sheet.footer(canvas, page + 1, count);
                }
            }) as Draw<'a>
        })
        .collect()
}

/// One player's sheet for a phone's screen ([`Size::Phone`]), on one page
/// as tall as it needs: the drawing at its natural width, and its height.
pub fn phone_page<'a>(
    fonts: &'a Fonts,
    template: &'a Template,
    filled: Filled<'a>,
) -> (Draw<'a>, f32) {
    let sheet = Sheet::new(fonts, template, None, Size::Phone, Some(filled));
    let blocks: Vec<Block> = sheet.paginate().into_iter().flatten().collect();
    let height = blocks.iter().map(|b| sheet.height(b)).sum();
    let draw = Box::new(move |canvas: &mut Canvas| sheet.draw_page(canvas, &blocks));
    (draw, height)
}

fn reward_text(reward: Reward) -> String {
    match reward {
        Reward::Starfish(1) => "1 starfish".into(),
        Reward::Starfish(n) => format!("{n} starfish"),
        Reward::Seashells(1) => "1 seashell".into(),
        Reward::Seashells(n) => format!("{n} seashells"),
        Reward::BonusDigit => "bonus digit".into(),
    }
}

fn noun(kind: ZoneKind) -> &'static str {
    match kind {
        ZoneKind::Cabins => "cabin",
        ZoneKind::Koinobori => "koinobori",
        ZoneKind::Sailboats => "boat",
        ZoneKind::Bottles => "bottle",
        ZoneKind::Seagulls => "seagull",
    }
}

impl<'a> Sheet<'a> {
    fn new(
        fonts: &'a Fonts,
        template: &'a Template,
        name: Option<&'a str>,
        size: Size,
        filled: Option<Filled<'a>>,
    ) -> Self {
        let (style, layout) = style::chosen(size);
        let label_rows = template
            .zones()
            .iter()
            .filter_map(|z| z.boxes.iter().map(|&b| template.boxes()[b].row).min())
            .collect();
        let mut sheet = Sheet {
            fonts,
            template,
            name,
            filled,
            style,
            layout,
            geometry: Geometry {
                pitch: 0.0,
                gap: 4.0 * style.k,
                band: 6.0 * style.k,
            },
            label_rows,
        };
        sheet.geometry.pitch = sheet.pitch();
        sheet
    }

    fn draw_page(&self, canvas: &mut Canvas, blocks: &[Block]) {
        let mut y = 0.0;
        for block in blocks {
            match block {
                Block::Header => self.header(canvas, y),
                Block::Legend => self.legend(canvas, y),
                Block::Sun => self.sun(canvas, y),
                Block::Thresholds => self.thresholds(canvas, y),
                Block::Grid(tile, caption) => {
                    let k = self.style.k;
                    let mut top = y;
                    if let Some(text) = caption {
                        canvas.text(
                            0.0,
                            y + 5.5 * k,
                            self.style.t(4.0),
                            text.clone(),
                            Anchor::Start,
                            Weight::Bold,
                            self.style.ink,
                        );
                        top += 8.0 * k;
                    }
                    self.grid(canvas, top, tile)
                }
                Block::Zone { zone, tiles } => self.draw_zone(canvas, y, *zone, tiles),
                Block::Flags => self.flags(canvas, y),
                Block::Score => self.score(canvas, y),
            }
            y += self.height(block);
        }
    }

    /// The natural width of a page.
    fn width(&self) -> f32 {
        self.layout.width
    }

    fn name(&self) -> Option<String> {
        match self.filled {
            Some(f) => Some(f.state.players()[f.player].name.clone()),
            None => self.name.map(str::to_owned),
        }
    }
}

/// The blank sheets of a print job, imposed `per_page` to a page of
/// `paper`: one personalised sheet per name of `names` (or one unnamed),
/// each `copies` times (without it, a page of unnamed sheets is filled).
/// A sheet that would print below 6 pt in its slot turns compact: the size
/// chosen comes back with the scene.
pub fn printed(
    fonts: &Fonts,
    template: &Template,
    names: &[String],
    copies: Option<u16>,
    per_page: u8,
    large_print: bool,
    paper: Paper,
) -> (Scene, Size) {
    let named: Vec<Option<&str>> = if names.is_empty() {
        vec![None]
    } else {
        names.iter().map(|n| Some(n.as_str())).collect()
    };
    let copies = copies.unwrap_or(if names.is_empty() {
        u16::from(per_page)
    } else {
        1
    });
    let slot = crate::render::paper::layout(paper, per_page).slots[0];
    let floor = crate::print::floor::SMALLEST_PT * crate::render::scene::MM_PER_PT;
    let size = Size::for_slot(large_print, (slot.2, slot.3), floor);
    let mut pieces = Vec::new();
    for name in &named {
        for _ in 0..copies {
            pieces.extend(pages_sized(fonts, template, *name, size, None));
        }
    }
    let scene = Scene {
        title: template.name().to_owned(),
        pages: crate::render::paper::impose(paper, per_page, size.natural(), pieces),
    };
    (scene, size)
}
