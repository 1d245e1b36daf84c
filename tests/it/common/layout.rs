//! Checks of a drawn scene's layout, shared by the tests of drawn
//! reports: every text inside the margin, at 6 pt or more, and clear of
//! every other.

use sunfold::render::paper::MARGIN;
use sunfold::render::scene::{Anchor, Item, MM_PER_PT, Scene};
use sunfold::render::text;

/// A text's box on a page: left, top, right, bottom, in millimetres.
pub type Bounds = (f32, f32, f32, f32);

/// Every text of a scene's page, with its box.
pub fn texts(items: &[Item], out: &mut Vec<(Bounds, String)>) {
    for item in items {
        match item {
            Item::Text {
                x,
                y,
                size,
                text: t,
                anchor,
                weight,
                ..
            } => {
                let w = text::width(t, *size, *weight);
                let left = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - w / 2.0,
                    Anchor::End => x - w,
                };
                out.push((
                    (left, y - 0.72 * size, left + w, y + 0.21 * size),
                    t.clone(),
                ));
            }
            Item::Group { items, .. } => texts(items, out),
            Item::Shape { .. } => {}
        }
    }
}

/// Every text on every page lies inside the margin, prints at 6 pt or
/// more, and overlaps no other.
pub fn assert_laid_out(scene: &Scene, what: &str) {
    for (n, page) in scene.pages.iter().enumerate() {
        let mut all = Vec::new();
        texts(&page.items, &mut all);
        assert!(!all.is_empty());
        for ((l, t, r, b), s) in &all {
            let inside = *l >= MARGIN - 0.01
                && *t >= MARGIN - 0.01
                && *r <= page.width - MARGIN + 0.01
                && *b <= page.height - MARGIN + 0.01;
            assert!(inside, "{what}, page {}: {s:?} leaves the margin", n + 1);
        }
        for item in &page.items {
            if let Some((size, t)) =
                sunfold::render::scene::smallest_text(std::slice::from_ref(item))
            {
                assert!(size / MM_PER_PT >= 6.0, "{what}: {t:?} at {size} mm");
            }
        }
        for (i, (a, ta)) in all.iter().enumerate() {
            for (b, tb) in &all[i + 1..] {
                let overlap =
                    a.0 < b.2 - 0.05 && b.0 < a.2 - 0.05 && a.1 < b.3 - 0.05 && b.1 < a.3 - 0.05;
                assert!(
                    !overlap,
                    "{what}, page {}: {ta:?} {a:?} overlaps {tb:?} {b:?}",
                    n + 1
                );
            }
        }
    }
}
