//! A scored Summertime replay: the card grid as played, each card marked
//! with who played it and what it earned; then hands, tiles, the score
//! track turn by turn and a compact turn log.

use super::cards::{CARD_H, CARD_W, condition, face, pastel};
use crate::render::chart::{Series, line_chart};
use crate::render::paper::{CONTENT_HEIGHT as HEIGHT, CONTENT_WIDTH as WIDTH};
use crate::render::paper::{Paper, impose};
use crate::render::scene::{
    Anchor, Canvas, Color, Document, Draw, Scene, Stroke, Weight, inside_rounded,
};
use crate::render::text::Fonts;
use crate::summertime::{Cell, State, Tableau, TurnAction, score};
use std::sync::Arc;

const LOG_ROW: f32 = 4.6;

/// The scored replay of `state`: the grid, the hands and score track, and
/// the turn log, laid out in `fonts`.
pub fn document(fonts: &Arc<Fonts>, state: &State, paper: Paper, caption: &str) -> Document {
    let measure: &Fonts = fonts;
    let mut pieces: Vec<Draw> = vec![
        Box::new(move |c: &mut Canvas| grid_page(c, measure, state, caption)),
        Box::new(move |c: &mut Canvas| state_page(c, measure, state)),
    ];
    let rows_per_page = ((HEIGHT - 10.0) / LOG_ROW) as usize;
    let turns = state.turns().len();
    for start in (0..turns).step_by(rows_per_page) {
        pieces.push(Box::new(move |c: &mut Canvas| {
            log_page(c, measure, state, start, rows_per_page)
        }));
    }
    let scene = Scene {
        title: format!("Summertime: scored replay of {caption}"),
        pages: impose(paper, 1, (WIDTH, HEIGHT), pieces),
    };
    Document::new(scene, fonts.clone())
}

fn status(state: &State) -> String {
    let lines = score(state);
    let scores: Vec<String> = lines
        .iter()
        .map(|l| format!("{} {}", l.player, l.total))
        .collect();
    match state.ended() {
        Some(reason) => format!("Game over: {reason}. Final score {}.", scores.join(", ")),
        None => format!(
            "In progress after {} turns. Score so far {}.",
            state.turns().len(),
            scores.join(", ")
        ),
    }
}

