//! The score breakdown, computable at any moment of the game.

use super::state::{Gains, State};
use serde::Serialize;

/// Points for the seashell majority.
pub const SEASHELL_MAJORITY: u32 = 5;

/// One player's score, by category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ScoreLine {
    pub player: String,
    /// Starfish from sun-track thresholds.
    pub sun: u32,
    /// Starfish from completed zone flags.
    pub flags: u32,
    /// Starfish from completed groups (cabins, windsocks, boats).
    pub groups: u32,
    /// Coloured pearls, 1 point each.
    pub pearls: u32,
    /// Seashells collected (not points).
    pub seashells: u32,
    /// 5 for the most seashells (at least one), shared by ties.
    pub seashell_majority: u32,
    pub total: u32,
    /// 1 for the best; tied players share a rank (1, 1, 3).
    pub rank: u32,
}

/// The most seashells any player holds.
fn most_shells(state: &State) -> u32 {
    state
        .players
        .iter()
        .map(|p| p.gains.seashells)
        .max()
        .unwrap_or(0)
}

/// Player `p`'s coloured pearls, counted box by box: boxes holding their
/// own pearl's value. The sheet keeps the same count as it is written
/// ([`super::Player`]'s pearl count); the score lines count again.
fn pearls(state: &State, p: usize) -> u32 {
    let boxes = state.template.boxes();
    state.players[p]
        .marks
        .iter()
        .zip(boxes)
        .filter(|(mark, b)| mark.is_some_and(|m| m.value == b.pearl))
        .count() as u32
}

/// Player `p`'s score line, with the rank left at 0.
fn line(state: &State, p: usize, most_shells: u32) -> ScoreLine {
    let player = &state.players[p];
    let pearls = pearls(state, p);
    let g = player.gains;
    let seashell_majority = if most_shells > 0 && g.seashells == most_shells {
        SEASHELL_MAJORITY
    } else {
        0
    };
    ScoreLine {
        player: player.name.clone(),
        sun: g.sun_starfish,
        flags: g.flag_starfish,
        groups: g.group_starfish,
        pearls,
        seashells: g.seashells,
        seashell_majority,
        total: g.sun_starfish + g.flag_starfish + g.group_starfish + pearls + seashell_majority,
        rank: 0,
    }
}

/// Player `p`'s total, without building the other lines: the sheet's
/// gains and its pearl count, kept as it is written.
pub fn total_of(state: &State, p: usize) -> u32 {
    let player = &state.players[p];
    total_with(state, p, player.gains, player.pearls)
}

/// Player `p`'s total with the pearls counted box by box: [`total_of`]
/// as it was first written, kept as the reference it is tested and
/// benchmarked against.
pub fn total_counting_pearls(state: &State, p: usize) -> u32 {
    let g = state.players[p].gains;
    let most = most_shells(state);
    let majority = if most > 0 && g.seashells == most {
        SEASHELL_MAJORITY
    } else {
        0
    };
    g.sun_starfish + g.flag_starfish + g.group_starfish + pearls(state, p) + majority
}

/// Player `p`'s total if its gains and pearl count were `gains` and
/// `pearls`, the other sheets as they are: the seashell majority is
/// weighed against the others' seashells.
pub(super) fn total_with(state: &State, p: usize, gains: Gains, pearls: u32) -> u32 {
    let others = (state.players.iter().enumerate())
        .filter(|&(q, _)| q != p)
        .map(|(_, other)| other.gains.seashells);
    let most = others.max().unwrap_or(0).max(gains.seashells);
    let majority = if most > 0 && gains.seashells == most {
        SEASHELL_MAJORITY
    } else {
        0
    };
    gains.sun_starfish + gains.flag_starfish + gains.group_starfish + pearls + majority
}

pub fn score(state: &State) -> Vec<ScoreLine> {
    let most = most_shells(state);
    let mut lines: Vec<ScoreLine> = (0..state.players.len())
        .map(|p| line(state, p, most))
        .collect();
    let totals: Vec<u32> = lines.iter().map(|l| l.total).collect();
    for line in &mut lines {
        line.rank = 1 + totals.iter().filter(|&&t| t > line.total).count() as u32;
    }
    lines
}
