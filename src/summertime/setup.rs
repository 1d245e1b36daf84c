//! From a start event to the table before the first reveal.

use super::deck::{CardIndex, Deck};
use super::error::SetupError;
use super::event::{Order, Start};
use super::state::{Phase, Player, Stack, State};
use crate::kit::game::Seat;
use std::sync::Arc;

pub fn setup(start: &Start) -> Result<State, SetupError> {
    if start.game != "summertime" {
        let found = start.game.clone();
        return Err(SetupError::WrongGame { found });
    }
    if start.players.len() != 2 {
        let found = start.players.len();
        return Err(SetupError::PlayerCount { found });
    }
    for (i, name) in start.players.iter().enumerate() {
        if name.trim().is_empty() {
            let found = name.clone();
            return Err(SetupError::EmptyName {
                position: i + 1,
                found,
            });
        }
    }
    if start.players[0] == start.players[1] {
        let name = start.players[0].clone();
        return Err(SetupError::DuplicateName { name });
    }
    let Some(first) = start.players.iter().position(|p| *p == start.first) else {
        let found = start.first.clone();
        return Err(SetupError::UnknownFirst { found });
    };
    let deck = Deck::try_from(start.deck.clone()).map_err(SetupError::Deck)?;
    let rules = deck.rules();
    let closing_up = match &start.order {
        Order::Dealt { closing_up, .. } | Order::Physical { closing_up } => *closing_up,
    };
    if let Some(&found) = closing_up.iter().find(|&&side| side > 1) {
        return Err(SetupError::ClosingSide { found });
    }
    let kinds = deck.items();
    let tiles = deck.tiles_per_item();
    let mut players: Vec<Player> = start
        .players
        .iter()
        .map(|name| Player {
            name: name.clone(),
            hand: Vec::new(),
            unknown: 0,
            up: vec![tiles; kinds],
            down: vec![0; kinds],
            points: 0,
        })
        .collect();
    let mut seen = vec![false; deck.cards().len()];
    let (dealt, stacks) = match &start.order {
        Order::Physical { .. } => {
            for player in &mut players {
                player.unknown = rules.hand_size;
            }
            let stack = Stack {
                cards: Vec::new(),
                remaining: rules.stack_size,
                behind: None,
            };
            (false, vec![stack; 3])
        }
        Order::Dealt { hands, stacks, .. } => {
            let shape = |what, expected: usize, found: usize| {
                if expected == found {
                    Ok(())
                } else {
                    Err(SetupError::Shape {
                        what,
                        expected,
                        found,
                    })
                }
            };
            shape("hands", 2, hands.len())?;
            shape("stacks", 3, stacks.len())?;
            for hand in hands {
                shape(
                    "cards in each hand",
                    usize::from(rules.hand_size),
                    hand.len(),
                )?;
            }
            for stack in stacks {
                shape(
                    "cards in each stack",
                    usize::from(rules.stack_size),
                    stack.len(),
                )?;
            }
            let mut index = |id: &String| -> Result<usize, SetupError> {
                let c = deck
                    .card_index(id)
                    .ok_or_else(|| SetupError::UnknownCard { found: id.clone() })?;
                if std::mem::replace(&mut seen[c], true) {
                    return Err(SetupError::CardTwice { card: id.clone() });
                }
                Ok(c)
            };
            for (player, hand) in players.iter_mut().zip(hands) {
                player.hand = hand.iter().map(&mut index).collect::<Result<_, _>>()?;
            }
            let stacks = stacks
                .iter()
                .map(|ids| {
                    Ok(Stack {
                        cards: ids
                            .iter()
                            .map(&mut index)
                            .collect::<Result<_, SetupError>>()?,
                        remaining: rules.stack_size,
                        behind: None,
                    })
                })
                .collect::<Result<Vec<_>, SetupError>>()?;
            (true, stacks)
        }
    };
    let mut state = table(
        Arc::new(deck),
        players,
        first,
        closing_up,
        dealt,
        stacks,
        seen,
    );
    state.format = start.format;
    Ok(state)
}

/// A dealt table for a deck already checked, with cards given by index and
/// nothing checked: for a simulator that dealt them itself. [`setup`] gives
/// the same state from the start event of log format `format` that names
/// these cards.
pub fn dealt_table(
    deck: Arc<Deck>,
    names: [String; 2],
    first: usize,
    (hands, stacks): (&[Vec<CardIndex>; 2], &[Vec<CardIndex>; 3]),
    closing_up: [u8; 3],
    format: u32,
) -> State {
    let kinds = deck.items();
    let tiles = deck.tiles_per_item();
    let rules = deck.rules();
    let mut seen = vec![false; deck.cards().len()];
    for &card in hands.iter().chain(stacks).flatten() {
        seen[card] = true;
    }
    let players = names
        .into_iter()
        .zip(hands)
        .map(|(name, hand)| Player {
            name,
            hand: hand.clone(),
            unknown: 0,
            up: vec![tiles; kinds],
            down: vec![0; kinds],
            points: 0,
        })
        .collect();
    let stacks = stacks
        .iter()
        .map(|cards| Stack {
            cards: cards.clone(),
            remaining: rules.stack_size,
            behind: None,
        })
        .collect();
    let mut state = table(deck, players, first, closing_up, true, stacks, seen);
    state.format = format;
    state
}

fn table(
    deck: Arc<Deck>,
    players: Vec<Player>,
    first: usize,
    closing_up: [u8; 3],
    dealt: bool,
    stacks: Vec<Stack>,
    seen: Vec<bool>,
) -> State {
    let dense = super::state::Dense::new(deck.rules().grid_long);
    State {
        deck,
        players,
        dealt,
        stacks,
        closing_up,
        display: [None; 3],
        grid: Default::default(),
        dense,
        open: Vec::new(),
        around: Vec::new(),
        bounds: None,
        seen,
        phase: Phase::Reveal(super::state::Reveals::new([0, 1, 2])),
        resume: Phase::Turn {
            bought: false,
            plays: 0,
        },
        active: Seat::new(first),
        passes: 0,
        first_passer: Seat::new(first),
        turns: Vec::new(),
        ended: None,
        format: super::MATCHED_BACKS,
    }
}
