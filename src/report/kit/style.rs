//! How the report looks: the colours of A and B and of the panels, the text
//! styles, the helpers that fit, measure and wrap text, and A's and B's
//! samples (A solid, B hatched).
//!
//! The compare and ladder reports are drawn in the built-in fonts (their
//! commands take no `--font`), and written as bare scenes, which are in
//! those fonts: the helpers here measure in [`Fonts::builtin`].

use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use crate::render::text::Fonts;

/// Variant A: solid fill.
pub(crate) const A_COLOR: Color = Color(20, 80, 180);
/// Variant B: hatched, on a light tint.
pub(crate) const B_COLOR: Color = Color(200, 70, 40);
pub(crate) const B_TINT: Color = Color(251, 228, 219);
/// Every other row of a panel.
pub(crate) const STRIPE: Color = Color(243, 243, 243);
/// The bars of what is not significant.
pub(crate) const MUTED: Color = Color(135, 135, 135);
pub(crate) const GRID: Color = Color(215, 215, 215);

/// A text style.
#[derive(Clone, Copy)]
pub(crate) struct Font {
    pub(crate) size: f32,
    pub(crate) weight: Weight,
    pub(crate) color: Color,
}

pub(crate) const fn font(size: f32, weight: Weight, color: Color) -> Font {
    Font {
        size,
        weight,
        color,
    }
}

pub(crate) const BODY: Font = font(2.8, Weight::Regular, Color::BLACK);
pub(crate) const BODY_BOLD: Font = font(2.8, Weight::Bold, Color::BLACK);
pub(crate) const BODY_GREY: Font = font(2.8, Weight::Regular, Color::GREY);
pub(crate) const NOTE: Font = font(2.8, Weight::Oblique, Color::GREY);
pub(crate) const SMALL: Font = font(2.5, Weight::Regular, Color::BLACK);
pub(crate) const SMALL_GREY: Font = font(2.5, Weight::Regular, Color::GREY);
pub(crate) const PANEL_HEAD: Font = font(3.5, Weight::Bold, Color::BLACK);
pub(crate) const BLOCK_HEAD: Font = font(4.6, Weight::Bold, Color::BLACK);

/// Writes `text` with its `anchor` at `(x, y)`, shrunk if it would be
/// wider than `max`.
pub(crate) fn write(
    c: &mut Canvas,
    (x, y): (f32, f32),
    max: f32,
    font: Font,
    anchor: Anchor,
    text: impl Into<String>,
) {
    let fonts = Fonts::builtin();
    c.fit_text(
        fonts,
        x,
        y,
        font.size,
        max,
        text,
        anchor,
        font.weight,
        font.color,
    );
}

pub(crate) fn width_of(text: &str, font: Font) -> f32 {
    Fonts::builtin().width(text, font.size, font.weight)
}

pub(crate) use crate::kit::words::plural;

/// Splits `text` at spaces into lines of at most `width`; a word wider
/// than that gets a line of its own. At most `max` lines: the last one takes
/// the rest (and is shrunk to fit when drawn).
pub(crate) fn wrap(text: &str, font: Font, width: f32, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let candidate = if current.is_empty() {
            word.to_owned()
        } else {
            format!("{current} {word}")
        };
        if current.is_empty() || width_of(&candidate, font) <= width {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_owned()));
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    let max = max.max(1);
    if lines.len() > max {
        let rest = lines.split_off(max - 1).join(" ");
        lines.push(rest);
    }
    lines
}

/// A's or B's sample: A solid, B hatched on a tint with an outline.
pub(crate) fn swatch(c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, b: bool) {
    if b {
        c.rect(x, y, w, h, 0.0, Some(B_TINT), None);
        hatch(c, (x, y, w, h), 0.9, Stroke::solid(B_COLOR, 0.22));
        c.rect(x, y, w, h, 0.0, None, Some(Stroke::solid(B_COLOR, 0.35)));
    } else {
        c.rect(x, y, w, h, 0.0, Some(A_COLOR), None);
    }
}

/// Diagonal lines inside the rectangle, `gap` apart.
pub(crate) fn hatch(c: &mut Canvas, (x, y, w, h): (f32, f32, f32, f32), gap: f32, stroke: Stroke) {
    if w <= 0.0 || h <= 0.0 {
        return;
    }
    // Lines from (x + d, y + h) up to (x + d + h, y), cut to [x, x + w].
    let mut d = -h + gap / 2.0;
    while d < w {
        let t0 = (-d / h).max(0.0);
        let t1 = ((w - d) / h).min(1.0);
        if t1 > t0 {
            let (x0, x1) = (x + d + t0 * h, x + d + t1 * h);
            c.line(x0, y + h - t0 * h, x1, y + h - t1 * h, stroke);
        }
        d += gap;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene::{Frame, Item};

    #[test]
    fn wrapping_keeps_every_word() {
        let text = "sheet \"Petit été\" (sheet-templates/petit-ete.json), sun_bonus=exact";
        let lines = wrap(text, BODY, 40.0, 5);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), text);
        for line in &lines {
            assert!(width_of(line, BODY) <= 40.0 || !line.contains(' '));
        }
        let lines = wrap(text, BODY, 10.0, 2);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn hatching_stays_inside_its_rectangle() {
        let mut items = Vec::new();
        let mut c = Canvas {
            items: &mut items,
            frame: Frame::IDENTITY,
        };
        hatch(
            &mut c,
            (10.0, 20.0, 3.0, 7.0),
            1.0,
            Stroke::solid(B_COLOR, 0.2),
        );
        assert!(!items.is_empty());
        for item in &items {
            let Item::Shape {
                shape: crate::render::scene::Shape::Path { points, .. },
                ..
            } = item
            else {
                panic!("a line");
            };
            for p in points {
                assert!((10.0 - 1e-4..=13.0 + 1e-4).contains(&p.x), "{p:?}");
                assert!((20.0 - 1e-4..=27.0 + 1e-4).contains(&p.y), "{p:?}");
            }
        }
    }
}
