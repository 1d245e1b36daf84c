//! Summertime components: card faces and backs, closing cards and tiles,
//! drawn at their natural size in millimetres. Used by the print-and-play
//! layout and by the replay's card grid alike.

use crate::print::summertime::item_pictogram;
use crate::render::paper::{MARGIN, Paper, PrintBoxes};
use crate::render::scene::{
    Anchor, Canvas, Color, Document, Draw, Frame, Item, Page, Scene, Stroke, Weight,
};
use crate::render::text::Fonts;
use crate::summertime::deck::{CardIndex, Cost, Deck, Value};
use std::sync::Arc;

pub const CARD_W: f32 = 60.0;
pub const CARD_H: f32 = 84.0;
pub const TILE: f32 = 24.0;

pub(super) const SAND: Color = Color(238, 220, 170);
pub(super) const BLUE: Color = Color(25, 85, 200);
pub(super) const BROWN: Color = Color(140, 85, 30);
/// The background of card backs and closing cards.
const BACK: Color = Color(250, 244, 228);

/// The background of a tile's back: light for the first player, dark for
/// the second.
fn tile_back(owner: usize) -> Color {
    if owner == 0 {
        Color(235, 235, 235)
    } else {
        Color(70, 70, 90)
    }
}

/// A soft colour for a name, the same on every card.
pub(super) fn pastel(name: &str) -> Color {
    let h = name
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let channel = |shift: u32| 175 + ((h >> shift) % 70) as u8;
    Color(channel(0), channel(8), channel(16))
}

