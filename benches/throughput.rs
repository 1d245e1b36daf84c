//! `cargo bench`: the throughput of the rules, side by side with baselines
//! in one process, so that a ratio survives a noisy machine.
//!
//! - `games`: random and greedy bots, one thread, 4-player 62 Soleils and
//!   Summertime; criterion reports games per second.
//! - `audit`: the same lines of simulated 62 Soleils logs decoded by
//!   serde_json into `IgnoredAny` (a parse-only pass, the baseline) and
//!   audited by sunfold (decode, hash chain, rules); criterion reports
//!   events per second for both, and their ratio is the figure that counts.
//!
//! - `rollout policy`: the greedy rollout of 4-player 62 Soleils from
//!   mid-game states, side by side with its look-ahead as the rules core
//!   gives it (`total_after`: the rewards worked out, nothing written) and
//!   as it was first written (`total_after_applying`: the action applied
//!   to the sheet and swapped back, the pearls counted box by box). Both
//!   pick the same actions; their ratio is the look-ahead's share.
//! - `search`: rollouts per second from mid-game states, search decisions
//!   per second at the default budget, both on 4-player 62 Soleils and
//!   Summertime; `search games`: games per second with the search bot in
//!   every seat. Compare them with `games` above, in the same run.
//!
//! - `studio`: the time from an edit to the studio's first figures (its
//!   quick simulation's first games, three versions of the bundled sheet
//!   played on the same dice, and the reports built), side by side with
//!   the same games played alone, whose ratio is the reports' share.
//!
//! - `serve`: the CPU of one `GET /api/view` of the live table server,
//!   answered in-process by its router (no socket), at a 4-player 62
//!   Soleils table in mid-game: a player's view, the referee's (every
//!   sheet), and a player's view of a page that holds its drawing
//!   (`?have=HASH`) when nothing changed; and one sheet drawn as a view
//!   draws it (wide and for a phone), what a view costs when it must draw.
//!
//! docs/performance.md records the figures and what they are measured
//! against.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use std::hint::black_box;
use sunfold::bots::Simulated;
use sunfold::bots::{
    Bot, DEFAULT_ROLLOUTS, Searched, Searcher, SoleilsVariant, SummertimeVariant, play,
};
use sunfold::kit::rng::SeededRng;
use sunfold::log::{Fold, LineReader, chained_log};
use sunfold::soleils::{self, Soleils};
use sunfold::summertime::Summertime;

fn games(c: &mut Criterion) {
    let soleils = SoleilsVariant::bundled();
    let summertime = SummertimeVariant::bundled();
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(1));
    for bot in [Bot::Random, Bot::Greedy] {
        let mut seed = 0;
        group.bench_function(BenchmarkId::new("soleils-4p", bot.name()), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play::<Soleils>(&soleils, 4, &[bot], seed).totals)
            })
        });
        let mut seed = 0;
        group.bench_function(BenchmarkId::new("summertime", bot.name()), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play::<Summertime>(&summertime, 2, &[bot], seed).totals)
            })
        });
    }
    group.finish();
}

fn audit(c: &mut Criterion) {
    let soleils = SoleilsVariant::bundled();
    let logs: Vec<String> = (0..200)
        .map(|seed| {
            chained_log(&play::<Soleils>(&soleils, 4, &[Bot::Random], seed).events(&soleils))
        })
        .collect();
    let events: u64 = logs.iter().map(|l| l.lines().count() as u64).sum();
    let mut group = c.benchmark_group("audit");
    group.throughput(Throughput::Elements(events));
    group.bench_function("serde_json parse only", |b| {
        b.iter(|| {
            for log in &logs {
                for line in log.lines() {
                    let parsed: IgnoredAny = serde_json::from_str(line).unwrap();
                    black_box(parsed);
                }
            }
        })
    });
    group.bench_function("sunfold audit", |b| {
        b.iter(|| {
            let mut folded = 0;
            for log in &logs {
                let mut lines = LineReader::new(log.as_bytes());
                let first = lines.next_line().unwrap().unwrap();
                let (mut fold, _) = Fold::<Soleils>::start(&first).unwrap();
                while let Some(line) = lines.next_line().unwrap() {
                    fold.feed(&line).unwrap();
                }
                folded += fold.events();
            }
            assert_eq!(folded, events);
        })
    });
    group.finish();
}

/// States from the middle of seeded greedy games, each with a seat that
/// decides there and one of its legal actions.
fn midgame<G: Searched>(
    variant: &G::Variant,
    players: usize,
    count: u64,
) -> Vec<(G::State, usize, G::Action)> {
    (0..count)
        .filter_map(|seed| {
            let result = play::<G>(variant, players, &[Bot::Greedy], seed);
            let mut state = G::table(variant, players, &result.deal);
            let mut deciders = Vec::new();
            let mut options = Vec::new();
            for (i, &action) in result.actions.iter().enumerate() {
                G::deciders(&state, &mut deciders);
                if i >= result.actions.len() / 2
                    && let Some(&seat) = deciders.first()
                {
                    G::options(&state, seat, &mut options);
                    return Some((state, seat, options[0]));
                }
                G::apply_action(&mut state, action).unwrap();
            }
            None
        })
        .collect()
}

