//! Round steps between the ticks of an axis, the decimals their labels
//! need, and the labelled axis itself: shared by the reports' charts.

use super::style::{SMALL, width_of, write};
use crate::render::scene::{Anchor, Canvas, Color, Stroke};

/// A step of 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The fewest decimals that show `step` exactly (at most 6).
pub(crate) fn decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// A horizontal axis at `bottom` from `x` over `width`, with a tick at each
/// of `ticks` (placed by `x_of`) and its label below; every other label
/// when they would touch, 0 keeping its own.
pub(crate) fn axis(
    c: &mut Canvas,
    (x, width, bottom): (f32, f32, f32),
    ticks: &[f64],
    labels: Vec<String>,
    x_of: impl Fn(f64) -> f32,
) {
    c.line(
        x,
        bottom,
        x + width,
        bottom,
        Stroke::solid(Color::BLACK, 0.3),
    );
    let spacing = width / (ticks.len().max(2) - 1) as f32;
    let widest = labels
        .iter()
        .map(|l| width_of(l, SMALL))
        .fold(0.0, f32::max);
    let every = if widest + 1.5 > spacing { 2 } else { 1 };
    let phase = ticks.iter().position(|&t| t == 0.0).unwrap_or(0) % every;
    for (i, (&t, label)) in ticks.iter().zip(labels).enumerate() {
        let tx = x_of(t);
        c.line(
            tx,
            bottom,
            tx,
            bottom + 1.0,
            Stroke::solid(Color::BLACK, 0.25),
        );
        if i % every == phase {
            let room = spacing * every as f32;
            write(c, (tx, bottom + 3.6), room, SMALL, Anchor::Middle, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round_numbers() {
        assert_eq!(nice_step(0.4), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.0002), 0.0002);
        assert_eq!(nice_step(f64::NAN), 1.0);
        assert_eq!(decimals(2.5), 1);
        assert_eq!(decimals(0.00025), 5);
        assert_eq!(decimals(20.0), 0);
    }
}
