//! Flags and groups that no game can complete, and zones that few value
//! sequences can. [`Template::contradictions`] finds constraints that break
//! one box or one pair; this looks at a zone or group as a whole:
//!
//! - its boxes cannot all hold values at once under the constraints among
//!   them (say `distinct` over three boxes that a `less` chain squeezes into
//!   two values), so its flag or reward is never won: a problem;
//! - it has more boxes than a player can write in a game (a placement a
//!   round, a copy per crab box, a bonus digit per bonus reward): a problem;
//! - it can be completed, but a player who writes its boxes one by one,
//!   each a value its constraints allow at that moment, rarely does: a
//!   warning, with the figure.
//!
//! Like the contradictions, these are for `template check` and for files
//! that are loaded to play: a log's own template is never refused for them.

use super::{BoxIndex, Constraint, ProblemKind, Reward, Template, TemplateProblem};
use crate::kit::path::JsonPath;

/// The most search steps spent on one zone: past it, the zone is taken as
/// fillable and no share is given.
const BUDGET: u64 = 2_000_000;

/// A zone is flagged as improbable when a writing that follows its rules
/// completes it fewer than one time in this many: see [`completion`].
pub const IMPROBABLE: u64 = 100;

/// The most positions of one set of tied boxes weighed by [`completion`]:
/// past it, the zone is taken as fillable and no figure is given.
const POSITIONS: usize = 400_000;

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

/// How often the boxes of `set` end up all written when they are written
/// the way the rules let a player: one box at a time, any empty box, each
/// time a value from 1 to 6 that its constraints with the written boxes
/// allow, every choice as likely as the others. Once an empty box has no
/// value left, the zone is lost. A cabin's boxes, which hold one value by
/// rule, are always completed so; a chain of `<` over six boxes rarely.
/// Boxes that no constraint ties are always written; sets of boxes that
/// no constraint joins are weighed apart and their figures multiplied.
/// `None` if a set has too many positions to weigh.
pub fn completion(constraints: &[Constraint], set: &[BoxIndex]) -> Option<f64> {
    let pairs = pairs(constraints, set);
    // The sets of boxes the pairs join, by union and find.
    let mut root: Vec<usize> = (0..set.len()).collect();
    fn find(root: &mut [usize], mut b: usize) -> usize {
        while root[b] != b {
            b = root[b];
        }
        b
    }
    for &(a, b, _) in &pairs {
        let (a, b) = (find(&mut root, a), find(&mut root, b));
        root[a.max(b)] = a.min(b);
    }
    let mut chance = 1.0;
    for start in 0..set.len() {
        if find(&mut root, start) != start {
            continue;
        }
        let members: Vec<usize> = (0..set.len())
            .filter(|&b| find(&mut root, b) == start)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let at = |b: usize| members.iter().position(|&m| m == b);
        let tied: Vec<(usize, usize, Relation)> = pairs
            .iter()
            .filter_map(|&(a, b, r)| Some((at(a)?, at(b)?, r)))
            .collect();
        let mut weighed = std::collections::HashMap::new();
        let mut values = vec![0u8; members.len()];
        chance *= weigh(&tied, &mut values, &mut weighed)?;
    }
    Some(chance)
}

/// The chance that `values` (0 for an empty box) ends up all written.
fn weigh(
    pairs: &[(usize, usize, Relation)],
    values: &mut Vec<u8>,
    weighed: &mut std::collections::HashMap<Vec<u8>, f64>,
) -> Option<f64> {
    if let Some(&chance) = weighed.get(values) {
        return Some(chance);
    }
    if weighed.len() >= POSITIONS {
        return None;
    }
    let empty: Vec<usize> = (0..values.len()).filter(|&b| values[b] == 0).collect();
    if empty.is_empty() {
        return Some(1.0);
    }
    let allowed = |values: &[u8], b: usize, v: u8| {
        pairs.iter().all(|&(x, y, relation)| {
            if x == b && values[y] != 0 {
                relation.holds(v, values[y])
            } else if y == b && values[x] != 0 {
                relation.holds(values[x], v)
            } else {
                true
            }
        })
    };
    let mut choices = Vec::with_capacity(empty.len());
    for &b in &empty {
        let left: Vec<u8> = (1..=6).filter(|&v| allowed(values, b, v)).collect();
        if left.is_empty() {
            weighed.insert(values.clone(), 0.0);
            return Some(0.0);
        }
        choices.push((b, left));
    }
    let mut chance = 0.0;
    for (b, left) in &choices {
        let mut sum = 0.0;
        for &v in left {
            values[*b] = v;
            sum += weigh(pairs, values, weighed)?;
        }
        values[*b] = 0;
        chance += sum / left.len() as f64;
    }
    let chance = chance / choices.len() as f64;
    weighed.insert(values.clone(), chance);
    Some(chance)
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

    /// Zones that can be completed, but that a writing following their
    /// rules completes fewer than one time in [`IMPROBABLE`]
    /// ([`completion`]): warnings, not problems, with the figure. A zone
    /// too large to weigh is not flagged.
    pub fn improbable(&self) -> Vec<TemplateProblem> {
        let mut warnings = Vec::new();
        for (z, zone) in self.zones.iter().enumerate() {
            let Some(chance) = completion(&self.written, &zone.boxes) else {
                continue;
            };
            if chance > 0.0 && chance * (IMPROBABLE as f64) < 1.0 {
                warnings.push(TemplateProblem {
                    path: JsonPath::root().key("zones").index(z).key("flag"),
                    kind: ProblemKind::Improbable {
                        zone: zone.id.clone(),
                        one_in: (1.0 / chance).round() as u64,
                    },
                });
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
    fn a_writing_that_follows_the_rules_completes_a_cabin_always() {
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-9;
        // One value by rule: once a box is written, the others follow.
        let cabin = [Constraint::Same(vec![0, 1, 2, 3])];
        assert!(close(completion(&cabin, &[0, 1, 2, 3]), 1.0));
        let apart = [Constraint::Distinct(vec![0, 1, 2, 3, 4, 5])];
        assert!(close(completion(&apart, &[0, 1, 2, 3, 4, 5]), 1.0));
        // a < b: b first (5 of 6 values leave a value to a), or a first
        // (a = 6 leaves none): 1/2 · 5/6 + 1/2 · 5/6.
        let pair = [Constraint::Less(0, 1)];
        assert!(close(completion(&pair, &[0, 1]), 5.0 / 6.0));
        // Two pairs that nothing joins: weighed apart, multiplied.
        let two = [Constraint::Less(0, 1), Constraint::Less(2, 3)];
        assert!(close(completion(&two, &[0, 1, 2, 3]), 25.0 / 36.0));
        // Six boxes each below the next: about 1 in 260.
        let chain: Vec<Constraint> = (0..5).map(|i| Constraint::Less(i, i + 1)).collect();
        let chance = completion(&chain, &[0, 1, 2, 3, 4, 5]).unwrap();
        assert!(chance * (IMPROBABLE as f64) < 1.0, "{chance}");
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
