//! The standings: points per rank at each table (tied players share the
//! points of the ranks they tie for; a bye counts as a win), then the
//! event's tie-breaks in its declared order. Each row carries every
//! tie-break, so a player can see why they are where they are. They are
//! computed from the event log alone, never from the table files, so they
//! replay byte for byte. `sunfold schema event-standings` is their shape.

use super::entry::{EventGame, TieBreak};
use super::state::EventState;
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The standings of an event, as `sunfold event standings --format json`
/// prints them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Standings {
    /// `soleils` or `summertime`.
    pub game: &'static str,
    /// The rounds whose every table has a result.
    pub rounds_complete: u32,
    /// The tie-breaks after the points, in the order they apply.
    pub tie_breaks: Vec<TieBreak>,
    /// Every player, best first.
    pub rows: Vec<Row>,
}

/// One player's standing.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Row {
    /// 1 for the best; players equal on the points and every tie-break
    /// share a rank.
    pub rank: u32,
    pub id: String,
    pub name: String,
    /// The points from the ranks at their tables and their byes.
    pub points: f64,
    /// The sum of their scores.
    pub score: i64,
    /// The sum of the points of every opponent they met, once per meeting.
    pub buchholz: f64,
    /// Their Buchholz without the meeting of fewest points.
    pub buchholz_cut1: f64,
    /// The sum over their tables of their score minus the best other score.
    pub margin: i64,
    /// The points they won at the tables they shared with the players tied
    /// with them when the head-to-head tie-break applied; 0 when it did not.
    pub head_to_head: f64,
    /// The seeded draw, lowest first: the last tie-break.
    pub draw: u32,
    /// Tables with a result.
    pub played: u32,
    pub byes: u32,
    /// Whether they dropped out.
    pub dropped: bool,
}

/// The points of rank `rank` (from 1) shared by `tied` players.
fn shared_points(points: &[u32], rank: u32, tied: usize) -> f64 {
    let from = rank as usize - 1;
    let sum: u32 = (from..from + tied)
        .map(|r| points.get(r).copied().unwrap_or(0))
        .sum();
    f64::from(sum) / tied as f64
}

