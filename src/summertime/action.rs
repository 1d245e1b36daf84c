//! Resolved actions: a Summertime event with its card, item and player
//! names checked once and replaced by indexes. The log and the messages
//! speak in [`Event`]s; the reducer, the legality check and the bots work on
//! [`Action`]s. See `src/soleils/action.rs` for the same split.

use super::apply::{
    check_discard_due, check_reveal, check_reveal_due, check_turn, game_over, turn_phase,
};
use super::deck::CardIx;
use super::error::RuleError;
use super::event::{Bought, Discarded, Event, Played, PlayerOnly, Revealed};
use super::state::{Cell, State};
use crate::kit::game::{EventKind, Seat};
use crate::kit::suggest::closest;

/// One event of the table, by index: a player is a [`Seat`] in the order of
/// the start event, a card a [`CardIx`] of the deck, an item its position in
/// the deck's list of items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A card turned up in front of `stack`. In a physical game with cards
    /// left in the stack, `behind` is the cost now showing on its back, as
    /// the three items were written (not necessarily sorted).
    Reveal {
        stack: u8,
        card: CardIx,
        behind: Option<[u32; 3]>,
    },
    /// After two passes in a row, the face-up cards leave the game.
    Discard,
    Buy {
        player: Seat,
        card: CardIx,
    },
    Play {
        player: Seat,
        card: CardIx,
        cell: Cell,
    },
    EndTurn {
        player: Seat,
    },
    Flip {
        player: Seat,
    },
    Pass {
        player: Seat,
    },
}

/// A player's action by kind, as an [`Action`] or an [`Event`] makes it:
/// when each may come is the rule of [`check_turn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    Buy,
    Play,
    EndTurn,
    Flip,
    Pass,
}

impl Decision {
    /// The `type` of the event that makes this decision.
    pub(super) fn kind(self) -> &'static str {
        match self {
            Decision::Buy => "bought",
            Decision::Play => "played",
            Decision::EndTurn => "turn_ended",
            Decision::Flip => "tiles_flipped",
            Decision::Pass => "passed",
        }
    }
}

impl Action {
    /// The seat that acts, or `None` for a reveal or a discard.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Action::Reveal { .. } | Action::Discard => None,
            Action::Buy { player, .. }
            | Action::Play { player, .. }
            | Action::EndTurn { player }
            | Action::Flip { player }
            | Action::Pass { player } => Some(player),
        }
    }

    /// [`Action::seat`] as a position in the list of players.
    pub fn player(self) -> Option<usize> {
        self.seat().map(Seat::index)
    }

    /// The `type` of the event this action is.
    pub fn kind(self) -> &'static str {
        match self {
            Action::Reveal { .. } => "revealed",
            Action::Discard => "discarded",
            _ => self.decision().expect("a player's action").kind(),
        }
    }

    /// What kind of decision a player makes, or `None` for a reveal or a
    /// discard.
    pub(super) fn decision(self) -> Option<Decision> {
        Some(match self {
            Action::Reveal { .. } | Action::Discard => return None,
            Action::Buy { .. } => Decision::Buy,
            Action::Play { .. } => Decision::Play,
            Action::EndTurn { .. } => Decision::EndTurn,
            Action::Flip { .. } => Decision::Flip,
            Action::Pass { .. } => Decision::Pass,
        })
    }

    /// The first index of this action that names no card, item or seat of
    /// the table, as the error it is: an action built for another table.
    pub(super) fn beyond(self, state: &State) -> Result<(), RuleError> {
        if let Action::Reveal { card, .. } | Action::Buy { card, .. } | Action::Play { card, .. } =
            self
            && !state.deck.has_card(card)
        {
            return Err(RuleError::UnknownCard {
                found: format!("card number {}", card.index()),
                suggestion: Default::default(),
            });
        }
        if let Action::Reveal {
            behind: Some(items),
            ..
        } = self
            && let Some(&last) = items.iter().max()
            && last as usize >= state.deck.items()
        {
            return Err(RuleError::UnknownItem {
                found: format!("item number {last}"),
            });
        }
        match self.seat() {
            Some(seat) if seat.index() >= state.players.len() => Err(RuleError::UnknownPlayer {
                found: format!("seat {}", seat.index()),
                known: state.players.iter().map(|p| p.name.clone()).collect(),
                suggestion: Default::default(),
            }),
            _ => Ok(()),
        }
    }
}

fn card_named(state: &State, id: &str) -> Result<CardIx, RuleError> {
    match state.deck.card_ix(id) {
        Some(c) => Ok(c),
        None => Err(RuleError::UnknownCard {
            found: id.to_owned(),
            suggestion: closest(id, state.deck.cards().iter().map(|c| c.id.as_str())),
        }),
    }
}

