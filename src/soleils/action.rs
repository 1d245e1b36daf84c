//! Resolved actions: an event with its names checked once and replaced by
//! indexes, the way shakmaty's `Move` is a few bytes and SAN is text only at
//! the edges.
//!
//! The log and every message speak in [`Event`]s, which name players and
//! boxes. [`resolve`] turns one into an [`Action`] against the state it is
//! about to be applied to, reporting an unknown name exactly as `apply`
//! always has; [`describe`] turns an action back into its event. The
//! reducer, the legality check and the bots work on actions only.

use super::apply::{check_crab_source, check_turn, game_over};
use super::die::Die;
use super::error::RuleError;
use super::event::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, SunEntered};
use super::state::State;
use super::template::BoxIx;
use crate::kit::game::Seat;
use crate::kit::suggest::closest;

/// One roll or decision, by index: a player is a [`Seat`] in the order of
/// the start event, a box a [`BoxIx`] of the template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The three shared dice of a new round.
    Roll([Die; 3]),
    /// Write `value` into box `slot`.
    Place {
        player: Seat,
        slot: BoxIx,
        value: Die,
    },
    /// Copy the crab box `from` just written into its neighbour `to`.
    CrabCopy {
        player: Seat,
        from: BoxIx,
        to: BoxIx,
    },
    /// Leave a crab copy unused.
    CrabDecline { player: Seat },
    /// Add `value` to the sun track.
    Sun { player: Seat, value: Die },
    /// Write a bonus digit into box `slot`.
    BonusPlace {
        player: Seat,
        slot: BoxIx,
        value: Die,
    },
    /// Give up a bonus digit.
    BonusDecline { player: Seat },
}

/// A player's decision by kind, as an [`Action`] or an [`Event`] makes it:
/// which step it answers is the rule of [`check_turn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    Place,
    CrabCopy,
    CrabDecline,
    Sun,
    BonusPlace,
    BonusDecline,
}

impl Decision {
    /// The `type` of the event that makes this decision.
    pub(super) fn kind(self) -> &'static str {
        match self {
            Decision::Place => "placed",
            Decision::CrabCopy => "crab_copied",
            Decision::CrabDecline => "crab_declined",
            Decision::Sun => "sun_entered",
            Decision::BonusPlace => "bonus_placed",
            Decision::BonusDecline => "bonus_declined",
        }
    }
}

impl Action {
    /// The seat that decides, or `None` for a roll.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Action::Roll(_) => None,
            Action::Place { player, .. }
            | Action::CrabCopy { player, .. }
            | Action::CrabDecline { player }
            | Action::Sun { player, .. }
            | Action::BonusPlace { player, .. }
            | Action::BonusDecline { player } => Some(player),
        }
    }

    /// [`Action::seat`] as a position in the list of players.
    pub fn player(self) -> Option<usize> {
        self.seat().map(Seat::index)
    }

    /// The `type` of the event this action is.
    pub fn kind(self) -> &'static str {
        match self.decision() {
            None => "rolled",
            Some(decision) => decision.kind(),
        }
    }

    /// What kind of decision this is, or `None` for a roll.
    pub(super) fn decision(self) -> Option<Decision> {
        Some(match self {
            Action::Roll(_) => return None,
            Action::Place { .. } => Decision::Place,
            Action::CrabCopy { .. } => Decision::CrabCopy,
            Action::CrabDecline { .. } => Decision::CrabDecline,
            Action::Sun { .. } => Decision::Sun,
            Action::BonusPlace { .. } => Decision::BonusPlace,
            Action::BonusDecline { .. } => Decision::BonusDecline,
        })
    }

    /// The first index of this action that names no seat or box of the
    /// table, as the error it is: an action built for another table.
    pub(super) fn beyond(self, state: &State) -> Result<(), RuleError> {
        if let Some(seat) = self.seat()
            && seat.index() >= state.players.len()
        {
            return Err(RuleError::UnknownPlayer {
                found: format!("seat {}", seat.index()),
                known: state.players.iter().map(|p| p.name.clone()).collect(),
                suggestion: Default::default(),
            });
        }
        let last = match self {
            Action::Place { slot, .. } | Action::BonusPlace { slot, .. } => slot,
            Action::CrabCopy { from, to, .. } => from.max(to),
            _ => return Ok(()),
        };
        if state.template.has_box(last) {
            return Ok(());
        }
        Err(RuleError::UnknownBox {
            found: format!("box number {}", last.index()),
            suggestion: Default::default(),
        })
    }
}

