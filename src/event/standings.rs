//! The standings: points per rank at each table (tied players share the
//! points of the ranks they tie for; a bye counts as a win), then the
//! event's tie-breaks in its declared order. Each row carries every
//! tie-break, so a player can see why they are where they are. They are
//! computed from the event log alone, never from the table files, so they
//! replay byte for byte. `sunfold schema event-standings` is their shape.

use super::entry::{EventGame, TieBreak};
use super::points::Points;
use super::state::EventState;
use crate::kit::columns;
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
    /// Every player, best first; players who share a rank by id.
    #[schemars(with = "Vec<RowJson>")]
    pub rows: Vec<Row>,
}

/// One player's standing, with the points and the tie-breaks built on them
/// exact.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 1 for the best; players equal on the points and every tie-break
    /// share a rank.
    pub rank: u32,
    pub id: String,
    pub name: String,
    /// The points from the ranks at their tables and their byes.
    pub points: Points,
    /// The sum of their scores.
    pub score: i64,
    /// The sum of the points of every opponent they met, once per meeting.
    pub buchholz: Points,
    /// Their Buchholz without the meeting of fewest points.
    pub buchholz_cut1: Points,
    /// The sum over their tables of their score minus the best other score.
    pub margin: i64,
    /// The points they won at the tables they shared with the players tied
    /// with them when the head-to-head tie-break applied; 0 when it did not.
    pub head_to_head: Points,
    /// The seeded draw, lowest first: the last tie-break.
    pub draw: u32,
    /// Tables with a result.
    pub played: u32,
    pub byes: u32,
    /// Whether they dropped out.
    pub dropped: bool,
}

/// One player's standing as the JSON gives it: each number of points twice,
/// as the nearest float for plotting and exactly, as a fraction in lowest
/// terms (`"40/3"`, `"6"`), to compare and to print.
#[derive(serde::Serialize, schemars::JsonSchema)]
#[serde(rename = "Row")]
struct RowJson<'a> {
    /// 1 for the best; players equal on the points and every tie-break
    /// share a rank.
    rank: u32,
    id: &'a str,
    name: &'a str,
    /// The points from the ranks at their tables and their byes, as the
    /// nearest float.
    points: f64,
    /// The points exactly: `40/3`.
    points_exact: String,
    /// The sum of their scores.
    score: i64,
    /// The sum of the points of every opponent they met, once per meeting,
    /// as the nearest float.
    buchholz: f64,
    /// The same exactly.
    buchholz_exact: String,
    /// Their Buchholz without the meeting of fewest points, as the nearest
    /// float.
    buchholz_cut1: f64,
    /// The same exactly.
    buchholz_cut1_exact: String,
    /// The sum over their tables of their score minus the best other score.
    margin: i64,
    /// The points they won at the tables they shared with the players tied
    /// with them when the head-to-head tie-break applied; 0 when it did
    /// not. As the nearest float.
    head_to_head: f64,
    /// The same exactly.
    head_to_head_exact: String,
    /// The seeded draw, lowest first: the last tie-break.
    draw: u32,
    /// Tables with a result.
    played: u32,
    byes: u32,
    /// Whether they dropped out.
    dropped: bool,
}

impl serde::Serialize for Row {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RowJson {
            rank: self.rank,
            id: &self.id,
            name: &self.name,
            points: self.points.to_f64(),
            points_exact: self.points.exact(),
            score: self.score,
            buchholz: self.buchholz.to_f64(),
            buchholz_exact: self.buchholz.exact(),
            buchholz_cut1: self.buchholz_cut1.to_f64(),
            buchholz_cut1_exact: self.buchholz_cut1.exact(),
            margin: self.margin,
            head_to_head: self.head_to_head.to_f64(),
            head_to_head_exact: self.head_to_head.exact(),
            draw: self.draw,
            played: self.played,
            byes: self.byes,
            dropped: self.dropped,
        }
        .serialize(serializer)
    }
}