/// The draw of a player: the first four bytes of the SHA-256 of the seed
/// and the id.
fn draw(seed: u64, id: &str) -> u32 {
    let digest = Sha256::digest(format!("{seed}:{id}").as_bytes());
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// Orders two rows on one tie-break, best first.
fn by(tie_break: TieBreak, a: &Row, b: &Row) -> Ordering {
    match tie_break {
        TieBreak::Score => b.score.cmp(&a.score),
        TieBreak::Buchholz => b.buchholz.total_cmp(&a.buchholz),
        TieBreak::BuchholzCut1 => b.buchholz_cut1.total_cmp(&a.buchholz_cut1),
        TieBreak::Margin => b.margin.cmp(&a.margin),
        TieBreak::HeadToHead => b.head_to_head.total_cmp(&a.head_to_head),
        TieBreak::Draw => a.draw.cmp(&b.draw),
    }
}

/// Splits `rows` (ordered) into runs that `same` holds equal.
fn runs(rows: Vec<Row>, same: impl Fn(&Row, &Row) -> bool) -> Vec<Vec<Row>> {
    let mut groups: Vec<Vec<Row>> = Vec::new();
    for row in rows {
        match groups.last_mut() {
            Some(group) if same(&group[0], &row) => group.push(row),
            _ => groups.push(vec![row]),
        }
    }
    groups
}

/// Orders `rows` by the points, then by each of `tie_breaks` within the
/// players still tied: each group is ranked apart, so that head to head
/// counts only the tables its players shared. `tables` holds each table's
/// points by player. The groups left tied share a rank.
fn order(mut rows: Vec<Row>, tie_breaks: &[TieBreak], tables: &[Vec<(&str, f64)>]) -> Vec<Row> {
    rows.sort_by(|a, b| b.points.total_cmp(&a.points).then_with(|| a.id.cmp(&b.id)));
    let mut groups = runs(rows, |a, b| a.points == b.points);
    for &tie_break in tie_breaks {
        let mut next = Vec::new();
        for mut group in groups {
            if group.len() > 1 {
                if tie_break == TieBreak::HeadToHead {
                    head_to_head(&mut group, tables);
                }
                group.sort_by(|a, b| by(tie_break, a, b).then_with(|| a.id.cmp(&b.id)));
                next.extend(runs(group, |a, b| by(tie_break, a, b).is_eq()));
            } else {
                next.push(group);
            }
        }
        groups = next;
    }
    let mut ordered = Vec::new();
    for group in groups {
        let rank = ordered.len() as u32 + 1;
        for mut row in group {
            row.rank = rank;
            ordered.push(row);
        }
    }
    ordered
}

/// Each player's points at the tables they shared with another of
/// `group`.
fn head_to_head(group: &mut [Row], tables: &[Vec<(&str, f64)>]) {
    let ids: Vec<String> = group.iter().map(|r| r.id.clone()).collect();
    for row in group.iter_mut() {
        row.head_to_head = (tables.iter())
            .filter(|t| {
                t.iter().any(|(id, _)| *id == row.id)
                    && t.iter()
                        .any(|(id, _)| *id != row.id && ids.iter().any(|i| i == id))
            })
            .flat_map(|t| t.iter().filter(|(id, _)| *id == row.id).map(|(_, p)| *p))
            // An empty sum is -0.0: written 0.
            .sum::<f64>()
            + 0.0;
    }
}

/// The standings of the event as its log stands.
pub fn standings(state: &EventState) -> Standings {
    let setup = &state.setup;
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for entrant in &state.entrants {
        let id = entrant.player.id.as_str();
        rows.insert(
            id,
            Row {
                rank: 0,
                id: id.to_owned(),
                name: entrant.player.name.clone(),
                points: 0.0,
                score: 0,
                buchholz: 0.0,
                buchholz_cut1: 0.0,
                head_to_head: 0.0,
                margin: 0,
                draw: draw(setup.seed, id),
                played: 0,
                byes: 0,
                dropped: entrant.until.is_some(),
            },
        );
    }
    let mut opponents: Vec<(&str, &str)> = Vec::new();
    let mut tables: Vec<Vec<(&str, f64)>> = Vec::new();
    for round in &state.rounds {
        for id in &round.bye {
            if let Some(row) = rows.get_mut(id.as_str()) {
                row.byes += 1;
                row.points += shared_points(&setup.points, 1, 1);
            }
        }
        for result in round.results.values() {
            let mut table = Vec::new();
            for seat in &result.seats {
                let tied = result.seats.iter().filter(|s| s.rank == seat.rank).count();
                let best_other = (result.seats.iter())
                    .filter(|s| s.id != seat.id)
                    .map(|s| s.score)
                    .max()
                    .unwrap_or(seat.score);
                let points = shared_points(&setup.points, seat.rank, tied);
                table.push((seat.id.as_str(), points));
                if let Some(row) = rows.get_mut(seat.id.as_str()) {
                    row.points += points;
                    row.score += seat.score;
                    row.margin += seat.score - best_other;
                    row.played += 1;
                }
                for other in result.seats.iter().filter(|s| s.id != seat.id) {
                    opponents.push((seat.id.as_str(), other.id.as_str()));
                }
            }
            tables.push(table);
        }
    }
    let mut met: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (player, opponent) in opponents {
        let points = rows.get(opponent).map_or(0.0, |r| r.points);
        met.entry(player).or_default().push(points);
    }
    for (player, points) in met {
        if let Some(row) = rows.get_mut(player) {
            row.buchholz = points.iter().sum();
            let lowest = points.iter().copied().fold(f64::INFINITY, f64::min);
            row.buchholz_cut1 = row.buchholz - lowest;
        }
    }
    let tie_breaks = &setup.tie_breaks;
    let rows = order(rows.into_values().collect(), tie_breaks, &tables);
    let rounds_complete = (state.rounds.iter())
        .filter(|r| r.open_table().is_none())
        .count() as u32;
    Standings {
        game: match setup.game {
            EventGame::Soleils => "soleils",
            EventGame::Summertime => "summertime",
        },
        rounds_complete,
        tie_breaks: tie_breaks.clone(),
        rows,
    }
}

/// `6`, `5.5`, `4.67`.
fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').to_owned()
    }
}

impl Standings {
    /// The standings as a text table, one row a player.
    pub fn text(&self) -> String {
        let width = (self.rows.iter())
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "rounds complete: {}; ties broken by {}\n",
            self.rounds_complete,
            (self.tie_breaks.iter())
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(", then ")
        );
        // The columns of the tie-breaks that are not always shown come
        // only when the event declares them.
        let cut = self.tie_breaks.contains(&TieBreak::BuchholzCut1);
        let h2h = self.tie_breaks.contains(&TieBreak::HeadToHead);
        let optional = |on: bool, text: String| if on { text } else { String::new() };
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>6}  {:>6}  {:>8}{}  {:>6}{}  {:>10}  {:>6}  {:>4}\n",
            "rank",
            "name",
            "points",
            "score",
            "buchholz",
            optional(cut, format!("  {:>8}", "cut1")),
            "margin",
            optional(h2h, format!("  {:>6}", "h2h")),
            "draw",
            "played",
            "byes"
        ));
        for r in &self.rows {
            let dropped = if r.dropped { "  (dropped)" } else { "" };
            out.push_str(&format!(
                "{:>4}  {:<width$}  {:>6}  {:>6}  {:>8}{}  {:>6}{}  {:>10}  {:>6}  {:>4}{dropped}\n",
                r.rank,
                r.name,
                number(r.points),
                r.score,
                number(r.buchholz),
                optional(cut, format!("  {:>8}", number(r.buchholz_cut1))),
                r.margin,
                optional(h2h, format!("  {:>6}", number(r.head_to_head))),
                r.draw,
                r.played,
                r.byes
            ));
        }
        out
    }
}
