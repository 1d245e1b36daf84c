//! The one source of truth for what may happen next in Summertime. A
//! property test checks that [`legal_actions`] and [`super::apply_action`]
//! agree both ways.

use super::action::{Action, describe, index, seat};
use super::apply::{Spot, affordable, fit_at, in_hand, spot};
use super::deck::Cost;
use super::event::Event;
use super::state::{Phase, State};

/// Every action that is legal now, written into `out` (cleared first) so
/// that a caller can reuse one buffer.
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    out.clear();
    if state.ended.is_some() {
        return;
    }
    let deck = &state.deck;
    let me = seat(state.active);
    match &state.phase {
        Phase::Over => {}
        Phase::Reveal(stacks) => {
            let stack = stacks[0];
            let s = &state.stacks[usize::from(stack)];
            if state.dealt {
                out.push(Action::Reveal {
                    stack,
                    card: index(s.cards[0]),
                    behind: None,
                });
                return;
            }
            let kinds = index(deck.items());
            let backs: Vec<Cost> = deck.cards().iter().map(|c| c.cost).collect();
            for card in 0..deck.cards().len() {
                if state.seen[card] || s.behind.is_some_and(|b| b != deck.card(card).cost) {
                    continue;
                }
                let card = index(card);
                if s.remaining <= 1 {
                    out.push(Action::Reveal {
                        stack,
                        card,
                        behind: None,
                    });
                    continue;
                }
                // Every ordered triple of items: a back cost as it may be written.
                for a in 0..kinds {
                    for b in 0..kinds {
                        for c in 0..kinds {
                            let mut items = [a, b, c].map(|i| i as usize);
                            items.sort_unstable();
                            if !backs.contains(&Cost(items)) {
                                continue;
                            }
                            out.push(Action::Reveal {
                                stack,
                                card,
                                behind: Some([a, b, c]),
                            });
                        }
                    }
                }
            }
        }
        Phase::Discard => out.push(Action::Discard),
        Phase::Turn { bought: false, .. } => {
            let p = state.active;
            for (slot, card) in state.display.iter().enumerate() {
                if let (Some(card), Some(cost)) = (card, state.price(slot))
                    && affordable(state, p, cost)
                {
                    out.push(Action::Buy {
                        player: me,
                        card: index(*card),
                    });
                }
            }
            if state.players[p].down.iter().any(|&n| n > 0) {
                out.push(Action::Flip { player: me });
            }
            out.push(Action::Pass { player: me });
        }
        Phase::Turn {
            bought: true,
            plays,
        } => {
            if *plays < deck.rules().plays_per_turn {
                let p = state.active;
                let spots = open_spots(state);
                let mut play = |card: usize| {
                    for spot in &spots {
                        if fit_at(state, card, spot).is_ok() {
                            out.push(Action::Play {
                                player: me,
                                card: index(card),
                                cell: spot.cell,
                            });
                        }
                    }
                };
                let player = &state.players[p];
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
                        play(card);
                    }
                } else {
                    // A physical game with unseen dealt cards: any card not
                    // seen yet may be in the hand.
                    for card in 0..deck.cards().len() {
                        if in_hand(state, p, card).is_some() {
                            play(card);
                        }
                    }
                }
            }
            out.push(Action::EndTurn { player: me });
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
    use crate::game::EventKind;
    if matches!(rejected, Event::Started(_)) {
        return Vec::new();
    }
    let mut events = legal_events(state);
    events.sort_by_key(|e| e.kind() != rejected.kind());
    events
}