/// The greedy bot's rollout of 62 Soleils from `state` to the end, as
/// `sim::run::playout` plays it (the same streams, the same ties), with
/// the look-ahead of the rules core (`old`: false) or its first version
/// (`old`: true). Gives the final totals.
fn greedy_rollout(
    state: &mut soleils::State,
    seed: u64,
    old: bool,
    buffers: &mut (Vec<soleils::Action>, Vec<soleils::Action>, Vec<usize>),
    spare: &mut soleils::Player,
) -> u32 {
    let (options, picks, deciders) = buffers;
    let mut chance = SeededRng::new(seed);
    let mut order = SeededRng::new(seed ^ 0x0B07_5EED_0B07_5EED);
    let mut seats: Vec<SeededRng> = (0..state.players().len() as u64)
        .map(|p| SeededRng::new(seed ^ (p + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)))
        .collect();
    loop {
        let action = if let Some(action) = Soleils::chance(state, &mut chance) {
            action
        } else {
            Soleils::deciders(state, deciders);
            if deciders.is_empty() {
                break;
            }
            let p = deciders[order.below(deciders.len() as u64) as usize];
            soleils::legal_actions_for(state, p, options);
            let before = if old {
                soleils::total_counting_pearls(state, p)
            } else {
                soleils::total_of(state, p)
            };
            let mut best = f64::MIN;
            picks.clear();
            for &action in options.iter() {
                let after = if old {
                    soleils::total_after_applying(state, action, spare)
                } else {
                    soleils::total_after(state, action)
                };
                let Some(after) = after else { continue };
                let value =
                    f64::from(after) - f64::from(before) + Soleils::heuristic(state, action);
                if value > best + 1e-9 {
                    best = value;
                    picks.clear();
                }
                if (value - best).abs() <= 1e-9 {
                    picks.push(action);
                }
            }
            picks.swap_remove(seats[p].below(picks.len() as u64) as usize)
        };
        soleils::apply_action(state, action).unwrap();
    }
    (0..state.players().len())
        .map(|p| soleils::total_of(state, p))
        .sum()
}

/// The greedy rollout with the rules core's look-ahead against the same
/// rollout with its first version, interleaved over the same states and
/// seeds.
fn rollout_policy(c: &mut Criterion) {
    let soleils = SoleilsVariant::bundled();
    let states = midgame::<Soleils>(&soleils, 4, 16);
    let mut table = states[0].0.clone();
    let mut spare = table.players()[0].clone();
    let mut buffers = Default::default();
    // The two pick the same actions: the same rollouts, the same totals.
    for (j, (state, _, _)) in states.iter().enumerate() {
        let totals = [false, true].map(|old| {
            table.clone_from(state);
            greedy_rollout(&mut table, j as u64, old, &mut buffers, &mut spare)
        });
        assert_eq!(totals[0], totals[1], "the look-aheads disagree");
    }
    let mut group = c.benchmark_group("rollout policy");
    group.throughput(Throughput::Elements(1));
    for (name, old) in [("total_after", false), ("total_after_applying", true)] {
        let mut j = 0u64;
        group.bench_function(BenchmarkId::new("soleils-4p", name), |b| {
            b.iter(|| {
                j += 1;
                table.clone_from(&states[(j % states.len() as u64) as usize].0);
                black_box(greedy_rollout(&mut table, j, old, &mut buffers, &mut spare))
            })
        });
    }
    group.finish();
}

/// The search bot's costs on one core: rollouts from mid-game states,
/// decisions at the default budget, and whole games with a search bot in
/// every seat, beside the random and greedy games of `games`.
fn search(c: &mut Criterion) {
    fn rollouts<G: Searched>(c: &mut Criterion, name: &str, variant: &G::Variant, players: usize) {
        let states = midgame::<G>(variant, players, 16);
        let mut group = c.benchmark_group("search");
        group.throughput(Throughput::Elements(1));
        let mut searcher = Searcher::<G>::new();
        let mut j = 0u64;
        group.bench_function(BenchmarkId::new("rollout", name), |b| {
            b.iter(|| {
                j += 1;
                let (state, seat, action) = &states[(j % states.len() as u64) as usize];
                black_box(searcher.rollout(state, *seat, *action, 7, j))
            })
        });
        let mut states: Vec<_> = states.into_iter().map(|(s, p, _)| (s, p)).collect();
        let mut rng = SeededRng::new(3);
        let mut i = 0;
        group.bench_function(
            BenchmarkId::new(format!("decision search:{DEFAULT_ROLLOUTS}"), name),
            |b| {
                b.iter(|| {
                    i += 1;
                    let n = states.len();
                    let (state, seat) = &mut states[i % n];
                    black_box(searcher.choose(state, *seat, DEFAULT_ROLLOUTS, &mut rng))
                })
            },
        );
        group.finish();
    }
    let soleils = SoleilsVariant::bundled();
    let summertime = SummertimeVariant::bundled();
    rollouts::<Soleils>(c, "soleils-4p", &soleils, 4);
    rollouts::<Summertime>(c, "summertime", &summertime, 2);
    let mut group = c.benchmark_group("search games");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    let bot = Bot::Search(DEFAULT_ROLLOUTS);
    let mut seed = 0;
    group.bench_function(BenchmarkId::new("soleils-4p", bot.name()), |b| {
        b.iter(|| {
            seed += 1;
            black_box(play::<Soleils>(&soleils, 4, &[bot], seed).totals)
        })
    });
    let mut seed = 0;
    group.bench_function(BenchmarkId::new("summertime", bot.name()), |b| {
        b.iter(|| {
            seed += 1;
            black_box(play::<Summertime>(&summertime, 2, &[bot], seed).totals)
        })
    });
    group.finish();
}

