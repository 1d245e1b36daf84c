//! The backs declared in a physical Summertime game, written as given /
//! when / then: every declared back keeps an unseen card of its own that
//! shows it, so that the game never gets stuck; the stacks turn up in any
//! order. A log of an older format keeps its rules, and the dead end they
//! let in is named.

use crate::common;

use sunfold::kit::game::Game;
use sunfold::present::Present;
use sunfold::summertime::*;

fn s(t: &str) -> String {
    t.to_owned()
}

/// A physical table of Ann and Ben, Ann first, recorded in `format`.
fn given_physical(format: u32) -> State {
    setup(&common::physical_start(format)).unwrap()
}

fn reveal(stack: u8, card: &str, behind: [&str; 3]) -> Event {
    Event::Revealed(Revealed {
        stack,
        card: s(card),
        behind: Some(behind.map(s)),
    })
}

fn after(state: &mut State, events: &[Event]) {
    for event in events {
        apply(state, event).unwrap_or_else(|e| panic!("{event}: {e}"));
    }
}

/// Applies `event`, checking that a refusal changes nothing, and gives the
/// message of the refusal.
fn refused(state: &mut State, event: Event) -> String {
    let before = state.clone();
    let error = apply(state, &event).expect_err("refused");
    assert_eq!(*state, before, "a refused entry changed the state");
    assert!(
        !legal_events(state).contains(&event),
        "a refused entry is listed as legal"
    );
    error.to_string()
}

#[test]
fn given_a_physical_game_when_a_card_declares_its_own_back_behind_it_then_it_is_refused() {
    let mut table = given_physical(MATCHED_BACKS);
    let message = refused(
        &mut table,
        reveal(0, "beach-1", ["coconut", "coral", "coral"]),
    );
    assert_eq!(
        message,
        "expected an unseen card of its own for each back declared as 1 coconut + 2 coral \
         (stack 0), but found 0 once beach-1 is turned up"
    );
    // Any other card may be turned up with that back behind it.
    after(
        &mut table,
        &[reveal(0, "ocean-1", ["coral", "coconut", "coral"])],
    );
}

#[test]
fn given_one_card_with_a_back_when_two_stacks_declare_it_then_the_second_is_refused() {
    let mut table = given_physical(MATCHED_BACKS);
    after(
        &mut table,
        &[reveal(0, "beach-1", ["breadfruit", "coral", "flower"])],
    );
    let message = refused(
        &mut table,
        reveal(1, "beach-2", ["breadfruit", "coral", "flower"]),
    );
    assert_eq!(
        message,
        "expected an unseen card of its own for each back declared as 1 breadfruit + 1 coral + \
         1 flower (stacks 0 and 1), but found 1 once beach-2 is turned up"
    );
}

#[test]
fn given_a_declared_back_when_its_only_card_is_played_from_an_unseen_hand_then_it_is_refused() {
    let mut table = given_physical(MATCHED_BACKS);
    after(
        &mut table,
        &[
            reveal(0, "ocean-1", ["breadfruit", "coral", "flower"]),
            reveal(1, "ocean-2", ["coconut", "coconut", "breadfruit"]),
            reveal(2, "ocean-3", ["shell", "shell", "flower"]),
            Event::Bought(Bought {
                player: s("Ann"),
                card: s("ocean-1"),
            }),
        ],
    );
    let play = |card: &str| {
        Event::Played(Played {
            player: s("Ann"),
            card: s(card),
            cell: [0, 0],
        })
    };
    let message = refused(&mut table, play("beach-4"));
    assert_eq!(
        message,
        "expected an unseen card of its own for each back declared as 1 breadfruit + 1 coral + \
         1 flower (stack 0), but found 0 once beach-4 is played"
    );
    // The card bought, seen by all, and other unseen cards may be played.
    after(&mut table, &[play("beach-1")]);
}

#[test]
fn given_a_physical_game_when_its_stacks_are_turned_up_then_any_order_is_legal() {
    let mut table = given_physical(MATCHED_BACKS);
    after(
        &mut table,
        &[reveal(2, "ocean-1", ["coconut", "coconut", "breadfruit"])],
    );
    // The table waits for the two stacks left, and says so.
    let waiting: Vec<String> = Summertime::pending(&table)
        .into_iter()
        .map(|p| p.what)
        .collect();
    assert_eq!(
        waiting,
        ["a card revealed on each of stacks 0 and 1, in any order"]
    );
    after(
        &mut table,
        &[reveal(0, "ocean-2", ["coconut", "coconut", "breadfruit"])],
    );
    let message = refused(
        &mut table,
        reveal(0, "ocean-3", ["shell", "shell", "flower"]),
    );
    assert_eq!(
        message,
        "expected a card turned up on stack 1, but found stack 0"
    );
    after(
        &mut table,
        &[reveal(1, "ocean-3", ["shell", "shell", "flower"])],
    );
    assert!(matches!(table.phase(), Phase::Turn { .. }));
}

#[test]
fn given_a_physical_game_when_the_first_reveal_is_listed_then_each_back_is_listed_once() {
    let table = given_physical(MATCHED_BACKS);
    let legal = legal_events(&table);
    let on_stack_0: Vec<&Event> = legal
        .iter()
        .filter(|e| matches!(e, Event::Revealed(r) if r.stack == 0 && r.card == "ocean-1"))
        .collect();
    // 30 backs, ocean-1's own among them: its other card is gone once
    // ocean-1 is turned up, and it has none.
    assert_eq!(on_stack_0.len(), 29, "{on_stack_0:?}");
    assert!(!on_stack_0.contains(&&reveal(0, "ocean-1", ["coconut", "coconut", "shell"])));
    assert!(on_stack_0.contains(&&reveal(0, "ocean-1", ["coconut", "coral", "coral"])));
}

#[test]
fn given_the_older_format_when_a_card_declares_its_own_back_then_it_is_kept_and_named_a_dead_end() {
    let mut table = given_physical(MATCHED_BACKS - 1);
    assert!(!table.matches_backs());
    assert!(Summertime::can_dead_end(&table));
    assert!(Summertime::dead_end(&table).is_none());
    after(
        &mut table,
        &[reveal(0, "beach-1", ["coconut", "coral", "coral"])],
    );
    let dead = Summertime::dead_end(&table)
        .expect("a dead end")
        .to_string();
    assert_eq!(
        dead,
        "expected an unseen card of its own for each back declared as 1 coconut + 2 coral \
         (stack 0), but found 0: no card can be turned up there"
    );
    // Stacks still go in order under the older rules.
    let message = refused(
        &mut table,
        reveal(2, "ocean-1", ["coconut", "coconut", "shell"]),
    );
    assert_eq!(message, "expected stack 1, but found stack 2");
}