fn seat_named(state: &State, name: &str) -> Result<Seat, RuleError> {
    match state.player_index(name) {
        Some(p) => Ok(Seat::new(p)),
        None => Err(RuleError::UnknownPlayer {
            found: name.to_owned(),
            known: state.players.iter().map(|p| p.name.clone()).collect(),
            suggestion: closest(name, state.players.iter().map(|p| p.name.as_str())),
        }),
    }
}

fn box_named(state: &State, id: &str) -> Result<BoxIx, RuleError> {
    match state.template.box_ix(id) {
        Some(b) => Ok(b),
        None => Err(RuleError::UnknownBox {
            found: id.to_owned(),
            suggestion: closest(id, state.template.boxes().iter().map(|b| b.id.as_str())),
        }),
    }
}

/// Checks the names of `event` against `state` and gives its action.
///
/// The rules that `apply` has always checked before a name (the game is
/// over, a second start, an unknown player, no roll yet, the wrong step, a
/// crab copy from the wrong box) come first here too, so that every message
/// stays what it was. They are the functions of `apply`'s `check`: a rule
/// lives once.
pub fn resolve(state: &State, event: &Event) -> Result<Action, RuleError> {
    game_over(state)?;
    let decision = match event {
        Event::Started(_) => return Err(RuleError::SecondStart),
        Event::Rolled(rolled) => return Ok(Action::Roll(rolled.dice)),
        Event::Placed(_) => Decision::Place,
        Event::CrabCopied(_) => Decision::CrabCopy,
        Event::CrabDeclined(_) => Decision::CrabDecline,
        Event::SunEntered(_) => Decision::Sun,
        Event::BonusPlaced(_) => Decision::BonusPlace,
        Event::BonusDeclined(_) => Decision::BonusDecline,
    };
    let player = seat_named(state, event.player().unwrap_or_default())?;
    let (_, step) = check_turn(state, player, decision)?;
    Ok(match event {
        Event::Started(_) | Event::Rolled(_) => unreachable!("returned above"),
        Event::Placed(e) => Action::Place {
            player,
            slot: box_named(state, &e.box_id)?,
            value: e.value,
        },
        Event::CrabCopied(e) => {
            let from = box_named(state, &e.from)?;
            check_crab_source(state, step, from)?;
            let to = box_named(state, &e.to)?;
            Action::CrabCopy { player, from, to }
        }
        Event::CrabDeclined(_) => Action::CrabDecline { player },
        Event::SunEntered(e) => Action::Sun {
            player,
            value: e.value,
        },
        Event::BonusPlaced(e) => Action::BonusPlace {
            player,
            slot: box_named(state, &e.box_id)?,
            value: e.value,
        },
        Event::BonusDeclined(_) => Action::BonusDecline { player },
    })
}

/// The event an action is, with the names of `state`'s players and sheet.
pub fn describe(state: &State, action: Action) -> Event {
    let name = |p: Seat| state.player(p).name.clone();
    let id = |b: BoxIx| state.template[b].id.clone();
    match action {
        Action::Roll(dice) => Event::Rolled(Rolled { dice }),
        Action::Place {
            player,
            slot,
            value,
        } => Event::Placed(Placed {
            player: name(player),
            box_id: id(slot),
            value,
        }),
        Action::CrabCopy { player, from, to } => Event::CrabCopied(CrabCopied {
            player: name(player),
            from: id(from),
            to: id(to),
        }),
        Action::CrabDecline { player } => Event::CrabDeclined(PlayerOnly {
            player: name(player),
        }),
        Action::Sun { player, value } => Event::SunEntered(SunEntered {
            player: name(player),
            value,
        }),
        Action::BonusPlace {
            player,
            slot,
            value,
        } => Event::BonusPlaced(BonusPlaced {
            player: name(player),
            box_id: id(slot),
            value,
        }),
        Action::BonusDecline { player } => Event::BonusDeclined(PlayerOnly {
            player: name(player),
        }),
    }
}
