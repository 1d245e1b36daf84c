//! Resolved actions: a Summertime event with its card, item and player
//! names checked once and replaced by indexes. The log and the messages
//! speak in [`Event`]s; the reducer, the legality check and the bots work on
//! [`Action`]s. See `src/soleils/action.rs` for the same split.

use super::apply::{actor_checks, game_over, unexpected};
use super::error::RuleError;
use super::event::{Bought, Discarded, Event, Played, PlayerOnly, Revealed};
use super::state::{Cell, Phase, State};
use crate::game::EventKind;
use crate::suggest::closest;

/// One event of the table, by index. Players are seats in the order of the
/// start event; cards and items are positions in the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A card turned up in front of `stack`. In a physical game with cards
    /// left in the stack, `behind` is the cost now showing on its back, as
    /// the three items were written (not necessarily sorted).
    Reveal {
        stack: u8,
        card: u32,
        behind: Option<[u32; 3]>,
    },
    /// After two passes in a row, the face-up cards leave the game.
    Discard,
    Buy {
        player: u8,
        card: u32,
    },
    Play {
        player: u8,
        card: u32,
        cell: Cell,
    },
    EndTurn {
        player: u8,
    },
    Flip {
        player: u8,
    },
    Pass {
        player: u8,
    },
}

impl Action {
    /// The seat that acts, or `None` for a reveal or a discard.
    pub fn player(self) -> Option<usize> {
        match self {
            Action::Reveal { .. } | Action::Discard => None,
            Action::Buy { player, .. }
            | Action::Play { player, .. }
            | Action::EndTurn { player }
            | Action::Flip { player }
            | Action::Pass { player } => Some(usize::from(player)),
        }
    }

    /// The `type` of the event this action is.
    pub fn kind(self) -> &'static str {
        match self {
            Action::Reveal { .. } => "revealed",
            Action::Discard => "discarded",
            Action::Buy { .. } => "bought",
            Action::Play { .. } => "played",
            Action::EndTurn { .. } => "turn_ended",
            Action::Flip { .. } => "tiles_flipped",
            Action::Pass { .. } => "passed",
        }
    }

    /// Whether every index names a seat, a card and an item of this table.
    pub(super) fn in_bounds(self, state: &State) -> bool {
        let cards = state.deck.cards().len();
        let items = state.deck.items();
        let seat = self.player().is_none_or(|p| p < state.players.len());
        let rest = match self {
            Action::Reveal { card, behind, .. } => {
                (card as usize) < cards
                    && behind.is_none_or(|b| b.iter().all(|&i| (i as usize) < items))
            }
            Action::Buy { card, .. } | Action::Play { card, .. } => (card as usize) < cards,
            _ => true,
        };
        seat && rest
    }
}

/// A seat as an action holds it.
pub(super) fn seat(p: usize) -> u8 {
    u8::try_from(p).expect("two players")
}

/// A card or item index as an action holds it.
pub(super) fn index(i: usize) -> u32 {
    u32::try_from(i).expect("a deck has fewer than 2^32 cards")
}

fn card_index(state: &State, id: &str) -> Result<u32, RuleError> {
    match state.deck.card_index(id) {
        Some(c) => Ok(index(c)),
        None => Err(RuleError::UnknownCard {
            found: id.to_owned(),
            suggestion: closest(id, state.deck.cards().iter().map(|c| c.id.as_str())),
        }),
    }
}

fn item(state: &State, id: &str) -> Option<u32> {
    (0..state.deck.items())
        .find(|&i| state.deck.item_id(i) == id)
        .map(index)
}

/// The acting player's seat, after the checks that have always come first:
/// a turn phase, a known name, the active player.
fn actor(state: &State, event: &Event) -> Result<usize, RuleError> {
    if !matches!(state.phase, Phase::Turn { .. }) {
        return Err(unexpected(state, event.kind()));
    }
    let name = event.player().unwrap_or_default();
    state
        .player_index(name)
        .ok_or_else(|| RuleError::UnknownPlayer {
            found: name.to_owned(),
            known: state.players.iter().map(|p| p.name.clone()).collect(),
            suggestion: closest(name, state.players.iter().map(|p| p.name.as_str())),
        })
}

/// Checks the names of `event` against `state` and gives its action. The
/// checks `apply` has always made before a name come first here too, so
/// that every message stays what it was.
pub fn resolve(state: &State, event: &Event) -> Result<Action, RuleError> {
    game_over(state)?;
    let kind = event.kind();
    match event {
        Event::Started(_) => Err(RuleError::SecondStart),
        Event::Revealed(e) => {
            let Phase::Reveal(stacks) = &state.phase else {
                return Err(unexpected(state, kind));
            };
            if e.stack != stacks[0] {
                return Err(RuleError::WrongStack {
                    expected: stacks[0],
                    found: e.stack,
                });
            }
            let card = card_index(state, &e.card)?;
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
                        super::apply::check_reveal(state, e.stack, card as usize, true)?;
                        return Err(RuleError::UnknownItem {
                            found: name.clone(),
                        });
                    }
                }
            }
            Ok(Action::Reveal {
                stack: e.stack,
                card,
                behind: Some(items),
            })
        }
        Event::Discarded(e) => {
            if state.phase != Phase::Discard {
                return Err(unexpected(state, kind));
            }
            let expected = super::apply::display_ids(state);
            if e.cards != expected {
                return Err(RuleError::WrongDiscard {
                    expected,
                    found: e.cards.clone(),
                });
            }
            Ok(Action::Discard)
        }
        Event::Bought(e) => {
            let p = actor(state, event)?;
            actor_checks(state, p, kind, Some(false))?;
            let card = card_index(state, &e.card)?;
            Ok(Action::Buy {
                player: seat(p),
                card,
            })
        }
        Event::Played(e) => {
            let p = actor(state, event)?;
            actor_checks(state, p, kind, None)?;
            super::apply::check_play_phase(state, p)?;
            let card = card_index(state, &e.card)?;
            Ok(Action::Play {
                player: seat(p),
                card,
                cell: (e.cell[0], e.cell[1]),
            })
        }
        Event::TurnEnded(_) => Ok(Action::EndTurn {
            player: seat(actor(state, event)?),
        }),
        Event::TilesFlipped(_) => Ok(Action::Flip {
            player: seat(actor(state, event)?),
        }),
        Event::Passed(_) => Ok(Action::Pass {
            player: seat(actor(state, event)?),
        }),
    }
}

/// The event an action is, with the names of `state`'s players and deck.
pub fn describe(state: &State, action: Action) -> Event {
    let deck = &state.deck;
    let name = |p: u8| state.players[usize::from(p)].name.clone();
    let id = |c: u32| deck.card(c as usize).id.clone();
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
