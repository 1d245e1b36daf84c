//! The sheet's pictures, drawn as shapes (no font has them): pearls,
//! crabs, frogs, starfish, seashells, each group's outline as its thing,
//! and the signs between two boxes.

use super::Sheet;
use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use crate::soleils::template::{Reward, ZoneKind};

impl Sheet<'_> {
    pub(super) fn pearl_icon(&self, c: &mut Canvas, x: f32, y: f32, pearl: u8, done: bool) {
        let (k, st) = (self.style.k, self.style);
        let fill = if done { st.pearl_done } else { st.pearl };
        c.circle(
            x,
            y,
            2.6 * k,
            Some(fill),
            Some(Stroke::solid(st.soft, 0.3 * k)),
        );
        let color = if done { st.pearl_done_number } else { st.ink };
        c.text(
            x,
            y + 1.2 * k,
            3.4 * k,
            pearl.to_string(),
            Anchor::Middle,
            Weight::Bold,
            color,
        );
    }

    /// A crab: a body, two claws and legs.
    pub(super) fn crab_icon(&self, c: &mut Canvas, x: f32, y: f32) {
        self.crab_at(c, x, y, self.style.k);
    }

    /// A crab at scale `k`, about 6.6 `k` wide and 4.4 `k` tall, from
    /// 2.8 `k` above `y` to 1.6 `k` below.
    pub(super) fn crab_at(&self, c: &mut Canvas, x: f32, y: f32, k: f32) {
        let st = self.style;
        let color = st.crab;
        let leg = Stroke::solid(color, 0.35 * k);
        for side in [-1.0f32, 1.0] {
            c.line(
                x + side * 1.2 * k,
                y + 0.2 * k,
                x + side * 2.6 * k,
                y + 1.4 * k,
                leg,
            );
            c.line(
                x + side * 1.6 * k,
                y - 0.2 * k,
                x + side * 2.2 * k,
                y - 1.8 * k,
                leg,
            );
            c.circle(x + side * 2.2 * k, y - 2.1 * k, 0.7 * k, Some(color), None);
        }
        if st.hollow_crab {
            // Hollow, so that it never reads as the frog's solid head.
            c.circle(
                x,
                y,
                1.5 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(color, 0.4 * k)),
            );
        } else {
            c.circle(x, y, 1.5 * k, Some(color), None);
        }
    }

    /// A frog: a head with two eyes.
    pub(super) fn frog_icon(&self, c: &mut Canvas, x: f32, y: f32) {
        self.frog_at(c, x, y, self.style.k);
    }

    /// A frog at scale `k`, 4 `k` wide, from 2.5 `k` above `y` to 2.4 `k`
    /// below.
    pub(super) fn frog_at(&self, c: &mut Canvas, x: f32, y: f32, k: f32) {
        let st = self.style;
        let color = st.frog;
        c.circle(x, y + 0.4 * k, 2.0 * k, Some(color), None);
        for side in [-1.0f32, 1.0] {
            c.circle(
                x + side * 1.1 * k,
                y - 1.4 * k,
                0.9 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(color, 0.35 * k)),
            );
            c.circle(
                x + side * 1.1 * k,
                y - 1.4 * k,
                0.3 * k,
                Some(Color::BLACK),
                None,
            );
        }
    }

    pub(super) fn star_icon(&self, c: &mut Canvas, x: f32, y: f32, r: f32) {
        let points: Vec<(f32, f32)> = (0..10)
            .map(|i| {
                let angle = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
                let radius = if i % 2 == 0 { r } else { r * 0.45 };
                (x + radius * angle.cos(), y + radius * angle.sin())
            })
            .collect();
        let fill = self.style.star_fill;
        c.lines(
            &points,
            true,
            fill,
            Some(Stroke::solid(self.style.line, 0.25 * self.style.k)),
        );
    }

    pub(super) fn shell_icon(&self, c: &mut Canvas, x: f32, y: f32, r: f32) {
        let fill = self.style.shell_fill;
        let mut points = vec![(x, y + r * 0.6)];
        for i in 0..=8 {
            let angle = std::f32::consts::PI * (1.0 + i as f32 / 8.0);
            points.push((x + r * angle.cos(), y + r * 0.3 + r * angle.sin()));
        }
        let stroke = Stroke::solid(self.style.line, 0.25 * self.style.k);
        c.lines(&points, true, fill, Some(stroke));
        for i in 1..4 {
            let angle = std::f32::consts::PI * (1.0 + i as f32 / 4.0);
            c.line(
                x,
                y + r * 0.6,
                x + r * 0.9 * angle.cos(),
                y + r * 0.3 + r * 0.9 * angle.sin(),
                stroke,
            );
        }
    }

    pub(super) fn reward_icon(&self, c: &mut Canvas, x: f32, y: f32, reward: Reward) {
        let k = self.style.k;
        match reward {
            Reward::Starfish(_) => self.star_icon(c, x, y, 1.9 * k),
            Reward::Seashells(_) => self.shell_icon(c, x, y, 1.9 * k),
            Reward::BonusDigit => {
                c.rect(
                    x - 1.8 * k,
                    y - 1.8 * k,
                    3.6 * k,
                    3.6 * k,
                    0.6 * k,
                    None,
                    Some(self.style.s(0.3)),
                );
                c.text(
                    x,
                    y + 1.2 * k,
                    self.style.t(3.0),
                    "?",
                    Anchor::Middle,
                    Weight::Bold,
                    self.style.ink,
                );
            }
        }
    }

    pub(super) fn group_shape(
        &self,
        c: &mut Canvas,
        kind: ZoneKind,
        (x0, y0, x1, y1): (f32, f32, f32, f32),
    ) {
        let (k, st) = (self.style.k, self.style);
        let p = 1.0 * k;
        let (x0, y0, x1, y1) = (x0 - p, y0 - p, x1 + p, y1 + p);
        let fill = st.group_fill;
        let stroke = Some(Stroke::solid(st.soft, 0.4 * k));
        match kind {
            ZoneKind::Cabins => {
                let peak = y0 - 2.2 * k;
                c.lines(
                    &[
                        (x0, y1),
                        (x0, y0),
                        ((x0 + x1) / 2.0, peak),
                        (x1, y0),
                        (x1, y1),
                    ],
                    true,
                    fill,
                    stroke,
                );
            }
            ZoneKind::Koinobori => {
                let t = 1.2 * k;
                if x1 - x0 >= y1 - y0 {
                    let mid = (y0 + y1) / 2.0;
                    c.lines(
                        &[(x0, y0), (x1 + t, y0), (x1, mid), (x1 + t, y1), (x0, y1)],
                        true,
                        fill,
                        stroke,
                    );
                } else {
                    let mid = (x0 + x1) / 2.0;
                    c.lines(
                        &[(x0, y0), (x1, y0), (x1, y1 + t), (mid, y1), (x0, y1 + t)],
                        true,
                        fill,
                        stroke,
                    );
                }
            }
            ZoneKind::Sailboats => {
                let hull = 1.2 * k;
                let inset = ((x1 - x0) * 0.12).min(4.0 * k);
                c.lines(
                    &[
                        (x0, y0),
                        (x1, y0),
                        (x1, y1),
                        (x1 - inset, y1 + hull),
                        (x0 + inset, y1 + hull),
                        (x0, y1),
                    ],
                    true,
                    fill,
                    stroke,
                );
            }
            ZoneKind::Bottles | ZoneKind::Seagulls => {
                c.rect(x0, y0, x1 - x0, y1 - y0, 2.0 * k, fill, stroke);
            }
        }
    }

    pub(super) fn symbol(
        &self,
        c: &mut Canvas,
        size: f32,
        (ax, ay): (f32, f32),
        (bx, by): (f32, f32),
        symbol: Symbol,
        (sx, sy): (f32, f32),
    ) {
        let (k, st) = (self.style.k, self.style);
        let stroke = Stroke::solid(st.ink, 0.5 * k);
        let horizontal = (ay - by).abs() < 0.01;
        let vertical = (ax - bx).abs() < 0.01;
        let (mx, my, dx, dy) = if horizontal {
            let (l, r) = if ax < bx { (ax, bx) } else { (bx, ax) };
            (
                (l + size + r) / 2.0,
                ay + size / 2.0,
                if ax < bx { 1.0 } else { -1.0 },
                0.0,
            )
        } else if vertical {
            let (t, b) = if ay < by { (ay, by) } else { (by, ay) };
            (
                ax + size / 2.0,
                (t + size + b) / 2.0,
                0.0,
                if ay < by { 1.0 } else { -1.0 },
            )
        } else {
            // Not neighbours: a dashed link between the centres.
            let (cax, cay, cbx, cby) = (
                ax + size / 2.0,
                ay + size / 2.0,
                bx + size / 2.0,
                by + size / 2.0,
            );
            c.line(
                cax,
                cay,
                cbx,
                cby,
                Stroke::dashed(st.soft, 0.3 * k, 1.0 * k, 1.0 * k),
            );
            let (mx, my) = ((cax + cbx) / 2.0 + sx, (cay + cby) / 2.0 + sy);
            let len = ((cbx - cax).powi(2) + (cby - cay).powi(2)).sqrt().max(0.01);
            c.circle(
                mx,
                my,
                2.2 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(st.soft, 0.3 * k)),
            );
            ((mx), (my), (cbx - cax) / len, (cby - cay) / len)
        };
        // `dx, dy` point from the first box to the second; the sign stands
        // `sx, sy` from the middle of the gap (or on the link), beside the
        // other signs of its pair.
        let (mx, my) = if horizontal || vertical {
            (mx + sx, my + sy)
        } else {
            (mx, my)
        };
        let h = 1.4 * k;
        // Where outlines are thicker than the standard sheet's, a sign
        // shrinks (by `fit` of its half-width) to stand clear of both boxes'
        // outlines, 0.5 `k` from each.
        let room = (st.s(1.0).width > k).then(|| {
            let outline = st.s(0.35).width / 2.0 + stroke.width / 2.0;
            self.geometry.gap / 2.0 - outline - 0.5 * k
        });
        let fit = |extent: f32| room.map_or(1.0, |r| (r / extent).clamp(0.5, 1.0));
        match symbol {
            Symbol::Less | Symbol::Greater => {
                let h = h * fit(h);
                // "a < b": the tip points at the smaller, the first box.
                let toward_first = symbol == Symbol::Less;
                let s = if toward_first { -1.0 } else { 1.0 };
                let (tx, ty) = (mx + s * dx * h, my + s * dy * h);
                let (bx, by) = (mx - s * dx * h, my - s * dy * h);
                let (px, py) = (-dy * h * 1.1, dx * h * 1.1);
                c.lines(
                    &[(bx + px, by + py), (tx, ty), (bx - px, by - py)],
                    false,
                    None,
                    Some(stroke),
                );
            }
            Symbol::Different => {
                let f = fit(h * 1.1);
                let w = h * 1.1 * f;
                c.line(mx - w, my - 0.5 * k * f, mx + w, my - 0.5 * k * f, stroke);
                c.line(mx - w, my + 0.5 * k * f, mx + w, my + 0.5 * k * f, stroke);
                c.line(
                    mx - 0.6 * k * f,
                    my + 1.5 * k * f,
                    mx + 0.6 * k * f,
                    my - 1.5 * k * f,
                    stroke,
                );
            }
        }
    }
}

/// A sign between two boxes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Symbol {
    Less,
    Greater,
    Different,
}
