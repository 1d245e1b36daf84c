//! Summertime: `legal_events` and `apply` agree both ways over seeded random
//! games, dealt and physical, in the log format that matches declared backs
//! and in the one before it. A rejected event changes nothing. A back is
//! listed once, its items in the deck's order: the same items in another
//! order are the same entry.

use crate::common;

use sunfold::bots::deal::dealt_order;
use sunfold::kit::rng::SeededRng;
use sunfold::summertime::deck::RawDeck;
use sunfold::summertime::*;

const GAMES: u64 = 1_000;

fn pick<'a, T>(rng: &mut SeededRng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

fn raw_deck() -> RawDeck {
    let path = common::repo().join("sheet-templates/summertime.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The format before [`MATCHED_BACKS`], whose rules old logs keep.
const OLD_FORMAT: u32 = 2;

fn start(order: Order, deck: &RawDeck, format: u32) -> Start {
    Start {
        format,
        game: "summertime".into(),
        players: vec!["Ann".into(), "Bob".into()],
        first: "Bob".into(),
        deck: deck.clone(),
        order,
    }
}

fn mutation(rng: &mut SeededRng, state: &State, legal: &[Event]) -> Event {
    let deck = state.deck();
    let mut cards: Vec<String> = deck.cards().iter().map(|c| c.id.clone()).collect();
    cards.push("nope".into());
    let items = ["coconut", "breadfruit", "shell", "coral", "flower", "sand"];
    let player = pick(rng, &["Ann", "Bob", "Nobody"]).to_string();
    let card = pick(rng, &cards).clone();
    let cell = [rng.below(9) as i32 - 3, rng.below(9) as i32 - 3];
    let behind = |rng: &mut SeededRng| {
        if rng.chance(30) {
            None
        } else {
            Some([0, 0, 0].map(|_: u8| pick(rng, &items).to_string()))
        }
    };
    if !legal.is_empty() && rng.chance(50) {
        let mut event = pick(rng, legal).clone();
        match &mut event {
            Event::Revealed(e) => match rng.below(3) {
                0 => e.card = card,
                1 => e.behind = behind(rng),
                _ => e.stack = rng.below(4) as u8,
            },
            Event::Bought(e) => match rng.below(2) {
                0 => e.card = card,
                _ => e.player = player,
            },
            Event::Played(e) => match rng.below(3) {
                0 => e.card = card,
                1 => e.cell = cell,
                _ => e.player = player,
            },
            Event::TurnEnded(e) | Event::TilesFlipped(e) | Event::Passed(e) => e.player = player,
            Event::Discarded(e) => {
                if e.cards.len() > 1 && rng.chance(50) {
                    e.cards.reverse();
                } else {
                    e.cards.pop();
                }
            }
            Event::Started(_) => {}
        }
        return event;
    }
    match rng.below(7) {
        0 => Event::Revealed(Revealed {
            stack: rng.below(4) as u8,
            card,
            behind: behind(rng),
        }),
        1 => Event::Bought(Bought { player, card }),
        2 => Event::Played(Played { player, card, cell }),
        3 => Event::TurnEnded(PlayerOnly { player }),
        4 => Event::TilesFlipped(PlayerOnly { player }),
        5 => Event::Passed(PlayerOnly { player }),
        _ => Event::Discarded(Discarded {
            cards: state
                .display()
                .iter()
                .flatten()
                .map(|&c| deck.card(c).id.clone())
                .collect(),
        }),
    }
}

/// The next reveal of a physical game, following the hidden true order.
fn true_reveal(state: &State, hidden: &[Vec<String>], legal: &[Event]) -> Event {
    let Event::Revealed(first) = &legal[0] else {
        unreachable!()
    };
    let stack = usize::from(first.stack);
    let size = usize::from(state.deck().rules().stack_size);
    let position = size - usize::from(state.stacks()[stack].remaining);
    let card = hidden[stack][position].clone();
    let behind = hidden[stack].get(position + 1).map(|next| {
        let c = state.deck().card_index(next).unwrap();
        state
            .deck()
            .card(c)
            .cost
            .0
            .map(|i| state.deck().item_id(i).to_owned())
    });
    let event = Event::Revealed(Revealed {
        stack: first.stack,
        card,
        behind,
    });
    assert!(
        legal.contains(&event),
        "the true reveal is not legal: {event:?}"
    );
    event
}

/// The event with a declared back's items in the deck's order, as
/// `legal_events` lists it.
fn canonical(state: &State, event: &Event) -> Event {
    let mut event = event.clone();
    if let Event::Revealed(Revealed {
        behind: Some(items),
        ..
    }) = &mut event
    {
        let deck = state.deck();
        let rank = |id: &String| (0..deck.items()).position(|i| deck.item_id(i) == id);
        items.sort_by_key(rank);
    }
    event
}

fn play(seed: u64, raw: &RawDeck, physical: bool, format: u32) -> usize {
    let mut rng = SeededRng::new(seed);
    let deck = Deck::try_from(raw.clone()).unwrap();
    let order = dealt_order(&deck, seed);
    let Order::Dealt {
        hands,
        stacks,
        closing_up,
        ..
    } = order.clone()
    else {
        unreachable!()
    };
    let order = if physical {
        Order::Physical { closing_up }
    } else {
        order
    };
    let mut state = setup(&start(order, raw, format)).unwrap();
    let mut events = 0;
    loop {
        let legal = legal_events(&state);
        for _ in 0..2 {
            let mutated = mutation(&mut rng, &state, &legal);
            let mut after = state.clone();
            let result = apply(&mut after, &mutated);
            assert_eq!(
                result.is_ok(),
                legal.contains(&canonical(&state, &mutated)),
                "seed {seed} physical {physical}: {mutated:?} gave {result:?}"
            );
            if result.is_err() {
                assert_eq!(
                    after, state,
                    "seed {seed}: rejected {mutated:?} changed the state"
                );
            }
        }
        if legal.is_empty() {
            assert!(
                state.ended().is_some(),
                "seed {seed}: stuck: {:?}",
                state.phase()
            );
            return events;
        }
        let event = if physical && matches!(legal[0], Event::Revealed(_)) {
            true_reveal(&state, &stacks, &legal)
        } else if physical {
            // At a real table, an unseen card played from hand is one that
            // was really dealt to that player.
            let possible: Vec<Event> = legal
                .iter()
                .filter(|e| match e {
                    Event::Played(p) => {
                        let who = state.player_index(&p.player).unwrap();
                        let c = state.deck().card_index(&p.card).unwrap();
                        state.players()[who].hand.contains(&c) || hands[who].contains(&p.card)
                    }
                    _ => true,
                })
                .cloned()
                .collect();
            pick(&mut rng, &possible).clone()
        } else {
            pick(&mut rng, &legal).clone()
        };
        apply(&mut state, &event).unwrap_or_else(|e| panic!("seed {seed}: {event}: {e}"));
        events += 1;
        assert!(events < 20_000, "seed {seed}: the game does not end");
    }
}

#[test]
fn legal_events_and_apply_agree_both_ways_in_dealt_games() {
    let raw = raw_deck();
    let total: usize = (0..GAMES)
        .map(|seed| play(seed, &raw, false, MATCHED_BACKS))
        .sum();
    assert!(total > 10_000, "only {total} events");
}

#[test]
fn legal_events_and_apply_agree_both_ways_in_physical_games() {
    let raw = raw_deck();
    let total: usize = (0..GAMES / 4)
        .map(|seed| play(seed, &raw, true, MATCHED_BACKS))
        .sum();
    assert!(total > 2_000, "only {total} events");
}

#[test]
fn legal_events_and_apply_agree_both_ways_under_the_older_format() {
    let raw = raw_deck();
    let dealt: usize = (0..GAMES / 4)
        .map(|seed| play(seed, &raw, false, OLD_FORMAT))
        .sum();
    let physical: usize = (0..GAMES / 8)
        .map(|seed| play(seed, &raw, true, OLD_FORMAT))
        .sum();
    assert!(dealt > 2_000, "only {dealt} events");
    assert!(physical > 1_000, "only {physical} events");
}
