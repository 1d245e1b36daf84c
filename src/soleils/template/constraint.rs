//! Constraints between boxes: what a written value asks of the boxes it
//! constrains, as needs, as bit sets of the values they still allow, and as
//! the first constraint a value would break.

use super::{BoxIndex, BoxIx, Template};

/// A checked constraint between boxes, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    Same(Vec<BoxIndex>),
    Distinct(Vec<BoxIndex>),
    Less(BoxIndex, BoxIndex),
    Greater(BoxIndex, BoxIndex),
    Different(BoxIndex, BoxIndex),
}

/// What a box needs because of one filled box that constrains it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Below(u8),
    Above(u8),
    Equal(u8),
    Unlike(u8),
}

impl Need {
    /// Every die value, as a bit set: bit `v` for the value `v`.
    pub const ANY: u8 = 0b111_1110;

    /// The die values this need allows, as a bit set.
    pub fn mask(self) -> u8 {
        (1..=6u8)
            .filter(|&v| self.allows(v))
            .fold(0, |mask, v| mask | 1 << v)
    }

    pub fn allows(self, value: u8) -> bool {
        match self {
            Need::Below(n) => value < n,
            Need::Above(n) => value > n,
            Need::Equal(n) => value == n,
            Need::Unlike(n) => value != n,
        }
    }
}

/// The first constraint a value would break: which filled box and what it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    pub other: BoxIndex,
    pub need: Need,
}

impl Template {
    /// What writing box `b` does to the other boxes: each box it
    /// constrains, with the values that box may still take as a bit set,
    /// by the value written into `b`. Writing `v` into `b` leaves box `o`
    /// the values `allowed(o) & masks[v]`: [`Template::allowed`] with `b`
    /// written, without walking `o`'s constraints again.
    pub fn effects(&self, b: BoxIx) -> &[(BoxIx, [u8; 7])] {
        &self.effects[b.index()]
    }

    /// The other boxes that share a constraint with box `b`: the boxes
    /// whose allowed values can change when `b` is written.
    pub fn related(&self, b: BoxIndex) -> &[BoxIndex] {
        &self.related[b]
    }

    /// The first constraint that writing `value` into box `b` would break,
    /// given the values already written (`value_of`). Empty boxes constrain
    /// nothing.
    pub fn violation(
        &self,
        b: BoxIndex,
        value: u8,
        value_of: impl Fn(BoxIndex) -> Option<u8>,
    ) -> Option<Violation> {
        self.find_need(b, value_of, |need| !need.allows(value))
    }

    /// The values box `b` may take given the values already written, as a
    /// bit set: bit `v` for the value `v`. It agrees with
    /// [`Template::violation`] by construction: both walk the same needs.
    pub fn allowed(&self, b: BoxIndex, value_of: impl Fn(BoxIndex) -> Option<u8>) -> u8 {
        let mut mask = Need::ANY;
        self.find_need(b, value_of, |need| {
            mask &= need.mask();
            false
        });
        mask
    }

    /// Walks what every filled box constraining `b` needs of its value, in
    /// constraint order, and gives the first need that `stop` accepts.
    fn find_need(
        &self,
        b: BoxIndex,
        value_of: impl Fn(BoxIndex) -> Option<u8>,
        mut stop: impl FnMut(Need) -> bool,
    ) -> Option<Violation> {
        let mut check = |other: BoxIndex, need: fn(u8) -> Need| {
            if other == b {
                return None;
            }
            let need = need(value_of(other)?);
            stop(need).then_some(Violation { other, need })
        };
        for constraint in self.constraints_on(b) {
            let found = match *constraint {
                Constraint::Same(ref set) => set.iter().find_map(|&o| check(o, Need::Equal)),
                Constraint::Distinct(ref set) => set.iter().find_map(|&o| check(o, Need::Unlike)),
                Constraint::Less(first, second) if b == first => check(second, Need::Below),
                Constraint::Less(first, _) => check(first, Need::Above),
                Constraint::Greater(first, second) if b == first => check(second, Need::Above),
                Constraint::Greater(first, _) => check(first, Need::Below),
                Constraint::Different(first, second) => {
                    check(if b == first { second } else { first }, Need::Unlike)
                }
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// For each box, each box a constraint makes it need something of, with
/// what it allows there by value written: see [`Template::effects`]. It
/// reads the constraints as [`Template::allowed`] does.
pub(super) fn effects(boxes: usize, constraints: &[Constraint]) -> Vec<Vec<(BoxIx, [u8; 7])>> {
    let masks = |need: fn(u8) -> Need| {
        let mut masks = [Need::ANY; 7];
        for v in 1..=6u8 {
            masks[usize::from(v)] = need(v).mask();
        }
        masks
    };
    let mut effects = vec![Vec::new(); boxes];
    let mut add = |written: BoxIndex, other: BoxIndex, need: fn(u8) -> Need| {
        if written != other {
            effects[written].push((BoxIx::new(other), masks(need)));
        }
    };
    for constraint in constraints {
        match *constraint {
            Constraint::Same(ref set) | Constraint::Distinct(ref set) => {
                let need = match constraint {
                    Constraint::Same(_) => Need::Equal,
                    _ => Need::Unlike,
                };
                for &w in set {
                    for &o in set {
                        add(w, o, need);
                    }
                }
            }
            // The first is less than the second: the first needs a value
            // below the second's, the second one above the first's.
            Constraint::Less(first, second) => {
                add(second, first, Need::Below);
                add(first, second, Need::Above);
            }
            Constraint::Greater(first, second) => {
                add(second, first, Need::Above);
                add(first, second, Need::Below);
            }
            Constraint::Different(a, b) => {
                add(a, b, Need::Unlike);
                add(b, a, Need::Unlike);
            }
        }
    }
    effects
}
