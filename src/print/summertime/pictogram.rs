//! The pictograms of Summertime's pictures: simple vector shapes in the
//! scene model, one per kind, that differ in outline and not only in colour,
//! so that they read across a table and in black and white.
//!
//! A deck's picture uses the pictogram of its own id when one is built in
//! (`beach`, `palm_tree`…), or the one it names in `pictogram`; any other
//! picture gets its initial in a ring.

use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use std::f32::consts::PI;

pub use crate::summertime::deck::PICTOGRAMS;

const INK: Color = Color(30, 30, 40);

/// Draws the pictogram `name` centred on `(cx, cy)` in a square of side
/// `s`, or `initial` in a ring when no pictogram has that name.
pub fn draw(c: &mut Canvas, name: &str, initial: &str, cx: f32, cy: f32, s: f32) {
    let stroke = Stroke::solid(INK, (s * 0.045).max(0.25));
    let thin = Stroke::solid(INK, (s * 0.03).max(0.2));
    // Points in the unit square [-0.5, 0.5]², mapped onto the page.
    let p = |x: f32, y: f32| (cx + x * s, cy + y * s);
    let poly =
        |c: &mut Canvas, pts: &[(f32, f32)], closed: bool, fill: Option<Color>, st: Stroke| {
            let pts: Vec<(f32, f32)> = pts.iter().map(|&(x, y)| p(x, y)).collect();
            c.lines(&pts, closed, fill, Some(st));
        };
    let wave = |c: &mut Canvas, y: f32, x0: f32, x1: f32, amp: f32, st: Stroke| {
        let pts: Vec<(f32, f32)> = (0..=16)
            .map(|i| {
                let t = i as f32 / 16.0;
                (x0 + (x1 - x0) * t, y + amp * (t * 4.0 * PI).sin())
            })
            .collect();
        poly(c, &pts, false, None, st);
    };
    let arc = |from: f32, to: f32, r: f32, (ox, oy): (f32, f32), n: usize| -> Vec<(f32, f32)> {
        (0..=n)
            .map(|i| {
                let a = from + (to - from) * i as f32 / n as f32;
                (ox + r * a.cos(), oy + r * a.sin())
            })
            .collect()
    };
    match name {
        "beach" => {
            // A sun over a dune.
            let (x, y) = p(0.18, -0.18);
            c.circle(x, y, 0.16 * s, Some(Color(250, 200, 60)), Some(stroke));
            for i in 0..8 {
                let a = i as f32 * PI / 4.0;
                let (x1, y1) = (x + 0.21 * s * a.cos(), y + 0.21 * s * a.sin());
                let (x2, y2) = (x + 0.3 * s * a.cos(), y + 0.3 * s * a.sin());
                c.line(x1, y1, x2, y2, thin);
            }
            let mut dune = arc(PI, 2.0 * PI, 0.5, (0.0, 0.45), 12);
            dune.push((0.5, 0.45));
            poly(c, &dune, true, Some(Color(238, 210, 140)), stroke);
        }
        "ocean" => {
            for (i, y) in [-0.2f32, 0.05, 0.3].iter().enumerate() {
                let amp = 0.06 - i as f32 * 0.01;
                wave(c, *y, -0.45, 0.45, amp, stroke);
            }
        }
        "swimming_pool" => {
            poly(
                c,
                &[(-0.45, -0.05), (0.45, -0.05), (0.45, 0.4), (-0.45, 0.4)],
                true,
                Some(Color(180, 220, 245)),
                stroke,
            );
            wave(c, 0.15, -0.4, 0.4, 0.04, thin);
            // The ladder.
            for x in [-0.3f32, -0.12] {
                poly(c, &[(x, -0.4), (x, 0.05)], false, None, stroke);
            }
            for y in [-0.3f32, -0.15] {
                poly(c, &[(-0.3, y), (-0.12, y)], false, None, thin);
            }
        }
        "fish" => {
            let mut body = arc(0.0, 2.0 * PI, 1.0, (0.0, 0.0), 24);
            for pt in &mut body {
                *pt = (pt.0 * 0.3 - 0.08, pt.1 * 0.18);
            }
            poly(c, &body, true, Some(Color(150, 200, 230)), stroke);
            poly(
                c,
                &[(0.2, 0.0), (0.45, -0.18), (0.45, 0.18)],
                true,
                Some(Color(150, 200, 230)),
                stroke,
            );
            let (x, y) = p(-0.26, -0.04);
            c.circle(x, y, 0.035 * s, Some(INK), None);
        }
        "palm_tree" => {
            poly(
                c,
                &[(-0.02, 0.45), (0.02, 0.1), (0.0, -0.2)],
                false,
                None,
                Stroke::solid(Color(120, 80, 40), s * 0.07),
            );
            for side in [-1.0f32, 1.0] {
                for lift in [0.0f32, 0.18] {
                    let leaf = [
                        (0.0, -0.2),
                        (side * 0.2, -0.34 + lift * 0.3),
                        (side * 0.42, -0.18 + lift),
                        (side * 0.22, -0.24 + lift * 0.4),
                    ];
                    poly(c, &leaf, true, Some(Color(90, 170, 80)), thin);
                }
            }
        }
        "bar" => {
            // An awning over a counter.
            let mut awning = vec![(-0.45, -0.2)];
            for i in 0..6 {
                let x = -0.45 + 0.15 * i as f32;
                awning.push((x + 0.075, -0.1));
                awning.push((x + 0.15, -0.2));
            }
            awning.push((0.45, -0.4));
            awning.push((-0.45, -0.4));
            poly(c, &awning, true, Some(Color(235, 120, 100)), stroke);
            poly(
                c,
                &[(-0.38, 0.1), (0.38, 0.1), (0.38, 0.42), (-0.38, 0.42)],
                true,
                Some(Color(200, 150, 100)),
                stroke,
            );
            for x in [-0.3f32, 0.3] {
                poly(c, &[(x, -0.1), (x, 0.1)], false, None, stroke);
            }
        }
        "hammock" => {
            for x in [-0.42f32, 0.42] {
                poly(c, &[(x, -0.35), (x, 0.45)], false, None, stroke);
            }
            let sag = arc(0.15 * PI, 0.85 * PI, 0.5, (0.0, -0.25), 12);
            let mut net = vec![(-0.42, -0.2)];
            net.extend(sag.iter().rev());
            net.push((0.42, -0.2));
            poly(c, &net, false, None, Stroke::solid(INK, s * 0.06));
        }
        "sand_castle" => {
            let castle = [
                (-0.42, 0.42),
                (-0.42, -0.1),
                (-0.32, -0.1),
                (-0.32, -0.02),
                (-0.22, -0.02),
                (-0.22, -0.35),
                (-0.12, -0.35),
                (-0.12, -0.27),
                (0.0, -0.27),
                (0.0, -0.35),
                (0.12, -0.35),
                (0.12, -0.27),
                (0.22, -0.27),
                (0.22, -0.02),
                (0.32, -0.02),
                (0.32, -0.1),
                (0.42, -0.1),
                (0.42, 0.42),
            ];
            poly(c, &castle, true, Some(Color(238, 210, 140)), stroke);
            let mut door = arc(PI, 2.0 * PI, 0.08, (0.0, 0.3), 8);
            door.extend([(0.08, 0.42), (-0.08, 0.42)]);
            poly(c, &door, true, Some(INK), thin);
        }
        "surfer" => {
            // A board on a breaking wave.
            wave(c, 0.3, -0.45, 0.45, 0.05, stroke);
            let mut board = arc(0.0, 2.0 * PI, 1.0, (0.0, 0.0), 20);
            let (cos, sin) = ((-0.5f32).cos(), (-0.5f32).sin());
            for pt in &mut board {
                let (x, y) = (pt.0 * 0.42, pt.1 * 0.09);
                *pt = (x * cos - y * sin, x * sin + y * cos - 0.05);
            }
            poly(c, &board, true, Some(Color(250, 190, 70)), stroke);
            poly(
                c,
                &[(-0.2, 0.06), (-0.26, 0.18), (-0.14, 0.12)],
                true,
                Some(INK),
                thin,
            );
        }
        "umbrella" => {
            let mut canopy = arc(PI, 2.0 * PI, 0.45, (0.0, 0.0), 16);
            for i in (0..4).rev() {
                let x = -0.45 + 0.225 * i as f32;
                canopy.push((x + 0.1125, -0.06));
                canopy.push((x, 0.0));
            }
            poly(c, &canopy, true, Some(Color(240, 110, 110)), stroke);
            poly(c, &[(0.0, 0.0), (0.0, 0.38)], false, None, stroke);
            let hook = arc(0.0, PI, 0.07, (-0.07, 0.38), 6);
            poly(c, &hook, false, None, stroke);
        }
        "catamaran" => {
            for y in [0.22f32, 0.36] {
                poly(
                    c,
                    &[(-0.45, y), (0.45, y), (0.35, y + 0.08), (-0.38, y + 0.08)],
                    true,
                    Some(Color(200, 200, 210)),
                    thin,
                );
            }
            poly(c, &[(0.0, 0.22), (0.0, -0.45)], false, None, stroke);
            poly(
                c,
                &[(0.03, -0.42), (0.35, 0.15), (0.03, 0.15)],
                true,
                Some(Color::WHITE),
                stroke,
            );
            poly(
                c,
                &[(-0.03, -0.3), (-0.3, 0.15), (-0.03, 0.15)],
                true,
                Some(Color(230, 230, 240)),
                stroke,
            );
        }
        "couple" => {
            for (x, h) in [(-0.18f32, 0.0f32), (0.18, 0.06)] {
                let (hx, hy) = p(x, -0.28 + h);
                c.circle(hx, hy, 0.1 * s, Some(Color(240, 200, 170)), Some(thin));
                poly(
                    c,
                    &[
                        (x - 0.14, 0.42),
                        (x - 0.1, -0.12 + h),
                        (x + 0.1, -0.12 + h),
                        (x + 0.14, 0.42),
                    ],
                    true,
                    Some(if x < 0.0 {
                        Color(120, 160, 220)
                    } else {
                        Color(230, 150, 180)
                    }),
                    thin,
                );
            }
            // A heart between them.
            let (hx, hy) = p(0.0, -0.45);
            c.circle(hx - 0.03 * s, hy, 0.035 * s, Some(Color(220, 60, 80)), None);
            c.circle(hx + 0.03 * s, hy, 0.035 * s, Some(Color(220, 60, 80)), None);
            poly(
                c,
                &[(-0.065, -0.44), (0.065, -0.44), (0.0, -0.37)],
                true,
                Some(Color(220, 60, 80)),
                Stroke::solid(Color(220, 60, 80), 0.1),
            );
        }
        "cocktail" => {
            poly(
                c,
                &[(-0.32, -0.35), (0.32, -0.35), (0.0, 0.05)],
                true,
                Some(Color(250, 170, 120)),
                stroke,
            );
            poly(c, &[(0.0, 0.05), (0.0, 0.38)], false, None, stroke);
            poly(c, &[(-0.18, 0.4), (0.18, 0.4)], false, None, stroke);
            poly(c, &[(0.08, -0.2), (0.3, -0.48)], false, None, thin);
            let (ox, oy) = p(-0.12, -0.27);
            c.circle(ox, oy, 0.06 * s, Some(Color(120, 170, 60)), Some(thin));
        }
        "deck_chair" => {
            poly(
                c,
                &[(-0.4, 0.42), (0.1, -0.05), (0.35, -0.4)],
                false,
                None,
                stroke,
            );
            poly(c, &[(0.4, 0.42), (-0.1, 0.0)], false, None, stroke);
            poly(
                c,
                &[(-0.2, 0.12), (0.05, 0.12), (0.35, -0.4), (0.15, -0.42)],
                true,
                Some(Color(120, 180, 230)),
                thin,
            );
            poly(c, &[(-0.3, 0.12), (0.2, 0.12)], false, None, stroke);
        }
        _ => {
            c.circle(cx, cy, 0.4 * s, Some(Color::WHITE), Some(stroke));
            c.text(
                cx,
                cy + 0.17 * s,
                0.5 * s,
                initial.to_owned(),
                Anchor::Middle,
                Weight::Bold,
                INK,
            );
        }
    }
}
