//! The search bot: clearly stronger than greedy, which is clearly stronger
//! than random, in both games, at 2, 4 and 12 players on both bundled
//! sheets; it never reads what its seat cannot see; it is deterministic.
//! Seeded, never timed.

use crate::common;

use sunfold::bots::{
    Bot, Searched, Searcher, Simulated, SoleilsVariant, SummertimeVariant, lineup, play,
};
use sunfold::kit::game::Game;
use sunfold::kit::rng::SeededRng;
use sunfold::soleils::Soleils;
use sunfold::summertime::{self, Summertime};
use sunfold::workbench::{LadderGame, Skill, ladder};

/// Seat-rotated games of `weak` against `strong`, as the ladder scores them.
fn skill<G: Searched>(
    variant: &G::Variant,
    players: usize,
    weak: Bot,
    strong: Bot,
    games: u64,
) -> Skill {
    let bots = [weak, strong];
    let played: Vec<LadderGame> = (0..games)
        .map(|i| {
            let mut seats = Vec::new();
            lineup(&bots, players, i, &mut seats);
            let result = play::<G>(variant, players, &seats, 1000 + i);
            LadderGame {
                seats: seats.iter().map(|&b| usize::from(b == strong)).collect(),
                totals: result.totals,
            }
        })
        .collect();
    ladder(
        G::NAME,
        G::TITLE,
        players,
        7,
        G::variant_info(variant),
        &bots,
        &played,
    )
    .skill
}

/// The stronger bot wins more than half of the seat-against-seat matches,
/// and the 95% interval leaves out a half.
fn assert_stronger<G: Searched>(
    variant: &G::Variant,
    players: usize,
    weak: Bot,
    strong: Bot,
    games: u64,
) {
    let s = skill::<G>(variant, players, weak, strong, games);
    assert!(
        s.win_share.ci95[0] > 0.5,
        "{} against {} at {players} players: {:?}",
        strong.name(),
        weak.name(),
        s.win_share
    );
}

fn sheet(name: &str) -> SoleilsVariant {
    let path = common::repo().join("sheet-templates").join(name);
    let raw = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    SoleilsVariant::new(name, raw, Default::default()).unwrap()
}

#[test]
fn summertime_search_beats_greedy_beats_random() {
    let v = SummertimeVariant::bundled();
    assert_stronger::<Summertime>(&v, 2, Bot::Random, Bot::Greedy, 60);
    assert_stronger::<Summertime>(&v, 2, Bot::Greedy, Bot::Search(8), 40);
}

#[test]
fn soleils_search_beats_greedy_beats_random_at_2_players() {
    for name in ["62-soleils-d-ete.json", "petit-ete.json"] {
        let v = sheet(name);
        assert_stronger::<Soleils>(&v, 2, Bot::Random, Bot::Greedy, 60);
        assert_stronger::<Soleils>(&v, 2, Bot::Greedy, Bot::Search(32), 100);
    }
}

#[test]
fn soleils_search_beats_greedy_beats_random_at_4_players() {
    for name in ["62-soleils-d-ete.json", "petit-ete.json"] {
        let v = sheet(name);
        assert_stronger::<Soleils>(&v, 4, Bot::Random, Bot::Greedy, 40);
        assert_stronger::<Soleils>(&v, 4, Bot::Greedy, Bot::Search(16), 48);
    }
}

#[test]
fn soleils_search_beats_greedy_beats_random_at_12_players() {
    for name in ["62-soleils-d-ete.json", "petit-ete.json"] {
        let v = sheet(name);
        assert_stronger::<Soleils>(&v, 12, Bot::Random, Bot::Greedy, 10);
        assert_stronger::<Soleils>(&v, 12, Bot::Greedy, Bot::Search(8), 30);
    }
}

