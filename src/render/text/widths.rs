//! The widths of texts already measured, kept per set of fonts: a sheet
//! drawn again measures the same labels and rule texts as before, and
//! measuring is shaping. A width is kept in em, the advance a text has at
//! size 1, since a text's width is its advance times its size; what is
//! kept is what [`super::shape::advance`] gave, so a kept width is the
//! same number to the last bit.

use crate::render::scene::Weight;
use std::collections::HashMap;
use std::sync::Mutex;

/// How many widths are kept before the memo starts again empty: far more
/// than the texts of every sheet of a room, and a bound on what a stream
/// of new names can make it hold (about 100 bytes each).
const KEPT: usize = 1 << 16;

/// The advances in em of the texts measured, by weight and text.
#[derive(Debug, Default)]
pub struct Widths {
    kept: Mutex<HashMap<(Weight, Box<str>), f32>>,
}

impl Widths {
    /// The advance in em of `text` in `weight`: the one kept, or
    /// `measure`'s, kept.
    pub fn advance(&self, text: &str, weight: Weight, measure: impl FnOnce() -> f32) -> f32 {
        let key = (weight, Box::from(text));
        if let Some(&em) = self.lock().get(&key) {
            return em;
        }
        let em = measure();
        let mut kept = self.lock();
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(key, em);
        em
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(Weight, Box<str>), f32>> {
        // A panic while holding it leaves a map of complete entries.
        self.kept
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_measured_once_per_weight() {
        // Given a memo.
        let widths = Widths::default();
        let mut measured = 0;
        // When one text is asked for twice in one weight and once in another.
        for weight in [Weight::Regular, Weight::Regular, Weight::Bold] {
            widths.advance("Beach cabins", weight, || {
                measured += 1;
                1.5
            });
        }
        // Then it was measured twice, and the kept width is the measured one.
        assert_eq!(measured, 2);
        assert_eq!(widths.advance("Beach cabins", Weight::Bold, || 9.0), 1.5);
    }
}
