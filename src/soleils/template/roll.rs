//! Rolls of the three dice: what a roll lets a placement write, as the
//! rule of a placement ([`left_over`]) and as tables by roll that a bot's
//! legal moves read.

use super::{BoxIx, Template};

impl Template {
    /// Every box and value a roll lets a placement write on an empty sheet
    /// (a die shows the box's pearl, another die the value), box by box and
    /// value by value.
    pub fn placements_for(&self, dice: [u8; 3]) -> &[(BoxIx, u8)] {
        let by_roll = self.by_roll.get_or_init(|| {
            (0..ROLLS)
                .map(|i| {
                    let dice = roll_of(i);
                    let mut placements = Vec::new();
                    for (b, sheet_box) in self.boxes.iter().enumerate() {
                        for value in 1..=6 {
                            if left_over(dice, sheet_box.pearl, value).is_some() {
                                placements.push((BoxIx::new(b), value));
                            }
                        }
                    }
                    placements
                })
                .collect()
        });
        &by_roll[roll_index(dice)]
    }

    /// Every box a roll lets a placement write on an empty sheet, with the
    /// values it may write there as a bit set (bit `v` for the value `v`),
    /// in box order: [`Template::placements_for`] by box.
    pub fn placement_masks_for(&self, dice: [u8; 3]) -> &[(BoxIx, u8)] {
        let by_roll = self.masks_by_roll.get_or_init(|| {
            (0..ROLLS)
                .map(|i| {
                    let mut masks: Vec<(BoxIx, u8)> = Vec::new();
                    for &(b, value) in self.placements_for(roll_of(i)) {
                        match masks.last_mut() {
                            Some((last, mask)) if *last == b => *mask |= 1 << value,
                            _ => masks.push((b, 1 << value)),
                        }
                    }
                    masks
                })
                .collect()
        });
        &by_roll[roll_index(dice)]
    }
}

/// How many different rolls of three dice there are, order aside.
const ROLLS: usize = 56;

/// The position of a roll among the [`ROLLS`], order aside: read from a
/// table by the three dice as rolled, since a bot asks it on every
/// decision.
fn roll_index(dice: [u8; 3]) -> usize {
    let [a, b, c] = dice.map(|d| usize::from(d.clamp(1, 6)) - 1);
    usize::from(ROLL_INDEX[(a * 6 + b) * 6 + c])
}

/// [`roll_index`] of every ordered roll, by `(a * 6 + b) * 6 + c` for the
/// dice `a + 1`, `b + 1`, `c + 1`.
static ROLL_INDEX: [u8; 216] = {
    let mut table = [0u8; 216];
    let mut i = 0;
    while i < 216 {
        let mut dice = [i / 36, i / 6 % 6, i % 6];
        // Sorted, by hand: three compare-and-swaps.
        if dice[0] > dice[1] {
            dice = [dice[1], dice[0], dice[2]];
        }
        if dice[1] > dice[2] {
            dice = [dice[0], dice[2], dice[1]];
        }
        if dice[0] > dice[1] {
            dice = [dice[1], dice[0], dice[2]];
        }
        table[i] = sorted_roll_index(dice) as u8;
        i += 1;
    }
    table
};

/// The position among the [`ROLLS`] of the sorted roll `a <= b <= c`, each
/// a die's value less one.
const fn sorted_roll_index([a, b, c]: [usize; 3]) -> usize {
    // Sorted triples a <= b <= c of 0..6, counted in lexicographic order.
    let mut before = 0;
    let mut x = 0;
    while x < a {
        before += (6 - x) * (7 - x) / 2;
        x += 1;
    }
    let mut y = a;
    while y < b {
        before += 6 - y;
        y += 1;
    }
    before + (c - b)
}

/// The roll at position `i` among the [`ROLLS`].
fn roll_of(i: usize) -> [u8; 3] {
    let mut n = 0;
    for a in 1..=6 {
        for b in a..=6 {
            for c in b..=6 {
                if n == i {
                    return [a, b, c];
                }
                n += 1;
            }
        }
    }
    unreachable!("there are 56 rolls")
}

/// The die left for the sun when `pearl` and `value` are taken from `dice`:
/// `None` unless one die shows `pearl` and another `value`, the rule of a
/// placement, which the reducer's check uses too.
pub fn left_over(dice: [u8; 3], pearl: u8, value: u8) -> Option<u8> {
    let i = dice.iter().position(|&d| d == pearl)?;
    let rest = match i {
        0 => [dice[1], dice[2]],
        1 => [dice[0], dice[2]],
        _ => [dice[0], dice[1]],
    };
    if rest[0] == value {
        Some(rest[1])
    } else if rest[1] == value {
        Some(rest[0])
    } else {
        None
    }
}

#[cfg(test)]
mod roll_tests {
    use super::*;

    #[test]
    fn every_roll_has_its_own_index() {
        for i in 0..ROLLS {
            assert_eq!(roll_index(roll_of(i)), i);
        }
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let mut sorted = [a, b, c];
                    sorted.sort_unstable();
                    assert_eq!(roll_of(roll_index([a, b, c])), sorted);
                }
            }
        }
    }
}
