//! Flags and groups that no game can complete, and zones that few value
//! sequences can. [`Template::contradictions`] finds constraints that break
//! one box or one pair; this looks at a zone or group as a whole:
//!
//! - its boxes cannot all hold values at once under the constraints among
//!   them (say `distinct` over three boxes that a `less` chain squeezes into
//!   two values), so its flag or reward is never won: a problem;
//! - it has more boxes than a player can write in a game (a placement a
//!   round, a copy per crab box, a bonus digit per bonus reward): a problem;
//! - it can be completed, but by few of the ways its boxes could be
//!   written: a warning, with the figure.
//!
//! Like the contradictions, these are for `template check` and for files
//! that are loaded to play: a log's own template is never refused for them.

use super::{BoxIndex, Constraint, ProblemKind, Reward, Template, TemplateProblem};
use crate::path::JsonPath;

/// The most search steps spent on one zone: past it, the zone is taken as
/// fillable and no share is given.
const BUDGET: u64 = 2_000_000;

/// A zone is flagged as improbable when fewer than one in this many of the
/// ways to write its constrained boxes complete it.
pub const IMPROBABLE: u64 = 1_000;

/// What a search over a set of boxes found.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Found {
    /// No way to write every box.
    None,
    /// This many ways among `6^boxes`, over the boxes some constraint
    /// among them ties.
    Ways { ways: u64, boxes: u32 },
    /// The budget ran out.
    Unknown,
}

/// The constraints among `set` only, as pairs to check: a box outside the
/// set may stay empty, and an empty box constrains nothing.
fn pairs(constraints: &[Constraint], set: &[BoxIndex]) -> Vec<(usize, usize, Relation)> {
    let at = |b: BoxIndex| set.iter().position(|&s| s == b);
    let mut out = Vec::new();
    for c in constraints {
        match c {
            Constraint::Same(all) | Constraint::Distinct(all) => {
                let inside: Vec<usize> = all.iter().filter_map(|&b| at(b)).collect();
                let relation = if matches!(c, Constraint::Same(_)) {
                    Relation::Equal
                } else {
                    Relation::Unlike
                };
                for (i, &a) in inside.iter().enumerate() {
                    for &b in &inside[i + 1..] {
                        out.push((a, b, relation));
                    }
                }
            }
            &Constraint::Less(a, b) | &Constraint::Greater(b, a) => {
                if let (Some(a), Some(b)) = (at(a), at(b)) {
                    out.push((a, b, Relation::Below));
                }
            }
            &Constraint::Different(a, b) => {
                if let (Some(a), Some(b)) = (at(a), at(b)) {
                    out.push((a, b, Relation::Unlike));
                }
            }
        }
    }
    out
}

/// How the first box of a pair stands to the second.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Relation {
    Equal,
    Unlike,
    Below,
}

impl Relation {
    fn holds(self, a: u8, b: u8) -> bool {
        match self {
            Relation::Equal => a == b,
            Relation::Unlike => a != b,
            Relation::Below => a < b,
        }
    }
}

/// Counts the ways to write every box of `set` that some constraint among
/// them ties, by a search that checks each pair once both are written.
fn search(constraints: &[Constraint], set: &[BoxIndex]) -> Found {
    let pairs = pairs(constraints, set);
    let mut tied: Vec<usize> = pairs.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    tied.sort_unstable();
    tied.dedup();
    if tied.is_empty() {
        return Found::Ways { ways: 1, boxes: 0 };
    }
    // Each box's checks, against boxes earlier in `tied`.
    let place = |b: usize| tied.iter().position(|&t| t == b).expect("a tied box");
    let mut checks: Vec<Vec<(usize, Relation, bool)>> = vec![Vec::new(); tied.len()];
    for &(a, b, relation) in &pairs {
        let (pa, pb) = (place(a), place(b));
        // Checked at the later of the two, against the earlier; `true`
        // when the later box is the pair's first.
        if pa > pb {
            checks[pa].push((pb, relation, true));
        } else {
            checks[pb].push((pa, relation, false));
        }
    }
    let mut values = vec![0u8; tied.len()];
    let mut steps = 0u64;
    let mut ways = 0u64;
    if !count(&checks, &mut values, 0, &mut steps, &mut ways) {
        return Found::Unknown;
    }
    if ways == 0 {
        Found::None
    } else {
        Found::Ways {
            ways,
            boxes: tied.len() as u32,
        }
    }
}

/// Adds to `ways` every completion of `values[..at]`; `false` once the
/// budget is spent.
fn count(
    checks: &[Vec<(usize, Relation, bool)>],
    values: &mut [u8],
    at: usize,
    steps: &mut u64,
    ways: &mut u64,
) -> bool {
    if at == values.len() {
        *ways += 1;
        return true;
    }
    for v in 1..=6u8 {
        *steps += 1;
        if *steps > BUDGET {
            return false;
        }
        let fits = checks[at].iter().all(|&(other, relation, first)| {
            if first {
                relation.holds(v, values[other])
            } else {
                relation.holds(values[other], v)
            }
        });
        if fits {
            values[at] = v;
            if !count(checks, values, at + 1, steps, ways) {
                return false;
            }
        }
    }
    true
}

