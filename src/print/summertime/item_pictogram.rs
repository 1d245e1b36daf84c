//! The pictograms of Summertime's items, the goods on the tiles that pay
//! for cards: a shape per kind, drawn in ink over the item's pastel, so
//! that coconut and shell, or coral and flower, are told apart in black
//! and white and by a reader who does not see the colours.
//!
//! An item whose id has no built-in pictogram gets the shortest start of
//! its name that no other item of the deck shares, in a ring.

use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use std::f32::consts::PI;

/// The items with a pictogram of their own, by id.
pub const ITEM_PICTOGRAMS: &[&str] = &["coconut", "breadfruit", "shell", "coral", "flower"];

const INK: Color = Color(30, 30, 40);

/// What an item is drawn with: its id and the letters that stand for it
/// when the id has no pictogram. [`marks`] gives them for a whole deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub id: String,
    pub letters: String,
}

/// Each item's mark, by item: `(id, name)` in deck order. Letters are the
/// shortest start of the name that no other item's name starts with, up
/// to its whole name, so that no two items share a ring.
pub fn marks(items: &[(&str, &str)]) -> Vec<Mark> {
    let lower: Vec<Vec<char>> = items
        .iter()
        .map(|(_, name)| name.to_lowercase().chars().collect())
        .collect();
    items
        .iter()
        .enumerate()
        .map(|(i, &(id, name))| {
            let chars: Vec<char> = name.chars().collect();
            let unique = (1..=chars.len())
                .find(|&n| {
                    lower
                        .iter()
                        .enumerate()
                        .all(|(j, other)| j == i || other.get(..n) != lower[i].get(..n))
                })
                .unwrap_or(chars.len());
            let mut letters: String = chars[..unique.min(chars.len())].iter().collect();
            if let Some(first) = letters.chars().next() {
                letters = first
                    .to_uppercase()
                    .chain(letters.chars().skip(1))
                    .collect();
            }
            Mark {
                id: id.to_owned(),
                letters,
            }
        })
        .collect()
}

/// Draws the pictogram of `mark` centred on `(cx, cy)` in a square of
/// side `s`.
pub fn draw(c: &mut Canvas, mark: &Mark, cx: f32, cy: f32, s: f32) {
    let stroke = Stroke::solid(INK, (s * 0.06).max(0.25));
    let thin = Stroke::solid(INK, (s * 0.04).max(0.2));
    let p = |x: f32, y: f32| (cx + x * s, cy + y * s);
    let poly =
        |c: &mut Canvas, pts: &[(f32, f32)], closed: bool, fill: Option<Color>, st: Stroke| {
            let pts: Vec<(f32, f32)> = pts.iter().map(|&(x, y)| p(x, y)).collect();
            c.lines(&pts, closed, fill, Some(st));
        };
    let oval = |rx: f32, ry: f32, (ox, oy): (f32, f32), n: usize| -> Vec<(f32, f32)> {
        (0..n)
            .map(|i| {
                let a = 2.0 * PI * i as f32 / n as f32;
                (ox + rx * a.cos(), oy + ry * a.sin())
            })
            .collect()
    };
    match mark.id.as_str() {
        "coconut" => {
            // A round nut with its three eyes.
            let (x, y) = p(0.0, 0.0);
            c.circle(x, y, 0.38 * s, Some(Color(150, 105, 70)), Some(stroke));
            for (ex, ey) in [(-0.11, -0.1), (0.11, -0.1), (0.0, 0.09)] {
                let (x, y) = p(ex, ey);
                c.circle(x, y, 0.06 * s, Some(INK), None);
            }
        }
        "breadfruit" => {
            // An oval fruit with a net of bumps and a stalk.
            let body = oval(0.3, 0.36, (0.0, 0.06), 24);
            poly(c, &body, true, Some(Color(170, 200, 110)), stroke);
            for k in [-0.12f32, 0.0, 0.12] {
                poly(c, &[(k - 0.18, -0.2), (k + 0.18, 0.32)], false, None, thin);
                poly(c, &[(k + 0.18, -0.2), (k - 0.18, 0.32)], false, None, thin);
            }
            poly(c, &[(0.0, -0.3), (0.05, -0.46)], false, None, stroke);
        }
        "shell" => {
            // A scallop: a fan of ribs from its hinge.
            let hinge = (0.0, 0.36);
            let mut fan: Vec<(f32, f32)> = (0..=12)
                .map(|i| {
                    let a = PI + PI * i as f32 / 12.0;
                    (0.4 * a.cos(), 0.02 + 0.36 * a.sin())
                })
                .collect();
            fan.push(hinge);
            poly(c, &fan, true, Some(Color(245, 225, 200)), stroke);
            for i in 1..6 {
                let a = PI + PI * i as f32 / 6.0;
                let rim = (0.4 * a.cos(), 0.02 + 0.36 * a.sin());
                poly(c, &[hinge, rim], false, None, thin);
            }
            poly(c, &[(-0.12, 0.44), (0.12, 0.44)], false, None, stroke);
        }
        "coral" => {
            // A branching stem, forking twice, on a base.
            let branches: [&[(f32, f32)]; 5] = [
                &[(0.0, 0.4), (0.0, 0.05), (-0.2, -0.15), (-0.22, -0.4)],
                &[(0.0, 0.05), (0.2, -0.12), (0.26, -0.36)],
                &[(-0.2, -0.15), (-0.36, -0.25)],
                &[(0.2, -0.12), (0.08, -0.38)],
                &[(0.0, 0.2), (0.3, 0.08)],
            ];
            for b in branches {
                poly(c, b, false, None, Stroke::solid(INK, (s * 0.09).max(0.3)));
            }
            poly(c, &[(-0.22, 0.42), (0.22, 0.42)], false, None, stroke);
        }
        "flower" => {
            // Five petals round a heart.
            for i in 0..5 {
                let a = -PI / 2.0 + 2.0 * PI * i as f32 / 5.0;
                let (x, y) = p(0.22 * a.cos(), 0.22 * a.sin());
                c.circle(x, y, 0.15 * s, Some(Color::WHITE), Some(thin));
            }
            let (x, y) = p(0.0, 0.0);
            c.circle(x, y, 0.1 * s, Some(Color(250, 200, 60)), Some(thin));
        }
        _ => {
            let (x, y) = p(0.0, 0.0);
            c.circle(x, y, 0.42 * s, None, Some(stroke));
            let size = if mark.letters.chars().count() > 2 {
                0.28
            } else {
                0.4
            };
            c.text(
                x,
                y + size * s * 0.35,
                size * s,
                mark.letters.clone(),
                Anchor::Middle,
                Weight::Bold,
                INK,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_the_shortest_start_no_other_item_shares() {
        let marks = marks(&[("a", "coral"), ("b", "conch"), ("c", "pearl")]);
        let letters: Vec<&str> = marks.iter().map(|m| m.letters.as_str()).collect();
        assert_eq!(letters, ["Cor", "Con", "P"]);
    }
}
