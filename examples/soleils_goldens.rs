//! Writes the golden 62 Soleils replays in `replays/`.
//!
//! `cargo run --example soleils_goldens` plays seeded games with a weighted
//! policy that only ever picks among `legal_events`, searches seeds until a
//! game covers what its replay must exercise, and writes it. The files are
//! data: the test harness reads them, and nothing regenerates them in CI.
//! The files in `replays/` were written in log format 1 and are kept as
//! they are, as old logs to replay; this writes the current format.

use chrono::{DateTime, Duration, FixedOffset};
use sunfold::kit::rng::SeededRng;
use sunfold::log::{Envelope, to_line};
use sunfold::soleils::template::RawTemplate;
use sunfold::soleils::*;

/// How a seat plays.
#[derive(Clone, Copy)]
struct Style {
    /// Prefer small dice on the sun (slow games) or large ones (fast games).
    big_sun: bool,
    skip_percent: u64,
    decline_crab_percent: u64,
    decline_bonus_percent: u64,
}

#[derive(Default, Debug)]
struct Coverage {
    crab_copies: usize,
    crab_declines: usize,
    frog_suns: usize,
    bonus_placed: usize,
    bonus_declined: usize,
    voluntary_skips: usize,
    blocked_skips: usize,
    pearls: usize,
    flags: usize,
}

fn left_over(dice: [u8; 3], pearl: u8, value: u8) -> u8 {
    let mut rest = dice.to_vec();
    rest.remove(rest.iter().position(|&d| d == pearl).unwrap());
    rest.remove(rest.iter().position(|&d| d == value).unwrap());
    rest[0]
}

fn choose(rng: &mut SeededRng, state: &State, styles: &[Style], legal: &[Event]) -> Event {
    if let Event::Rolled(_) = legal[0] {
        let dice = [rng.die(), rng.die(), rng.die()].map(|d| Die::new(d).unwrap());
        return Event::Rolled(Rolled { dice });
    }
    let waiting: Vec<&str> = state
        .players()
        .iter()
        .map(|p| p.name.as_str())
        .filter(|name| legal.iter().any(|e| e.player() == Some(name)))
        .collect();
    let name = waiting[rng.below(waiting.len() as u64) as usize];
    let p = state.player_index(name).unwrap();
    let style = styles[p];
    let mine: Vec<&Event> = legal.iter().filter(|e| e.player() == Some(name)).collect();
    let any = |rng: &mut SeededRng, events: &[&Event]| {
        events[rng.below(events.len() as u64) as usize].clone()
    };
    let placements: Vec<&Event> = mine
        .iter()
        .copied()
        .filter(|e| matches!(e, Event::Placed(_)))
        .collect();
    let suns: Vec<&Event> = mine
        .iter()
        .copied()
        .filter(|e| matches!(e, Event::SunEntered(_)))
        .collect();
    let template = state.template();
    match mine[0] {
        Event::Placed(_) | Event::SunEntered(_) if !placements.is_empty() => {
            if !suns.is_empty() && rng.chance(style.skip_percent) {
                return any(rng, &suns);
            }
            let dice = state.dice().unwrap();
            let sun_of = |e: &Event| match e {
                Event::Placed(pl) => {
                    let b = template.box_index(&pl.box_id).unwrap();
                    left_over(dice, template.boxes()[b].pearl, pl.value.get())
                }
                _ => 0,
            };
            let best = placements.iter().map(|e| sun_of(e)).fold(
                if style.big_sun { 0 } else { 7 },
                |a, b| {
                    if style.big_sun { a.max(b) } else { a.min(b) }
                },
            );
            let good: Vec<&Event> = placements
                .iter()
                .copied()
                .filter(|e| sun_of(e) == best)
                .collect();
            let pearly: Vec<&Event> = good
                .iter()
                .copied()
                .filter(|e| match e {
                    Event::Placed(pl) => {
                        template.boxes()[template.box_index(&pl.box_id).unwrap()].pearl
                            == pl.value.get()
                    }
                    _ => false,
                })
                .collect();
            if !pearly.is_empty() && rng.chance(60) {
                any(rng, &pearly)
            } else {
                any(rng, &good)
            }
        }
        Event::SunEntered(_) => {
            let value = |e: &Event| match e {
                Event::SunEntered(s) => s.value.get(),
                _ => 0,
            };
            let pick = if style.big_sun {
                suns.iter().max_by_key(|e| value(e))
            } else {
                suns.iter().min_by_key(|e| value(e))
            };
            (*pick.unwrap()).clone()
        }
        Event::CrabCopied(_) | Event::CrabDeclined(_) => {
            let copies: Vec<&Event> = mine
                .iter()
                .copied()
                .filter(|e| matches!(e, Event::CrabCopied(_)))
                .collect();
            if copies.is_empty() || rng.chance(style.decline_crab_percent) {
                Event::CrabDeclined(PlayerOnly {
                    player: name.into(),
                })
            } else {
                any(rng, &copies)
            }
        }
        Event::BonusPlaced(_) | Event::BonusDeclined(_) => {
            let places: Vec<&Event> = mine
                .iter()
                .copied()
                .filter(|e| matches!(e, Event::BonusPlaced(_)))
                .collect();
            if places.is_empty() || rng.chance(style.decline_bonus_percent) {
                Event::BonusDeclined(PlayerOnly {
                    player: name.into(),
                })
            } else {
                any(rng, &places)
            }
        }
        other => other.clone(),
    }
}

