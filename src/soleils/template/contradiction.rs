//! Constraints that no sheet can meet together: a cycle of `<` and `>`,
//! boxes that one constraint makes the same and another keeps apart, and a
//! box that a chain of `<` leaves no value from 1 to 6. Each makes a zone
//! impossible to complete, so `template check` reports it with its JSON
//! path. A log's own template is not checked for them: a game recorded on
//! such a sheet still replays as it did.

use super::{BoxIndex, Constraint, ProblemKind, SheetBox, Template, TemplateProblem};
use crate::kit::path::JsonPath;

/// Boxes that `same` sets make one value, by union and find.
struct Classes(Vec<BoxIndex>);

impl Classes {
    fn find(&mut self, b: BoxIndex) -> BoxIndex {
        let mut root = b;
        while self.0[root] != root {
            root = self.0[root];
        }
        self.0[b] = root;
        root
    }

    fn join(&mut self, a: BoxIndex, b: BoxIndex) {
        let (a, b) = (self.find(a), self.find(b));
        self.0[a.max(b)] = a.min(b);
    }
}

/// The JSON path of constraint `c`, whose kind is `name`.
fn path(c: usize, name: &'static str) -> JsonPath {
    JsonPath::root().key("constraints").index(c).key(name)
}

/// A strict order between two boxes: `low < high`.
#[derive(Clone, Copy)]
struct Edge {
    low: BoxIndex,
    high: BoxIndex,
}

impl Template {
    /// Every contradiction between the constraints as written, in
    /// constraint order, then every box no value can fill, in box order.
    pub fn contradictions(&self) -> Vec<TemplateProblem> {
        Order {
            boxes: &self.boxes,
            written: &self.written,
        }
        .contradictions()
    }
}

/// The boxes and the constraints as written, which is all the search for
/// contradictions reads: so a template that fails other checks is searched
/// too, once its boxes and constraints are sound.
pub(super) struct Order<'a> {
    pub(super) boxes: &'a [SheetBox],
    pub(super) written: &'a [Constraint],
}

