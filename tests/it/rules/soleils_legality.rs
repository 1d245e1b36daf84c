//! `legal_events` and `apply` agree both ways, over thousands of seeded
//! random games: every listed event is accepted, and a mutated event is
//! accepted exactly when it is listed. A rejected event changes nothing.

use crate::common;

use sunfold::kit::rng::SeededRng;
use sunfold::soleils::*;

const GAMES: u64 = 2_000;

fn pick<'a, T>(rng: &mut SeededRng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

fn die(rng: &mut SeededRng) -> Die {
    Die::new(rng.die()).unwrap()
}

/// An event of any type with fields drawn near the legal ones: mostly real
/// players and boxes, sometimes unknown ones.
fn mutation(rng: &mut SeededRng, state: &State, legal: &[Event]) -> Event {
    let mut names: Vec<String> = state.players().iter().map(|p| p.name.clone()).collect();
    names.push("Nobody".into());
    let mut boxes: Vec<String> = state
        .template()
        .boxes()
        .iter()
        .map(|b| b.id.clone())
        .collect();
    boxes.push("Z9".into());
    let player = pick(rng, &names).clone();
    let b = pick(rng, &boxes).clone();
    // Half the time, mutate one field of a legal event; otherwise invent one.
    if !legal.is_empty() && rng.chance(50) {
        let mut event = pick(rng, legal).clone();
        match &mut event {
            Event::Rolled(r) => r.dice[rng.below(3) as usize] = die(rng),
            Event::Placed(e) => match rng.below(3) {
                0 => e.box_id = b,
                1 => e.value = die(rng),
                _ => e.player = player,
            },
            Event::CrabCopied(e) => match rng.below(3) {
                0 => e.to = b,
                1 => e.from = b,
                _ => e.player = player,
            },
            Event::SunEntered(e) => match rng.below(2) {
                0 => e.value = die(rng),
                _ => e.player = player,
            },
            Event::BonusPlaced(e) => match rng.below(3) {
                0 => e.box_id = b,
                1 => e.value = die(rng),
                _ => e.player = player,
            },
            Event::CrabDeclined(e) | Event::BonusDeclined(e) => e.player = player,
            Event::Started(_) => {}
        }
        return event;
    }
    match rng.below(7) {
        0 => Event::Rolled(Rolled {
            dice: [die(rng), die(rng), die(rng)],
        }),
        1 => Event::Placed(Placed {
            player,
            box_id: b,
            value: die(rng),
        }),
        2 => Event::CrabCopied(CrabCopied {
            player,
            from: pick(rng, &boxes).clone(),
            to: b,
        }),
        3 => Event::CrabDeclined(PlayerOnly { player }),
        4 => Event::SunEntered(SunEntered {
            player,
            value: die(rng),
        }),
        5 => Event::BonusPlaced(BonusPlaced {
            player,
            box_id: b,
            value: die(rng),
        }),
        _ => Event::BonusDeclined(PlayerOnly { player }),
    }
}

fn play(seed: u64, template: &template::RawTemplate) -> (u16, usize) {
    let mut rng = SeededRng::new(seed);
    let count = 1 + rng.below(12) as usize;
    let names: Vec<String> = (0..count).map(|i| format!("P{i}")).collect();
    let options = Options {
        sun_bonus: *pick(&mut rng, &[SunBonus::ReachOrPass, SunBonus::Exact]),
        skip_placement: *pick(
            &mut rng,
            &[SkipPlacement::Voluntary, SkipPlacement::OnlyWhenBlocked],
        ),
        sailboats: *pick(&mut rng, &[Sailboats::Symbol, Sailboats::Different]),
        // A table of one is the solo variant.
        solo: count == 1,
    };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut state = setup(&common::start(&names, options, template.clone())).unwrap();
    let mut events = 0;
    loop {
        let legal = legal_events(&state);
        // Direction 2: a mutated event is accepted exactly when listed.
        for _ in 0..2 {
            let mutated = mutation(&mut rng, &state, &legal);
            let mut after = state.clone();
            let result = apply(&mut after, &mutated);
            assert_eq!(
                result.is_ok(),
                legal.contains(&mutated),
                "seed {seed}: {mutated:?} gave {result:?}"
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
                "seed {seed}: no legal event, yet not over"
            );
            return (state.round(), events);
        }
        // Direction 1: every listed event is accepted.
        let event = pick(&mut rng, &legal).clone();
        apply(&mut state, &event).unwrap_or_else(|e| panic!("seed {seed}: {event:?}: {e}"));
        events += 1;
    }
}

#[test]
fn legal_events_and_apply_agree_both_ways() {
    let template = common::default_template();
    let mut total = 0;
    for seed in 0..GAMES {
        let (rounds, events) = play(seed, &template);
        assert!((1..=20).contains(&rounds));
        total += events;
    }
    assert!(total > 100_000, "only {total} events were played");
}

#[test]
fn a_finished_game_accepts_nothing() {
    let template = common::default_template();
    let mut rng = SeededRng::new(7);
    let solo = Options {
        solo: true,
        ..Options::default()
    };
    let mut state = setup(&common::start(&["Ann"], solo, template)).unwrap();
    while let Some(event) = legal_events(&state).first().cloned() {
        apply(&mut state, &event).unwrap();
    }
    assert!(state.ended().is_some());
    let roll = Event::Rolled(Rolled {
        dice: [die(&mut rng), die(&mut rng), die(&mut rng)],
    });
    let before = state.clone();
    assert!(matches!(
        apply(&mut state, &roll),
        Err(RuleError::GameOver { .. })
    ));
    assert_eq!(state, before);
}
