//! What one seat cannot see, and the same table with it filled in.
//!
//! A Summertime seat sees its own hand, the face-up cards, the grid, the
//! cards the other player bought, every tile, and the back of each stack's
//! top card (its price). It does not see the order of the stacks, nor the
//! cards dealt face down to the other player. In a physical game the log
//! names no dealt card until it is played, so there even the seat's own
//! dealt cards are unknown to the log.
//!
//! [`hidden`] lists those cards as a set, in deck order, with where they
//! may lie; [`fill`] writes one arrangement of them into a copy of the
//! table, as a dealt game ([`Hidden::fill_in`] into the table itself). A bot that decides from `fill` of a sample of
//! [`hidden`] decides from what its seat knows: the set is the same
//! whatever the real arrangement is. Choosing the arrangement (randomly) is
//! the caller's: the core draws nothing.

use super::deck::{CardIndex, Cost};
use super::state::{State, TurnAction};

/// The unseen cards of one seat, and the places they fill.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Every card the seat has not seen, in deck order.
    pub unseen: Vec<CardIndex>,
    /// Per player, how many of the cards in their hand the seat cannot see.
    pub hands: [usize; 2],
    /// Per stack, how many cards are still in it.
    pub stacks: [usize; 3],
    /// Per stack, the price on the back of its top card, which every seat
    /// sees; `None` for an empty stack.
    pub backs: [Option<Cost>; 3],
}

impl Hidden {
    /// How many places [`fill`] takes cards for: the hands' hidden cards,
    /// then each stack top first.
    pub fn places(&self) -> usize {
        self.hands.iter().sum::<usize>() + self.stacks.iter().sum::<usize>()
    }
}

/// Whether player `q` bought `card` (so that everyone saw it).
fn bought_by(state: &State, q: usize, card: CardIndex) -> bool {
    state
        .turns
        .iter()
        .any(|t| t.player == q && t.action == TurnAction::Bought { card })
}

/// What `seat` cannot see at `state`, into `out` (its buffers reused).
pub fn hidden(state: &State, seat: usize, out: &mut Hidden) {
    out.unseen.clear();
    out.hands = [0; 2];
    for s in 0..3 {
        out.stacks[s] = usize::from(state.stacks[s].remaining);
        out.backs[s] = if state.stacks[s].remaining == 0 {
            None
        } else {
            state.price(s)
        };
    }
    if state.dealt {
        for (q, player) in state.players.iter().enumerate() {
            if q == seat {
                continue;
            }
            for &card in &player.hand {
                if !bought_by(state, q, card) {
                    out.unseen.push(card);
                    out.hands[q] += 1;
                }
            }
        }
        for stack in &state.stacks {
            out.unseen.extend(&stack.cards);
        }
        out.unseen.sort_unstable();
    } else {
        for (q, player) in state.players.iter().enumerate() {
            out.hands[q] = usize::from(player.unknown);
        }
        out.unseen
            .extend((0..state.seen.len()).filter(|&c| !state.seen[c]));
    }
}

/// `state` as a dealt game in which the places of `hidden` (taken from
/// `state` for `seat`) hold `cards`, in the order [`Hidden::places`] gives:
/// the hidden hand cards of player 0, of player 1, then stack 0 top first,
/// stack 1, stack 2. Written into `out`, whose buffers are reused.
///
/// `cards` must be a permutation of `hidden.unseen`; the prices of the new
/// stack tops are the caller's to keep (a seat sees them).
pub fn fill(state: &State, seat: usize, hidden: &Hidden, cards: &[CardIndex], out: &mut State) {
    out.clone_from(state);
    hidden.fill_in(out, seat, cards);
}

impl Hidden {
    /// [`fill`] in place: `state`, the table these places were taken from
    /// for `seat`, becomes the dealt game in which they hold `cards`. It
    /// spares a search the copy of a table it has just made.
    pub fn fill_in(&self, state: &mut State, seat: usize, cards: &[CardIndex]) {
        assert_eq!(cards.len(), self.places(), "one card per hidden place");
        let mut next = cards.iter().copied();
        let dealt = state.dealt;
        for q in 0..2 {
            let turns = &state.turns;
            let player = &mut state.players[q];
            if dealt {
                if q != seat {
                    player.hand.retain(|&card| {
                        turns
                            .iter()
                            .any(|t| t.player == q && t.action == TurnAction::Bought { card })
                    });
                }
            } else {
                player.unknown = 0;
            }
            player.hand.extend(next.by_ref().take(self.hands[q]));
        }
        for s in 0..3 {
            let stack = &mut state.stacks[s];
            stack.cards.clear();
            stack.cards.extend(next.by_ref().take(self.stacks[s]));
            stack.behind = None;
        }
        for &card in cards {
            state.seen[card] = true;
        }
        state.dealt = true;
    }
}
