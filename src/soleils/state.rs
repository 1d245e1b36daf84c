//! The state of a 62 Soleils game between two events.

use super::options::Options;
use super::template::{BoxIndex, BoxIx, Template};
use crate::kit::game::Seat;
use serde::Serialize;
use std::sync::{Arc, OnceLock};

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
    pub placed: Option<(BoxIx, u8)>,
    /// A frog box was filled in the placement step: the sun entry is free.
    pub frog: bool,
    /// A crab box was just written and a copy from it is possible.
    pub crab_from: Option<BoxIx>,
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
    /// A crab copy from this box (its [`BoxIx::index`]), or a decline.
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
            Step::Crab(from.index())
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
#[derive(Debug, PartialEq, Eq, Serialize)]
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
    /// The coloured pearls on the sheet: boxes holding their own pearl's
    /// value, counted as they are written, so that a total is read without
    /// walking the boxes.
    #[serde(skip)]
    pub(super) pearls: u32,
    /// For each box, the values it may take now, as a bit set (bit `v` for
    /// the value `v`): none once written, else what its constraints allow.
    /// Kept up to date as boxes are written, so that the legal moves need
    /// not walk the constraints.
    #[serde(skip)]
    pub(super) allowed: Vec<u8>,
}

impl Player {
    /// What box `b` holds, if written.
    #[inline]
    pub fn mark(&self, b: BoxIx) -> Option<Mark> {
        self.marks[b.index()]
    }
    /// The value box `b` holds, if written.
    #[inline]
    pub fn value(&self, b: BoxIx) -> Option<u8> {
        self.mark(b).map(|m| m.value)
    }
}

/// `clone_from` reuses every buffer of the destination, so that a bot
/// copying sheets back and forth allocates nothing once they have grown.
impl Clone for Player {
    fn clone(&self) -> Self {
        Player {
            name: self.name.clone(),
            marks: self.marks.clone(),
            // The copy keeps the room for every round that setup gave the
            // track, so that a copy swapped with another (as `total_after`
            // does) never has to grow.
            sun: {
                let mut sun = Vec::with_capacity(self.sun.capacity());
                sun.extend_from_slice(&self.sun);
                sun
            },
            sun_total: self.sun_total,
            thresholds_won: self.thresholds_won.clone(),
            zones_done: self.zones_done.clone(),
            groups_done: self.groups_done.clone(),
            gains: self.gains,
            turn: self.turn,
            pearls: self.pearls,
            allowed: self.allowed.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.name.clone_from(&source.name);
        self.marks.clone_from(&source.marks);
        // The sun track grows by one entry a round: keep room for the
        // longest track either has had room for, so that the rounds played
        // after a copy never grow it.
        // `reserve_exact`: `reserve` may double, and `total_after` swaps
        // a player with its copy on every call, so room would double each
        // time.
        self.sun.clear();
        self.sun.reserve_exact(source.sun.capacity());
        self.sun.extend_from_slice(&source.sun);
        self.sun_total = source.sun_total;
        self.thresholds_won.clone_from(&source.thresholds_won);
        self.zones_done.clone_from(&source.zones_done);
        self.groups_done.clone_from(&source.groups_done);
        self.gains = source.gains;
        self.turn = source.turn;
        self.pearls = source.pearls;
        self.allowed.clone_from(&source.allowed);
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

/// Why the game ended, without the names: [`State::ended`] puts the
/// reason into words when asked, so that ending a game allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Over {
    /// Some players' sun totals reached the template's limit.
    SunLimit,
    /// The template's last round was played.
    RoundLimit,
}

/// The whole table: template, options, every sheet, the current roll.
#[derive(Debug)]
pub struct State {
    pub(super) template: Arc<Template>,
    pub(super) options: Options,
    pub(super) players: Vec<Player>,
    pub(super) round: u16,
    pub(super) dice: Option<[u8; 3]>,
    pub(super) ended: Option<Over>,
    /// [`State::ended`]'s reason, written on first use. Nothing changes
    /// once the game is over, so it never goes stale.
    pub(super) reason: OnceLock<EndReason>,
    pub(super) dice_seed: Option<u64>,
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        // `reason` follows from the rest.
        self.template == other.template
            && self.options == other.options
            && self.players == other.players
            && self.round == other.round
            && self.dice == other.dice
            && self.ended == other.ended
            && self.dice_seed == other.dice_seed
    }
}

/// `clone_from` reuses the destination's sheets and their buffers: after a
/// first copy, copying a table of the same template allocates nothing.
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            template: Arc::clone(&self.template),
            options: self.options,
            players: self.players.clone(),
            round: self.round,
            dice: self.dice,
            ended: self.ended,
            reason: self.reason.clone(),
            dice_seed: self.dice_seed,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.template, &source.template) {
            self.template = Arc::clone(&source.template);
        }
        self.options = source.options;
        self.players.clone_from(&source.players);
        let rounds = usize::from(self.template.rounds());
        for player in &mut self.players {
            let room = rounds.saturating_sub(player.sun.len());
            player.sun.reserve_exact(room);
        }
        self.round = source.round;
        self.dice = source.dice;
        self.ended = source.ended;
        if source.reason.get().is_some() || self.reason.get().is_some() {
            self.reason = source.reason.clone();
        }
        self.dice_seed = source.dice_seed;
    }
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
        let over = self.ended?;
        Some(self.reason.get_or_init(|| match over {
            Over::SunLimit => {
                let limit = self.template.sun_limit();
                EndReason::SunLimit {
                    players: (self.players.iter())
                        .filter(|p| p.sun_total >= limit)
                        .map(|p| p.name.clone())
                        .collect(),
                    limit,
                }
            }
            Over::RoundLimit => EndReason::RoundLimit {
                rounds: self.template.rounds(),
            },
        }))
    }

    /// Whether the game is over: [`State::ended`] without its words.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }
    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }
    /// The sheet of the player at `seat`.
    #[inline]
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    #[inline]
    pub(super) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }
    /// Every player has finished the current round (or none has begun).
    pub fn round_closed(&self) -> bool {
        self.dice.is_none() || self.players.iter().all(|p| p.turn.step() == Step::Done)
    }
}