/// A condition picture in the stripe, a chip `w` × `h`: its pictogram
/// and its name, at 7 pt or more (a name too long for that is left
/// smaller, for the 6 pt check of the print to refuse).
fn token(
    c: &mut Canvas,
    fonts: &Fonts,
    (x, y): (f32, f32),
    (w, h): (f32, f32),
    deck: &Deck,
    picture: usize,
) {
    let label = deck.picture_name(picture);
    c.rect(
        x,
        y,
        w,
        h,
        h / 2.0,
        Some(pastel(label)),
        Some(Stroke::solid(Color(90, 80, 60), 0.3)),
    );
    let initial = label.chars().next().map(String::from).unwrap_or_default();
    let icon = h * 0.8;
    crate::print::summertime::pictogram::draw(
        c,
        deck.pictogram(picture),
        &initial,
        x + h / 2.0 + 0.6,
        y + h / 2.0,
        icon,
    );
    let left = x + h + 1.0;
    c.fit_text(
        fonts,
        left,
        y + h / 2.0 + 0.95,
        TOKEN_TEXT,
        x + w - 1.5 - left,
        label.to_owned(),
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
}

/// The size of a condition's name in the stripe: 7.4 pt.
const TOKEN_TEXT: f32 = 2.6;

/// The face of an adventure card at `(0, 0)`, `CARD_W` × `CARD_H`, its
/// words fitted in `fonts`.
pub fn face(c: &mut Canvas, fonts: &Fonts, deck: &Deck, card: CardIndex) {
    let face = deck.card(card);
    let picture = deck.picture_name(face.picture);
    let title = format!("{} ({}): {}", face.name, face.id, condition(deck, card));
    c.group(title, |c| {
        c.rect(
            0.0,
            0.0,
            CARD_W,
            CARD_H,
            3.0,
            Some(Color::WHITE),
            Some(Stroke::solid(Color::BLACK, 0.4)),
        );
        c.rect(1.5, 1.5, CARD_W - 3.0, 14.0, 2.0, Some(SAND), None);
        // One chip a condition, stacked, each as wide as the stripe
        // leaves beside the value, so that a name prints at full size.
        let stacked = face.needs.len().max(1) as f32;
        let h = if stacked > 1.0 { 5.6 } else { 7.0 };
        let top = 1.5 + (14.0 - stacked * h - (stacked - 1.0) * 1.0) / 2.0;
        for (i, &need) in face.needs.iter().enumerate() {
            let y = top + i as f32 * (h + 1.0);
            token(c, fonts, (3.0, y), (40.0, h), deck, need);
        }
        let (value, color) = match face.value {
            Value::Points(v) => (v.to_string(), BLUE),
            Value::Multiplier(m) => (format!("×{m}"), BROWN),
        };
        c.text(
            CARD_W - 4.0,
            12.5,
            9.0,
            value,
            Anchor::End,
            Weight::Bold,
            color,
        );
        c.rect(
            4.0,
            19.0,
            CARD_W - 8.0,
            44.0,
            3.0,
            Some(pastel(picture)),
            None,
        );
        // The picture as a pictogram, and the card's own name under it.
        let initial = picture.chars().next().map(String::from).unwrap_or_default();
        crate::print::summertime::pictogram::draw(
            c,
            deck.pictogram(face.picture),
            &initial,
            CARD_W / 2.0,
            37.5,
            28.0,
        );
        c.fit_text(
            fonts,
            CARD_W / 2.0,
            59.5,
            5.5,
            CARD_W - 12.0,
            face.name.clone(),
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        c.fit_text(
            fonts,
            CARD_W / 2.0,
            70.0,
            3.2,
            CARD_W - 8.0,
            condition(deck, card),
            Anchor::Middle,
            Weight::Regular,
            Color(80, 80, 80),
        );
        c.text(
            4.0,
            CARD_H - 4.0,
            2.6,
            face.id.clone(),
            Anchor::Start,
            Weight::Regular,
            Color::GREY,
        );
        let kind = match face.value {
            Value::Points(_) => "points",
            Value::Multiplier(_) => "multiplier",
        };
        c.text(
            CARD_W - 4.0,
            CARD_H - 4.0,
            2.6,
            kind,
            Anchor::End,
            Weight::Regular,
            Color::GREY,
        );
    });
}

/// What the stripe asks for, in words.
pub fn condition(deck: &Deck, card: CardIndex) -> String {
    let face = deck.card(card);
    let names: Vec<String> = face
        .needs
        .iter()
        .map(|&p| deck.picture_name(p).to_lowercase())
        .collect();
    match (&face.value, names.len()) {
        (Value::Points(_), 0) => "plays anywhere".to_owned(),
        (Value::Points(_), _) => format!("next to {}", names.join(" or ")),
        (Value::Multiplier(m), _) => format!("×{m} each {} beside it", names.join(" or ")),
    }
}

/// The mark of `item`: its pictogram, or letters no other item shares.
pub(super) fn item_mark(deck: &Deck, item: usize) -> item_pictogram::Mark {
    let items: Vec<(&str, &str)> = (0..deck.items())
        .map(|i| (deck.item_id(i), deck.item_name(i)))
        .collect();
    item_pictogram::marks(&items).swap_remove(item)
}

/// A card back or a closing-card side: a title and the three cost items,
/// each as its pictogram on its pastel and its name.
pub fn cost_side(c: &mut Canvas, fonts: &Fonts, deck: &Deck, cost: Cost, title: &str, note: &str) {
    c.group(
        format!("{title}: costs {}", deck.describe_cost(cost)),
        |c| {
            c.rect(
                0.0,
                0.0,
                CARD_W,
                CARD_H,
                3.0,
                Some(BACK),
                Some(Stroke::solid(Color::BLACK, 0.4)),
            );
            c.text(
                CARD_W / 2.0,
                12.0,
                5.0,
                title.to_owned(),
                Anchor::Middle,
                Weight::Bold,
                BROWN,
            );
            for (i, &item) in cost.0.iter().enumerate() {
                let name = deck.item_name(item);
                let y = 22.0 + i as f32 * 15.0;
                let x = 17.0;
                c.circle(
                    x,
                    y + 5.0,
                    6.5,
                    Some(pastel(name)),
                    Some(Stroke::solid(Color(90, 80, 60), 0.4)),
                );
                item_pictogram::draw(c, &item_mark(deck, item), x, y + 5.0, 10.0);
                c.fit_text(
                    fonts,
                    x + 9.0,
                    y + 6.3,
                    3.6,
                    CARD_W - x - 13.0,
                    name.to_owned(),
                    Anchor::Start,
                    Weight::Bold,
                    Color::BLACK,
                );
            }
            c.fit_text(
                fonts,
                CARD_W / 2.0,
                CARD_H - 8.0,
                3.0,
                CARD_W - 8.0,
                note.to_owned(),
                Anchor::Middle,
                Weight::Regular,
                Color(80, 80, 80),
            );
        },
    );
}

/// A tile: its item face, or its back in the owner's shade.
pub fn tile(c: &mut Canvas, fonts: &Fonts, deck: &Deck, item: usize, owner: usize, back: bool) {
    let name = deck.item_name(item);
    if back {
        let (fill, label) = if owner == 0 {
            (tile_back(owner), "light")
        } else {
            (tile_back(owner), "dark")
        };
        let ink = if owner == 0 {
            Color::BLACK
        } else {
            Color::WHITE
        };
        c.group(format!("tile back, {label}"), |c| {
            c.rect(
                0.0,
                0.0,
                TILE,
                TILE,
                2.5,
                Some(fill),
                Some(Stroke::solid(Color::BLACK, 0.3)),
            );
            c.text(
                TILE / 2.0,
                TILE / 2.0 + 1.2,
                3.4,
                label,
                Anchor::Middle,
                Weight::Bold,
                ink,
            );
        });
    } else {
        c.group(format!("tile: {name}"), |c| {
            c.rect(
                0.0,
                0.0,
                TILE,
                TILE,
                2.5,
                Some(Color::WHITE),
                Some(Stroke::solid(Color::BLACK, 0.3)),
            );
            c.circle(TILE / 2.0, TILE / 2.0 - 1.5, 7.0, Some(pastel(name)), None);
            let mark = item_mark(deck, item);
            item_pictogram::draw(c, &mark, TILE / 2.0, TILE / 2.0 - 1.5, 10.5);
            c.fit_text(
                fonts,
                TILE / 2.0,
                TILE - 3.0,
                3.2,
                TILE - 3.0,
                name.to_owned(),
                Anchor::Middle,
                Weight::Bold,
                Color::BLACK,
            );
        });
    }
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

/// A piece to lay out, and the colour its background bleeds in.
pub struct Piece<'a> {
    pub draw: Draw<'a>,
    pub bleed: Color,
}

/// Lays pieces of `w` × `h` out in a grid on pages, with crop marks; for
/// each front page, a back page with the columns mirrored for duplex.
///
/// The gap between pieces is `gap`, narrowed (down to 2 mm) when that fits
/// one more row or column, so that Letter holds 9 cards as A4 does. With a
/// bleed, each background runs `bleed` mm past the cut lines, the gap is at
/// least twice that, and the crop marks stand outside the grid, on the
/// page's edges, where no bleed covers them. The margin is then 5 mm
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
                    canvas.rect(
                        x - bleed,
                        y - bleed,
                        w + 2.0 * bleed,
                        h + 2.0 * bleed,
                        0.0,
                        Some(piece.bleed),
                        None,
                    );
                    used.push((x, y));
                } else {
                    crop_marks(&mut canvas, x, y, w, h);
                }
                canvas.within(x, y, 1.0, |c| (piece.draw)(c));
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

/// The print-and-play deck: adventure cards with their backs, the closing
/// cards' two sides, and both players' tiles with their backs, in `fonts`.
pub fn scene(fonts: &Arc<Fonts>, deck: &Deck, paper: Paper, bleed: f32) -> Document {
    print(fonts, deck, paper, bleed).0
}

/// [`scene`], with each page's boxes for a print shop: where it is cut,
/// and how far its backgrounds bleed.
pub fn print(
    fonts: &Arc<Fonts>,
    deck: &Deck,
    paper: Paper,
    bleed: f32,
) -> (Document, Vec<PrintBoxes>) {
    let measure: &Fonts = fonts;
    fn piece(draw: Draw<'_>, bleed: Color) -> Piece<'_> {
        Piece { draw, bleed }
    }
    let mut fronts: Vec<Piece> = Vec::new();
    let mut backs: Vec<Piece> = Vec::new();
    for card in 0..deck.cards().len() {
        fronts.push(piece(
            Box::new(move |c: &mut Canvas| face(c, measure, deck, card)),
            Color::WHITE,
        ));
        let cost = deck.card(card).cost;
        backs.push(piece(
            Box::new(move |c: &mut Canvas| {
                cost_side(
                    c,
                    measure,
                    deck,
                    cost,
                    "Summertime",
                    "the price of the card in front",
                )
            }),
            BACK,
        ));
    }
    let mut pages = sheets(paper, (CARD_W, CARD_H), 4.0, bleed, fronts, backs);
    let mut fronts: Vec<Piece> = Vec::new();
    let mut backs: Vec<Piece> = Vec::new();
    for (i, closing) in deck.closing_cards().iter().enumerate() {
        for (side, list) in [(0usize, &mut fronts), (1, &mut backs)] {
            let cost = closing.sides[side];
            let title = format!("Closing card {}", i + 1);
            let note = format!(
                "side {}: the price once the stack is empty",
                ["A", "B"][side]
            );
            list.push(piece(
                Box::new(move |c: &mut Canvas| cost_side(c, measure, deck, cost, &title, &note)),
                BACK,
            ));
        }
    }
    pages.extend(sheets(paper, (CARD_W, CARD_H), 4.0, bleed, fronts, backs));
    let mut fronts: Vec<Piece> = Vec::new();
    let mut backs: Vec<Piece> = Vec::new();
    for owner in 0..2 {
        for item in 0..deck.items() {
            for _ in 0..deck.tiles_per_item() {
                fronts.push(piece(
                    Box::new(move |c: &mut Canvas| tile(c, measure, deck, item, owner, false)),
                    Color::WHITE,
                ));
                backs.push(piece(
                    Box::new(move |c: &mut Canvas| tile(c, measure, deck, item, owner, true)),
                    tile_back(owner),
                ));
            }
        }
    }
    pages.extend(sheets(paper, (TILE, TILE), 3.0, bleed, fronts, backs));
    let (pages, boxes) = pages.into_iter().unzip();
    let scene = Scene {
        title: format!("{}: print-and-play cards", deck.name()),
        pages,
    };
    (Document::new(scene, fonts.clone()), boxes)
}