fn grid_page(c: &mut Canvas, fonts: &Fonts, state: &State, caption: &str) {
    c.heading(
        fonts,
        WIDTH,
        "Summertime: the grid as played",
        caption,
        &status(state),
    );
    let names: Vec<&str> = state.players().iter().map(|p| p.name.as_str()).collect();
    // The legend: player 1 has a plain strip, player 2 a striped one.
    for (p, name) in names.iter().enumerate() {
        let x = p as f32 * 70.0;
        strip(c, x, 23.0, 12.0, 4.0, p);
        c.text(
            x + 14.0,
            26.2,
            3.2,
            format!("played by {name}"),
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
    }
    let grid = state.grid();
    if grid.is_empty() {
        c.text(
            WIDTH / 2.0,
            120.0,
            5.0,
            "no card played yet",
            Anchor::Middle,
            Weight::Regular,
            Color::GREY,
        );
        return;
    }
    let (x0, x1) = (
        grid.keys().map(|k| k.0).min().unwrap(),
        grid.keys().map(|k| k.0).max().unwrap(),
    );
    let (y0, y1) = (
        grid.keys().map(|k| k.1).min().unwrap(),
        grid.keys().map(|k| k.1).max().unwrap(),
    );
    let (columns, rows) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let gap = 2.0;
    let top = 32.0;
    // Each cell is a compact card with its text at a fixed, legible size,
    // so that a grid of 6 × 5 still prints every word at 6 pt or more;
    // only the pictures and the spaces grow when the grid is small.
    let cw = ((WIDTH - gap * (columns - 1.0)) / columns).min(44.0);
    let ch = ((HEIGHT - top - gap * (rows - 1.0)) / rows).min(60.0);
    let left = (WIDTH - columns * (cw + gap) + gap) / 2.0;
    for (&cell, t) in grid {
        let x = left + (cell.0 - x0) as f32 * (cw + gap);
        let y = top + (cell.1 - y0) as f32 * (ch + gap);
        grid_cell(c, fonts, state, cell, t, (x, y, cw, ch));
    }
}

/// The height of a grid cell's strip, and the room above the card for
/// its position.
const STRIP: f32 = 6.5;
const ABOVE: f32 = 3.0;

/// Splits `text` into lines of at most `width` at `size`, at spaces.
fn wrap(fonts: &Fonts, text: &str, size: f32, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line)
                if fonts.width(&format!("{line} {word}"), size, Weight::Regular) <= width =>
            {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// A played card in the printed grid, in the cell `(x, y, w, h)`: its
/// position, a compact card (what it needs, its value, its picture, its
/// name and its condition in words) and a strip in its player's pattern
/// with who played it and what it earned.
fn grid_cell(
    c: &mut Canvas,
    fonts: &Fonts,
    state: &State,
    (gx, gy): Cell,
    t: &Tableau,
    (x, y, w, h): (f32, f32, f32, f32),
) {
    let deck = state.deck();
    let face = deck.card(t.card);
    let who = state.players()[t.by].name.as_str();
    let title = format!(
        "({gx},{gy}): {} by {who}, +{} in turn {}",
        face.name, t.points, t.turn
    );
    c.group(title, |c| {
        c.text(
            x + 1.0,
            y + 2.4,
            2.4,
            format!("({gx},{gy})"),
            Anchor::Start,
            Weight::Regular,
            Color::GREY,
        );
        let (top, body) = (y + ABOVE, h - ABOVE - STRIP - 0.8);
        c.rect(
            x,
            top,
            w,
            body,
            1.5,
            Some(Color::WHITE),
            Some(Stroke::solid(Color::BLACK, 0.3)),
        );
        // The band: what the card needs, and its value.
        c.rect(
            x + 0.8,
            top + 0.8,
            w - 1.6,
            6.0,
            1.0,
            Some(super::cards::SAND),
            None,
        );
        for (i, &need) in face.needs.iter().enumerate() {
            let name = deck.picture_name(need);
            let initial = name.chars().next().map(String::from).unwrap_or_default();
            let cx = x + 4.0 + i as f32 * 6.0;
            c.circle(
                cx,
                top + 3.8,
                2.6,
                Some(pastel(name)),
                Some(Stroke::solid(Color(90, 80, 60), 0.2)),
            );
            crate::print::summertime::pictogram::draw(
                c,
                deck.pictogram(need),
                &initial,
                cx,
                top + 3.8,
                4.0,
            );
        }
        let (value, color) = super::cards::value_mark(face.value);
        c.text(
            x + w - 1.8,
            top + 5.6,
            4.4,
            value,
            Anchor::End,
            Weight::Bold,
            color,
        );
        // The condition in words, on up to two lines at the bottom, the
        // name above it, and the picture in the room left.
        let size = 2.4;
        let mut lines = wrap(fonts, &condition(deck, t.card), size, w - 2.0);
        if lines.len() > 2 {
            let rest = lines.split_off(1).join(" ");
            lines.push(rest);
        }
        let bottom = top + body - 1.3;
        for (i, line) in lines.iter().rev().enumerate() {
            c.fit_text(
                fonts,
                x + w / 2.0,
                bottom - i as f32 * 2.9,
                size,
                w - 2.0,
                line.clone(),
                Anchor::Middle,
                Weight::Regular,
                Color(80, 80, 80),
            );
        }
        let name_y = bottom - lines.len() as f32 * 2.9 - 0.6;
        c.fit_text(
            fonts,
            x + w / 2.0,
            name_y,
            3.0,
            w - 2.0,
            face.name.clone(),
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        let (pic_top, pic_bottom) = (top + 7.6, name_y - 3.0);
        let side = (pic_bottom - pic_top).min(w - 3.0);
        if side > 3.0 {
            let picture = deck.picture_name(face.picture);
            // A panel a little wider than the picture, inside the card.
            let panel = (side * 1.3).min(w - 1.6);
            c.rect(
                x + (w - panel) / 2.0,
                pic_top,
                panel,
                side,
                1.0,
                Some(pastel(picture)),
                None,
            );
            let initial = picture.chars().next().map(String::from).unwrap_or_default();
            crate::print::summertime::pictogram::draw(
                c,
                deck.pictogram(face.picture),
                &initial,
                x + w / 2.0,
                pic_top + side / 2.0,
                side * 0.85,
            );
        }
        let strip_y = top + body + 0.8;
        strip(c, x, strip_y, w, STRIP, t.by);
        let ink = if t.by == 0 {
            Color::BLACK
        } else {
            Color::WHITE
        };
        c.fit_text(
            fonts,
            x + 1.5,
            strip_y + 4.6,
            3.0,
            w - 11.0,
            who.to_owned(),
            Anchor::Start,
            Weight::Bold,
            ink,
        );
        c.text(
            x + w - 1.5,
            strip_y + 4.9,
            4.0,
            format!("+{}", t.points),
            Anchor::End,
            Weight::Bold,
            ink,
        );
    });
}

/// A card in the grid at `(x, y)`, scaled: its face, then a strip in its
/// player's pattern with who played it and what it earned.
pub(super) fn played_card(
    c: &mut Canvas,
    fonts: &Fonts,
    state: &State,
    (gx, gy): Cell,
    t: &Tableau,
    (x, y): (f32, f32),
    scale: f32,
) {
    let cw = CARD_W * scale;
    let who = state.players()[t.by].name.as_str();
    let title = format!(
        "({gx},{gy}): {} by {who}, +{} in turn {}",
        state.deck().card(t.card).name,
        t.points,
        t.turn
    );
    c.group(title, |c| {
        c.within(x, y, scale, |c| face(c, fonts, state.deck(), t.card));
        strip(c, x, y + CARD_H * scale + 0.8, cw, 7.0, t.by);
        let ink = if t.by == 0 {
            Color::BLACK
        } else {
            Color::WHITE
        };
        c.fit_text(
            fonts,
            x + 1.5,
            y + CARD_H * scale + 5.6,
            3.2,
            cw - 12.0,
            who.to_owned(),
            Anchor::Start,
            Weight::Bold,
            ink,
        );
        c.text(
            x + cw - 1.5,
            y + CARD_H * scale + 5.8,
            4.2,
            format!("+{}", t.points),
            Anchor::End,
            Weight::Bold,
            ink,
        );
        c.text(
            x + 1.0,
            y - 0.6,
            2.4,
            format!("({gx},{gy})"),
            Anchor::Start,
            Weight::Regular,
            Color::GREY,
        );
    });
}

/// A player's marker strip: plain light for the first, dark with stripes
/// for the second, so that the two differ without colour.
pub(super) fn strip(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, player: usize) {
    if player == 0 {
        c.rect(
            x,
            y,
            w,
            h,
            1.0,
            Some(Color(255, 236, 160)),
            Some(Stroke::solid(Color::BLACK, 0.3)),
        );
    } else {
        c.rect(
            x,
            y,
            w,
            h,
            1.0,
            Some(Color(40, 60, 120)),
            Some(Stroke::solid(Color::BLACK, 0.3)),
        );
        // The stripes end at the strip's outline, rounded corners and all.
        let mut sx = x + 2.0;
        while sx < x + w - 1.0 {
            if let Some((a, b)) = inside_rounded((sx, y + h), (sx + 1.5, y), (x, y, w, h), 1.0) {
                c.line(a.0, a.1, b.0, b.1, Stroke::solid(Color(90, 110, 170), 0.3));
            }
            sx += 3.0;
        }
    }
}

/// A player's hand in words: each card's name and id, and the dealt cards
/// not yet seen.
pub fn hand_text(deck: &crate::summertime::Deck, player: &crate::summertime::Player) -> String {
    let mut hand: Vec<String> = player
        .hand
        .iter()
        .map(|&h| format!("{} ({})", deck.card(h).name, deck.card(h).id))
        .collect();
    if player.unknown > 0 {
        hand.push(format!("{} unseen dealt card(s)", player.unknown));
    }
    if hand.is_empty() {
        "empty".to_owned()
    } else {
        hand.join(", ")
    }
}

/// Tiles by item kind in words ("2 coconut, 1 shell"), or "none".
pub fn tiles_text(deck: &crate::summertime::Deck, counts: &[u8]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, n)| format!("{n} {}", deck.item_name(i)))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

fn state_page(c: &mut Canvas, fonts: &Fonts, state: &State) {
    let deck = state.deck();
    c.text(
        0.0,
        8.0,
        7.0,
        "Hands, tiles and score track",
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    let mut y = 16.0;
    for p in state.players() {
        c.text(
            0.0,
            y,
            4.2,
            format!("{}: {} points from plays", p.name, p.points),
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        y += 5.5;
        let hand = hand_text(deck, p);
        c.fit_text(
            fonts,
            3.0,
            y,
            3.2,
            WIDTH - 3.0,
            format!("hand: {hand}"),
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
        y += 5.0;
        let tiles = |counts: &[u8]| tiles_text(deck, counts);
        c.fit_text(
            fonts,
            3.0,
            y,
            3.2,
            WIDTH - 3.0,
            format!("tiles face up: {}", tiles(&p.up)),
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
        y += 5.0;
        c.fit_text(
            fonts,
            3.0,
            y,
            3.2,
            WIDTH - 3.0,
            format!("tiles face down: {}", tiles(&p.down)),
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
        y += 8.0;
    }
    // The score table.
    for line in score(state) {
        let text = format!(
            "{}: {} played, {} card(s) in hand, penalty {}, total {}, rank {}",
            line.player, line.played, line.in_hand, line.hand_penalty, line.total, line.rank
        );
        c.fit_text(
            fonts,
            0.0,
            y,
            3.6,
            WIDTH,
            text,
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        y += 6.0;
    }
    // The score track: each player's total after each turn.
    let mut totals = [0f32; 2];
    let mut values: Vec<Vec<f32>> = vec![Vec::new(), Vec::new()];
    for turn in state.turns() {
        totals[turn.player] = turn.total as f32;
        for p in 0..2 {
            values[p].push(totals[p]);
        }
    }
    // Once the game is over, the last point is the final score, with the
    // penalty for the cards left in hand.
    let ended = state.ended().is_some();
    if ended {
        for line in crate::summertime::score(state) {
            if let Some(p) = state.players().iter().position(|p| p.name == line.player) {
                values[p].push(line.total as f32);
            }
        }
    }
    let series: Vec<Series> = state
        .players()
        .iter()
        .zip(values)
        .map(|(p, values)| Series {
            label: &p.name,
            values,
        })
        .collect();
    let max = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .fold(10.0, f32::max);
    y += 4.0;
    line_chart(
        c,
        fonts,
        (0.0, y, WIDTH, HEIGHT - y),
        if ended {
            "Score track after each turn; the last point is the final score, after the hand penalty"
        } else {
            "Score track after each turn"
        },
        "turn",
        &series,
        max,
    );
}

fn log_page(c: &mut Canvas, fonts: &Fonts, state: &State, start: usize, rows: usize) {
    let deck = state.deck();
    c.text(
        0.0,
        6.0,
        5.0,
        "Turn log",
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    // One column across the page, so that a turn of many plays still reads
    // at full size.
    let column_w = WIDTH;
    for (i, turn) in state.turns().iter().enumerate().skip(start).take(rows) {
        let slot = i - start;
        let x = 0.0;
        let y = 12.0 + slot as f32 * LOG_ROW;
        let action = match turn.action {
            TurnAction::Bought { card } => format!("bought {}", deck.card(card).name),
            TurnAction::Flipped => "turned tiles up".to_owned(),
            TurnAction::Passed => "passed".to_owned(),
        };
        let gained: u32 = turn.plays.iter().map(|p| p.2).sum();
        let points = if gained == 1 { "point" } else { "points" };
        let plays = match (turn.plays.as_slice(), &turn.action) {
            ([], _) => String::new(),
            ([(card, _, _)], TurnAction::Bought { card: bought }) if card == bought => {
                format!("; played it for {gained} {points}")
            }
            (plays, _) => {
                let names: Vec<&str> = plays
                    .iter()
                    .map(|(card, _, _)| deck.card(*card).name.as_str())
                    .collect();
                let cards = match names.as_slice() {
                    [one] => (*one).to_owned(),
                    [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                    [] => String::new(),
                };
                format!("; played {cards} for {gained} {points}")
            }
        };
        let who = &state.players()[turn.player].name;
        let text = format!(
            "{:>2}. {who} {action}{plays}; total {}",
            turn.number, turn.total
        );
        c.fit_text(
            fonts,
            x,
            y,
            3.0,
            column_w - 3.0,
            text,
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
    }
}
