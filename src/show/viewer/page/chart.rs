//! The viewer's score chart: every player's score after each event, with
//! a marker line the page moves to the event shown.

use super::escape;
use crate::render::chart::{PALETTE, dash, marker};
use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use crate::render::svg;
use crate::render::text::Fonts;
use serde::Serialize;

/// Where the marker of event `i` stands: `x0 + i * dx`, from `top` to
/// `bottom`, in the chart's units.
#[derive(Serialize)]
pub struct Axis {
    pub x0: f32,
    pub dx: f32,
}

const WIDTH: f32 = 120.0;

/// The chart as an SVG element, its names fitted in `fonts`, and its axis.
/// `scores[i][p]` is player `p`'s score after event `i`; `events` counts
/// every event the viewer can show.
pub fn scores(
    fonts: &Fonts,
    players: &[String],
    scores: &[&[i64]],
    events: usize,
) -> (String, Axis) {
    let legend_rows = players.len().div_ceil(3) as f32;
    let (px, py, pw, ph) = (10.0, 3.0, WIDTH - 13.0, 44.0);
    let height = py + ph + 8.0 + legend_rows * 5.0;
    let top = scores
        .iter()
        .flat_map(|s| s.iter().copied())
        .max()
        .unwrap_or(0)
        .max(10) as f32;
    let low = scores
        .iter()
        .flat_map(|s| s.iter().copied())
        .min()
        .unwrap_or(0)
        .min(0) as f32;
    let span = top - low;
    let dx = pw / events.saturating_sub(1).max(1) as f32;
    let y = |v: f32| py + ph - (v - low) / span * ph;
    let mut items = Vec::new();
    let mut c = Canvas {
        items: &mut items,
        frame: crate::render::scene::Frame::IDENTITY,
    };
    let axis = Stroke::solid(Color::BLACK, 0.3);
    c.line(px, py, px, py + ph, axis);
    c.line(px, y(0.0), px + pw, y(0.0), axis);
    let step = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        .into_iter()
        .find(|s| span / s <= 6.0)
        .unwrap_or(200.0);
    let mut tick = (low / step).ceil() * step;
    while tick <= top + 0.01 {
        c.line(
            px - 1.0,
            y(tick),
            px + pw,
            y(tick),
            Stroke::solid(Color::LIGHT, 0.2),
        );
        c.text(
            px - 1.5,
            y(tick) + 1.0,
            2.8,
            format!("{tick}"),
            Anchor::End,
            Weight::Regular,
            Color::BLACK,
        );
        tick += step;
    }
    c.text(
        px + pw,
        py + ph + 4.0,
        2.8,
        format!("event {}", events.saturating_sub(1)),
        Anchor::End,
        Weight::Regular,
        Color::GREY,
    );
    c.text(
        px,
        py + ph + 4.0,
        2.8,
        "event 0",
        Anchor::Start,
        Weight::Regular,
        Color::GREY,
    );
    for (p, name) in players.iter().enumerate() {
        let color = PALETTE[p % PALETTE.len()];
        let stroke = Stroke {
            color,
            width: 0.5,
            dash: dash(p),
        };
        // A step line: a score holds until the event that changes it.
        let mut points = Vec::new();
        for (i, s) in scores.iter().enumerate() {
            let v = s.get(p).copied().unwrap_or(0) as f32;
            let x = px + i as f32 * dx;
            if let Some(&(_, last_y)) = points.last()
                && last_y != y(v)
            {
                points.push((x, last_y));
            }
            points.push((x, y(v)));
        }
        points.dedup();
        if points.len() > 1 {
            c.group(format!("{name}'s score"), |c| {
                c.lines(&points, false, None, Some(stroke));
            });
        }
        let lx = px + (p % 3) as f32 * pw / 3.0;
        let ly = py + ph + 10.0 + (p / 3) as f32 * 5.0;
        c.line(lx, ly - 1.0, lx + 7.0, ly - 1.0, stroke);
        marker(&mut c, p, lx + 3.5, ly - 1.0, color);
        c.fit_text(
            fonts,
            lx + 8.5,
            ly,
            3.0,
            pw / 3.0 - 10.0,
            name.clone(),
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
    }
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart-svg\" viewBox=\"0 0 {} {}\" font-family=\"{}\" role=\"img\" aria-label=\"Scores after each event\">",
        svg::length(WIDTH),
        svg::length(height),
        escape(&fonts.css_family)
    );
    for item in &items {
        out.push_str(&svg::fragment(fonts, item));
    }
    out.push_str(&format!(
        "<line id=\"marker\" x1=\"{x}\" x2=\"{x}\" y1=\"{}\" y2=\"{}\" stroke=\"#d02020\" stroke-width=\"0.6\"/>",
        svg::length(py),
        svg::length(py + ph),
        x = svg::length(px),
    ));
    out.push_str("</svg>");
    (out, Axis { x0: px, dx })
}
