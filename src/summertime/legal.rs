//! The one source of truth for what may happen next in Summertime.

use super::apply::{affordable, in_hand, placement};
use super::deck::CardIndex;
use super::event::{Bought, Discarded, Event, Played, PlayerOnly, Revealed};
use super::state::{Cell, Phase, State, neighbours};
use std::collections::BTreeSet;

/// Every event that is legal now.
pub fn legal_events(state: &State) -> Vec<Event> {
    if state.ended.is_some() {
        return Vec::new();
    }
    let deck = &state.deck;
    let id = |c: CardIndex| deck.card(c).id.clone();
    let name = || state.players[state.active].name.clone();
    let mut events = Vec::new();
    match &state.phase {
        Phase::Over => {}
        Phase::Reveal(stacks) => {
            let stack = stacks[0];
            let s = &state.stacks[usize::from(stack)];
            if state.dealt {
                events.push(Event::Revealed(Revealed {
                    stack,
                    card: id(s.cards[0]),
                    behind: None,
                }));
            } else {
                for card in 0..deck.cards().len() {
                    if state.seen[card] || s.behind.is_some_and(|b| b != deck.card(card).cost) {
                        continue;
                    }
                    if s.remaining > 1 {
                        for behind in all_costs(state) {
                            events.push(Event::Revealed(Revealed {
                                stack,
                                card: id(card),
                                behind: Some(behind),
                            }));
                        }
                    } else {
                        events.push(Event::Revealed(Revealed {
                            stack,
                            card: id(card),
                            behind: None,
                        }));
                    }
                }
            }
        }
        Phase::Discard => events.push(Event::Discarded(Discarded {
            cards: state.display.iter().flatten().map(|&c| id(c)).collect(),
        })),
        Phase::Turn { bought: false, .. } => {
            let p = state.active;
            for (slot, card) in state.display.iter().enumerate() {
                if let (Some(card), Some(cost)) = (card, state.price(slot))
                    && affordable(state, p, cost)
                {
                    events.push(Event::Bought(Bought {
                        player: name(),
                        card: id(*card),
                    }));
                }
            }
            if state.players[p].down.iter().any(|&n| n > 0) {
                events.push(Event::TilesFlipped(PlayerOnly { player: name() }));
            }
            events.push(Event::Passed(PlayerOnly { player: name() }));
        }
        Phase::Turn {
            bought: true,
            plays,
        } => {
            if *plays < deck.rules().plays_per_turn {
                let p = state.active;
                let cells = candidate_cells(state);
                for card in 0..deck.cards().len() {
                    if in_hand(state, p, card).is_none() {
                        continue;
                    }
                    for &cell in &cells {
                        if placement(state, card, cell).is_ok() {
                            events.push(Event::Played(Played {
                                player: name(),
                                card: id(card),
                                cell: [cell.0, cell.1],
                            }));
                        }
                    }
                }
            }
            events.push(Event::TurnEnded(PlayerOnly { player: name() }));
        }
    }
    events
}

/// Every ordered triple of item ids: a back cost as it may be written.
fn all_costs(state: &State) -> Vec<[String; 3]> {
    let kinds = state.deck.items();
    let item = |i| state.deck.item_id(i).to_owned();
    let mut costs = Vec::with_capacity(kinds.pow(3));
    for a in 0..kinds {
        for b in 0..kinds {
            for c in 0..kinds {
                costs.push([item(a), item(b), item(c)]);
            }
        }
    }
    costs
}

/// The empty cells a card could go to: (0,0) on an empty table, else the
/// empty neighbours of played cards.
fn candidate_cells(state: &State) -> BTreeSet<Cell> {
    if state.grid.is_empty() {
        return BTreeSet::from([(0, 0)]);
    }
    state
        .grid
        .keys()
        .flat_map(|&cell| neighbours(cell))
        .filter(|cell| !state.grid.contains_key(cell))
        .collect()
}

/// The legal events a person would consider instead of `rejected`: those of
/// the same type first.
pub fn alternatives(state: &State, rejected: &Event) -> Vec<Event> {
    use crate::game::EventKind;
    if matches!(rejected, Event::Started(_)) {
        return Vec::new();
    }
    let mut events = legal_events(state);
    events.sort_by_key(|e| e.kind() != rejected.kind());
    events
}
