//! One test per rule of Summertime, written as given / when / then, on the
//! default deck with crafted deals: the hands and the tops of the stacks
//! are chosen, the rest of each stack follows in deck order.

use crate::common;

use sunfold::summertime::deck::RawDeck;
use sunfold::summertime::*;

fn raw_deck() -> RawDeck {
    common::summertime_deck()
}

fn s(t: &str) -> String {
    t.to_owned()
}

/// A dealt order: Ann's and Ben's hands, and the first cards of each stack.
fn deal(raw: &RawDeck, hands: [&[&str]; 2], tops: [&[&str]; 3]) -> Order {
    let mut named: Vec<&str> = hands.concat();
    named.extend(tops.concat());
    let mut rest: Vec<String> = raw
        .cards
        .iter()
        .map(|c| c.id.clone())
        .filter(|id| !named.contains(&id.as_str()))
        .collect();
    let size = usize::from(raw.rules.stack_size);
    let stacks = tops
        .iter()
        .map(|top| {
            let mut stack: Vec<String> = top.iter().map(|t| s(t)).collect();
            let more = size - stack.len();
            stack.extend(rest.drain(..more));
            stack
        })
        .collect();
    let mut hands: Vec<Vec<String>> = hands
        .iter()
        .map(|h| h.iter().map(|t| s(t)).collect())
        .collect();
    // Fill short hands from the remaining cards.
    let hand = usize::from(raw.rules.hand_size);
    for h in &mut hands {
        while h.len() < hand {
            h.push(rest.remove(0));
        }
    }
    Order::Dealt {
        hands,
        stacks,
        closing_up: [0, 0, 0],
        seed: None,
    }
}

struct Table {
    state: State,
}

fn given_deck(raw: RawDeck, order: Order) -> Table {
    let start = Start {
        format: 1,
        game: s("summertime"),
        players: vec![s("Ann"), s("Ben")],
        first: s("Ann"),
        deck: raw,
        order,
    };
    let mut table = Table {
        state: setup(&start).unwrap(),
    };
    table.reveal_all();
    table
}

fn given(hands: [&[&str]; 2], tops: [&[&str]; 3]) -> Table {
    let raw = raw_deck();
    let order = deal(&raw, hands, tops);
    given_deck(raw, order)
}

fn buy(p: &str, c: &str) -> Event {
    Event::Bought(Bought {
        player: s(p),
        card: s(c),
    })
}
fn put(p: &str, c: &str, x: i32, y: i32) -> Event {
    Event::Played(Played {
        player: s(p),
        card: s(c),
        cell: [x, y],
    })
}
fn end(p: &str) -> Event {
    Event::TurnEnded(PlayerOnly { player: s(p) })
}
fn flip(p: &str) -> Event {
    Event::TilesFlipped(PlayerOnly { player: s(p) })
}
fn pass(p: &str) -> Event {
    Event::Passed(PlayerOnly { player: s(p) })
}

impl Table {
    /// Plays the reveals the dealt order calls for, if any are due.
    fn reveal_all(&mut self) {
        if !self.state.is_dealt() {
            return;
        }
        while let Phase::Reveal(_) | Phase::Discard = self.state.phase() {
            let event = legal_events(&self.state).remove(0);
            apply(&mut self.state, &event).unwrap();
        }
    }
    fn after(mut self, events: &[Event]) -> Self {
        for event in events {
            apply(&mut self.state, event).unwrap_or_else(|e| panic!("{event}: {e}"));
            self.reveal_all();
        }
        self
    }
    fn when(&mut self, event: Event) -> Result<(), RuleError> {
        let before = self.state.clone();
        let result = apply(&mut self.state, &event);
        if result.is_err() {
            assert_eq!(self.state, before, "a rejected event changed the state");
        } else {
            self.reveal_all();
        }
        result
    }
    fn message(&mut self, event: Event) -> String {
        self.when(event).unwrap_err().to_string()
    }
    fn points(&self, name: &str) -> u32 {
        self.state.players()[self.state.player_index(name).unwrap()].points
    }
    fn turn_points(&self) -> Vec<u32> {
        self.state
            .turns()
            .iter()
            .map(|t| t.plays.iter().map(|p| p.2).sum())
            .collect()
    }
    fn display(&self) -> Vec<Option<String>> {
        let deck = self.state.deck();
        self.state
            .display()
            .iter()
            .map(|c| c.map(|c| deck.card(c).id.clone()))
            .collect()
    }
}

