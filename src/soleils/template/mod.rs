//! Sheet templates: the data that describes one printable 62 Soleils sheet.
//!
//! A [`RawTemplate`] is what a JSON file says. [`Template::try_from`] checks it
//! and reports **every** problem at once, each with its JSON path, the way a
//! shakmaty `Setup` becomes a position. Only a checked [`Template`] can start a
//! game, so the rules never meet a dangling box id or a pearl of 7.

mod problem;
mod raw;

pub use problem::{ProblemKind, TemplateErrors, TemplateProblem};
pub use raw::{
    Icon, RawBox, RawConstraint, RawEnd, RawGrid, RawGroup, RawSun, RawTemplate, RawThreshold,
    RawZone, Reward, ZoneKind,
};

use super::options::Sailboats;
use crate::path::JsonPath;
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
        template.effects = effects(self.boxes.len(), &constraints);
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
fn effects(boxes: usize, constraints: &[Constraint]) -> Vec<Vec<(BoxIx, [u8; 7])>> {
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

/// How many different rolls of three dice there are, order aside.
const ROLLS: usize = 56;

/// The position of a roll among the [`ROLLS`], order aside.
fn roll_index(mut dice: [u8; 3]) -> usize {
    dice.sort_unstable();
    let [a, b, c] = dice.map(|d| usize::from(d.clamp(1, 6)) - 1);
    // Sorted triples a <= b <= c of 0..6, counted in lexicographic order.
    let before_a: usize = (0..a).map(|x| (6 - x) * (7 - x) / 2).sum();
    let before_b: usize = (a..b).map(|y| 6 - y).sum();
    before_a + before_b + (c - b)
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

impl TryFrom<RawTemplate> for Template {
    type Error = TemplateErrors;

    fn try_from(raw: RawTemplate) -> Result<Self, TemplateErrors> {
        Checker::default().check(raw)
    }
}

/// Collects every problem while building the checked template.
#[derive(Default)]
struct Checker {
    problems: Vec<TemplateProblem>,
}

impl Checker {
    fn report(&mut self, path: JsonPath, kind: ProblemKind) {
        self.problems.push(TemplateProblem { path, kind });
    }

    fn check(mut self, raw: RawTemplate) -> Result<Template, TemplateErrors> {
        let root = JsonPath::root();
        if raw.format != TEMPLATE_FORMAT {
            self.report(
                root.key("format"),
                ProblemKind::UnsupportedFormat { found: raw.format },
            );
        }
        if raw.game != "soleils" {
            let found = raw.game.clone();
            self.report(root.key("game"), ProblemKind::WrongGame { found });
        }
        if raw.name.trim().is_empty() {
            self.report(root.key("name"), ProblemKind::Empty { what: "name" });
        }
        for (key, value) in [("columns", raw.grid.columns), ("rows", raw.grid.rows)] {
            if value == 0 {
                let what = if key == "rows" {
                    "grid (rows)"
                } else {
                    "grid (columns)"
                };
                self.report(root.key("grid").key(key), ProblemKind::Empty { what });
            }
        }

        let (mut zones, mut groups) = self.zones(&raw);
        let (boxes, by_id) = self.boxes(&raw, &mut zones, &mut groups);
        for (z, zone) in zones.iter().enumerate() {
            if zone.boxes.is_empty() {
                let id = zone.id.clone();
                self.report(root.key("zones").index(z), ProblemKind::EmptyZone { id });
            }
        }
        let mut group_paths = Vec::new();
        for (z, zone) in raw.zones.iter().enumerate() {
            for g in 0..zone.groups.len() {
                group_paths.push(root.key("zones").index(z).key("groups").index(g));
            }
        }
        for (group, path) in groups.iter().zip(group_paths) {
            if group.boxes.is_empty() {
                let id = group.id.clone();
                self.report(path, ProblemKind::EmptyGroup { id });
            }
        }
        let constraints = self.constraints(&raw, &by_id);
        let thresholds = self.sun(&raw);

        if !self.problems.is_empty() {
            return Err(crate::path::Problems(self.problems));
        }

        let mut touching = vec![Vec::new(); boxes.len()];
        let mut related: Vec<Vec<BoxIndex>> = vec![Vec::new(); boxes.len()];
        for (c, constraint) in constraints.iter().enumerate() {
            let members: Vec<BoxIndex> = match constraint {
                Constraint::Same(set) | Constraint::Distinct(set) => set.clone(),
                Constraint::Less(a, b)
                | Constraint::Greater(a, b)
                | Constraint::Different(a, b) => {
                    vec![*a, *b]
                }
            };
            for &b in &members {
                if touching[b].last() != Some(&c) {
                    touching[b].push(c);
                }
                for &o in &members {
                    if o != b && !related[b].contains(&o) {
                        related[b].push(o);
                    }
                }
            }
        }
        let by_roll = std::sync::OnceLock::new();
        let effects = effects(boxes.len(), &constraints);
        let by_cell: HashMap<(u16, u16), BoxIndex> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| ((b.column, b.row), i))
            .collect();
        let neighbours = boxes
            .iter()
            .map(|b| {
                let (c, r) = (i32::from(b.column), i32::from(b.row));
                [(c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)]
                    .into_iter()
                    .filter_map(|(c, r)| {
                        let cell = (u16::try_from(c).ok()?, u16::try_from(r).ok()?);
                        by_cell.get(&cell).copied()
                    })
                    .collect()
            })
            .collect();
        Ok(Template {
            raw: Box::new(raw),
            boxes,
            zones,
            groups,
            written: constraints.clone(),
            constraints,
            sailboats: Sailboats::Symbol,
            touching,
            related,
            by_roll,
            masks_by_roll: Default::default(),
            effects,
            neighbours,
            by_id,
            thresholds,
        })
    }

    fn reward(&mut self, path: JsonPath, reward: Reward) {
        if matches!(reward, Reward::Starfish(0) | Reward::Seashells(0)) {
            self.report(path, ProblemKind::ZeroReward);
        }
    }

    fn zones(&mut self, raw: &RawTemplate) -> (Vec<Zone>, Vec<Group>) {
        let mut zones = Vec::new();
        let mut groups = Vec::new();
        let mut zone_ids: HashMap<&str, JsonPath> = HashMap::new();
        let mut group_ids: HashMap<&str, JsonPath> = HashMap::new();
        for (z, zone) in raw.zones.iter().enumerate() {
            let path = JsonPath::root().key("zones").index(z);
            self.unique_id("zone", &zone.id, path.key("id"), &mut zone_ids);
            self.reward(path.key("flag"), zone.flag);
            let mut group_indexes = Vec::new();
            for (g, group) in zone.groups.iter().enumerate() {
                let path = path.key("groups").index(g);
                self.unique_id("group", &group.id, path.key("id"), &mut group_ids);
                if let Some(reward) = group.reward {
                    self.reward(path.key("reward"), reward);
                }
                group_indexes.push(groups.len());
                groups.push(Group {
                    id: group.id.clone(),
                    name: group.name.clone(),
                    zone: z,
                    reward: group.reward,
                    boxes: Vec::new(),
                });
            }
            zones.push(Zone {
                id: zone.id.clone(),
                name: zone.name.clone(),
                kind: zone.kind,
                flag: zone.flag,
                boxes: Vec::new(),
                groups: group_indexes,
            });
        }
        (zones, groups)
    }

    fn unique_id<'a>(
        &mut self,
        what: &'static str,
        id: &'a str,
        path: JsonPath,
        seen: &mut HashMap<&'a str, JsonPath>,
    ) {
        if id.trim().is_empty() {
            self.report(path, ProblemKind::Empty { what: "id" });
        } else if let Some(first) = seen.get(id) {
            let first = first.clone();
            let id = id.to_owned();
            self.report(path, ProblemKind::DuplicateId { what, id, first });
        } else {
            seen.insert(id, path);
        }
    }

    fn boxes(
        &mut self,
        raw: &RawTemplate,
        zones: &mut [Zone],
        groups: &mut [Group],
    ) -> (Vec<SheetBox>, HashMap<String, BoxIndex>) {
        let mut boxes = Vec::new();
        let mut ids: HashMap<&str, JsonPath> = HashMap::new();
        let mut cells: HashMap<(u16, u16), &str> = HashMap::new();
        for (i, b) in raw.boxes.iter().enumerate() {
            let path = JsonPath::root().key("boxes").index(i);
            self.unique_id("box", &b.id, path.key("id"), &mut ids);
            if !(1..=6).contains(&b.pearl) {
                let found = b.pearl;
                self.report(path.key("pearl"), ProblemKind::PearlOutOfRange { found });
            }
            let [column, row] = b.cell;
            let (columns, rows) = (raw.grid.columns, raw.grid.rows);
            if column >= columns || row >= rows {
                let kind = ProblemKind::CellOutsideGrid {
                    column,
                    row,
                    columns,
                    rows,
                };
                self.report(path.key("cell"), kind);
            } else if let Some(other) = cells.get(&(column, row)) {
                let other = (*other).to_owned();
                let kind = ProblemKind::SharedCell { column, row, other };
                self.report(path.key("cell"), kind);
            } else {
                cells.insert((column, row), &b.id);
            }
            let zone = zones.iter().position(|z| z.id == b.zone);
            if zone.is_none() {
                let id = b.zone.clone();
                self.report(path.key("zone"), ProblemKind::UnknownZone { id });
            }
            let group = match (&b.group, zone) {
                (Some(id), Some(z)) => {
                    let found = zones[z]
                        .groups
                        .iter()
                        .copied()
                        .find(|&g| groups[g].id == *id);
                    if found.is_none() {
                        let kind = ProblemKind::UnknownGroup {
                            id: id.clone(),
                            zone: b.zone.clone(),
                        };
                        self.report(path.key("group"), kind);
                    }
                    found
                }
                _ => None,
            };
            let index = boxes.len();
            if let Some(z) = zone {
                zones[z].boxes.push(index);
            }
            if let Some(g) = group {
                groups[g].boxes.push(index);
            }
            boxes.push(SheetBox {
                id: b.id.clone(),
                pearl: b.pearl,
                column,
                row,
                zone: zone.unwrap_or(0),
                group,
                crab: b.icons.contains(&Icon::Crab),
                frog: b.icons.contains(&Icon::Frog),
            });
        }
        let by_id = raw
            .boxes
            .iter()
            .enumerate()
            .rev()
            .map(|(i, b)| (b.id.clone(), i))
            .collect();
        (boxes, by_id)
    }

    fn constraints(
        &mut self,
        raw: &RawTemplate,
        by_id: &HashMap<String, BoxIndex>,
    ) -> Vec<Constraint> {
        let mut constraints = Vec::new();
        for (c, constraint) in raw.constraints.iter().enumerate() {
            let path = JsonPath::root().key("constraints").index(c);
            let (name, ids): (&'static str, &[String]) = match constraint {
                RawConstraint::Same(ids) => ("same", ids),
                RawConstraint::Distinct(ids) => ("distinct", ids),
                RawConstraint::Less(pair) => ("less", pair),
                RawConstraint::Greater(pair) => ("greater", pair),
                RawConstraint::Different(pair) => ("different", pair),
            };
            let path = path.key(name);
            let mut members = Vec::new();
            for (m, id) in ids.iter().enumerate() {
                match by_id.get(id) {
                    None => {
                        let id = id.clone();
                        self.report(path.index(m), ProblemKind::UnknownBox { id });
                    }
                    Some(&b) if members.contains(&b) => {
                        let id = id.clone();
                        self.report(path.index(m), ProblemKind::RepeatedBox { id });
                    }
                    Some(&b) => members.push(b),
                }
            }
            match constraint {
                RawConstraint::Same(ids) | RawConstraint::Distinct(ids) if ids.len() < 2 => {
                    let kind = ProblemKind::SetTooSmall {
                        constraint: name,
                        found: ids.len(),
                    };
                    self.report(path, kind);
                }
                RawConstraint::Distinct(ids) if ids.len() > 6 => {
                    let kind = ProblemKind::DistinctTooLarge { found: ids.len() };
                    self.report(path, kind);
                }
                _ => {}
            }
            if members.len() != ids.len() {
                continue;
            }
            constraints.push(match constraint {
                RawConstraint::Same(_) => Constraint::Same(members),
                RawConstraint::Distinct(_) => Constraint::Distinct(members),
                RawConstraint::Less(_) => Constraint::Less(members[0], members[1]),
                RawConstraint::Greater(_) => Constraint::Greater(members[0], members[1]),
                RawConstraint::Different(_) => Constraint::Different(members[0], members[1]),
            });
        }
        constraints
    }

    fn sun(&mut self, raw: &RawTemplate) -> Vec<Threshold> {
        let end = JsonPath::root().key("end");
        let sun = JsonPath::root().key("sun");
        let RawEnd { rounds, sun_limit } = raw.end;
        if rounds == 0 {
            self.report(end.key("rounds"), ProblemKind::NoRounds);
        }
        if sun_limit == 0 {
            self.report(end.key("sun_limit"), ProblemKind::NoSunLimit);
        }
        if raw.sun.slots < rounds {
            let kind = ProblemKind::TooFewSlots {
                rounds,
                found: raw.sun.slots,
            };
            self.report(sun.key("slots"), kind);
        }
        // The last entry starts below the limit and adds at most 6.
        let max = rounds
            .saturating_mul(6)
            .min(sun_limit.saturating_sub(1).saturating_add(6));
        let mut previous = 0;
        for (t, threshold) in raw.sun.thresholds.iter().enumerate() {
            let path = sun.key("thresholds").index(t);
            if threshold.at <= previous {
                let kind = ProblemKind::ThresholdOrder {
                    previous,
                    found: threshold.at,
                };
                self.report(path.key("at"), kind);
            } else if threshold.at > max {
                let found = threshold.at;
                self.report(
                    path.key("at"),
                    ProblemKind::UnreachableThreshold { found, max },
                );
            }
            previous = previous.max(threshold.at);
            self.reward(path.key("reward"), threshold.reward);
        }
        raw.sun
            .thresholds
            .iter()
            .map(|t| Threshold {
                at: t.at,
                reward: t.reward,
            })
            .collect()
    }
}