/// A Summertime table some turns into a seeded game, for seat `active`.
pub(crate) fn summertime_midgame(seed: u64, turns: usize) -> summertime::State {
    let v = SummertimeVariant::bundled();
    let result = play::<Summertime>(&v, 2, &[Bot::Greedy], seed);
    let events = result.events(&v);
    let start = Summertime::as_start(&events[0]).unwrap();
    let mut state = Summertime::setup(start).unwrap();
    let mut ended_turns = 0;
    for event in &events[1..] {
        Summertime::apply(&mut state, event).unwrap();
        if matches!(event, summertime::Event::TurnEnded(_)) {
            ended_turns += 1;
        }
        if ended_turns >= turns && matches!(state.phase(), summertime::Phase::Turn { .. }) {
            break;
        }
    }
    state
}

/// The same table with what `seat` cannot see arranged otherwise: the
/// unseen cards permuted, each stack top swapped only with a card of the
/// same back, so that everything the seat sees stays the same.
pub(crate) fn rearranged(
    state: &summertime::State,
    seat: usize,
    rng: &mut SeededRng,
) -> summertime::State {
    let mut hidden = summertime::Hidden::default();
    summertime::hidden(state, seat, &mut hidden);
    // The real arrangement, read straight from the table.
    let other = 1 - seat;
    let bought: Vec<usize> = state
        .turns()
        .iter()
        .filter_map(|t| match t.action {
            summertime::TurnAction::Bought { card } if t.player == other => Some(card),
            _ => None,
        })
        .collect();
    let mut cards: Vec<usize> = Vec::new();
    for q in 0..2 {
        if q == other {
            cards.extend(
                state.players()[q]
                    .hand
                    .iter()
                    .filter(|c| !bought.contains(c)),
            );
        }
    }
    for stack in state.stacks() {
        cards.extend(&stack.cards);
    }
    assert_eq!(cards.len(), hidden.places());
    // Shuffle all but the stack tops; then the tops among cards of equal back.
    let hands: usize = hidden.hands.iter().sum();
    let mut tops = Vec::new();
    let mut at = hands;
    for s in 0..3 {
        if hidden.stacks[s] > 0 {
            tops.push(at);
        }
        at += hidden.stacks[s];
    }
    let free: Vec<usize> = (0..cards.len()).filter(|i| !tops.contains(i)).collect();
    for i in (1..free.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cards.swap(free[i], free[j]);
    }
    let deck = state.deck();
    for &top in &tops {
        let same: Vec<usize> = free
            .iter()
            .copied()
            .filter(|&i| deck.card(cards[i]).cost == deck.card(cards[top]).cost)
            .collect();
        if !same.is_empty() {
            let j = same[rng.below(same.len() as u64) as usize];
            cards.swap(top, j);
        }
    }
    let mut out = state.clone();
    summertime::fill(state, seat, &hidden, &cards, &mut out);
    out
}

#[test]
fn what_a_seat_cannot_see_never_changes_its_decision() {
    let mut rng = SeededRng::new(5);
    let mut changed_tables = 0;
    for seed in 0..12 {
        for turns in [0, 3, 8, 15] {
            let mut state = summertime_midgame(seed, turns);
            if !matches!(state.phase(), summertime::Phase::Turn { .. }) {
                continue;
            }
            let seat = state.active();
            let mut searcher = Searcher::<Summertime>::new();
            let decide = |state: &mut summertime::State, searcher: &mut Searcher<Summertime>| {
                searcher.choose(
                    state,
                    seat,
                    24,
                    &mut SeededRng::new(seed * 31 + turns as u64),
                )
            };
            let chosen = decide(&mut state, &mut searcher);
            for _ in 0..3 {
                let mut other = rearranged(&state, seat, &mut rng);
                if other.stacks() != state.stacks() {
                    changed_tables += 1;
                }
                assert_eq!(
                    decide(&mut other, &mut searcher),
                    chosen,
                    "seed {seed}, after {turns} turns: the decision read the hidden cards"
                );
            }
        }
    }
    assert!(changed_tables > 20, "the test permuted hidden cards");
}