fn studio(c: &mut Criterion) {
    use sunfold::studio::figures::{FIRST, Settings, first_figures};
    let opened: serde_json::Value =
        serde_json::from_str(include_str!("../sheet-templates/62-soleils-d-ete.json")).unwrap();
    let mut before = opened.clone();
    before["end"]["rounds"] = serde_json::json!(18);
    let mut now = before.clone();
    now["sun"]["thresholds"][4]["at"] = serde_json::json!(44);
    let settings = Settings::default();
    let mut group = c.benchmark_group("studio");
    group.sample_size(20);
    group.bench_function("first figures after an edit", |b| {
        b.iter(|| {
            black_box(
                first_figures(&opened, &before, &now, &settings)
                    .unwrap()
                    .played,
            )
        })
    });
    let variants: Vec<SoleilsVariant> = [&opened, &before, &now]
        .into_iter()
        .map(|v| {
            SoleilsVariant::new(
                "bench",
                serde_json::from_value(v.clone()).unwrap(),
                Default::default(),
            )
            .unwrap()
        })
        .collect();
    group.bench_function("the same games alone", |b| {
        b.iter(|| {
            for i in 0..FIRST {
                for variant in &variants {
                    black_box(
                        play::<Soleils>(
                            variant,
                            4,
                            &[Bot::Greedy],
                            sunfold::workbench::game_seed(1, i),
                        )
                        .totals,
                    );
                }
            }
        })
    });
    group.finish();
}

fn serve(c: &mut Criterion) {
    use axum::body::Body;
    use axum::http::{Request, header};
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("match.jsonl");
    // Half the golden game: mid-game, every sheet part written.
    let golden = include_str!("../replays/soleils-4p-sun-limit.jsonl");
    let half: Vec<&str> = golden.lines().take(60).collect();
    std::fs::write(&log, format!("{}\n", half.join("\n"))).unwrap();
    let names: Vec<String> = ["Fanny", "Théo", "Maxime", "Hervine"]
        .map(str::to_owned)
        .to_vec();
    let tokens = sunfold::serve::Tokens::new(&names).unwrap();
    let router = runtime.block_on(async {
        sunfold::serve::app(log.clone(), sunfold::log::GameKind::Soleils, tokens.clone())
    });
    let view = |path: &str, token: &str| {
        let request = Request::get(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        runtime.block_on(async {
            let response = router.clone().oneshot(request).await.unwrap();
            assert!(response.status().is_success());
            response.into_body().collect().await.unwrap().to_bytes()
        })
    };
    let player = tokens.players["Fanny"].clone();
    let referee = tokens.referee.clone();
    let page: serde_json::Value = serde_json::from_slice(&view("/api/view", &player)).unwrap();
    let have = format!(
        "/api/view?have={}",
        page["panels"][0]["hash"].as_str().unwrap()
    );
    let mut group = c.benchmark_group("serve");
    group.sample_size(20);
    group.bench_function("player view", |b| {
        b.iter(|| black_box(view("/api/view", &player)))
    });
    group.bench_function("referee view", |b| {
        b.iter(|| black_box(view("/api/view", &referee)))
    });
    group.bench_function("player view, drawing held", |b| {
        b.iter(|| black_box(view(&have, &player)))
    });
    // What a view costs when its sheet must be drawn: the sheet, wide
    // and for a phone, as the server draws it.
    let mut recorder = sunfold::log::Recorder::open(&log).unwrap();
    let fold = recorder.lock().unwrap().fold::<Soleils>().ok().unwrap();
    group.bench_function("one sheet drawn, wide and for a phone", |b| {
        use sunfold::print::soleils::replay::{phone_sheet, viewer_sheet};
        use sunfold::render::scene::Scene;
        b.iter(|| {
            let state = fold.state();
            let wide = Scene {
                title: "Fanny's sheet".to_owned(),
                pages: viewer_sheet(state, 0),
            };
            let phone = Scene {
                title: "Fanny's sheet".to_owned(),
                pages: vec![phone_sheet(state, 0)],
            };
            black_box((
                sunfold::render::svg::to_svg(&wide).unwrap(),
                sunfold::render::svg::to_svg(&phone).unwrap(),
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, games, audit, rollout_policy, search, studio, serve);
criterion_main!(benches);
