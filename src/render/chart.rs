//! A small line chart: one series per player, told apart by dash pattern and
//! marker shape as well as colour, so that it reads in black and white.

use super::scene::{Anchor, Canvas, Color, Stroke, Weight};
use super::text::Fonts;

/// The series' colours: twelve, as many as a table seats, each dark
/// enough to read as a thin line on white and apart from the others in
/// hue or lightness.
pub const PALETTE: [Color; 12] = [
    Color(20, 80, 180),
    Color(200, 70, 40),
    Color(40, 140, 70),
    Color(150, 60, 160),
    Color(200, 140, 20),
    Color(60, 60, 60),
    Color(0, 150, 160),
    Color(225, 70, 150),
    Color(125, 80, 35),
    Color(95, 165, 235),
    Color(135, 160, 20),
    Color(120, 15, 45),
];

pub struct Series<'a> {
    pub label: &'a str,
    pub values: Vec<f32>,
}

/// The dash pattern of series `i`: one of four. With the marker's three
/// shapes ([`marker`]) it makes twelve pairs, one for each of twelve
/// series, so that no two series look alike without colour either.
pub fn dash(i: usize) -> Option<(f32, f32)> {
    match i % 4 {
        0 => None,
        1 => Some((1.6, 0.9)),
        2 => Some((0.5, 0.7)),
        _ => Some((2.6, 0.8)),
    }
}

pub fn marker(c: &mut Canvas, i: usize, x: f32, y: f32, color: Color) {
    let r = 0.9;
    match i % 3 {
        0 => c.circle(x, y, r, Some(color), None),
        1 => c.rect(x - r, y - r, 2.0 * r, 2.0 * r, 0.0, Some(color), None),
        _ => c.lines(
            &[(x, y - r * 1.2), (x + r * 1.2, y + r), (x - r * 1.2, y + r)],
            true,
            Some(color),
            None,
        ),
    }
}

/// Draws a chart in the box `(x, y, w, h)`: a title, axes with ticks, one
/// line per series over x = 1, 2, 3…, and a legend below, its labels
/// fitted in `fonts`.
#[allow(clippy::too_many_arguments)]
pub fn line_chart(
    c: &mut Canvas,
    fonts: &Fonts,
    (x, y, w, h): (f32, f32, f32, f32),
    title: &str,
    x_label: &str,
    series: &[Series],
    max_value: f32,
) {
    c.text(
        x,
        y + 4.0,
        4.0,
        title,
        Anchor::Start,
        Weight::Bold,
        Color::BLACK,
    );
    let legend_rows = series.len().div_ceil(4) as f32;
    let (px, py) = (x + 10.0, y + 8.0);
    let (pw, ph) = (w - 12.0, h - 8.0 - 9.0 - legend_rows * 5.0);
    let axis = Stroke::solid(Color::BLACK, 0.3);
    c.line(px, py, px, py + ph, axis);
    c.line(px, py + ph, px + pw, py + ph, axis);
    let points = series
        .iter()
        .map(|s| s.values.len())
        .max()
        .unwrap_or(0)
        .max(2);
    let top = max_value.max(1.0);
    let step = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        .into_iter()
        .find(|s| top / s <= 8.0)
        .unwrap_or(100.0);
    let mut tick = 0.0;
    while tick <= top + 0.01 {
        let ty = py + ph - tick / top * ph;
        c.line(px - 1.0, ty, px + pw, ty, Stroke::solid(Color::LIGHT, 0.2));
        c.text(
            px - 1.5,
            ty + 1.0,
            2.6,
            format!("{tick}"),
            Anchor::End,
            Weight::Regular,
            Color::BLACK,
        );
        tick += step;
    }
    let xs = |i: usize| px + (i as f32 + 0.5) * pw / points as f32;
    let every = points.div_ceil(20).max(1);
    for i in (0..points).step_by(every) {
        c.text(
            xs(i),
            py + ph + 3.5,
            2.6,
            (i + 1).to_string(),
            Anchor::Middle,
            Weight::Regular,
            Color::BLACK,
        );
    }
    c.text(
        px + pw / 2.0,
        py + ph + 7.5,
        2.8,
        x_label,
        Anchor::Middle,
        Weight::Regular,
        Color::GREY,
    );
    for (i, s) in series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let line: Vec<(f32, f32)> = s
            .values
            .iter()
            .enumerate()
            .map(|(j, &v)| (xs(j), py + ph - v / top * ph))
            .collect();
        let stroke = Stroke {
            color,
            width: 0.45,
            dash: dash(i),
        };
        if line.len() > 1 {
            c.lines(&line, false, None, Some(stroke));
        }
        for &(mx, my) in &line {
            marker(c, i, mx, my, color);
        }
        let lx = px + (i % 4) as f32 * pw / 4.0;
        let ly = py + ph + 12.0 + (i / 4) as f32 * 5.0;
        c.line(lx, ly - 1.0, lx + 7.0, ly - 1.0, stroke);
        marker(c, i, lx + 3.5, ly - 1.0, color);
        c.fit_text(
            fonts,
            lx + 8.5,
            ly,
            3.0,
            pw / 4.0 - 10.0,
            s.label,
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
    }
}