fn play(seed: u64, start: &Start, styles: &[Style]) -> (Vec<Event>, State, Coverage) {
    let mut rng = SeededRng::new(seed);
    let mut state = setup(start).unwrap();
    let mut events = vec![Event::Started(start.clone())];
    let mut coverage = Coverage::default();
    loop {
        let legal = legal_events(&state);
        if legal.is_empty() {
            break;
        }
        let event = choose(&mut rng, &state, styles, &legal);
        if let Event::SunEntered(s) = &event {
            let p = state.player_index(&s.player).unwrap();
            let turn = state.players()[p].turn;
            match turn.placed {
                None if legal
                    .iter()
                    .any(|e| matches!(e, Event::Placed(pl) if pl.player == s.player)) =>
                {
                    coverage.voluntary_skips += 1
                }
                None => coverage.blocked_skips += 1,
                Some(_) if turn.frog => coverage.frog_suns += 1,
                Some(_) => {}
            }
        }
        match &event {
            Event::CrabCopied(_) => coverage.crab_copies += 1,
            Event::CrabDeclined(_) => coverage.crab_declines += 1,
            Event::BonusPlaced(_) => coverage.bonus_placed += 1,
            Event::BonusDeclined(_) => coverage.bonus_declined += 1,
            _ => {}
        }
        apply(&mut state, &event).expect("the policy picks legal events");
        events.push(event);
    }
    for line in score(&state) {
        coverage.pearls += line.pearls as usize;
    }
    coverage.flags = state
        .players()
        .iter()
        .map(|p| p.zones_done.iter().filter(|&&d| d).count())
        .sum();
    (events, state, coverage)
}

fn write(path: &str, events: &[Event], start_at: Option<DateTime<FixedOffset>>) {
    let mut text = String::new();
    for (seq, event) in events.iter().enumerate() {
        let at = start_at.map(|t| t + Duration::seconds(20 * seq as i64));
        text.push_str(&to_line(&Envelope {
            seq: seq as u64,
            at,
            prev: None,
            by: None,
            event: event.clone(),
        }));
    }
    std::fs::write(path, text).unwrap();
    println!("wrote {path}: {} events", events.len());
}

struct Golden {
    path: &'static str,
    players: &'static [&'static str],
    options: Options,
    styles: fn(usize) -> Style,
    accept: fn(&State, &Coverage) -> bool,
    timestamps: bool,
}

