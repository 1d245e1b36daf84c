//! From a [`RawTemplate`] to a checked [`Template`]: every problem found at
//! once, each with its JSON path.

use super::constraint::effects;
use super::{
    BoxIndex, Constraint, Group, Icon, ProblemKind, RawConstraint, RawEnd, RawTemplate, Reward,
    SheetBox, TEMPLATE_FORMAT, Template, TemplateErrors, TemplateProblem, Threshold, Zone,
};
use crate::kit::path::JsonPath;
use crate::soleils::options::Sailboats;
use std::collections::HashMap;

impl TryFrom<RawTemplate> for Template {
    type Error = TemplateErrors;

    fn try_from(raw: RawTemplate) -> Result<Self, TemplateErrors> {
        Checker::default().check(raw)
    }
}

impl Template {
    /// As [`TryFrom`], but a template refused for other problems is also
    /// searched for contradictions between its constraints
    /// ([`Template::contradictions`]) when its boxes and constraints are
    /// sound, and they are reported with the rest: what `template check`
    /// lists. A log's own template is checked without them.
    pub fn check_with_contradictions(raw: RawTemplate) -> Result<Self, TemplateErrors> {
        Checker {
            with_contradictions: true,
            ..Checker::default()
        }
        .check(raw)
    }
}

/// Collects every problem while building the checked template.
#[derive(Default)]
struct Checker {
    problems: Vec<TemplateProblem>,
    with_contradictions: bool,
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
            // Contradictions between sound boxes and constraints are
            // reported with the other problems, when asked for.
            let sound = |p: &TemplateProblem| {
                let path = p.path.to_string();
                !["boxes", "constraints"].iter().any(|part| {
                    path.strip_prefix(part)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['[', '.']))
                })
            };
            if self.with_contradictions && self.problems.iter().all(sound) {
                let order = super::contradiction::Order {
                    boxes: &boxes,
                    written: &constraints,
                };
                self.problems.extend(order.contradictions());
            }
            return Err(crate::kit::path::Problems(self.problems));
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
