//! Sheet templates: the data that describes one printable 62 Soleils sheet.
//!
//! A [`RawTemplate`] is what a JSON file says. [`Template::try_from`] checks it
//! and reports **every** problem at once, each with its JSON path, the way a
//! shakmaty `Setup` becomes a position. Only a checked [`Template`] can start a
//! game, so the rules never meet a dangling box id or a pearl of 7.
//!
//! - this file: the checked types and what a template answers;
//! - `constraint`: what one box's value asks of another;
//! - `roll`: what a roll of the dice lets a placement write;
//! - `check`: from a [`RawTemplate`] to a [`Template`], every problem at once;
//! - `contradiction`: constraints no values can meet together, which
//!   `template check` reports but a log's own template never fails on.
//!
//! Its files: [`raw`] (the sheet as read), [`problem`] (what a check
//! finds), `check.rs`, and [`reach`] (zones and groups no game can complete).

mod check;
mod constraint;
mod contradiction;
mod problem;
mod raw;
mod reach;
mod roll;

pub use constraint::{Constraint, Need, Violation};
pub use problem::{ProblemKind, TemplateErrors, TemplateProblem};
pub use raw::{
    Icon, RawBox, RawConstraint, RawEnd, RawGrid, RawGroup, RawSun, RawTemplate, RawThreshold,
    RawZone, Reward, ZoneKind,
};

pub use roll::left_over;

use super::options::Sailboats;
use std::collections::HashMap;
use std::sync::Arc;

/// The position of a box in [`Template::boxes`], as a plain number: as the
/// template's own lists ([`Zone::boxes`], [`Constraint`],
/// [`Template::neighbours`]) and [`super::Step::Crab`] hold it.
pub type BoxIndex = usize;

/// A box of the sheet as the rules hold it: its position in
/// [`Template::boxes`], in four bytes that cannot be taken for a seat, a
/// value or another table's count. `template[b]` is its [`SheetBox`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct BoxIx(u32);

impl BoxIx {
    /// The box at position `b` of [`Template::boxes`].
    #[inline]
    pub fn new(b: BoxIndex) -> BoxIx {
        BoxIx(u32::try_from(b).expect("a template has fewer than 2^32 boxes"))
    }

    /// Its position in [`Template::boxes`].
    #[inline]
    pub fn index(self) -> BoxIndex {
        self.0 as BoxIndex
    }
}

impl From<BoxIx> for BoxIndex {
    fn from(b: BoxIx) -> BoxIndex {
        b.index()
    }
}

/// The box at `b`. A box index of another template may be out of range:
/// [`Template::has_box`] says.
impl std::ops::Index<BoxIx> for Template {
    type Output = SheetBox;
    #[inline]
    fn index(&self, b: BoxIx) -> &SheetBox {
        &self.boxes[b.index()]
    }
}

/// The only template format version this release reads.
pub const TEMPLATE_FORMAT: u32 = 1;

/// A box of the sheet, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetBox {
    pub id: String,
    pub pearl: u8,
    pub column: u16,
    pub row: u16,
    pub zone: usize,
    pub group: Option<usize>,
    pub crab: bool,
    pub frog: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub id: String,
    pub name: String,
    pub kind: ZoneKind,
    pub flag: Reward,
    pub boxes: Vec<BoxIndex>,
    pub groups: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub id: String,
    pub name: String,
    pub zone: usize,
    pub reward: Option<Reward>,
    pub boxes: Vec<BoxIndex>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    pub at: u16,
    pub reward: Reward,
}

/// A checked sheet template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// Boxed, to keep a checked template small beside a checked deck.
    raw: Box<RawTemplate>,
    boxes: Vec<SheetBox>,
    zones: Vec<Zone>,
    groups: Vec<Group>,
    /// The constraints under the sailboats rule [`Template::sailboats`].
    constraints: Vec<Constraint>,
    /// The constraints as written.
    written: Vec<Constraint>,
    sailboats: Sailboats,
    touching: Vec<Vec<usize>>,
    /// For each box, the other boxes it shares a constraint with.
    related: Vec<Vec<BoxIndex>>,
    /// For each roll (by [`roll_index`]), every box and value a placement
    /// could write on an empty sheet, box by box and value by value. Built
    /// on first use: replaying a log never needs it, a bot always does.
    by_roll: std::sync::OnceLock<Vec<Vec<(BoxIx, u8)>>>,
    /// The same by box: for each roll, every box one of whose values a
    /// placement could write, with those values as a bit set.
    masks_by_roll: std::sync::OnceLock<Vec<Vec<(BoxIx, u8)>>>,
    /// For each box, what writing it does to the other boxes: each box it
    /// constrains, with the values it then allows there as a bit set for
    /// each value written (bit `v` for the value `v`), under
    /// [`Template::constraints`].
    effects: Vec<Vec<(BoxIx, [u8; 7])>>,
    neighbours: Vec<Vec<BoxIndex>>,
    by_id: HashMap<String, BoxIndex>,
    thresholds: Vec<Threshold>,
}