// The rulebook's examples

#[test]
fn the_rulebook_examples_score_18_and_21() {
    // given the crafted deal of replays/summertime-rulebook-examples.jsonl,
    // when it is replayed, then Example A's turn scores 18 and B's 21.
    let path = common::repo().join("replays/summertime-rulebook-examples.jsonl");
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let state = sunfold::log::fold_log::<Summertime, _>(file, None)
        .unwrap_or_else(|_| panic!("the examples replay is valid"));
    let points: Vec<u32> = state
        .turns()
        .iter()
        .map(|t| t.plays.iter().map(|p| p.2).sum())
        .collect();
    assert_eq!(points, [0, 0, 18, 4, 0, 21]);
    let catamaran = state.grid()[&(1, 1)];
    assert_eq!(
        catamaran.points, 8,
        "4 × 2 for the ocean; the beach is no match"
    );
}

// Buying

#[test]
fn buying_turns_the_cost_face_down_and_puts_the_card_in_hand() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    let cost = t.state.price(0).unwrap();
    t.when(buy("Ann", "ocean-1")).unwrap();
    let ann = &t.state.players()[0];
    assert!(
        ann.hand
            .contains(&t.state.deck().card_index("ocean-1").unwrap())
    );
    assert_eq!(ann.down.iter().map(|&n| u32::from(n)).sum::<u32>(), 3);
    let counts = cost.counts(t.state.deck().items());
    for (item, n) in counts.iter().enumerate() {
        assert_eq!(ann.down[item], *n);
        assert_eq!(ann.up[item], 3 - n);
    }
}

#[test]
fn the_price_is_the_back_of_the_top_card_of_the_stack_behind() {
    let t = given(
        [&[], &[]],
        [&["ocean-1", "fish-1"], &["couple-1"], &["catamaran-1"]],
    );
    let deck = t.state.deck();
    assert_eq!(
        t.state.price(0),
        Some(deck.card(deck.card_index("fish-1").unwrap()).cost)
    );
}

#[test]
fn only_a_face_up_card_can_be_bought() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    assert_eq!(
        t.message(buy("Ann", "fish-2")),
        "expected a face-up card (ocean-1, couple-1, catamaran-1), but found fish-2"
    );
}

#[test]
fn a_card_costs_exactly_the_indicated_face_up_tiles() {
    // given the card behind stack 0's face-up card has the back 2 coconut +
    // 1 shell (ocean-1), and the one behind stack 1's has 2 coconut + 1
    // breadfruit (swimming-pool-1, the rulebook's own example price),
    let mut t = given(
        [&[], &[]],
        [
            &["beach-1", "ocean-1"],
            &["beach-2", "swimming-pool-1"],
            &["beach-4"],
        ],
    );
    let deck = t.state.deck();
    assert_eq!(
        deck.describe_cost(t.state.price(1).unwrap()).to_string(),
        "2 coconut + 1 breadfruit"
    );
    // when Ann pays 2 of her 3 coconuts for beach-1,
    t = t.after(&[buy("Ann", "beach-1"), end("Ann"), pass("Ben")]);
    // then the second card is out of reach, with the exact shortfall.
    assert_eq!(
        t.message(buy("Ann", "beach-2")),
        "cost is 2 coconut + 1 breadfruit, but only 1 coconut is face up"
    );
}

#[test]
fn the_next_cards_are_turned_up_only_when_all_face_up_cards_are_gone() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    t = t.after(&[
        buy("Ann", "ocean-1"),
        end("Ann"),
        buy("Ben", "couple-1"),
        end("Ben"),
    ]);
    assert_eq!(
        t.display(),
        [None, None, Some(s("catamaran-1"))],
        "no refill yet"
    );
    t.when(buy("Ann", "catamaran-1")).unwrap();
    assert!(t.display().iter().all(Option::is_some), "three new cards");
}

