//! Resolved actions against the events they replace, over 10,000 seeded
//! games of each game, with every option pair and every player count:
//!
//! - resolving a described action gives the same action back;
//! - `legal_actions` and `is_legal` / `apply_action` agree both ways: every
//!   listed action is accepted, and an action from a wide superset is
//!   accepted exactly when it is listed; a rejected one changes nothing;
//! - applying the action and applying its described event reach the same
//!   state, and so the same score;
//! - the greedy bot's `total_after` equals `total_after_applying` (the
//!   action applied to the sheet and swapped back, the pearls counted box
//!   by box) and the total after applying the action to a copy, for every
//!   action of the superset, legal or not; `total_of` equals the total
//!   with the pearls counted box by box;
//! - the random bot's `nth_legal_action_for` gives the k-th listed action
//!   (every k at the states the superset is checked at);
//! - the simulator's table built from the checked variant equals `setup`
//!   of the start event it writes.
//!
//! Given a seeded game, when each action is taken, then all of the above
//! hold at every state.

use sunfold::bots::{Simulated, SoleilsVariant, SummertimeVariant};
use sunfold::kit::rng::SeededRng;
use sunfold::soleils::{self, BoxIx, Die, Options, Sailboats, Seat, SkipPlacement, SunBonus};
use sunfold::summertime::{self, CardIx};

/// Games per game: 10,000 of each, spread over the variants.
const GAMES: u64 = 10_000;

/// Every listed action, and a wide superset, are checked at every this many
/// states (it is slow in a debug build); at the others, one listed action
/// drawn at random is.
const SUPERSET_EVERY: usize = 32;

/// How many actions of the superset are applied to a copy at such a state.
const APPLIED_PER_STATE: usize = 6;

