//! The one source of truth for what may happen next in Summertime. A
//! property test checks that [`legal_actions`] and [`super::apply_action`]
//! agree both ways.

use super::action::{Action, describe};
use super::apply::{Spot, affordable, fit_at, in_hand, spot};
use super::backs::{Backs, Taking};
use super::deck::CardIx;
use super::event::Event;
use super::state::{Cell, Phase, State};
use crate::kit::game::Seat;

/// Every action that is legal now, written into `out` (cleared first) so
/// that a caller can reuse one buffer.
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    out.clear();
    if state.ended.is_some() {
        return;
    }
    let deck = &state.deck;
    let me = state.active;
    match &state.phase {
        Phase::Over => {}
        Phase::Reveal(stacks) => {
            if state.dealt {
                let stack = stacks[0];
                let s = &state.stacks[usize::from(stack)];
                out.push(Action::Reveal {
                    stack,
                    card: CardIx::new(s.cards[0]),
                    behind: None,
                });
                return;
            }
            // A physical game that matches its backs turns its stacks up in
            // any order; an older one in the order due.
            let due = if state.matches_backs() {
                &stacks[..]
            } else {
                &stacks[..1]
            };
            let backs = Backs::of(state);
            for &stack in due {
                push_reveals(state, &backs, stack, out);
            }
        }
        Phase::Discard => out.push(Action::Discard),
        Phase::Turn { bought: false, .. } => {
            for (slot, &card) in state.display.iter().enumerate() {
                if let (Some(card), Some(cost)) = (card, state.price(slot))
                    && affordable(state, me, cost)
                {
                    out.push(Action::Buy { player: me, card });
                }
            }
            if state.player(me).down.iter().any(|&n| n > 0) {
                out.push(Action::Flip { player: me });
            }
            out.push(Action::Pass { player: me });
        }
        Phase::Turn {
            bought: true,
            plays,
        } => {
            if *plays < deck.rules().plays_per_turn && deck.needs_masks().is_some() {
                push_plays(state, out);
            } else if *plays < deck.rules().plays_per_turn {
                let spots = open_spots(state);
                let play = |card: CardIx| {
                    for spot in &spots {
                        if fit_at(state, card, spot).is_ok() {
                            out.push(Action::Play {
                                player: me,
                                card,
                                cell: spot.cell,
                            });
                        }
                    }
                };
                hand_cards(state, me, play);
            }
            out.push(Action::EndTurn { player: me });
        }
    }
}

/// The reveals on `stack` of a physical game: every unseen card that shows
/// the back declared there, each with every back some card shows, listed
/// once in the order of the cards, its items in the deck's order (any order
/// of the same items is the same back). A game that matches its backs
/// leaves out those that would leave a declared back without its card.
fn push_reveals(state: &State, backs: &Backs, stack: u8, out: &mut Vec<Action>) {
    let deck = &state.deck;
    let s = &state.stacks[usize::from(stack)];
    let matched = state.matches_backs();
    for card in (0..deck.cards().len()).map(CardIx::new) {
        if state.seen[card.index()] || s.behind.is_some_and(|b| b != deck[card].cost) {
            continue;
        }
        if s.remaining <= 1 {
            let taking = Taking::Reveal {
                stack,
                behind: None,
            };
            if !matched || backs.short(state, card, taking).is_none() {
                out.push(Action::Reveal {
                    stack,
                    card,
                    behind: None,
                });
            }
            continue;
        }
        for &cost in backs.costs() {
            let taking = Taking::Reveal {
                stack,
                behind: Some(cost),
            };
            if matched && backs.short(state, card, taking).is_some() {
                continue;
            }
            out.push(Action::Reveal {
                stack,
                card,
                behind: Some(cost.0.map(|item| item as u32)),
            });
        }
    }
}

/// The active player's plays, card by card in order of index and cell by
/// cell in order of column then row, from the pictures around each open
/// cell: [`super::apply::fit_at`] without its points, for a deck whose
/// needs are bit sets.
fn push_plays(state: &State, out: &mut Vec<Action>) {
    let deck = &state.deck;
    let masks = deck.needs_masks().expect("a deck with needs as bit sets");
    let me = state.active;
    let rules = deck.rules();
    let (long, short) = (i32::from(rules.grid_long), i32::from(rules.grid_short));
    let empty = state.grid.is_empty();
    let bounds = state.bounds;
    let fits_grid = |(x, y): Cell| {
        let (x0, y0, x1, y1) = bounds.unwrap_or((x, y, x, y));
        let (width, height) = (x1.max(x) - x0.min(x) + 1, y1.max(y) - y0.min(y) + 1);
        width.max(height) <= long && width.min(height) <= short
    };
    let play = |card: CardIx| {
        let needs = masks[card.index()];
        if empty {
            // The first card goes to (0,0), with no neighbour to need.
            if needs == 0 {
                out.push(Action::Play {
                    player: me,
                    card,
                    cell: (0, 0),
                });
            }
            return;
        }
        for (&cell, &around) in state.open.iter().zip(&state.around) {
            if (needs == 0 || needs & around != 0) && fits_grid(cell) {
                out.push(Action::Play {
                    player: me,
                    card,
                    cell,
                });
            }
        }
    };
    hand_cards(state, me, play);
}

/// Calls `each` with every card that may come from player `p`'s hand, in
/// order of card index: the hand, or in a physical game with unseen dealt
/// cards, any card not seen yet.
fn hand_cards(state: &State, p: Seat, mut each: impl FnMut(CardIx)) {
    let player = state.player(p);
    if player.unknown == 0 {
        // The hand, in order of card index, without sorting a copy.
        let mut last = None;
        while let Some(card) = player
            .hand
            .iter()
            .copied()
            .filter(|&c| last.is_none_or(|l| c > l))
            .min()
        {
            last = Some(card);
            each(CardIx::new(card));
        }
    } else {
        // A card the table cannot see in the hand may be any unseen card
        // but one a declared back needs.
        let backs = state.matches_backs().then(|| Backs::of(state));
        for card in (0..state.deck.cards().len()).map(CardIx::new) {
            let Some(from_unknown) = in_hand(state, p, card) else {
                continue;
            };
            if let (true, Some(backs)) = (from_unknown, &backs)
                && backs.short(state, card, Taking::Play).is_some()
            {
                continue;
            }
            each(card);
        }
    }
}

/// Every event that is legal now.
pub fn legal_events(state: &State) -> Vec<Event> {
    let mut actions = Vec::new();
    legal_actions(state, &mut actions);
    actions.into_iter().map(|a| describe(state, a)).collect()
}

/// The cells some card could go to, in order of column then row: (0,0) on
/// an empty table, else the open cells (empty, next to a played card) that
/// keep the grid within its size.
fn open_spots(state: &State) -> Vec<Spot> {
    if state.grid.is_empty() {
        return vec![spot(state, (0, 0))];
    }
    let mut spots = Vec::with_capacity(state.open.len());
    for &cell in &state.open {
        let spot = spot(state, cell);
        if spot.misfit.is_none() {
            spots.push(spot);
        }
    }
    spots
}

/// The legal events a person would consider instead of `rejected`: those of
/// the same type first.
pub fn alternatives(state: &State, rejected: &Event) -> Vec<Event> {
    use crate::kit::game::EventKind;
    if matches!(rejected, Event::Started(_)) {
        return Vec::new();
    }
    let mut events = legal_events(state);
    events.sort_by_key(|e| e.kind() != rejected.kind());
    events
}