impl Template {
    /// The most values a player can write in one game: a placement a
    /// round, a copy for each crab box, a bonus digit for each reward that
    /// gives one.
    pub fn most_writes(&self) -> usize {
        let bonus = |r: &Reward| matches!(r, Reward::BonusDigit);
        usize::from(self.rounds())
            + self.boxes.iter().filter(|b| b.crab).count()
            + self.thresholds.iter().filter(|t| bonus(&t.reward)).count()
            + self.zones.iter().filter(|z| bonus(&z.flag)).count()
            + (self.groups.iter())
                .filter(|g| g.reward.as_ref().is_some_and(bonus))
                .count()
    }

    /// Every zone flag and group reward that no game can win, as problems
    /// with their JSON paths: first the groups, then the zones, each in
    /// order. Asked only of a sheet free of
    /// [`Template::contradictions`]: a box no value can fill, or a cycle,
    /// is named there and not again here.
    pub fn unreachable(&self) -> Vec<TemplateProblem> {
        let mut problems = Vec::new();
        let most = self.most_writes();
        for (z, zone) in self.zones.iter().enumerate() {
            let zone_path = JsonPath::root().key("zones").index(z);
            if zone.boxes.len() > most {
                problems.push(TemplateProblem {
                    path: zone_path.key("flag"),
                    kind: ProblemKind::ZoneTooLarge {
                        zone: zone.id.clone(),
                        boxes: zone.boxes.len(),
                        most,
                    },
                });
                continue;
            }
            let mut group_failed = false;
            for (j, &g) in zone.groups.iter().enumerate() {
                let group = &self.groups[g];
                if search(&self.written, &group.boxes) == Found::None {
                    group_failed = true;
                    problems.push(TemplateProblem {
                        path: zone_path.key("groups").index(j),
                        kind: ProblemKind::NeverCompleted {
                            what: "group",
                            id: group.id.clone(),
                        },
                    });
                }
            }
            if !group_failed && search(&self.written, &zone.boxes) == Found::None {
                problems.push(TemplateProblem {
                    path: zone_path.key("flag"),
                    kind: ProblemKind::NeverCompleted {
                        what: "zone",
                        id: zone.id.clone(),
                    },
                });
            }
        }
        problems
    }

    /// Zones that can be completed, but by fewer than one in
    /// [`IMPROBABLE`] of the ways their constrained boxes could be written:
    /// warnings, not problems, with the figure. A zone the search could not
    /// finish within its budget is not flagged.
    pub fn improbable(&self) -> Vec<TemplateProblem> {
        let mut warnings = Vec::new();
        for (z, zone) in self.zones.iter().enumerate() {
            if let Found::Ways { ways, boxes } = search(&self.written, &zone.boxes) {
                let of = 6u64.checked_pow(boxes).unwrap_or(u64::MAX);
                if ways.saturating_mul(IMPROBABLE) < of {
                    warnings.push(TemplateProblem {
                        path: JsonPath::root().key("zones").index(z).key("flag"),
                        kind: ProblemKind::Improbable {
                            zone: zone.id.clone(),
                            ways,
                            boxes,
                        },
                    });
                }
            }
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_less_counts_its_increasing_sequences() {
        // a < b < c: the 20 increasing triples of 1..6.
        let chain = [Constraint::Less(0, 1), Constraint::Less(1, 2)];
        assert_eq!(
            search(&chain, &[0, 1, 2]),
            Found::Ways { ways: 20, boxes: 3 }
        );
        // Distinct over three boxes: 6 · 5 · 4.
        let apart = [Constraint::Distinct(vec![0, 1, 2])];
        assert_eq!(
            search(&apart, &[0, 1, 2]),
            Found::Ways {
                ways: 120,
                boxes: 3
            }
        );
        // Same and different on one pair: nothing.
        let both = [Constraint::Same(vec![0, 1]), Constraint::Different(0, 1)];
        assert_eq!(search(&both, &[0, 1]), Found::None);
        // A box outside the set constrains nothing.
        assert_eq!(search(&chain, &[0, 2]), Found::Ways { ways: 1, boxes: 0 });
    }

    #[test]
    fn seven_boxes_each_below_the_next_cannot_all_be_written() {
        let chain: Vec<Constraint> = (0..6).map(|i| Constraint::Less(i, i + 1)).collect();
        let set: Vec<usize> = (0..7).collect();
        assert_eq!(search(&chain, &set), Found::None);
        let chain: Vec<Constraint> = (0..5).map(|i| Constraint::Less(i, i + 1)).collect();
        assert_eq!(search(&chain, &set[..6]), Found::Ways { ways: 1, boxes: 6 });
    }
}