fn item(state: &State, id: &str) -> Option<u32> {
    (0..state.deck.items())
        .find(|&i| state.deck.item_id(i) == id)
        .map(|i| u32::try_from(i).expect("a deck has fewer than 2^32 items"))
}

/// The acting player's seat, after the rule that has always come first: a
/// turn phase.
fn actor(state: &State, event: &Event) -> Result<Seat, RuleError> {
    turn_phase(state, event.kind())?;
    let name = event.player().unwrap_or_default();
    match state.player_index(name) {
        Some(p) => Ok(Seat::new(p)),
        None => Err(RuleError::UnknownPlayer {
            found: name.to_owned(),
            known: state.players.iter().map(|p| p.name.clone()).collect(),
            suggestion: closest(name, state.players.iter().map(|p| p.name.as_str())),
        }),
    }
}

/// Checks the names of `event` against `state` and gives its action. The
/// rules `apply` has always checked before a name come first here too, so
/// that every message stays what it was. They are the functions of
/// `apply`'s `check`: a rule lives once.
pub fn resolve(state: &State, event: &Event) -> Result<Action, RuleError> {
    game_over(state)?;
    let decision = match event {
        Event::Started(_) => return Err(RuleError::SecondStart),
        Event::Revealed(e) => {
            check_reveal_due(state, e.stack)?;
            let card = card_named(state, &e.card)?;
            let Some(names) = &e.behind else {
                let action = Action::Reveal {
                    stack: e.stack,
                    card,
                    behind: None,
                };
                return Ok(action);
            };
            let mut items = [0; 3];
            for (slot, name) in items.iter_mut().zip(names) {
                match item(state, name) {
                    Some(i) => *slot = i,
                    None => {
                        // Every other rule of the reveal is checked first;
                        // none of them looks at which items are named.
                        check_reveal(state, e.stack, card, true)?;
                        return Err(RuleError::UnknownItem {
                            found: name.clone(),
                        });
                    }
                }
            }
            return Ok(Action::Reveal {
                stack: e.stack,
                card,
                behind: Some(items),
            });
        }
        Event::Discarded(e) => {
            check_discard_due(state)?;
            // The one rule that only an event can break: the action names
            // no cards.
            let expected = super::apply::display_ids(state);
            if e.cards != expected {
                return Err(RuleError::WrongDiscard {
                    expected,
                    found: e.cards.clone(),
                });
            }
            return Ok(Action::Discard);
        }
        Event::Bought(_) => Decision::Buy,
        Event::Played(_) => Decision::Play,
        Event::TurnEnded(_) => Decision::EndTurn,
        Event::TilesFlipped(_) => Decision::Flip,
        Event::Passed(_) => Decision::Pass,
    };
    let player = actor(state, event)?;
    check_turn(state, player, decision)?;
    Ok(match event {
        Event::Bought(e) => Action::Buy {
            player,
            card: card_named(state, &e.card)?,
        },
        Event::Played(e) => Action::Play {
            player,
            card: card_named(state, &e.card)?,
            cell: (e.cell[0], e.cell[1]),
        },
        Event::TurnEnded(_) => Action::EndTurn { player },
        Event::TilesFlipped(_) => Action::Flip { player },
        Event::Passed(_) => Action::Pass { player },
        Event::Started(_) | Event::Revealed(_) | Event::Discarded(_) => {
            unreachable!("returned above")
        }
    })
}

/// The event an action is, with the names of `state`'s players and deck.
pub fn describe(state: &State, action: Action) -> Event {
    let deck = &state.deck;
    let name = |p: Seat| state.player(p).name.clone();
    let id = |c: CardIx| deck[c].id.clone();
    match action {
        Action::Reveal {
            stack,
            card,
            behind,
        } => Event::Revealed(Revealed {
            stack,
            card: id(card),
            behind: behind.map(|items| items.map(|i| deck.item_id(i as usize).to_owned())),
        }),
        Action::Discard => Event::Discarded(Discarded {
            cards: super::apply::display_ids(state),
        }),
        Action::Buy { player, card } => Event::Bought(Bought {
            player: name(player),
            card: id(card),
        }),
        Action::Play { player, card, cell } => Event::Played(Played {
            player: name(player),
            card: id(card),
            cell: [cell.0, cell.1],
        }),
        Action::EndTurn { player } => Event::TurnEnded(PlayerOnly {
            player: name(player),
        }),
        Action::Flip { player } => Event::TilesFlipped(PlayerOnly {
            player: name(player),
        }),
        Action::Pass { player } => Event::Passed(PlayerOnly {
            player: name(player),
        }),
    }
}
