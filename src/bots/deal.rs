//! Deriving a Summertime deck order from a seed, portably and forever.
//!
//! The order is a Fisher–Yates shuffle of the deck's card ids, in deck
//! order, driven by [`crate::kit::rng::SeededRng`]: for `i` from the last index
//! down to 1, swap card `i` with card `below(i + 1)`. The shuffled list is
//! dealt as: the first hand, the second hand, then the three stacks top
//! first. Each closing card's side is then `below(2)`, stacks 0, 1, 2.
//!
//! The result is written into the start event with the seed as a record; a
//! replay reads the order and never shuffles again.

use crate::kit::rng::SeededRng;
use crate::summertime::deck::CardIndex;
use crate::summertime::{Deck, Order};

/// A deal by card index: two hands, then three stacks top first, and the
/// side of each closing card that is up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealt {
    pub hands: [Vec<CardIndex>; 2],
    pub stacks: [Vec<CardIndex>; 3],
    pub closing_up: [u8; 3],
    /// The seed it was drawn from.
    pub seed: u64,
}

/// The deal a seed gives, by card index.
pub fn shuffle(deck: &Deck, seed: u64) -> Dealt {
    let mut rng = SeededRng::new(seed);
    let mut cards: Vec<CardIndex> = (0..deck.cards().len()).collect();
    for i in (1..cards.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cards.swap(i, j);
    }
    let rules = deck.rules();
    let hand = usize::from(rules.hand_size);
    let stack = usize::from(rules.stack_size);
    let mut cards = cards.into_iter();
    let mut take = |n: usize| cards.by_ref().take(n).collect::<Vec<_>>();
    let hands = [take(hand), take(hand)];
    let stacks = [take(stack), take(stack), take(stack)];
    let closing_up = [0; 3].map(|_: u8| rng.below(2) as u8);
    Dealt {
        hands,
        stacks,
        closing_up,
        seed,
    }
}

/// The deal a seed gives, as the start event's order names it.
pub fn dealt_order(deck: &Deck, seed: u64) -> Order {
    order(deck, &shuffle(deck, seed))
}

/// A deal as the start event's order names it.
pub fn order(deck: &Deck, dealt: &Dealt) -> Order {
    let ids = |cards: &Vec<CardIndex>| -> Vec<String> {
        cards.iter().map(|&c| deck.card(c).id.clone()).collect()
    };
    Order::Dealt {
        hands: dealt.hands.iter().map(ids).collect(),
        stacks: dealt.stacks.iter().map(ids).collect(),
        closing_up: dealt.closing_up,
        seed: Some(dealt.seed),
    }
}
