//! No dead ends: from every reachable state of either game that is not
//! over, some entry is legal, and `status` names it (a pending decision and
//! a command to paste). Walked over seeded random games, bot games, and
//! physical Summertime games whose backs are drawn at random among the
//! legal ones. Each walk counts the states it checked, so that a walk that
//! checked nothing fails.

use crate::common;

use std::path::Path;
use sunfold::bots::deal::dealt_order;
use sunfold::bots::{Bot, SoleilsVariant, SummertimeVariant, play};
use sunfold::kit::game::Game;
use sunfold::kit::rng::SeededRng;
use sunfold::present::{Present, command};
use sunfold::soleils::{Options, Soleils};
use sunfold::summertime::{self, MATCHED_BACKS, Order, Summertime};

/// Whether `state` is a dead end: not over, and no entry `status` names.
/// `None` when some entry is legal and named (or the game is over).
fn dead_end<G: Present>(state: &G::State) -> Option<String> {
    let events = G::legal_events(state);
    if G::ending(state).is_some() {
        assert!(events.is_empty(), "an ended game still lists entries");
        return None;
    }
    if events.is_empty() {
        return Some(format!(
            "no legal entry, waiting for {:?}",
            G::pending_lines(state)
        ));
    }
    let commands = command::grouped::<G>(Path::new("game.jsonl"), state, &events);
    if commands.is_empty() || G::pending_lines(state).is_empty() {
        return Some("entries are legal, but status names none".to_owned());
    }
    None
}

/// Walks a game from `state`, each next entry drawn by `next` among the
/// legal ones, checking every state; gives the states checked, or the
/// first dead end.
fn walk<G: Present>(
    mut state: G::State,
    rng: &mut SeededRng,
    mut next: impl FnMut(&G::State, &[G::Event], &mut SeededRng) -> G::Event,
) -> Result<usize, String> {
    let mut states = 0;
    loop {
        states += 1;
        if let Some(dead) = dead_end::<G>(&state) {
            return Err(dead);
        }
        let legal = G::legal_events(&state);
        if legal.is_empty() {
            return Ok(states);
        }
        let event = next(&state, &legal, rng);
        G::apply(&mut state, &event).expect("a listed entry is accepted");
        assert!(states < 20_000, "the game does not end");
    }
}

fn uniform<G: Game>(_: &G::State, legal: &[G::Event], rng: &mut SeededRng) -> G::Event {
    legal[rng.below(legal.len() as u64) as usize].clone()
}

fn summertime_start(seed: u64, physical: bool, format: u32) -> summertime::State {
    let raw: summertime::deck::RawDeck = serde_json::from_str(
        &std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap(),
    )
    .unwrap();
    let deck = summertime::Deck::try_from(raw.clone()).unwrap();
    let order = dealt_order(&deck, seed);
    let order = match order {
        Order::Dealt { closing_up, .. } if physical => Order::Physical { closing_up },
        dealt => dealt,
    };
    summertime::setup(&summertime::Start {
        format,
        game: "summertime".into(),
        players: vec!["Ann".into(), "Bob".into()],
        first: "Bob".into(),
        deck: raw,
        order,
    })
    .unwrap()
}

#[test]
fn given_random_62_soleils_games_when_walked_then_no_state_is_a_dead_end() {
    let template = common::default_template();
    let mut states = 0;
    for seed in 0..200 {
        let mut rng = SeededRng::new(seed);
        let count = 1 + rng.below(6) as usize;
        let names: Vec<String> = (0..count).map(|i| format!("P{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let options = Options {
            solo: count == 1,
            ..Options::default()
        };
        let state =
            sunfold::soleils::setup(&common::start(&names, options, template.clone())).unwrap();
        states += walk::<Soleils>(state, &mut rng, uniform::<Soleils>)
            .unwrap_or_else(|dead| panic!("seed {seed}: {dead}"));
    }
    assert!(states > 10_000, "only {states} states checked");
}

#[test]
fn given_random_dealt_summertime_games_when_walked_then_no_state_is_a_dead_end() {
    let mut states = 0;
    for seed in 0..200 {
        let state = summertime_start(seed, false, MATCHED_BACKS);
        let mut rng = SeededRng::new(seed);
        states += walk::<Summertime>(state, &mut rng, uniform::<Summertime>)
            .unwrap_or_else(|dead| panic!("seed {seed}: {dead}"));
    }
    assert!(states > 10_000, "only {states} states checked");
}

#[test]
fn given_physical_summertime_games_with_random_backs_when_walked_then_no_state_is_a_dead_end() {
    let mut states = 0;
    for seed in 0..150 {
        let state = summertime_start(seed, true, MATCHED_BACKS);
        let mut rng = SeededRng::new(seed);
        states += walk::<Summertime>(state, &mut rng, uniform::<Summertime>)
            .unwrap_or_else(|dead| panic!("seed {seed}: {dead}"));
    }
    assert!(states > 5_000, "only {states} states checked");
}

/// The same walk finds the dead ends of the rules before declared backs
/// were matched: the check can fail.
#[test]
fn given_the_older_format_when_physical_games_are_walked_then_they_get_stuck() {
    let stuck = (0..30)
        .filter(|&seed| {
            let state = summertime_start(seed, true, MATCHED_BACKS - 1);
            let mut rng = SeededRng::new(seed);
            walk::<Summertime>(state, &mut rng, uniform::<Summertime>).is_err()
        })
        .count();
    assert!(stuck > 0, "no physical game of the older format got stuck");
}

fn bot_games<G: Present>(variant: &G::Variant, players: usize, games: u64) -> usize {
    let mut states = 0;
    for seed in 0..games {
        let result = play::<G>(variant, players, &[Bot::Greedy, Bot::Random], seed);
        let events = result.events(variant);
        let start = G::as_start(&events[0]).expect("a start event");
        let mut state = G::setup(start).expect("a valid setup");
        for event in &events[1..] {
            if let Some(dead) = dead_end::<G>(&state) {
                panic!("seed {seed}: {dead}");
            }
            G::apply(&mut state, event).expect("a bot's entry is legal");
            states += 1;
        }
        assert!(G::ending(&state).is_some(), "seed {seed}: a bot game ends");
    }
    states
}

#[test]
fn given_bot_games_of_both_games_when_replayed_then_no_state_is_a_dead_end() {
    let soleils = bot_games::<Soleils>(&SoleilsVariant::bundled(), 3, 40);
    let summertime = bot_games::<Summertime>(&SummertimeVariant::bundled(), 2, 40);
    assert!(soleils > 1_000, "only {soleils} 62 Soleils states checked");
    assert!(
        summertime > 1_000,
        "only {summertime} Summertime states checked"
    );
}