#[test]
fn the_sample_keeps_what_the_seat_sees() {
    for seed in 0..20 {
        let state = summertime_midgame(seed, 6);
        let seat = state.active();
        let mut unseen = Default::default();
        let mut out = state.clone();
        let mut rng = SeededRng::new(seed);
        Summertime::sample(&state, seat, &mut unseen, &mut rng, &mut out);
        assert_eq!(out.players()[seat].hand, state.players()[seat].hand);
        assert_eq!(out.display(), state.display());
        assert_eq!(out.grid(), state.grid());
        for s in 0..3 {
            assert_eq!(
                out.price(s),
                state.price(s),
                "seed {seed}: stack {s}'s back"
            );
            assert_eq!(out.stacks()[s].cards.len(), state.stacks()[s].cards.len());
        }
        let mut legal = Vec::new();
        let mut legal_out = Vec::new();
        Summertime::options(&state, seat, &mut legal);
        Summertime::options(&out, seat, &mut legal_out);
        assert_eq!(legal, legal_out, "seed {seed}: the seat's choices");
    }
}

#[test]
fn search_games_are_the_same_for_the_same_seed_and_replay() {
    let v = SoleilsVariant::bundled();
    let bots = [Bot::Search(4), Bot::Greedy, Bot::Random];
    let a = play::<Soleils>(&v, 3, &bots, 9);
    let b = play::<Soleils>(&v, 3, &bots, 9);
    assert_eq!(a.actions, b.actions);
    assert_eq!(a.totals, b.totals);
    // The game replays from its log, event by event, to the same scores.
    let events = a.events(&v);
    let mut state = Soleils::setup(Soleils::as_start(&events[0]).unwrap()).unwrap();
    for event in &events[1..] {
        Soleils::apply(&mut state, event).unwrap();
    }
    let totals: Vec<i64> = (0..3).map(|p| Soleils::total(&state, p)).collect();
    assert_eq!(totals, a.totals);
    let v = SummertimeVariant::bundled();
    let a = play::<Summertime>(&v, 2, &[Bot::Search(4), Bot::Greedy], 9);
    let b = play::<Summertime>(&v, 2, &[Bot::Search(4), Bot::Greedy], 9);
    assert_eq!(a.actions, b.actions);
}

#[test]
fn every_seat_sees_the_lineup_from_every_place_in_it_equally_often() {
    let bots = [Bot::Random, Bot::Greedy, Bot::Search(8)];
    for players in [2, 3, 4, 12] {
        let mut count = vec![vec![0; bots.len()]; players];
        let cycle = if players >= bots.len() {
            players as u64
        } else {
            3 * players as u64
        };
        let mut seats = Vec::new();
        for i in 0..cycle * 4 {
            lineup(&bots, players, i, &mut seats);
            for (s, bot) in seats.iter().enumerate() {
                count[s][bots.iter().position(|b| b == bot).unwrap()] += 1;
            }
        }
        // Each seat sees the lineup from every place in it equally often:
        // every seat holds each bot as often as the others do (a bot that
        // the lineup repeats, more often than a bot it does not).
        for row in &count {
            assert_eq!(row, &count[0], "{players} players: {count:?}");
        }
        if players % bots.len() == 0 || players < bots.len() {
            for row in &count {
                assert!(
                    row.iter().all(|&c| c == row[0]),
                    "{players} players: {count:?}"
                );
            }
        }
    }
}

#[test]
fn bot_names_are_checked_with_a_suggestion() {
    assert_eq!(
        Bot::parse("search").unwrap(),
        Bot::Search(sunfold::bots::DEFAULT_ROLLOUTS)
    );
    assert_eq!(Bot::parse("search:50").unwrap(), Bot::Search(50));
    let messages: Vec<String> = ["search:0", "search:abc", "serch", "greedy:3", ""]
        .iter()
        .map(|b| format!("{b:?}: {}", Bot::parse(b).unwrap_err()))
        .collect();
    common::snapshots().bind(|| insta::assert_snapshot!("search__bot_names", messages.join("\n")));
}