fn pick<T: Copy>(rng: &mut SeededRng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

// ---------------------------------------------------------------- 62 Soleils

fn soleils_superset(state: &soleils::State, rng: &mut SeededRng) -> Vec<soleils::Action> {
    use soleils::Action::*;
    let boxes = state.template().boxes().len();
    let seats = state.players().len();
    let player = Seat::new(rng.below(seats as u64) as usize);
    let mut all = Vec::new();
    for value in Die::ALL {
        all.push(Sun { player, value });
        for slot in (0..boxes).map(BoxIx::new) {
            all.push(Place {
                player,
                slot,
                value,
            });
            all.push(BonusPlace {
                player,
                slot,
                value,
            });
        }
    }
    for from in 0..boxes {
        for to in state.template().neighbours_of(BoxIx::new(from)) {
            all.push(CrabCopy {
                player,
                from: BoxIx::new(from),
                to,
            });
        }
        // A box that is not a neighbour.
        all.push(CrabCopy {
            player,
            from: BoxIx::new(from),
            to: BoxIx::new((from + boxes / 2) % boxes),
        });
    }
    all.push(CrabDecline { player });
    all.push(BonusDecline { player });
    for _ in 0..4 {
        all.push(Roll([0; 3].map(|_| Die::new(rng.die()).unwrap())));
    }
    all
}

fn check_soleils_state(
    state: &mut soleils::State,
    legal: &[soleils::Action],
    rng: &mut SeededRng,
    superset: bool,
    spare: &mut Option<soleils::Player>,
) {
    let one = [pick(rng, legal)];
    let legal_checked = if superset { legal } else { &one[..] };
    for &action in legal_checked {
        let event = soleils::describe(state, action);
        assert_eq!(soleils::resolve(state, &event), Ok(action), "{event:?}");
        assert!(soleils::is_legal(state, action), "{action:?}");
    }
    // The greedy bot's look-ahead, for each decision, against the
    // reference that applies it and against applying it to a copy.
    let before = state.clone();
    for p in 0..state.players().len() {
        assert_eq!(
            soleils::total_of(state, p),
            soleils::total_counting_pearls(state, p)
        );
    }
    for &action in legal_checked {
        let Some(p) = action.player() else { continue };
        let total = soleils::total_after(state, action).expect("a legal action");
        let spare = spare.get_or_insert_with(|| state.players()[0].clone());
        let applying = soleils::total_after_applying(state, action, spare);
        assert_eq!(*state, before, "total_after_applying changed the state");
        assert_eq!(Some(total), applying, "{action:?}");
        let mut after = state.clone();
        soleils::apply_action(&mut after, action).unwrap();
        assert_eq!(total, soleils::total_of(&after, p), "{action:?}");
    }
    // The random bot's draw: the k-th listed action, for every k at the
    // states the superset is checked at, else the first and the last.
    let mut buffer = Vec::new();
    for p in 0..state.players().len() {
        let mut listed = Vec::new();
        soleils::legal_actions_for(state, p, &mut listed);
        let ks: Vec<usize> = if superset {
            (0..listed.len()).collect()
        } else {
            [0, listed.len().saturating_sub(1)].into()
        };
        for k in ks.into_iter().filter(|&k| k < listed.len()) {
            let nth = soleils::nth_legal_action_for(state, p, &mut buffer, |n| {
                assert_eq!(n, listed.len());
                k
            });
            assert_eq!(nth, Some(listed[k]), "{k} of {listed:?}");
        }
        if listed.is_empty() {
            let none = soleils::nth_legal_action_for(state, p, &mut buffer, |_| unreachable!());
            assert_eq!(none, None);
        }
    }
    if superset {
        let superset = soleils_superset(state, rng);
        for &action in &superset {
            let listed = legal.contains(&action);
            assert_eq!(soleils::is_legal(state, action), listed, "{action:?}");
            if action.player().is_some() {
                let total = soleils::total_after(state, action);
                let spare = spare.get_or_insert_with(|| state.players()[0].clone());
                let applying = soleils::total_after_applying(state, action, spare);
                assert_eq!(total, applying, "{action:?}");
                assert_eq!(total.is_some(), listed, "{action:?}");
            }
        }
        // Applying is slower: a sample of the superset, and every listed one.
        for _ in 0..APPLIED_PER_STATE {
            let action = pick(rng, &superset);
            let listed = legal.contains(&action);
            let mut copy = state.clone();
            let applied = soleils::apply_action(&mut copy, action);
            assert_eq!(applied.is_ok(), listed, "{action:?}");
            if applied.is_err() {
                assert_eq!(copy, *state, "a rejected {action:?} changed the state");
            }
        }
    }
}

/// The slow tier: 10,000 games of 62 Soleils, about two minutes.
mod slow {
    use super::*;

    #[test]
    fn soleils_actions_agree_with_the_events_they_replace() {
        let mut variants = Vec::new();
        for sun_bonus in [SunBonus::ReachOrPass, SunBonus::Exact] {
            for skip_placement in [SkipPlacement::Voluntary, SkipPlacement::OnlyWhenBlocked] {
                // Each sailboats rule with two of the four others, so that the
                // grid, and the time it takes, stay as they were.
                let sailboats = if (sun_bonus == SunBonus::Exact)
                    == (skip_placement == SkipPlacement::Voluntary)
                {
                    Sailboats::Different
                } else {
                    Sailboats::Symbol
                };
                let mut variant = SoleilsVariant::bundled();
                variant.options = Options {
                    sun_bonus,
                    skip_placement,
                    sailboats,
                    solo: false,
                };
                variants.push(variant);
            }
        }
        let counts = 1..=soleils::MAX_PLAYERS;
        let combos = (variants.len() * counts.clone().count()) as u64;
        let per_combo = GAMES.div_ceil(combos);
        let mut games = 0;
        let mut states = 0;
        let mut legal = Vec::new();
        let mut spare = None;
        for (v, variant) in variants.iter().enumerate() {
            for players in counts.clone() {
                // A table of one is the solo variant.
                let mut variant = variant.clone();
                variant.options.solo = players == 1;
                let variant = &variant;
                for g in 0..per_combo {
                    let mut rng = SeededRng::new(((v as u64) << 40) ^ ((players as u64) << 32) ^ g);
                    let start = soleils::Soleils::start(variant, players, &());
                    let soleils::Event::Started(payload) = &start else {
                        unreachable!()
                    };
                    let mut state = soleils::setup(payload).unwrap();
                    assert_eq!(state, soleils::Soleils::table(variant, players, &()));
                    let mut twin = state.clone();
                    loop {
                        soleils::legal_actions(&state, &mut legal);
                        if legal.is_empty() {
                            break;
                        }
                        states += 1;
                        let superset = states % SUPERSET_EVERY == 0;
                        check_soleils_state(&mut state, &legal, &mut rng, superset, &mut spare);
                        let action = pick(&mut rng, &legal);
                        let event = soleils::describe(&state, action);
                        soleils::apply_action(&mut state, action).unwrap();
                        soleils::apply(&mut twin, &event).unwrap();
                        if superset {
                            assert_eq!(state, twin, "{event:?}");
                        }
                    }
                    assert!(state.ended().is_some());
                    assert_eq!(state, twin);
                    assert_eq!(soleils::score(&state), soleils::score(&twin));
                    games += 1;
                }
            }
        }
        assert!(games >= GAMES, "{games} games");
        assert!(states > 100 * GAMES as usize, "{states} states");
    }

    // ---------------------------------------------------------------- Summertime
}

fn summertime_superset(state: &summertime::State) -> Vec<summertime::Action> {
    use summertime::Action::*;
    let cards = state.deck().cards().len();
    let mut all = vec![Discard];
    for player in (0..2).map(Seat::new) {
        all.extend([EndTurn { player }, Flip { player }, Pass { player }]);
        for card in (0..cards).map(CardIx::new) {
            all.push(Buy { player, card });
        }
    }
    let player = Seat::new(state.active());
    let hand: Vec<CardIx> = state.players()[state.active()]
        .hand
        .iter()
        .map(|&c| CardIx::new(c))
        .collect();
    let cells: Vec<(i32, i32)> = if state.grid().is_empty() {
        vec![(0, 0), (1, 0), (0, -1)]
    } else {
        let (mut x0, mut y0, mut x1, mut y1) = (0, 0, 0, 0);
        for &(x, y) in state.grid().keys() {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        (x0 - 2..=x1 + 2)
            .flat_map(|x| (y0 - 2..=y1 + 2).map(move |y| (x, y)))
            .collect()
    };
    for &card in hand.iter().chain(&[CardIx::new(0), CardIx::new(cards - 1)]) {
        for &cell in &cells {
            all.push(Play { player, card, cell });
        }
    }
    for stack in 0..4u8 {
        for c in 0..cards {
            let card = CardIx::new(c);
            all.push(Reveal {
                stack,
                card,
                behind: None,
            });
            all.push(Reveal {
                stack,
                card,
                behind: Some([c as u32 % 3, 1, 0]),
            });
        }
    }
    all
}

/// The action as the legal list gives it: a declared back's items sorted,
/// as any order of the same items is the same back.
fn canonical(action: summertime::Action) -> summertime::Action {
    match action {
        summertime::Action::Reveal {
            stack,
            card,
            behind: Some(mut items),
        } => {
            items.sort_unstable();
            summertime::Action::Reveal {
                stack,
                card,
                behind: Some(items),
            }
        }
        other => other,
    }
}

fn check_summertime_state(
    state: &summertime::State,
    legal: &[summertime::Action],
    rng: &mut SeededRng,
    superset: bool,
) {
    let one = [pick(rng, legal)];
    let legal_checked = if superset { legal } else { &one[..] };
    for &action in legal_checked {
        let event = summertime::describe(state, action);
        assert_eq!(summertime::resolve(state, &event), Ok(action), "{event:?}");
        assert!(summertime::is_legal(state, action), "{action:?}");
        if let Some(p) = action.player() {
            let total = summertime::total_after(state, action).expect("a legal action");
            let mut after = state.clone();
            summertime::apply_action(&mut after, action).unwrap();
            assert_eq!(total, summertime::total_of(&after, p), "{action:?}");
        }
    }
    if superset {
        let superset = summertime_superset(state);
        for &action in &superset {
            let listed = legal.contains(&canonical(action));
            assert_eq!(summertime::is_legal(state, action), listed, "{action:?}");
        }
        // Applying is slower: a sample of the superset, and every listed one.
        for _ in 0..APPLIED_PER_STATE {
            let action = pick(rng, &superset);
            let listed = legal.contains(&canonical(action));
            let mut copy = state.clone();
            let applied = summertime::apply_action(&mut copy, action);
            assert_eq!(applied.is_ok(), listed, "{action:?}");
            if applied.is_err() {
                assert_eq!(copy, *state, "a rejected {action:?} changed the state");
            }
        }
    }
}

fn summertime_variants() -> Vec<SummertimeVariant> {
    let mild = std::fs::read_to_string("tests/templates/valid/deck-mild-penalty.json").unwrap();
    let mild = serde_json::from_str(&mild).unwrap();
    vec![
        SummertimeVariant::bundled(),
        SummertimeVariant::new("deck-mild-penalty.json", mild).unwrap(),
    ]
}

/// A physical game's start: the cards are entered as they are turned up.
fn physical_start(variant: &SummertimeVariant, rng: &mut SeededRng) -> summertime::Start {
    summertime::Start {
        format: 1,
        game: "summertime".into(),
        players: vec!["Ann".into(), "Bob".into()],
        first: "Bob".into(),
        deck: variant.raw.clone(),
        order: summertime::Order::Physical {
            closing_up: [0; 3].map(|_| rng.below(2) as u8),
        },
    }
}

#[test]
fn summertime_actions_agree_with_the_events_they_replace() {
    let variants = summertime_variants();
    let per_variant = GAMES.div_ceil(variants.len() as u64);
    let mut games = 0;
    let mut states = 0;
    let mut legal = Vec::new();
    for (v, variant) in variants.iter().enumerate() {
        for g in 0..per_variant {
            let mut rng = SeededRng::new(((v as u64) << 40) ^ g);
            // One game in eight is physical: cards are entered as revealed.
            let mut state = if g % 8 == 7 {
                summertime::setup(&physical_start(variant, &mut rng)).unwrap()
            } else {
                let deal = summertime::Summertime::deal(variant, 2, &mut rng);
                let start = summertime::Summertime::start(variant, 2, &deal);
                let summertime::Event::Started(payload) = &start else {
                    unreachable!()
                };
                let state = summertime::setup(payload).unwrap();
                assert_eq!(state, summertime::Summertime::table(variant, 2, &deal));
                state
            };
            let mut twin = state.clone();
            loop {
                summertime::legal_actions(&state, &mut legal);
                if legal.is_empty() {
                    break;
                }
                states += 1;
                let superset = states % SUPERSET_EVERY == 0;
                check_summertime_state(&state, &legal, &mut rng, superset);
                let action = pick(&mut rng, &legal);
                let event = summertime::describe(&state, action);
                summertime::apply_action(&mut state, action).unwrap();
                summertime::apply(&mut twin, &event).unwrap();
                if superset {
                    assert_eq!(state, twin, "{event:?}");
                }
            }
            assert_eq!(state, twin);
            // A physical game can reach a reveal that no card can match:
            // the backs declared at random promised a cost no unseen card
            // has. A dealt game always ends.
            assert!(state.ended().is_some() || !state.is_dealt());
            assert_eq!(summertime::score(&state), summertime::score(&twin));
            games += 1;
        }
    }
    assert!(games >= GAMES, "{games} games");
    assert!(states > 50 * GAMES as usize, "{states} states");
}