impl Order<'_> {
    /// [`Template::contradictions`] of these boxes and constraints.
    pub(super) fn contradictions(&self) -> Vec<TemplateProblem> {
        let mut problems = Vec::new();
        let id = |b: BoxIndex| self.boxes[b].id.clone();
        let mut classes = Classes((0..self.boxes.len()).collect());
        // The first `same` constraint that holds each box.
        let mut same_at: Vec<Option<usize>> = vec![None; self.boxes.len()];
        for (c, constraint) in self.written.iter().enumerate() {
            if let Constraint::Same(set) = constraint {
                for &b in set {
                    classes.join(set[0], b);
                    same_at[b].get_or_insert(c);
                }
            }
        }
        // Boxes a same set makes one, kept apart by constraint `c`.
        let apart =
            |classes: &mut Classes, c: usize, name: &'static str, a, b, relation: String| {
                (classes.find(a) == classes.find(b)).then(|| {
                    let same = same_at[a]
                        .or(same_at[b])
                        .expect("boxes joined by a same set");
                    TemplateProblem {
                        path: path(c, name),
                        kind: ProblemKind::SameAndApart {
                            first: id(a),
                            second: id(b),
                            same: path(same, "same"),
                            relation,
                        },
                    }
                })
            };
        let mut edges: Vec<Edge> = Vec::new();
        for (c, constraint) in self.written.iter().enumerate() {
            match *constraint {
                Constraint::Same(_) => {}
                Constraint::Distinct(ref set) => {
                    let relation = || "them in one distinct set".to_owned();
                    let found = set.iter().enumerate().find_map(|(i, &a)| {
                        set[i + 1..]
                            .iter()
                            .find_map(|&b| apart(&mut classes, c, "distinct", a, b, relation()))
                    });
                    problems.extend(found);
                }
                Constraint::Different(a, b) => {
                    let relation = "them different".to_owned();
                    problems.extend(apart(&mut classes, c, "different", a, b, relation));
                }
                Constraint::Less(a, b) | Constraint::Greater(a, b) => {
                    let (name, sign) = match constraint {
                        Constraint::Less(..) => ("less", '<'),
                        _ => ("greater", '>'),
                    };
                    let relation = format!("{} {sign} {}", id(a), id(b));
                    if let Some(problem) = apart(&mut classes, c, name, a, b, relation) {
                        problems.push(problem);
                        continue;
                    }
                    let edge = if sign == '<' {
                        Edge { low: a, high: b }
                    } else {
                        Edge { low: b, high: a }
                    };
                    match self.back(&mut classes, &edges, edge) {
                        Some(cycle) => problems.push(TemplateProblem {
                            path: path(c, name),
                            kind: ProblemKind::OrderCycle { cycle },
                        }),
                        None => edges.push(edge),
                    }
                }
            }
        }
        problems.extend(self.unfillable(&mut classes, &edges));
        problems
    }

    /// The cycle that `edge` would close with `edges`, written out, if the
    /// boxes above it already lie below it.
    fn back(&self, classes: &mut Classes, edges: &[Edge], edge: Edge) -> Option<Vec<String>> {
        // A search from the high end of `edge` for its low end, over classes.
        let target = classes.find(edge.low);
        let start = classes.find(edge.high);
        let mut came_by: Vec<Option<usize>> = vec![None; self.boxes.len()];
        let mut seen = vec![false; self.boxes.len()];
        seen[start] = true;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            if at == target {
                let mut chain = Vec::new();
                let mut here = at;
                while let Some(e) = came_by[here] {
                    chain.push(edges[e]);
                    here = classes.find(edges[e].low);
                }
                chain.reverse();
                let show =
                    |e: Edge| format!("{} < {}", self.boxes[e.low].id, self.boxes[e.high].id);
                // Where one step ends at another box than the next starts
                // from, a same set joins the two: name it.
                let mut steps = vec![edge];
                steps.extend(chain);
                let mut cycle = Vec::new();
                for (i, &step) in steps.iter().enumerate() {
                    cycle.push(show(step));
                    let next = steps[(i + 1) % steps.len()];
                    if step.high != next.low {
                        cycle.push(self.same_link(step.high, next.low));
                    }
                }
                return Some(cycle);
            }
            for (e, next) in edges.iter().enumerate() {
                if classes.find(next.low) == at {
                    let to = classes.find(next.high);
                    if !seen[to] {
                        seen[to] = true;
                        came_by[to] = Some(e);
                        queue.push_back(to);
                    }
                }
            }
        }
        None
    }

    /// How boxes `a` and `b` are one value: `A = B (the same set at
    /// constraints[3].same)`, naming every same set on the way from one to
    /// the other.
    fn same_link(&self, a: BoxIndex, b: BoxIndex) -> String {
        let sets: Vec<(usize, &[BoxIndex])> = (self.written.iter().enumerate())
            .filter_map(|(c, constraint)| match constraint {
                Constraint::Same(set) => Some((c, set.as_slice())),
                _ => None,
            })
            .collect();
        // A search over the same sets, from those that hold `a`.
        let mut came_from: Vec<Option<Option<usize>>> = vec![None; sets.len()];
        let mut queue = std::collections::VecDeque::new();
        for (i, (_, set)) in sets.iter().enumerate() {
            if set.contains(&a) {
                came_from[i] = Some(None);
                queue.push_back(i);
            }
        }
        let mut through = Vec::new();
        while let Some(i) = queue.pop_front() {
            if sets[i].1.contains(&b) {
                let mut at = Some(i);
                while let Some(j) = at {
                    through.push(path(sets[j].0, "same").to_string());
                    at = came_from[j].flatten();
                }
                through.reverse();
                break;
            }
            for (j, (_, set)) in sets.iter().enumerate() {
                if came_from[j].is_none() && set.iter().any(|x| sets[i].1.contains(x)) {
                    came_from[j] = Some(Some(i));
                    queue.push_back(j);
                }
            }
        }
        let plural = if through.len() == 1 { "set" } else { "sets" };
        format!(
            "{} = {} (the same {plural} at {})",
            self.boxes[a].id,
            self.boxes[b].id,
            through.join(" and ")
        )
    }

    /// Every box with so many boxes strictly below or above it that no
    /// value from 1 to 6 is left to it. `edges` has no cycle.
    fn unfillable(&self, classes: &mut Classes, edges: &[Edge]) -> Vec<TemplateProblem> {
        let n = self.boxes.len();
        let edges: Vec<(usize, usize)> = edges
            .iter()
            .map(|e| (classes.find(e.low), classes.find(e.high)))
            .collect();
        // The longest chain below each class, and above it: a fixed point,
        // reached in at most as many passes as there are classes.
        let longest = |up: bool| {
            let mut depth = vec![0usize; n];
            for _ in 0..n {
                let mut changed = false;
                for &(low, high) in &edges {
                    let (from, to) = if up { (low, high) } else { (high, low) };
                    if depth[to] < depth[from] + 1 {
                        depth[to] = depth[from] + 1;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            depth
        };
        let (below, above) = (longest(true), longest(false));
        (0..n)
            .filter_map(|b| {
                let class = classes.find(b);
                let (below, above) = (below[class], above[class]);
                (below + above >= 6).then(|| TemplateProblem {
                    path: JsonPath::root().key("boxes").index(b),
                    kind: ProblemKind::NoValueLeft {
                        id: self.boxes[b].id.clone(),
                        below,
                        above,
                    },
                })
            })
            .collect()
    }
}
