//! Deriving a Summertime deck order from a seed, portably and forever.
//!
//! The order is a Fisher–Yates shuffle of the deck's card ids, in deck
//! order, driven by [`crate::rng::SeededRng`]: for `i` from the last index
//! down to 1, swap card `i` with card `below(i + 1)`. The shuffled list is
//! dealt as: the first hand, the second hand, then the three stacks top
//! first. Each closing card's side is then `below(2)`, stacks 0, 1, 2.
//!
//! The result is written into the start event with the seed as a record; a
//! replay reads the order and never shuffles again.

use crate::rng::SeededRng;
use crate::summertime::{Deck, Order};

pub fn dealt_order(deck: &Deck, seed: u64) -> Order {
    let mut rng = SeededRng::new(seed);
    let mut ids: Vec<String> = deck.cards().iter().map(|c| c.id.clone()).collect();
    for i in (1..ids.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        ids.swap(i, j);
    }
    let rules = deck.rules();
    let hand = usize::from(rules.hand_size);
    let stack = usize::from(rules.stack_size);
    let mut cards = ids.into_iter();
    let mut take = |n: usize| cards.by_ref().take(n).collect::<Vec<_>>();
    let hands = vec![take(hand), take(hand)];
    let stacks = vec![take(stack), take(stack), take(stack)];
    let closing_up = [0; 3].map(|_: u8| rng.below(2) as u8);
    Order::Dealt {
        hands,
        stacks,
        closing_up,
        seed: Some(seed),
    }
}