#[test]
fn simulate_with_search_bots_is_the_same_on_one_and_two_threads() {
    let run = |jobs: &str| {
        common::sunfold(&[
            "simulate",
            "summertime",
            "--games",
            "24",
            "--bot",
            "search:4,greedy",
            "--jobs",
            jobs,
            "--format",
            "json",
        ])
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.0, 0, "{}", one.2);
    assert_eq!(one.1, two.1);
    let run = |jobs: &str| {
        common::sunfold(&[
            "compare",
            "soleils",
            "--players",
            "3",
            "--games",
            "12",
            "--bot",
            "search:4,greedy,random",
            "--b-option",
            "sun_bonus=exact",
            "--jobs",
            jobs,
        ])
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.0, 0, "{}", one.2);
    assert_eq!(one.1, two.1);
    assert!(one.1.contains("skill: search:4 beats random"), "{}", one.1);
}

/// The bundled 4-player match stopped after event 40: a match in progress.
fn half_match(test: &str) -> String {
    let half = common::fresh(test, "half.jsonl");
    let replay =
        std::fs::read_to_string(common::repo().join("replays/soleils-4p-sun-limit.jsonl")).unwrap();
    let lines: Vec<&str> = replay.lines().take(41).collect();
    std::fs::write(&half, lines.join("\n") + "\n").unwrap();
    half
}

