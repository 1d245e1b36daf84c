//! Summertime components: card faces and backs, closing cards and tiles,
//! drawn at their natural size in millimetres. Used by the print-and-play
//! layout and by the replay's card grid alike.

use crate::print::summertime::item_pictogram;
use crate::print::summertime::layout::{Layout, Piece, lay_out};
use crate::render::paper::{Paper, PrintBoxes};
use crate::render::scene::{Anchor, Canvas, Color, Document, Draw, Scene, Stroke, Weight};
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
/// The colour around a card's face at a print shop, out to its bleed.
const SEA: Color = Color(150, 200, 220);

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

/// A card's value as it prints, and its colour: points in blue, a
/// multiplier (`×2`) in brown.
pub(super) fn value_mark(value: Value) -> (String, Color) {
    match value {
        Value::Points(v) => (v.to_string(), BLUE),
        Value::Multiplier(m) => (format!("×{m}"), BROWN),
    }
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
        let (value, color) = value_mark(face.value);
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

/// The print-and-play deck: adventure cards with their backs, the closing
/// cards' two sides, and both players' tiles with their backs, in `fonts`,
/// laid out on sheets of `paper`.
pub fn scene(fonts: &Arc<Fonts>, deck: &Deck, paper: Paper, bleed: f32) -> Document {
    print(fonts, deck, paper, bleed, Layout::Sheets).0
}

/// The deck's pieces laid out as `layout` says, with each page's boxes for
/// a print shop: where it is cut, and how far its backgrounds bleed. With
/// a bleed, or one piece a page, each piece is finished for a print shop
/// (see [`crate::print::summertime::layout`]): a card's face on a sea-blue
/// ground, a tile's on sand.
pub fn print(
    fonts: &Arc<Fonts>,
    deck: &Deck,
    paper: Paper,
    bleed: f32,
    layout: Layout,
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
            SEA,
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
    let cards = (CARD_W, CARD_H);
    let mut pages = lay_out(layout, paper, cards, 4.0, bleed, fronts, backs);
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
    pages.extend(lay_out(layout, paper, cards, 4.0, bleed, fronts, backs));
    let mut fronts: Vec<Piece> = Vec::new();
    let mut backs: Vec<Piece> = Vec::new();
    for owner in 0..2 {
        for item in 0..deck.items() {
            for _ in 0..deck.tiles_per_item() {
                fronts.push(piece(
                    Box::new(move |c: &mut Canvas| tile(c, measure, deck, item, owner, false)),
                    SAND,
                ));
                backs.push(piece(
                    Box::new(move |c: &mut Canvas| tile(c, measure, deck, item, owner, true)),
                    tile_back(owner),
                ));
            }
        }
    }
    pages.extend(lay_out(
        layout,
        paper,
        (TILE, TILE),
        3.0,
        bleed,
        fronts,
        backs,
    ));
    let (pages, boxes) = pages.into_iter().unzip();
    let scene = Scene {
        title: match layout {
            Layout::Sheets => format!("{}: print-and-play cards", deck.name()),
            Layout::PerCard => format!("{}: cards for a card printer", deck.name()),
        },
        pages,
    };
    (Document::new(scene, fonts.clone()), boxes)
}
