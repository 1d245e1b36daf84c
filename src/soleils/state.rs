//! The state of a 62 Soleils game between two events.

use super::options::Options;
use super::template::{BoxIndex, Template};
use serde::Serialize;
use std::sync::Arc;

/// How a value came onto the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum How {
    Placed,
    Crab,
    Bonus,
}

/// A value written into a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Mark {
    pub value: u8,
    pub how: How,
    pub round: u16,
}

/// What a player has done in the current round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The box and value of this round's placement.
    pub placed: Option<(BoxIndex, u8)>,
    /// A frog box was filled in the placement step: the sun entry is free.
    pub frog: bool,
    /// A crab box was just written and a copy from it is possible.
    pub crab_from: Option<BoxIndex>,
    /// The value entered on the sun track this round.
    pub sun: Option<u8>,
    /// Bonus digits won this round and not yet placed or declined.
    pub bonus_pending: u8,
}

/// What a player must decide next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A placement, or a sun entry that skips it.
    PlaceOrSun,
    /// A crab copy from this box, or a decline.
    Crab(BoxIndex),
    /// The sun entry.
    Sun,
    /// A bonus digit, or a decline.
    Bonus,
    /// Nothing until the next roll.
    Done,
}

impl Turn {
    pub fn step(&self) -> Step {
        if let Some(from) = self.crab_from {
            Step::Crab(from)
        } else if self.sun.is_none() {
            if self.placed.is_none() {
                Step::PlaceOrSun
            } else {
                Step::Sun
            }
        } else if self.bonus_pending > 0 {
            Step::Bonus
        } else {
            Step::Done
        }
    }
}

/// Rewards gained so far, by source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Gains {
    pub sun_starfish: u32,
    pub flag_starfish: u32,
    pub group_starfish: u32,
    pub seashells: u32,
    /// Bonus digits won, including declined ones.
    pub bonus_digits: u32,
}

/// One player's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    pub name: String,
    /// One entry per template box.
    pub marks: Vec<Option<Mark>>,
    /// Each round's sun entry, in order.
    pub sun: Vec<u8>,
    pub sun_total: u16,
    /// One entry per template threshold: whether its reward was won.
    /// Under `exact`, a threshold passed without being hit is not won.
    pub thresholds_won: Vec<bool>,
    pub zones_done: Vec<bool>,
    pub groups_done: Vec<bool>,
    pub gains: Gains,
    pub turn: Turn,
    /// For each box, the values it may take now, as a bit set (bit `v` for
    /// the value `v`): none once written, else what its constraints allow.
    /// Kept up to date as boxes are written, so that the legal moves need
    /// not walk the constraints.
    #[serde(skip)]
    pub(super) allowed: Vec<u8>,
}

impl Player {
    pub fn value(&self, b: BoxIndex) -> Option<u8> {
        self.marks[b].map(|m| m.value)
    }
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The last round of the template was played.
    RoundLimit { rounds: u16 },
    /// These players' sun totals reached the limit.
    SunLimit { players: Vec<String>, limit: u16 },
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::RoundLimit { rounds } => write!(f, "round {rounds} was the last"),
            EndReason::SunLimit { players, limit } => {
                write!(f, "{} reached {limit} on the sun", players.join(" and "))
            }
        }
    }
}

/// The whole table: template, options, every sheet, the current roll.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub(super) template: Arc<Template>,
    pub(super) options: Options,
    pub(super) players: Vec<Player>,
    pub(super) round: u16,
    pub(super) dice: Option<[u8; 3]>,
    pub(super) ended: Option<EndReason>,
    pub(super) dice_seed: Option<u64>,
}

impl State {
    pub fn template(&self) -> &Template {
        &self.template
    }
    pub fn options(&self) -> Options {
        self.options
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    /// The number of rolls so far: the current round, or 0 before the first roll.
    pub fn round(&self) -> u16 {
        self.round
    }
    /// This round's dice, once rolled.
    pub fn dice(&self) -> Option<[u8; 3]> {
        self.dice
    }
    /// The seed for digital dice, from the start event.
    pub fn dice_seed(&self) -> Option<u64> {
        self.dice_seed
    }
    /// Why the game ended, once it has.
    pub fn ended(&self) -> Option<&EndReason> {
        self.ended.as_ref()
    }
    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }
    /// Every player has finished the current round (or none has begun).
    pub fn round_closed(&self) -> bool {
        self.dice.is_none() || self.players.iter().all(|p| p.turn.step() == Step::Done)
    }
}