fn main() {
    let template: RawTemplate = serde_json::from_str(
        &std::fs::read_to_string("sheet-templates/62-soleils-d-ete.json").unwrap(),
    )
    .unwrap();
    let calm = |_| Style {
        big_sun: false,
        skip_percent: 4,
        decline_crab_percent: 25,
        decline_bonus_percent: 30,
    };
    let goldens = [
        Golden {
            path: "replays/soleils-2p-round-limit.jsonl",
            players: &["Ann", "Bob"],
            options: Options {
                sun_bonus: SunBonus::ReachOrPass,
                skip_placement: SkipPlacement::Voluntary,
                sailboats: Sailboats::Symbol,
                solo: false,
            },
            styles: calm,
            accept: |s, c| {
                matches!(s.ended(), Some(EndReason::RoundLimit { .. }))
                    && c.crab_copies > 0
                    && c.crab_declines > 0
                    && c.frog_suns > 0
                    && c.bonus_placed > 0
                    && c.bonus_declined > 0
                    && c.voluntary_skips > 0
                    && c.blocked_skips > 0
                    && c.flags > 0
            },
            timestamps: false,
        },
        Golden {
            path: "replays/soleils-4p-sun-limit.jsonl",
            players: &["Fanny", "Théo", "Maxime", "Hervine"],
            options: Options {
                sun_bonus: SunBonus::Exact,
                skip_placement: SkipPlacement::OnlyWhenBlocked,
                sailboats: Sailboats::Symbol,
                solo: false,
            },
            styles: |p| Style {
                big_sun: p == 0,
                skip_percent: 0,
                decline_crab_percent: 20,
                decline_bonus_percent: 0,
            },
            accept: |s, c| {
                matches!(s.ended(), Some(EndReason::SunLimit { .. }))
                    && s.round() < 20
                    && c.crab_copies > 0
                    && c.frog_suns > 0
                    && c.bonus_placed > 0
                    && c.flags > 0
            },
            timestamps: true,
        },
        Golden {
            path: "replays/soleils-12p.jsonl",
            players: &[
                "Ann", "Bob", "Chloé", "Dmitri", "Elif", "Femi", "Gao", "Hana", "Ines", "Jonas",
                "Kwame", "Lea",
            ],
            options: Options {
                sun_bonus: SunBonus::ReachOrPass,
                skip_placement: SkipPlacement::Voluntary,
                sailboats: Sailboats::Symbol,
                solo: false,
            },
            styles: |p| Style {
                big_sun: p % 3 == 0,
                skip_percent: 3,
                decline_crab_percent: 25,
                decline_bonus_percent: 20,
            },
            accept: |_, c| {
                c.crab_copies > 0
                    && c.crab_declines > 0
                    && c.frog_suns > 0
                    && c.bonus_placed > 0
                    && c.bonus_declined > 0
                    && c.voluntary_skips > 0
                    && c.blocked_skips > 0
                    && c.flags > 2
            },
            timestamps: false,
        },
    ];
    for golden in goldens {
        let start = Start {
            format: sunfold::log::LOG_FORMAT,
            game: "soleils".into(),
            players: golden.players.iter().map(|s| s.to_string()).collect(),
            options: golden.options,
            template: template.clone(),
            dice_seed: None,
        };
        let styles: Vec<Style> = (0..golden.players.len()).map(golden.styles).collect();
        let found = (1..10_000).find_map(|seed| {
            let (events, state, coverage) = play(seed, &start, &styles);
            (golden.accept)(&state, &coverage).then_some((seed, events, coverage))
        });
        let (seed, events, coverage) = found.expect("some seed covers every rule");
        println!("{}: seed {seed}, {coverage:?}", golden.path);
        let at = golden
            .timestamps
            .then(|| DateTime::parse_from_rfc3339("2026-07-14T15:00:00+02:00").unwrap());
        write(golden.path, &events, at);
    }
}
