//! The Summertime score: points from plays, minus the hand penalty.

use super::state::State;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ScoreLine {
    pub player: String,
    /// Points scored by playing cards.
    pub played: u32,
    /// Cards still in hand.
    pub in_hand: usize,
    /// The hand penalty: counted only once the game is over.
    pub hand_penalty: i32,
    pub total: i32,
    /// 1 for the winner; a tie shares the win.
    pub rank: u32,
}

/// Player `p`'s total: the hand penalty counts once the game is over.
pub fn total_of(state: &State, p: usize) -> i32 {
    let player = &state.players[p];
    let penalty = i32::from(state.deck.rules().hand_penalty);
    let hand_penalty = if state.ended.is_some() {
        -penalty * player.hand_size() as i32
    } else {
        0
    };
    player.points as i32 + hand_penalty
}

pub fn score(state: &State) -> Vec<ScoreLine> {
    let penalty = i32::from(state.deck.rules().hand_penalty);
    let over = state.ended.is_some();
    let mut lines: Vec<ScoreLine> = state
        .players
        .iter()
        .map(|p| {
            let in_hand = p.hand_size();
            let hand_penalty = if over { -penalty * in_hand as i32 } else { 0 };
            ScoreLine {
                player: p.name.clone(),
                played: p.points,
                in_hand,
                hand_penalty,
                total: p.points as i32 + hand_penalty,
                rank: 0,
            }
        })
        .collect();
    let totals: Vec<i32> = lines.iter().map(|l| l.total).collect();
    for line in &mut lines {
        line.rank = 1 + totals.iter().filter(|&&t| t > line.total).count() as u32;
    }
    lines
}
