//! The backs declared in a physical game, each kept by an unseen card of
//! its own.
//!
//! The rulebook prices a face-up card by "the top card of the stack directly
//! behind it": a declared back is the back of one real card, still unseen.
//! So at every step each outstanding declaration must be matched to its own
//! unseen card showing that back. Every card has exactly one back, so the
//! matching exists exactly when, for every back, the stacks declaring it are
//! no more than the unseen cards showing it (Hall's condition, back by back).
//! A reveal and a play from a hand the table cannot see each take one card
//! from the unseen ones; a reveal also changes its stack's declaration.
//! Kept at every step, the table can always turn up the next card: the one
//! matched to its stack, with any unseen card left over behind it.

use super::apply::back_cost;
use super::deck::{CardIx, Cost};
use super::error::RuleError;
use super::state::State;

/// The unseen cards and the declarations, counted by back: built once for
/// a table, then asked about each reveal or play without a copy.
pub(super) struct Backs {
    /// Every back some card of the deck shows, in the order of the cards.
    costs: Vec<Cost>,
    /// Per back, the unseen cards showing it.
    unseen: Vec<u16>,
    /// Per back, the stacks whose declaration it is.
    declared: Vec<u16>,
}

/// What takes a card from the unseen ones.
#[derive(Clone, Copy, Debug)]
pub(super) enum Taking {
    /// The card is turned up on `stack`, which now declares `behind` (none
    /// once it is empty).
    Reveal { stack: u8, behind: Option<Cost> },
    /// The card is played from a hand the table cannot see.
    Play,
}

impl Backs {
    /// The counts of `state`.
    pub(super) fn of(state: &State) -> Backs {
        let mut costs: Vec<Cost> = Vec::new();
        for card in state.deck.cards() {
            if !costs.contains(&card.cost) {
                costs.push(card.cost);
            }
        }
        let mut backs = Backs {
            unseen: vec![0; costs.len()],
            declared: vec![0; costs.len()],
            costs,
        };
        for (card, face) in state.deck.cards().iter().enumerate() {
            if !state.seen[card]
                && let Some(i) = backs.index(face.cost)
            {
                backs.unseen[i] += 1;
            }
        }
        for stack in &state.stacks {
            if let Some(i) = declaration(stack).and_then(|cost| backs.index(cost)) {
                backs.declared[i] += 1;
            }
        }
        backs
    }

    fn index(&self, cost: Cost) -> Option<usize> {
        self.costs.iter().position(|&c| c == cost)
    }

    /// Every back some card shows, in the order of the cards.
    pub(super) fn costs(&self) -> &[Cost] {
        &self.costs
    }

    /// The back left without a card of its own once `card` leaves the
    /// unseen cards by `taking`, and how many unseen cards then show it;
    /// `None` when every declaration keeps its card.
    pub(super) fn short(&self, state: &State, card: CardIx, taking: Taking) -> Option<(Cost, u16)> {
        let count = |cost: Cost, counts: &[u16], delta: &[(Option<usize>, i32)]| {
            let i = self.index(cost)?;
            let change: i32 = delta
                .iter()
                .filter(|(j, _)| *j == Some(i))
                .map(|(_, d)| d)
                .sum();
            Some(i32::from(counts[i]) + change)
        };
        let taken = self.index(state.deck[card].cost);
        let (old, new) = match taking {
            Taking::Reveal { stack, behind } => {
                let old = declaration(&state.stacks[usize::from(stack)]);
                (old.and_then(|c| self.index(c)), behind)
            }
            Taking::Play => (None, None),
        };
        let unseen_delta = [(taken, -1)];
        let declared_delta = [(old, -1), (new.and_then(|c| self.index(c)), 1)];
        // Only the back of the card taken and the back now declared can
        // run short: the other counts stay or fall.
        for cost in [Some(state.deck[card].cost), new].into_iter().flatten() {
            let declared = count(cost, &self.declared, &declared_delta)?;
            let unseen = count(cost, &self.unseen, &unseen_delta)?;
            if declared > unseen {
                return Some((cost, u16::try_from(unseen.max(0)).unwrap_or(0)));
            }
        }
        None
    }
}

/// The back a stack declares now: that of its top card, in a physical game
/// with cards left in it.
fn declaration(stack: &super::state::Stack) -> Option<Cost> {
    stack.behind.filter(|_| stack.remaining > 0)
}

/// Refuses `card` taken by `taking` when a declared back would lose its
/// unseen card, in a game whose rules ask for it
/// ([`State::matches_backs`]).
pub(super) fn check_matched(state: &State, card: CardIx, taking: Taking) -> Result<(), RuleError> {
    if !state.matches_backs() {
        return Ok(());
    }
    let Some((cost, found)) = Backs::of(state).short(state, card, taking) else {
        return Ok(());
    };
    let mut stacks: Vec<u8> = (0..3u8)
        .filter(|&s| {
            let declared = match taking {
                Taking::Reveal { stack, behind } if stack == s => behind,
                _ => declaration(&state.stacks[usize::from(s)]),
            };
            declared == Some(cost)
        })
        .collect();
    stacks.sort_unstable();
    Err(RuleError::BackWithoutCard {
        declared: state.deck.describe_cost(cost),
        stacks: super::error::Stacks(stacks),
        found: usize::from(found),
        card: state.deck[card].id.clone(),
        taken: match taking {
            Taking::Reveal { .. } => "turned up",
            Taking::Play => "played",
        },
    })
}

/// The cost a reveal declares behind its stack, as [`Taking`] wants it.
pub(super) fn declared(behind: Option<[u32; 3]>) -> Option<Cost> {
    behind.map(back_cost)
}

/// Why a physical game of an older log format, which did not match its
/// backs, can never reach its end: a back declared by more stacks than
/// unseen cards show it. No card can be turned up on the stacks short of
/// one, so the game stops there sooner or later.
pub(super) fn dead_end(state: &State) -> Option<RuleError> {
    if state.dealt || state.matches_backs() || state.ended.is_some() {
        return None;
    }
    let backs = Backs::of(state);
    let i = (0..backs.costs.len()).find(|&i| backs.declared[i] > backs.unseen[i])?;
    let cost = backs.costs[i];
    let stacks = (0..3u8)
        .filter(|&s| declaration(&state.stacks[usize::from(s)]) == Some(cost))
        .collect();
    Some(RuleError::BacksUnmet {
        declared: state.deck.describe_cost(cost),
        stacks: super::error::Stacks(stacks),
        found: usize::from(backs.unseen[i]),
    })
}