#[test]
fn no_card_is_revealed_while_cards_are_face_up() {
    // given two of the three face-up cards are still there,
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    t = t.after(&[buy("Ann", "catamaran-1"), end("Ann")]);
    // when a card is turned up, then it is refused: the face-up cards are not gone.
    let next = Event::Revealed(Revealed {
        stack: 2,
        card: s("fish-2"),
        behind: None,
    });
    assert_eq!(
        t.message(next),
        "expected a reveal only once no card is face up, but ocean-1, couple-1 are still face up"
    );
}

// Tiles

#[test]
fn turning_tiles_up_is_a_whole_turn_and_needs_face_down_tiles() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    assert_eq!(
        t.message(flip("Ann")),
        "expected face-down tiles to turn up, but all of Ann's tiles are face up"
    );
    t = t.after(&[buy("Ann", "ocean-1"), end("Ann"), pass("Ben")]);
    t.when(flip("Ann")).unwrap();
    assert!(t.state.players()[0].down.iter().all(|&n| n == 0));
    assert_eq!(t.state.active(), 1, "Ben's turn");
}

// Passing

#[test]
fn two_passes_discard_the_face_up_cards_and_the_first_passer_continues() {
    let mut t = given(
        [&[], &[]],
        [&["ocean-1", "fish-1"], &["couple-1"], &["catamaran-1"]],
    );
    t = t.after(&[buy("Ann", "ocean-1"), end("Ann"), pass("Ben")]);
    t.when(pass("Ann")).unwrap();
    assert_eq!(
        t.display()[0].as_deref(),
        Some("fish-1"),
        "new cards turned up"
    );
    assert_eq!(t.state.active(), 1, "Ben passed first and continues");
}

#[test]
fn a_pass_after_another_action_does_not_count_as_two_in_a_row() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    t = t.after(&[pass("Ann"), buy("Ben", "couple-1"), end("Ben")]);
    t.when(pass("Ann")).unwrap();
    assert_eq!(
        t.display()[2].as_deref(),
        Some("catamaran-1"),
        "nothing discarded"
    );
}

#[test]
fn a_discard_needs_two_passes_in_a_row() {
    // given Ann passed, Ben bought, and Ann passed again,
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    t = t.after(&[pass("Ann"), buy("Ben", "couple-1"), end("Ben"), pass("Ann")]);
    // when the face-up cards are discarded, then the passes were not in a row.
    let discard = Event::Discarded(Discarded {
        cards: vec![s("ocean-1"), s("catamaran-1")],
    });
    assert_eq!(
        t.message(discard.clone()),
        "expected a discard only after two passes in a row, but Ann's pass follows Ben's buy"
    );
    // and with no pass at all, it says the last turn was not one.
    t = t.after(&[flip("Ben")]);
    assert_eq!(
        t.message(discard),
        "expected a discard only after two passes in a row, but the last turn was Ben's tile flip, not a pass"
    );
}

// Playing