impl Template {
    /// The template as written, for embedding in a start event.
    pub fn raw(&self) -> &RawTemplate {
        &self.raw
    }
    pub fn name(&self) -> &str {
        &self.raw.name
    }
    pub fn grid(&self) -> RawGrid {
        self.raw.grid
    }
    pub fn boxes(&self) -> &[SheetBox] {
        &self.boxes
    }
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }
    /// The constraints under the sailboats rule of [`Template::sailboats`]:
    /// what legality checks and what a sheet prints.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    /// The sailboats rule [`Template::constraints`] are read under:
    /// [`Sailboats::Symbol`] (as written) for a template just checked.
    pub fn sailboats(&self) -> Sailboats {
        self.sailboats
    }

    /// This template under the sailboats rule `rule`. Under
    /// [`Sailboats::Different`], every `less` or `greater` constraint
    /// between two boxes of one zone of kind `sailboats` reads as
    /// `different`; under [`Sailboats::Symbol`] the constraints are as
    /// written. Everything else stays: the boxes, [`Template::raw`] (what a
    /// start event embeds), [`Template::related`] (a pair is constrained
    /// either way) and [`Template::placements_for`] (which only knows
    /// pearls), so [`Template::violation`], [`Template::allowed`] and the
    /// moves built on them agree under either rule.
    pub fn with_sailboats(self: &Arc<Self>, rule: Sailboats) -> Arc<Template> {
        if self.sailboats == rule {
            return Arc::clone(self);
        }
        let in_boat = |a: BoxIndex, b: BoxIndex| {
            let zone = self.boxes[a].zone;
            zone == self.boxes[b].zone && self.zones[zone].kind == ZoneKind::Sailboats
        };
        let constraints: Vec<Constraint> =
            self.written
                .iter()
                .map(|c| match (rule, c) {
                    (
                        Sailboats::Different,
                        &(Constraint::Less(a, b) | Constraint::Greater(a, b)),
                    ) if in_boat(a, b) => Constraint::Different(a, b),
                    _ => c.clone(),
                })
                .collect();
        let mut template = (**self).clone();
        template.effects = constraint::effects(self.boxes.len(), &constraints);
        template.constraints = constraints;
        template.sailboats = rule;
        Arc::new(template)
    }
    pub fn thresholds(&self) -> &[Threshold] {
        &self.thresholds
    }
    pub fn rounds(&self) -> u16 {
        self.raw.end.rounds
    }
    pub fn sun_limit(&self) -> u16 {
        self.raw.end.sun_limit
    }
    pub fn sun_slots(&self) -> u16 {
        self.raw.sun.slots
    }
    pub fn box_index(&self, id: &str) -> Option<BoxIndex> {
        self.by_id.get(id).copied()
    }
    /// The box whose id is `id`, as the rules hold it.
    pub fn box_ix(&self, id: &str) -> Option<BoxIx> {
        self.box_index(id).map(BoxIx::new)
    }
    /// Whether `b` is a box of this template.
    pub fn has_box(&self, b: BoxIx) -> bool {
        b.index() < self.boxes.len()
    }
    /// The boxes orthogonally adjacent to `b` on the grid.
    pub fn neighbours(&self, b: BoxIndex) -> &[BoxIndex] {
        &self.neighbours[b]
    }
    /// [`Template::neighbours`] of `b`, as the rules hold them.
    pub fn neighbours_of(&self, b: BoxIx) -> impl Iterator<Item = BoxIx> + '_ {
        self.neighbours[b.index()].iter().map(|&n| BoxIx::new(n))
    }
    /// The indexes of the constraints that mention box `b`.
    pub fn constraints_on(&self, b: BoxIndex) -> impl Iterator<Item = &Constraint> {
        self.touching[b].iter().map(|&c| &self.constraints[c])
    }
}
