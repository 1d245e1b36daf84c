//! Summertime components: card faces and backs, closing cards and tiles,
//! drawn at their natural size in millimetres. Used by the print-and-play
//! layout and by the replay's card grid alike.

use super::paper::{MARGIN, Paper};
use super::scene::{Anchor, Canvas, Color, Draw, Frame, Item, Page, Scene, Stroke, Weight};
use crate::summertime::deck::{CardIndex, Cost, Deck, Value};

pub const CARD_W: f32 = 60.0;
pub const CARD_H: f32 = 84.0;
pub const TILE: f32 = 24.0;

const SAND: Color = Color(238, 220, 170);
const BLUE: Color = Color(25, 85, 200);
const BROWN: Color = Color(140, 85, 30);

/// A soft colour for a name, the same on every card.
fn pastel(name: &str) -> Color {
    let h = name
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let channel = |shift: u32| 175 + ((h >> shift) % 70) as u8;
    Color(channel(0), channel(8), channel(16))
}

fn token(c: &mut Canvas, x: f32, y: f32, w: f32, label: &str) {
    c.rect(
        x,
        y,
        w,
        7.0,
        3.5,
        Some(pastel(label)),
        Some(Stroke::solid(Color(90, 80, 60), 0.3)),
    );
    c.text_fit(
        x + w / 2.0,
        y + 4.9,
        3.2,
        w - 2.0,
        label.to_owned(),
        Anchor::Middle,
        Weight::Bold,
        Color::BLACK,
    );
}

/// The face of an adventure card at `(0, 0)`, `CARD_W` × `CARD_H`.
pub fn face(c: &mut Canvas, deck: &Deck, card: CardIndex) {
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
        for (i, &need) in face.needs.iter().enumerate() {
            token(c, 3.0 + i as f32 * 17.5, 5.0, 16.5, deck.picture_name(need));
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
        c.text_fit(
            CARD_W / 2.0,
            44.0,
            7.0,
            CARD_W - 12.0,
            picture.to_owned(),
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        c.text_fit(
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

/// A card back or a closing-card side: a title and the three cost items.
pub fn cost_side(c: &mut Canvas, deck: &Deck, cost: Cost, title: &str, note: &str) {
    c.group(
        format!("{title}: costs {}", deck.describe_cost(cost)),
        |c| {
            c.rect(
                0.0,
                0.0,
                CARD_W,
                CARD_H,
                3.0,
                Some(Color(250, 244, 228)),
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
                c.circle(
                    CARD_W / 2.0,
                    y + 5.0,
                    6.5,
                    Some(pastel(name)),
                    Some(Stroke::solid(Color(90, 80, 60), 0.4)),
                );
                c.text_fit(
                    CARD_W / 2.0,
                    y + 6.2,
                    3.4,
                    12.0,
                    name.to_owned(),
                    Anchor::Middle,
                    Weight::Bold,
                    Color::BLACK,
                );
            }
            c.text_fit(
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
pub fn tile(c: &mut Canvas, deck: &Deck, item: usize, owner: usize, back: bool) {
    let name = deck.item_name(item);
    if back {
        let (fill, label) = if owner == 0 {
            (Color(235, 235, 235), "light")
        } else {
            (Color(70, 70, 90), "dark")
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
            c.text_fit(
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
    let l = 2.5;
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
fn sheets<'a>(
    paper: Paper,
    (w, h): (f32, f32),
    gap: f32,
    fronts: Vec<Draw<'a>>,
    backs: Vec<Draw<'a>>,
) -> Vec<Page> {
    let (pw, ph) = paper.size();
    let columns = (((pw - 2.0 * MARGIN + gap) / (w + gap)).floor() as usize).max(1);
    let rows = (((ph - 2.0 * MARGIN + gap) / (h + gap)).floor() as usize).max(1);
    let x0 = (pw - (columns as f32 * (w + gap) - gap)) / 2.0;
    let y0 = (ph - (rows as f32 * (h + gap) - gap)) / 2.0;
    let per_page = columns * rows;
    let mut pages = Vec::new();
    for start in (0..fronts.len()).step_by(per_page) {
        for (side, mirrored) in [(&fronts, false), (&backs, true)] {
            let mut items: Vec<Item> = Vec::new();
            let mut canvas = Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            };
            for (i, draw) in side.iter().enumerate().skip(start).take(per_page) {
                let slot = i - start;
                let column = if mirrored {
                    columns - 1 - slot % columns
                } else {
                    slot % columns
                };
                let x = x0 + column as f32 * (w + gap);
                let y = y0 + (slot / columns) as f32 * (h + gap);
                crop_marks(&mut canvas, x, y, w, h);
                canvas.within(x, y, 1.0, |c| draw(c));
            }
            pages.push(Page {
                width: pw,
                height: ph,
                items,
            });
        }
    }
    pages
}

/// The print-and-play deck: adventure cards with their backs, the closing
/// cards' two sides, and both players' tiles with their backs.
pub fn scene(deck: &Deck, paper: Paper) -> Scene {
    let mut fronts: Vec<Draw> = Vec::new();
    let mut backs: Vec<Draw> = Vec::new();
    for card in 0..deck.cards().len() {
        fronts.push(Box::new(move |c: &mut Canvas| face(c, deck, card)));
        let cost = deck.card(card).cost;
        backs.push(Box::new(move |c: &mut Canvas| {
            cost_side(
                c,
                deck,
                cost,
                "Summertime",
                "the price of the card in front",
            )
        }));
    }
    let mut pages = sheets(paper, (CARD_W, CARD_H), 4.0, fronts, backs);
    let mut fronts: Vec<Draw> = Vec::new();
    let mut backs: Vec<Draw> = Vec::new();
    for (i, closing) in deck.closing_cards().iter().enumerate() {
        for (side, list) in [(0usize, &mut fronts), (1, &mut backs)] {
            let cost = closing.sides[side];
            let title = format!("Closing card {}", i + 1);
            let note = format!(
                "side {}: the price once the stack is empty",
                ["A", "B"][side]
            );
            list.push(Box::new(move |c: &mut Canvas| {
                cost_side(c, deck, cost, &title, &note)
            }));
        }
    }
    pages.extend(sheets(paper, (CARD_W, CARD_H), 4.0, fronts, backs));
    let mut fronts: Vec<Draw> = Vec::new();
    let mut backs: Vec<Draw> = Vec::new();
    for owner in 0..2 {
        for item in 0..deck.items() {
            for _ in 0..deck.tiles_per_item() {
                fronts.push(Box::new(move |c: &mut Canvas| {
                    tile(c, deck, item, owner, false)
                }));
                backs.push(Box::new(move |c: &mut Canvas| {
                    tile(c, deck, item, owner, true)
                }));
            }
        }
    }
    pages.extend(sheets(paper, (TILE, TILE), 3.0, fronts, backs));
    Scene {
        title: format!("{}: print-and-play cards", deck.name()),
        pages,
    }
}