#[test]
fn cards_are_played_only_after_buying_this_turn() {
    let mut t = given(
        [&["beach-1"], &[]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    );
    assert_eq!(
        t.message(put("Ann", "beach-1", 0, 0)),
        "expected a buy before playing cards this turn, but Ann has not bought"
    );
}

#[test]
fn only_the_active_player_acts() {
    let mut t = given([&[], &[]], [&["ocean-1"], &["couple-1"], &["catamaran-1"]]);
    assert_eq!(
        t.message(buy("Ben", "ocean-1")),
        "expected Ann's turn, but found Ben"
    );
}

#[test]
fn the_first_card_lies_at_the_origin_and_the_others_touch_a_card() {
    let mut t = given(
        [&["beach-1", "beach-2"], &[]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    )
    .after(&[buy("Ann", "ocean-1")]);
    assert_eq!(
        t.message(put("Ann", "beach-1", 2, 3)),
        "expected the first card at (0,0), but found (2,3)"
    );
    t.when(put("Ann", "beach-1", 0, 0)).unwrap();
    assert_eq!(
        t.message(put("Ann", "beach-2", 1, 1)),
        "expected a cell next to a played card, but (1,1) has no neighbour"
    );
    assert_eq!(
        t.message(put("Ann", "beach-2", 0, 0)),
        "expected an empty cell, but (0,0) holds beach-1"
    );
    t.when(put("Ann", "beach-2", 1, 0)).unwrap();
}

#[test]
fn a_card_with_one_picture_must_border_that_picture() {
    let mut t = given(
        [&["beach-1", "fish-1"], &[]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    )
    .after(&[buy("Ann", "ocean-1"), put("Ann", "beach-1", 0, 0)]);
    assert_eq!(
        t.message(put("Ann", "fish-1", 1, 0)),
        "card needs a neighbour showing ocean, but cell (1,0) borders only beach"
    );
}

#[test]
fn a_card_with_two_pictures_needs_only_one_of_them() {
    // A bar needs a beach or a swimming pool.
    let mut t = given(
        [&["swimming-pool-1", "bar-1"], &[]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    )
    .after(&[buy("Ann", "ocean-1"), put("Ann", "swimming-pool-1", 0, 0)]);
    t.when(put("Ann", "bar-1", 0, 1)).unwrap();
    assert_eq!(t.points("Ann"), 2 + 3);
}

#[test]
fn either_players_cards_count_as_neighbours() {
    let t = given(
        [&["beach-1"], &["umbrella-1"]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    )
    .after(&[
        buy("Ann", "ocean-1"),
        put("Ann", "beach-1", 0, 0),
        end("Ann"),
    ])
    .after(&[buy("Ben", "couple-1"), put("Ben", "umbrella-1", 1, 0)]);
    assert_eq!(t.points("Ben"), 4, "2 × Ann's beach 2");
}

#[test]
fn a_multiplier_scores_each_matching_neighbour_and_ignores_multipliers() {
    // given beaches 2 and 3 on both sides of a free cell, when Ben plays an
    // umbrella ×2 there, then it scores 2 × (2 + 3) = 10. And given a deck in
    // which a second umbrella may border an umbrella, when Ben plays it next
    // to the first only, then it scores nothing: multipliers are no values.
    let mut raw = raw_deck();
    let second = raw.cards.iter_mut().find(|c| c.id == "umbrella-2").unwrap();
    second.needs = vec![s("beach"), s("umbrella")];
    let order = deal(
        &raw,
        [&["beach-1", "beach-3"], &["umbrella-1", "umbrella-2"]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    );
    let t = given_deck(raw, order).after(&[
        buy("Ann", "ocean-1"),
        put("Ann", "beach-1", 0, 0),
        put("Ann", "ocean-1", 0, 1),
        put("Ann", "beach-3", 1, 1),
        end("Ann"),
        buy("Ben", "couple-1"),
        put("Ben", "umbrella-1", 1, 0),
        put("Ben", "umbrella-2", 2, 0),
    ]);
    assert_eq!(t.turn_points(), [2 + 4 + 3, 10]);
    assert_eq!(t.state.grid()[&(1, 0)].points, 10);
    assert_eq!(t.state.grid()[&(2, 0)].points, 0);
}

#[test]
fn cards_on_the_table_never_score_again() {
    let t = given(
        [&["beach-1", "umbrella-1"], &["beach-3"]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    )
    .after(&[
        buy("Ann", "ocean-1"),
        put("Ann", "beach-1", 0, 0),
        put("Ann", "umbrella-1", 1, 0),
        end("Ann"),
    ])
    .after(&[buy("Ben", "couple-1"), put("Ben", "beach-3", 1, 1)]);
    assert_eq!(
        t.points("Ben"),
        3,
        "the umbrella beside it is not scored again"
    );
}

#[test]
fn at_most_five_cards_in_one_turn() {
    let mut t = given(
        [&["beach-1", "beach-2"], &[]],
        [
            &["beach-3", "ocean-2"],
            &["beach-4", "ocean-3"],
            &["swimming-pool-1", "ocean-4"],
        ],
    );
    // Collect cards over a few turns, then play them all at once.
    t = t.after(&[
        buy("Ann", "beach-3"),
        end("Ann"),
        pass("Ben"),
        buy("Ann", "beach-4"),
        end("Ann"),
        pass("Ben"),
    ]);
    t = t.after(&[buy("Ann", "swimming-pool-1")]);
    let hand: Vec<String> = t.state.players()[0]
        .hand
        .iter()
        .map(|&c| t.state.deck().card(c).id.clone())
        .collect();
    assert_eq!(hand.len(), 5);
    for (i, card) in hand.iter().enumerate() {
        t.when(put("Ann", card, i as i32, 0)).unwrap();
    }
    t = t.after(&[end("Ann"), pass("Ben")]);
    t = t.after(&[flip("Ann"), pass("Ben")]);
    // Five more in one turn are fine; a sixth is not.
    let buyable = legal_events(&t.state)
        .into_iter()
        .find(|e| matches!(e, Event::Bought(_)))
        .unwrap();
    t.when(buyable).unwrap();
    assert!(t.state.players()[0].hand.len() <= 5);
    if let Phase::Turn { plays, .. } = t.state.phase() {
        assert_eq!(*plays, 0);
    }
}

#[test]
fn the_grid_never_exceeds_its_size_either_way() {
    // given a deck whose grid is at most 3 × 2 either way, when a fourth card
    // goes on a row of three, then the grid would be 4 wide; and a 3 × 2
    // grid cannot grow to three rows.
    let mut raw = raw_deck();
    raw.rules.grid_long = 3;
    raw.rules.grid_short = 2;
    let order = deal(
        &raw,
        [&["beach-1", "beach-2"], &[]],
        [&["beach-3"], &["ocean-1"], &["catamaran-1"]],
    );
    let mut t = given_deck(raw, order).after(&[
        buy("Ann", "beach-3"),
        put("Ann", "beach-1", 0, 0),
        put("Ann", "beach-2", 1, 0),
        put("Ann", "beach-3", 2, 0),
        end("Ann"),
        pass("Ben"),
        buy("Ann", "ocean-1"),
    ]);
    assert_eq!(
        t.message(put("Ann", "ocean-1", 3, 0)),
        "the grid would be 4 wide and 1 high: expected at most 3 × 2 either way"
    );
    t.when(put("Ann", "ocean-1", 0, 1)).unwrap();
    assert_eq!(t.state.extent_with((0, 2)), (3, 3), "three rows of three");
}

// The end

#[test]
fn cards_left_in_hand_cost_five_each_at_the_end_and_ties_share_the_win() {
    // A tiny grid (2 × 1) fills after two cards: the game ends at once.
    let mut raw = raw_deck();
    raw.rules.grid_long = 2;
    raw.rules.grid_short = 1;
    let order = deal(
        &raw,
        [&["beach-1", "beach-2"], &["beach-3", "beach-4"]],
        [&["ocean-1"], &["couple-1"], &["catamaran-1"]],
    );
    let mut t = given_deck(raw, order).after(&[buy("Ann", "ocean-1"), put("Ann", "beach-1", 0, 0)]);
    t.when(put("Ann", "beach-2", 1, 0)).unwrap();
    assert_eq!(
        t.state.ended().map(ToString::to_string),
        Some(s("the grid is full with 2 cards"))
    );
    let lines = score(&t.state);
    assert_eq!(
        (lines[0].played, lines[0].in_hand, lines[0].total),
        (4, 1, -1),
        "ocean still in hand"
    );
    assert_eq!(
        (lines[1].played, lines[1].in_hand, lines[1].total),
        (0, 2, -10)
    );
    assert_eq!(
        t.message(pass("Ben")),
        "expected no more events, but the game is over: the grid is full with 2 cards"
    );
}

#[test]
fn the_game_ends_after_the_turn_that_buys_the_last_card() {
    let path = common::repo().join("replays/summertime-last-card-bought.jsonl");
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let state =
        sunfold::log::fold_log::<Summertime, _>(file, None).unwrap_or_else(|_| panic!("valid"));
    assert_eq!(state.ended(), Some(&EndReason::LastCardBought));
    assert!(state.display().iter().all(Option::is_none));
    assert!(state.stacks().iter().all(|s| s.remaining == 0));
}

#[test]
fn the_game_ends_when_two_passes_discard_the_last_cards() {
    let path = common::repo().join("replays/summertime-double-pass-ending.jsonl");
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let state =
        sunfold::log::fold_log::<Summertime, _>(file, None).unwrap_or_else(|_| panic!("valid"));
    assert_eq!(state.ended(), Some(&EndReason::LastCardsDiscarded));
}

// Physical games

fn physical() -> Table {
    Table {
        state: setup(&common::physical_start(1)).unwrap(),
    }
}

fn reveal(stack: u8, card: &str, behind: Option<[&str; 3]>) -> Event {
    Event::Revealed(Revealed {
        stack,
        card: s(card),
        behind: behind.map(|b| b.map(s)),
    })
}

#[test]
fn a_physical_reveal_declares_the_cost_now_showing_behind_it() {
    let mut t = physical();
    assert_eq!(
        t.message(reveal(0, "ocean-1", None)),
        "expected the cost behind the new top card of stack 0, but found none"
    );
    t.when(reveal(
        0,
        "ocean-1",
        Some(["coconut", "coconut", "breadfruit"]),
    ))
    .unwrap();
    assert_eq!(
        t.message(reveal(1, "ocean-1", Some(["shell", "shell", "coral"]))),
        "expected a card not yet seen, but ocean-1 was already used in this game"
    );
}

#[test]
fn a_physical_card_back_must_match_the_cost_declared_for_it() {
    // given stack 0's next card was declared to cost 2 coconut + 1 breadfruit,
    // when a card with another back is revealed from it, then it is refused.
    let raw = raw_deck();
    let wrong = raw
        .cards
        .iter()
        .find(|c| c.cost != [s("coconut"), s("coconut"), s("breadfruit")])
        .unwrap()
        .id
        .clone();
    let right = raw
        .cards
        .iter()
        .find(|c| c.cost == [s("coconut"), s("coconut"), s("breadfruit")])
        .unwrap()
        .id
        .clone();
    let mut t = physical().after(&[]);
    t.when(reveal(
        0,
        "ocean-1",
        Some(["coconut", "coconut", "breadfruit"]),
    ))
    .unwrap();
    t.when(reveal(1, "ocean-2", Some(["shell", "shell", "coral"])))
        .unwrap();
    t.when(reveal(2, "ocean-3", Some(["flower", "flower", "coral"])))
        .unwrap();
    for card in ["ocean-1", "ocean-2", "ocean-3"] {
        t.when(buy(if t.state.active() == 0 { "Ann" } else { "Ben" }, card))
            .unwrap();
        let who = if t.state.active() == 0 { "Ann" } else { "Ben" };
        if matches!(t.state.phase(), Phase::Reveal(_)) {
            break;
        }
        t.when(end(who)).unwrap();
    }
    let message = t.message(reveal(0, &wrong, Some(["coral", "coral", "shell"])));
    assert!(
        message.starts_with(&format!(
            "expected {wrong}'s back to show 2 coconut + 1 breadfruit"
        )),
        "{message}"
    );
    t.when(reveal(0, &right, Some(["coral", "coral", "shell"])))
        .unwrap();
}

#[test]
fn a_physical_reveal_must_declare_a_back_some_card_shows() {
    // given a physical game, when a reveal declares a back that no card of
    // the deck has, then it is refused.
    let raw = raw_deck();
    let items: Vec<&str> = raw.items.iter().map(|i| i.id.as_str()).collect();
    let mut backs = Vec::new();
    for a in 0..items.len() {
        for b in a..items.len() {
            for c in b..items.len() {
                backs.push([items[a], items[b], items[c]]);
            }
        }
    }
    let has = |back: &[&str; 3]| {
        raw.cards.iter().any(|card| {
            let mut cost: Vec<&str> = card.cost.iter().map(String::as_str).collect();
            cost.sort_unstable();
            let mut back = back.to_vec();
            back.sort_unstable();
            cost == back
        })
    };
    let none = *backs
        .iter()
        .find(|b| !has(b))
        .expect("some back no card has");
    let mut t = physical();
    let message = t.message(reveal(0, "ocean-1", Some(none)));
    assert!(
        message.starts_with(
            "expected the back of a card of the deck behind stack 0, but no card costs "
        ),
        "{message}"
    );
    let some = *backs.iter().find(|b| has(b)).unwrap();
    t.when(reveal(0, "ocean-1", Some(some))).unwrap();
}
