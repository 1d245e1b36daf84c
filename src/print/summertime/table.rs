//! The Summertime table as the HTML viewer shows it after each event: the
//! face-up cards with their prices, each player's hand and tiles, and the
//! grid in a fixed window of cells, so that the same items stand in the
//! same places from one event to the next and only what changed is
//! swapped.

use super::cards::{CARD_H, CARD_W, face};
use super::replay::{hand_text, played_card, strip, tiles_text};
use crate::render::scene::{Anchor, Canvas, Color, Frame, Page, Stroke, Weight};
use crate::render::text::Fonts;
use crate::summertime::{Cell, State, score};

/// The page width, and the margin around the content.
const WIDTH: f32 = 200.0;
const MARGIN: f32 = 5.0;
/// The face-up cards' scale.
const DISPLAY_SCALE: f32 = 0.5;

/// The cells `(x0, y0, x1, y1)` the grid window shows: every cell any
/// state of the replay fills, and at least one.
pub type Window = (i32, i32, i32, i32);

/// The smallest window holding `cells`.
pub fn window<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> Window {
    cells
        .into_iter()
        .fold(None, |w: Option<Window>, &(x, y)| {
            Some(match w {
                None => (x, y, x, y),
                Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
            })
        })
        .unwrap_or((0, 0, 0, 0))
}

/// Player `p`'s hand in words, as the one at `seat` sees it: their own
/// hand (or every hand, for the referee's `None`) card by card; another's
/// by the cards the table has seen, and how many were dealt face down.
fn hand_seen(state: &State, seat: Option<usize>, p: usize) -> String {
    let deck = state.deck();
    match seat {
        Some(seat) if seat != p => {
            let (seen, hidden) = public_hand(state, p);
            let mut words: Vec<String> = seen
                .iter()
                .map(|&h| format!("{} ({})", deck.card(h).name, deck.card(h).id))
                .collect();
            if hidden > 0 {
                words.push(format!("{hidden} dealt face down"));
            }
            if words.is_empty() {
                "empty".to_owned()
            } else {
                words.join(", ")
            }
        }
        _ => hand_text(deck, &state.players()[p]),
    }
}

/// The cards in player `p`'s hand that everyone has seen bought from the
/// display, and how many others (dealt face down) they hold.
pub fn public_hand(state: &State, p: usize) -> (Vec<crate::summertime::deck::CardIndex>, usize) {
    let bought: Vec<_> = state
        .turns()
        .iter()
        .filter(|t| t.player == p)
        .filter_map(|t| match t.action {
            crate::summertime::TurnAction::Bought { card } => Some(card),
            _ => None,
        })
        .collect();
    let player = &state.players()[p];
    let (seen, hidden): (Vec<_>, Vec<_>) = player.hand.iter().partition(|c| bought.contains(c));
    (seen, hidden.len() + usize::from(player.unknown))
}

/// The table after an event, as one page, in the built-in fonts: [`page_in`]
/// with [`Fonts::builtin`].
///
/// Each empty cell of the window is keyed `cell:X,Y`, so that the table's
/// page can offer it for a play when it is tapped.
pub fn page(state: &State, window: Window, seat: Option<usize>) -> Page {
    drawn(Fonts::builtin(), state, window, seat, true)
}

/// The table after an event, as one page, its words measured in `fonts`.
/// With `seat`, as that player sees it: the others' cards dealt face down
/// are counted, not named.
pub fn page_in(fonts: &Fonts, state: &State, window: Window, seat: Option<usize>) -> Page {
    drawn(fonts, state, window, seat, false)
}