/// The points of rank `rank` (from 1) shared by `tied` players.
fn shared_points(points: &[u32], rank: u32, tied: usize) -> Points {
    let from = (rank as usize).saturating_sub(1);
    let sum: u64 = (from..from + tied)
        .map(|r| u64::from(points.get(r).copied().unwrap_or(0)))
        .sum();
    Points::share(sum, tied)
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
        TieBreak::Buchholz => b.buchholz.cmp(&a.buchholz),
        TieBreak::BuchholzCut1 => b.buchholz_cut1.cmp(&a.buchholz_cut1),
        TieBreak::Margin => b.margin.cmp(&a.margin),
        TieBreak::HeadToHead => b.head_to_head.cmp(&a.head_to_head),
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
fn order(mut rows: Vec<Row>, tie_breaks: &[TieBreak], tables: &[Vec<(&str, Points)>]) -> Vec<Row> {
    rows.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.id.cmp(&b.id)));
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
fn head_to_head(group: &mut [Row], tables: &[Vec<(&str, Points)>]) {
    let ids: Vec<String> = group.iter().map(|r| r.id.clone()).collect();
    for row in group.iter_mut() {
        row.head_to_head = (tables.iter())
            .filter(|t| {
                t.iter().any(|(id, _)| *id == row.id)
                    && t.iter()
                        .any(|(id, _)| *id != row.id && ids.iter().any(|i| i == id))
            })
            .flat_map(|t| t.iter().filter(|(id, _)| *id == row.id).map(|(_, p)| *p))
            .sum();
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
                points: Points::ZERO,
                score: 0,
                buchholz: Points::ZERO,
                buchholz_cut1: Points::ZERO,
                head_to_head: Points::ZERO,
                margin: 0,
                draw: draw(setup.seed, id),
                played: 0,
                byes: 0,
                dropped: entrant.until.is_some(),
            },
        );
    }
    let mut opponents: Vec<(&str, &str)> = Vec::new();
    let mut tables: Vec<Vec<(&str, Points)>> = Vec::new();
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
                // A bot's seat counts in the ranks and scores of its table,
                // as any player's; it has no row, and is no opponent in
                // the Buchholz sums.
                if seat.bot.is_some() {
                    continue;
                }
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
                for other in (result.seats.iter()).filter(|s| s.id != seat.id && s.bot.is_none()) {
                    opponents.push((seat.id.as_str(), other.id.as_str()));
                }
            }
            tables.push(table);
        }
    }
    let mut met: BTreeMap<&str, Vec<Points>> = BTreeMap::new();
    for (player, opponent) in opponents {
        let points = rows.get(opponent).map_or(Points::ZERO, |r| r.points);
        met.entry(player).or_default().push(points);
    }
    for (player, points) in met {
        if let Some(row) = rows.get_mut(player) {
            row.buchholz = points.iter().copied().sum();
            let lowest = points.iter().copied().min().unwrap_or_default();
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

impl Standings {
    /// The standings as a text table, one row a player.
    pub fn text(&self) -> String {
        let width = (self.rows.iter())
            .map(|r| columns::width(&r.name))
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
            "{:>4}  {}  {:>6}  {:>6}  {:>8}{}  {:>6}{}  {:>10}  {:>6}  {:>4}\n",
            "rank",
            columns::left("name", width),
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
                "{:>4}  {}  {:>6}  {:>6}  {:>8}{}  {:>6}{}  {:>10}  {:>6}  {:>4}{dropped}\n",
                r.rank,
                columns::left(&r.name, width),
                r.points.to_string(),
                r.score,
                r.buchholz.to_string(),
                optional(cut, format!("  {:>8}", r.buchholz_cut1.to_string())),
                r.margin,
                optional(h2h, format!("  {:>6}", r.head_to_head.to_string())),
                r.draw,
                r.played,
                r.byes
            ));
        }
        out
    }
}