#[test]
fn bad_bots_are_refused_before_any_game() {
    let half = half_match("search-refusals");
    let mut out = Vec::new();
    for args in [
        &["simulate", "soleils", "--bot", "search:0"][..],
        &["simulate", "soleils", "--bot", "search:abc"],
        &["compare", "soleils", "--bot", "greedy,serch"],
        &["ladder", "soleils", "--bots", "random,random"],
        &["ladder", "soleils", "--bots", "greedy"],
        &[
            "analyse",
            "replays/soleils-4p-sun-limit.jsonl",
            "--bot",
            "greedy",
        ],
        &["hint", "replays/soleils-4p-sun-limit.jsonl"],
        &["hint", &half, "Nobody"],
        &["hint", &half, "Fanny"],
        &["analyse", "tests/bad/box-filled.jsonl", "--bot", "search:2"],
        &["hint", "missing.jsonl"],
    ] {
        let (code, stdout, stderr) = common::sunfold(args);
        assert!(stdout.is_empty(), "{args:?} printed {stdout}");
        let command = args.join(" ").replace(half.as_str(), "half.jsonl");
        let stderr = stderr.replace(half.as_str(), "half.jsonl");
        out.push(format!(
            "$ sunfold {command}\nexit {code}\n{}",
            stderr.trim_end()
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("search__refusals", out.join("\n\n")));
}

#[test]
fn a_hint_is_an_entry_that_append_takes() {
    let half = half_match("search-hint");
    let hint = || common::sunfold(&["hint", &half, "--bot", "search:8", "--format", "json"]);
    let (code, stdout, stderr) = hint();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(hint().1, stdout, "the same seed gives the same hint");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let hints = report["hints"].as_array().unwrap();
    assert!(!hints.is_empty());
    for hint in hints {
        let entry = serde_json::to_string(&hint["event"]).unwrap();
        let (code, _, stderr) = common::sunfold(&["append", &half, &entry]);
        assert_eq!(code, 0, "{entry}: {stderr}");
    }
}

#[test]
fn analyse_pins_the_golden_replays_with_a_small_budget() {
    let mut out = Vec::new();
    for replay in [
        "replays/soleils-4p-sun-limit.jsonl",
        "replays/summertime-rulebook-examples.jsonl",
    ] {
        let run = |jobs| common::sunfold(&["analyse", replay, "--bot", "search:4", "--jobs", jobs]);
        let (code, stdout, stderr) = run("2");
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            run("1").1,
            stdout,
            "{replay}: the same on one and two threads"
        );
        out.push(stdout);
    }
    common::snapshots().bind(|| insta::assert_snapshot!("search__analyse_goldens", out.join("\n")));
}

/// A seeded greedy Summertime game recorded as at a real table: the same
/// events, but the start names no deal and each reveal declares the back
/// of the card behind it, so that the log knows no dealt card before it is
/// played. Gives the log and its number of decisions.
fn physical_summertime_game(test: &str, seed: u64) -> (String, usize) {
    let dir = common::temp_dir(test);
    let out = dir.join("dealt");
    let _ = std::fs::remove_dir_all(&out);
    let seed = seed.to_string();
    let out_arg = out.display().to_string();
    let (code, _, stderr) = common::sunfold(&[
        "simulate",
        "summertime",
        "--games",
        "1",
        "--bot",
        "greedy",
        "--seed",
        &seed,
        "--out",
        &out_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let dealt = common::files(&out, "jsonl");
    let text = std::fs::read_to_string(&dealt[0]).unwrap();
    let mut events: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let order = events[0]["order"].clone();
    let mut stacks: Vec<Vec<serde_json::Value>> =
        serde_json::from_value(order["stacks"].clone()).unwrap();
    let cost = |id: &serde_json::Value| {
        let cards = events[0]["deck"]["cards"].as_array().unwrap();
        cards.iter().find(|c| &c["id"] == id).unwrap()["cost"].clone()
    };
    let mut behinds = Vec::new();
    for event in &events[1..] {
        if event["type"] == "revealed" {
            let stack = &mut stacks[event["stack"].as_u64().unwrap() as usize];
            assert_eq!(stack.remove(0), event["card"]);
            behinds.push(stack.first().map(cost));
        }
    }
    events[0]["order"] = serde_json::json!({
        "mode": "physical",
        "closing_up": order["closing_up"],
    });
    let mut behinds = behinds.into_iter();
    let mut log = String::new();
    let mut decisions = 0;
    for event in &mut events {
        let event = event.as_object_mut().unwrap();
        event.remove("prev");
        match event["type"].as_str().unwrap() {
            "started" | "discarded" => {}
            "revealed" => {
                if let Some(behind) = behinds.next().unwrap() {
                    event.insert("behind".into(), behind);
                }
            }
            _ => decisions += 1,
        }
        log += &serde_json::to_string(event).unwrap();
        log.push('\n');
    }
    let path = dir.join("physical.jsonl").display().to_string();
    std::fs::write(&path, log).unwrap();
    let (code, _, stderr) = common::sunfold(&["replay", &path]);
    assert_eq!(code, 0, "the physical log replays: {stderr}");
    (path, decisions)
}

/// A physical Summertime game, in which the log knows no dealt card until
/// it is played, is judged decision by decision, on one or two threads
/// alike: a play from the dealt cards is one the player held, and the
/// search never finds its own candidate illegal (it used to panic, "a
/// candidate is legal: NotInHand").
#[test]
fn a_physical_summertime_game_is_analysed_decision_by_decision() {
    for seed in [1, 2] {
        let (log, decisions) = physical_summertime_game("search-physical", seed);
        let run = |jobs| {
            common::sunfold(&[
                "analyse", &log, "--bot", "search:4", "--seed", "1", "--jobs", jobs, "--format",
                "json",
            ])
        };
        let (code, stdout, stderr) = run("2");
        assert_eq!(code, 0, "seed {seed}: {stderr}");
        assert!(stderr.is_empty(), "seed {seed}: {stderr}");
        assert_eq!(run("1").1, stdout, "seed {seed}: one and two threads");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let judged = report["decisions"].as_array().unwrap();
        assert_eq!(judged.len(), decisions, "seed {seed}: every decision");
        for d in judged {
            // Measured on MEASURE times the search's 4 rollouts.
            assert_eq!(d["taken"]["rollouts"], 16, "seed {seed}: {d}");
            assert_eq!(d["best"]["rollouts"], 16, "seed {seed}: {d}");
        }
    }
}

/// A hint at every point of a physical Summertime game: a decision that
/// `append` takes, or, while the table waits for a reveal or once the game
/// is over, a refusal with exit 2; never a panic.
#[test]
fn a_hint_at_every_point_of_a_physical_summertime_game() {
    let (log, _) = physical_summertime_game("search-physical-hint", 3);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let part = common::fresh("search-physical-hint", "part.jsonl");
    let mut hints = 0;
    for n in 1..=lines.len() {
        std::fs::write(&part, lines[..n].join("\n") + "\n").unwrap();
        let (code, stdout, stderr) =
            common::sunfold(&["hint", &part, "--bot", "search:4", "--format", "json"]);
        assert!(
            code == 0 || code == 2,
            "after line {n}: exit {code}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "after line {n}: {stderr}");
        if code == 0 {
            hints += 1;
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            for hint in report["hints"].as_array().unwrap() {
                let entry = serde_json::to_string(&hint["event"]).unwrap();
                let (code, _, stderr) = common::sunfold(&["append", &part, &entry]);
                assert_eq!(code, 0, "after line {n}: {entry}: {stderr}");
            }
        }
    }
    assert!(
        hints > lines.len() / 2,
        "{hints} hints over {} lines",
        lines.len()
    );
}

/// Given positions of golden games, when `hint` names its pick and the
/// pick is recorded next, then `analyse` with the same bot and seed calls
/// it the best decision there, with the very estimates the hint gave: both
/// measure on fresh futures, seeded by the seed and the decision's seq.
#[test]
fn hint_and_analyse_agree_on_the_same_position() {
    let mut agreed = 0;
    for (replay, cuts) in [
        ("replays/soleils-2p-round-limit.jsonl", &[9, 24, 40, 61][..]),
        ("replays/summertime-rulebook-examples.jsonl", &[4, 7, 12]),
    ] {
        let lines: Vec<String> = std::fs::read_to_string(common::repo().join(replay))
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        for &cut in cuts {
            let name = format!("hint-agrees-{cut}");
            let log = common::fresh(&name, "part.jsonl");
            std::fs::write(&log, lines[..cut].join("\n") + "\n").unwrap();
            let bot = ["--bot", "search:8", "--seed", "5", "--format", "json"];
            let (code, stdout, stderr) =
                common::sunfold(&[&["hint", log.as_str()][..], &bot].concat());
            if code != 0 {
                // The table waits for a roll or a reveal here.
                assert!(stderr.contains("waits for"), "{replay} at {cut}: {stderr}");
                continue;
            }
            let hint: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            let hint = &hint["hints"][0];
            assert!(
                hint["rollouts"].as_u64().unwrap() > 0,
                "{replay} at {cut}: an expected score rests on rollouts, even for the only choice: {hint}"
            );
            let entry = serde_json::to_string(&hint["event"]).unwrap();
            let (code, _, stderr) = common::sunfold(&["append", &log, &entry]);
            assert_eq!(code, 0, "{entry}: {stderr}");
            let (code, stdout, stderr) =
                common::sunfold(&[&["analyse", log.as_str()][..], &bot].concat());
            assert_eq!(code, 0, "{stderr}");
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            let judged = report["decisions"].as_array().unwrap().last().unwrap();
            let at = format!("{replay} at {cut}: hint {hint}, analyse {judged}");
            assert_eq!(judged["taken"]["said"], hint["said"], "{at}");
            assert_eq!(judged["best"]["said"], hint["said"], "{at}");
            assert_eq!(
                judged["taken"]["expected_score"], hint["expected_score"],
                "{at}"
            );
            assert_eq!(
                judged["taken"]["expected_value"], hint["expected_value"],
                "{at}"
            );
            assert_eq!(judged["costly"], false, "{at}");
            agreed += 1;
        }
    }
    assert!(
        agreed >= 5,
        "only {agreed} positions had a decision to hint"
    );
}

/// `analyse --help` says what the verdict measures, at what default budget.
#[test]
fn analyse_help_describes_the_measure() {
    let (code, help, stderr) = common::sunfold(&["analyse", "--help"]);
    assert_eq!(code, 0, "{stderr}");
    for words in [
        "searched 3 times on independent seeds with N rollouts",
        "measured on 4 × N fresh rollouts, the same futures for each",
        "costly when that interval leaves out 0",
        "no better decision found in 3 searches at search:N",
        "search:192 for 62 Soleils, search:512 for Summertime",
        "every choice is measured",
    ] {
        assert!(help.contains(words), "{words}: {help}");
    }
}