/// The table's page; with `keyed`, the empty cells carry their keys.
fn drawn(fonts: &Fonts, state: &State, window: Window, seat: Option<usize>, keyed: bool) -> Page {
    let (x0, y0, x1, y1) = window;
    let (columns, rows) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let inner = WIDTH - 2.0 * MARGIN;
    let gap = 2.5;
    let strip_h = 9.0;
    // Cards at most at the display's size, as large as the width allows.
    let scale = ((inner - gap * (columns - 1.0)) / (columns * CARD_W)).min(0.62);
    let (cw, ch) = (CARD_W * scale, CARD_H * scale + strip_h);
    let display_h = CARD_H * DISPLAY_SCALE + 22.0;
    let players_h = players_height() + 4.0;
    let grid_top = display_h + players_h + 10.0;
    let height = grid_top + rows * (ch + gap) + 4.0 + 2.0 * MARGIN;
    let mut items = Vec::new();
    let mut c = Canvas {
        items: &mut items,
        frame: Frame {
            scale: 1.0,
            dx: MARGIN,
            dy: MARGIN,
        },
    };
    display(&mut c, fonts, state);
    players(&mut c, fonts, state, display_h, seat);
    c.text(
        0.0,
        grid_top - 3.0,
        4.2,
        "The grid",
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    let left = (inner - columns * cw - (columns - 1.0) * gap) / 2.0;
    for gy in y0..=y1 {
        for gx in x0..=x1 {
            let x = left + (gx - x0) as f32 * (cw + gap);
            let y = grid_top + 2.0 + (gy - y0) as f32 * (ch + gap);
            match state.grid().get(&(gx, gy)) {
                Some(t) => played_card(&mut c, fonts, state, (gx, gy), t, (x, y), scale),
                None => c.keyed_group(
                    format!("({gx},{gy}): empty"),
                    keyed.then(|| format!("cell:{gx},{gy}")),
                    |c| {
                        c.rect(
                            x,
                            y,
                            cw,
                            CARD_H * scale,
                            2.0,
                            None,
                            Some(Stroke::dashed(Color(190, 185, 170), 0.3, 1.5, 1.2)),
                        );
                    },
                ),
            }
        }
    }
    Page {
        width: WIDTH,
        height,
        items,
    }
}

/// The three face-up cards, each over its stack and price.
fn display(c: &mut Canvas, fonts: &Fonts, state: &State) {
    c.text(
        0.0,
        5.0,
        4.2,
        "Face-up cards",
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    let deck = state.deck();
    let (w, h) = (CARD_W * DISPLAY_SCALE, CARD_H * DISPLAY_SCALE);
    for (s, card) in state.display().iter().enumerate() {
        let x = s as f32 * (w + 6.0);
        let y = 8.0;
        let stack = &state.stacks()[s];
        let price = state.price(s).map_or("unknown".to_owned(), |cost| {
            deck.describe_cost(cost).to_string()
        });
        // Stacks are numbered 0 to 2, as the log and the buy command
        // number them.
        let title = match card {
            Some(card) => format!(
                "Stack {s}: {} ({}), price {price}; {} left in the stack",
                deck.card(*card).name,
                deck.card(*card).id,
                stack.remaining
            ),
            None => format!(
                "Stack {s}: no card face up, price {price}; {} left in the stack",
                stack.remaining
            ),
        };
        c.group(title, |c| {
            match card {
                Some(card) => c.within(x, y, DISPLAY_SCALE, |c| face(c, fonts, deck, *card)),
                None => c.rect(
                    x,
                    y,
                    w,
                    h,
                    2.0,
                    None,
                    Some(Stroke::dashed(Color::GREY, 0.3, 1.5, 1.2)),
                ),
            }
            c.fit_text(
                fonts,
                x,
                y + h + 4.0,
                3.0,
                w,
                format!("Stack {s}: {} left", stack.remaining),
                Anchor::Start,
                Weight::Regular,
                Color::BLACK,
            );
            // The price, over two lines when it is long.
            let text = format!("price {price}");
            let lines = if fonts.width(&text, 2.8, Weight::Regular) > w + 4.0 {
                match text.rsplit_once(" + ") {
                    Some((a, b)) => vec![format!("{a} +"), b.to_owned()],
                    None => vec![text],
                }
            } else {
                vec![text]
            };
            for (i, line) in lines.into_iter().enumerate() {
                c.fit_text(
                    fonts,
                    x,
                    y + h + 7.8 + i as f32 * 3.4,
                    2.8,
                    w + 4.0,
                    line,
                    Anchor::Start,
                    Weight::Regular,
                    Color(80, 80, 80),
                );
            }
        });
    }
    // The scores, beside the display.
    let x = 3.0 * (w + 6.0) + 2.0;
    let room = WIDTH - 2.0 * MARGIN - x;
    c.text(
        x,
        13.0,
        4.2,
        "Score",
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    for (i, line) in score(state).iter().enumerate() {
        let y = 20.0 + i as f32 * 14.0;
        c.group(
            format!(
                "{}: {} from plays, penalty {}, total {}",
                line.player, line.played, line.hand_penalty, line.total
            ),
            |c| {
                strip(c, x, y - 3.6, 8.0, 4.5, i);
                c.fit_text(
                    fonts,
                    x + 10.0,
                    y,
                    4.0,
                    room - 26.0,
                    line.player.clone(),
                    Anchor::Start,
                    Weight::Bold,
                    Color::BLACK,
                );
                c.text(
                    x + room,
                    y,
                    5.0,
                    line.total.to_string(),
                    Anchor::End,
                    Weight::Bold,
                    Color::BLACK,
                );
                c.fit_text(
                    fonts,
                    x + 10.0,
                    y + 5.0,
                    2.8,
                    room - 10.0,
                    format!(
                        "{} from plays, {} in hand (penalty {})",
                        line.played, line.in_hand, line.hand_penalty
                    ),
                    Anchor::Start,
                    Weight::Regular,
                    Color::GREY,
                );
            },
        );
    }
}

/// Each player's hand and tiles, in two columns.
fn players(c: &mut Canvas, fonts: &Fonts, state: &State, top: f32, seat: Option<usize>) {
    let deck = state.deck();
    let column = (WIDTH - 2.0 * MARGIN) / 2.0;
    let tiles = |counts: &[u8]| tiles_text(deck, counts);
    for (p, player) in state.players().iter().enumerate() {
        let x = p as f32 * column;
        let hand = hand_seen(state, seat, p);
        let active = state.ended().is_none() && state.active() == p;
        c.group(format!("{}'s hand and tiles", player.name), |c| {
            c.rect(
                x,
                top,
                column - 3.0,
                players_height(),
                1.5,
                None,
                Some(Stroke::solid(
                    if active {
                        Color(192, 122, 0)
                    } else {
                        Color::LIGHT
                    },
                    if active { 0.6 } else { 0.3 },
                )),
            );
            c.fit_text(
                fonts,
                x + 2.0,
                top + 5.5,
                3.8,
                column - 7.0,
                if active {
                    format!("{} (to play)", player.name)
                } else {
                    player.name.clone()
                },
                Anchor::Start,
                Weight::Bold,
                Color::BLACK,
            );
            let room = column - 7.0;
            let mut lines = wrap(fonts, &format!("Hand: {hand}"), room, HAND_LINES);
            lines.extend(wrap(
                fonts,
                &format!("Tiles face up: {}", tiles(&player.up)),
                room,
                1,
            ));
            lines.extend(wrap(
                fonts,
                &format!("Tiles face down: {}", tiles(&player.down)),
                room,
                1,
            ));
            for (i, line) in lines.into_iter().enumerate() {
                c.fit_text(
                    fonts,
                    x + 2.0,
                    top + 11.5 + i as f32 * LINE,
                    TEXT,
                    room,
                    line,
                    Anchor::Start,
                    Weight::Regular,
                    Color::BLACK,
                );
            }
        });
    }
}

/// The text size and line pitch of the players' boxes, and the most lines
/// a hand takes before the last one shrinks to fit.
const TEXT: f32 = 3.2;
const LINE: f32 = 4.6;
const HAND_LINES: usize = 4;

fn players_height() -> f32 {
    8.0 + (HAND_LINES + 2) as f32 * LINE + 2.0
}

/// `text` broken after commas into at most `most` lines of `width`; the
/// last line holds the rest, shrunk to fit when drawn.
fn wrap(fonts: &Fonts, text: &str, width: f32, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, part) in text.split(", ").enumerate() {
        let candidate = if i == 0 {
            part.to_owned()
        } else {
            format!("{line}, {part}")
        };
        if i > 0 && lines.len() + 1 < most && fonts.width(&candidate, TEXT, Weight::Regular) > width
        {
            lines.push(format!("{line},"));
            line = part.to_owned();
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    lines
}

/// The phone's page: its width, its smallest text and line pitch, and the
/// narrowest and widest grid cell, in millimetres. Shown at the width of a 390-pixel
/// screen (about 3.5 CSS pixels a millimetre), 3.4 mm is 11.9 pixels.
const PHONE_WIDTH: f32 = 100.0;
const PHONE_TEXT: f32 = 3.4;
const PHONE_HEADING: f32 = 4.6;
const PHONE_LINE: f32 = 4.8;
const PHONE_CELL: f32 = 13.0;
const PHONE_CELL_MOST: f32 = 30.0;

/// The table for a phone's screen, in the built-in fonts: the face-up
/// cards, the scores and each player's hand in words, one under the other,
/// then the grid with each card as a tile of its value, id and points, so
/// that no word is smaller than [`PHONE_TEXT`]. The grid's empty cells are
/// keyed `cell:X,Y` as on [`page`]; a grid too wide for the phone's width
/// widens the page rather than shrink its words.
pub fn phone_page(state: &State, window: Window, seat: Option<usize>) -> Page {
    let fonts: &Fonts = Fonts::builtin();
    let deck = state.deck();
    let (x0, y0, x1, y1) = window;
    let (columns, rows) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let gap = 1.5;
    let inner = PHONE_WIDTH - 2.0 * MARGIN;
    let cw = ((inner - gap * (columns - 1.0)) / columns).clamp(PHONE_CELL, PHONE_CELL_MOST);
    let ch = cw * 1.2;
    let grid_w = columns * cw + (columns - 1.0) * gap;
    let width = inner.max(grid_w);
    let mut items = Vec::new();
    let mut c = Canvas {
        items: &mut items,
        frame: Frame {
            scale: 1.0,
            dx: MARGIN,
            dy: MARGIN,
        },
    };
    let mut y = 0.0;
    let heading = |c: &mut Canvas, y: &mut f32, text: &str| {
        *y += PHONE_HEADING + 1.0;
        c.text(
            0.0,
            *y,
            PHONE_HEADING,
            text.to_owned(),
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        *y += 2.0;
    };
    let lines = |c: &mut Canvas, y: &mut f32, x: f32, text: &str, weight: Weight, color: Color| {
        for line in fonts.wrap(text, PHONE_TEXT, weight, inner - x) {
            *y += PHONE_LINE;
            c.text(x, *y, PHONE_TEXT, line, Anchor::Start, weight, color);
        }
    };
    heading(&mut c, &mut y, "Face-up cards");
    for (s, card) in state.display().iter().enumerate() {
        let stack = &state.stacks()[s];
        let price = state.price(s).map_or("unknown".to_owned(), |cost| {
            deck.describe_cost(cost).to_string()
        });
        let top = y;
        let (title, words) = match card {
            Some(card) => {
                let face = deck.card(*card);
                let value = match face.value {
                    crate::summertime::deck::Value::Points(v) => format!("{v} points"),
                    crate::summertime::deck::Value::Multiplier(m) => format!("×{m}"),
                };
                (
                    format!("{} ({}), {value}", face.name, face.id),
                    Some(super::cards::condition(deck, *card)),
                )
            }
            None => ("No card face up".to_owned(), None),
        };
        c.group(
            format!(
                "Stack {s}: {title}, price {price}; {} left",
                stack.remaining
            ),
            |c| {
                if let Some(card) = card {
                    let picture = deck.picture_name(deck.card(*card).picture);
                    c.rect(
                        0.0,
                        top + 1.5,
                        2.0,
                        3.0 * PHONE_LINE,
                        0.5,
                        Some(super::cards::pastel(picture)),
                        None,
                    );
                }
                lines(c, &mut y, 4.0, &title, Weight::Bold, Color::BLACK);
                if let Some(words) = &words {
                    lines(c, &mut y, 4.0, words, Weight::Regular, Color::BLACK);
                }
                let rest = format!("Stack {s}: {} left, price {price}", stack.remaining);
                lines(c, &mut y, 4.0, &rest, Weight::Regular, Color(80, 80, 80));
            },
        );
        y += 2.0;
    }
    heading(&mut c, &mut y, "Score");
    for (i, line) in score(state).iter().enumerate() {
        let top = y;
        c.group(
            format!(
                "{}: {} from plays, penalty {}, total {}",
                line.player, line.played, line.hand_penalty, line.total
            ),
            |c| {
                strip(c, 0.0, top + 1.2, 6.0, 4.2, i);
                let text = format!(
                    "{}: {} ({} from plays, {} in hand, penalty {})",
                    line.player, line.total, line.played, line.in_hand, line.hand_penalty
                );
                lines(c, &mut y, 8.0, &text, Weight::Regular, Color::BLACK);
            },
        );
        y += 1.0;
    }
    for (p, player) in state.players().iter().enumerate() {
        let hand = hand_seen(state, seat, p);
        let active = state.ended().is_none() && state.active() == p;
        let name = if active {
            format!("{} (to play)", player.name)
        } else {
            player.name.clone()
        };
        c.group(format!("{}'s hand and tiles", player.name), |c| {
            heading(c, &mut y, &name);
            lines(
                c,
                &mut y,
                0.0,
                &format!("Hand: {hand}"),
                Weight::Regular,
                Color::BLACK,
            );
            let up = format!("Tiles face up: {}", tiles_text(deck, &player.up));
            lines(c, &mut y, 0.0, &up, Weight::Regular, Color::BLACK);
            let down = format!("Tiles face down: {}", tiles_text(deck, &player.down));
            lines(c, &mut y, 0.0, &down, Weight::Regular, Color::BLACK);
        });
    }
    heading(&mut c, &mut y, "The grid");
    let grid_top = y + 1.0;
    let left = (width - grid_w) / 2.0;
    for gy in y0..=y1 {
        for gx in x0..=x1 {
            let x = left + (gx - x0) as f32 * (cw + gap);
            let y = grid_top + (gy - y0) as f32 * (ch + gap);
            match state.grid().get(&(gx, gy)) {
                Some(t) => phone_card(&mut c, state, (gx, gy), t, (x, y), (cw, ch)),
                None => c.keyed_group(
                    format!("({gx},{gy}): empty"),
                    Some(format!("cell:{gx},{gy}")),
                    |c| {
                        c.rect(
                            x,
                            y,
                            cw,
                            ch,
                            1.5,
                            None,
                            Some(Stroke::dashed(Color(150, 145, 130), 0.3, 1.5, 1.2)),
                        );
                    },
                ),
            }
        }
    }
    let height = grid_top + rows * (ch + gap) + 2.0;
    Page {
        width: width + 2.0 * MARGIN,
        height: height + 2.0 * MARGIN,
        items,
    }
}

/// A played card on the phone's grid, `w` × `h`: its picture's colour, its
/// value and id, and a strip in its player's colour with the points it
/// made.
fn phone_card(
    c: &mut Canvas,
    state: &State,
    (gx, gy): Cell,
    t: &crate::summertime::Tableau,
    (x, y): (f32, f32),
    (w, h): (f32, f32),
) {
    let deck = state.deck();
    let face = deck.card(t.card);
    let who = state.players()[t.by].name.as_str();
    let title = format!(
        "({gx},{gy}): {} ({}) by {who}, +{} in turn {}",
        face.name, face.id, t.points, t.turn
    );
    c.group(title, |c| {
        let picture = deck.picture_name(face.picture);
        c.rect(
            x,
            y,
            w,
            h,
            1.5,
            Some(super::cards::pastel(picture)),
            Some(Stroke::solid(Color::BLACK, 0.3)),
        );
        let (value, _) = super::cards::value_mark(face.value);
        c.text(
            x + w / 2.0,
            y + 6.0,
            5.0,
            value,
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        c.text(
            x + w / 2.0,
            y + 10.5,
            PHONE_TEXT,
            face.id.clone(),
            Anchor::Middle,
            Weight::Regular,
            Color::BLACK,
        );
        let strip_h = 5.0;
        strip(c, x, y + h - strip_h, w, strip_h, t.by);
        let ink = if t.by == 0 {
            Color::BLACK
        } else {
            Color::WHITE
        };
        c.text(
            x + w / 2.0,
            y + h - 1.2,
            PHONE_TEXT,
            format!("+{}", t.points),
            Anchor::Middle,
            Weight::Bold,
            ink,
        );
    });
}
