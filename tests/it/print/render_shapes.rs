//! Shapes the scene draws the same in SVG and PDF: hatching cut at a
//! rounded corner, and the chart series that twelve players tell apart.

use sunfold::render::chart::{PALETTE, dash};
use sunfold::render::scene::{Color, inside_rounded};

/// Whether `(px, py)` lies in the rectangle `(0, 0, 10, 4)` with corners
/// of radius 1, give or take `slack`.
fn within(px: f32, py: f32, slack: f32) -> bool {
    let dx = (1.0 - px).max(px - 9.0).max(0.0);
    let dy = (1.0 - py).max(py - 3.0).max(0.0);
    (dx * dx + dy * dy).sqrt() <= 1.0 + slack
}

#[test]
fn a_stripe_is_cut_at_the_rounded_corner() {
    let rect = (0.0, 0.0, 10.0, 4.0);
    // A stripe through the top right corner ends on its arc, not at the
    // square corner.
    let (a, b) = inside_rounded((8.5, 4.0), (10.0, 0.0), rect, 1.0).unwrap();
    assert_eq!(a, (8.5, 4.0));
    assert!(b.0 < 10.0 && b.1 > 0.0, "{b:?}");
    assert!(within(b.0, b.1, 1e-3), "{b:?}");
    assert!(!within(b.0 + 0.01, b.1 - 0.027, 0.0), "{b:?} stops short");
    // A stripe wholly inside is kept whole; one wholly outside is gone.
    assert_eq!(
        inside_rounded((2.0, 4.0), (3.5, 0.0), rect, 1.0),
        Some(((2.0, 4.0), (3.5, 0.0)))
    );
    assert_eq!(inside_rounded((10.2, 4.0), (11.0, 0.0), rect, 1.0), None);
    // Square corners cut at the rectangle's edge.
    let (_, b) = inside_rounded((9.0, 4.0), (11.0, 0.0), rect, 0.0).unwrap();
    assert!(
        (b.0 - 10.0).abs() < 1e-3 && (b.1 - 2.0).abs() < 1e-3,
        "{b:?}"
    );
}

#[test]
fn twelve_series_differ_in_colour_and_in_dash_and_marker() {
    assert_eq!(PALETTE.len(), 12);
    for (i, &Color(r1, g1, b1)) in PALETTE.iter().enumerate() {
        for (j, &Color(r2, g2, b2)) in PALETTE.iter().enumerate().skip(i + 1) {
            // The marker's shape is one of three, by the series' place.
            let (a, b) = ((dash(i), i % 3), (dash(j), j % 3));
            assert_ne!(a, b, "series {i} and {j}: same dash and marker");
            let apart = [(r1, r2), (g1, g2), (b1, b2)]
                .iter()
                .map(|&(x, y)| (f32::from(x) - f32::from(y)).powi(2))
                .sum::<f32>()
                .sqrt();
            assert!(apart > 60.0, "series {i} and {j}: colours {apart} apart");
        }
    }
}
