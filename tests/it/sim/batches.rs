//! Bots and batches: simulated games replay clean with the same scores,
//! the same seed gives the same output, audit finds every bad file, and a
//! mutated event is either legal and accepted or rejected, never a panic.

use crate::common;

use sunfold::bots::{Bot, SoleilsVariant, SummertimeVariant, play};
use sunfold::kit::game::Game;
use sunfold::kit::rng::SeededRng;
use sunfold::log::{Fold, LineReader, chained_log};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

/// Replays a simulated game from its log and checks the recomputed scores.
fn round_trip<G: sunfold::bots::Searched>(
    variant: &G::Variant,
    players: usize,
    bots: &[Bot],
    games: u64,
) {
    for seed in 0..games {
        let result = play::<G>(variant, players, bots, seed);
        let log = chained_log(&result.events(variant));
        let mut lines = LineReader::new(log.as_bytes());
        let first = lines.next_line().unwrap().unwrap();
        let (mut fold, _) = Fold::<G>::start(&first).unwrap();
        while let Some(line) = lines.next_line().unwrap() {
            fold.feed(&line)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        assert_eq!(fold.chained(), Some(true));
        let totals: Vec<i64> = (0..players).map(|p| G::total(fold.state(), p)).collect();
        assert_eq!(totals, result.totals, "seed {seed}");
        assert!(
            G::legal_events(fold.state()).is_empty(),
            "seed {seed}: the game is over"
        );
    }
}

#[test]
fn a_thousand_simulated_soleils_games_replay_with_the_same_scores() {
    round_trip::<Soleils>(
        &SoleilsVariant::bundled(),
        4,
        &[Bot::Random, Bot::Greedy],
        1000,
    );
}

#[test]
fn a_thousand_simulated_summertime_games_replay_with_the_same_scores() {
    round_trip::<Summertime>(
        &SummertimeVariant::bundled(),
        2,
        &[Bot::Greedy, Bot::Random],
        1000,
    );
}

#[test]
fn the_same_seed_gives_byte_identical_output() {
    let dir = std::env::temp_dir().join(format!("sunfold-sim-{}", std::process::id()));
    let run = |name: &str| {
        let out = dir.join(name);
        let (code, stdout, stderr) = common::sunfold(&[
            "simulate",
            "summertime",
            "--players",
            "2",
            "--games",
            "40",
            "--seed",
            "9",
            "--bot",
            "greedy,random",
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("games per second"));
        (out, stdout)
    };
    let (a, summary_a) = run("a");
    let (b, summary_b) = run("b");
    assert_eq!(summary_a, summary_b);
    assert!(
        summary_a.contains("40 games, 2 players, bots greedy,random"),
        "{summary_a}"
    );
    let files = common::files(&a, "jsonl");
    assert_eq!(files.len(), 40);
    for file in files {
        let other = b.join(file.file_name().unwrap());
        assert_eq!(
            std::fs::read(&file).unwrap(),
            std::fs::read(&other).unwrap()
        );
    }
    // Audit agrees with the simulator: every file is valid and chained.
    let (code, stdout, _) = common::sunfold(&["audit", a.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 40);
    assert!(
        objects
            .iter()
            .all(|o| o["valid"] == true && o["chained"] == true)
    );
}

#[test]
fn audit_reports_every_bad_file_and_exits_1() {
    let (code, stdout, _) = common::sunfold(&["audit", "replays", "tests/bad"]);
    assert_eq!(code, 1);
    let bad = common::files(&common::repo().join("tests/bad"), "jsonl").len();
    let good = common::files(&common::repo().join("replays"), "jsonl").len();
    let lines: Vec<&str> = stdout.lines().collect();
    let located = lines.iter().filter(|l| l.starts_with("tests/bad/")).count();
    assert_eq!(located, bad, "one located line per bad file");
    // A valid file gets one line with its result; only the embedded
    // template and deck problems continue on indented lines.
    let results = lines.iter().filter(|l| l.starts_with("replays/")).count();
    assert_eq!(results, good, "one result line per valid file");
    assert!(lines.iter().all(|l| l.starts_with("tests/bad/")
        || l.starts_with("replays/")
        || l.starts_with("  ")
        || l.contains(" files, ")));
    assert!(stdout.contains("replays/soleils-4p-sun-limit.jsonl: valid, 118 events; Fanny reached 62 on the sun; won by Hervine; Fanny 3 (#4), Théo 7 (#3), Maxime 9 (#2), Hervine 14 (#1)\n"));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with(&format!("{} files, {bad} bad, ", bad + good))
    );
    assert!(stdout.contains("tests/bad/violates-less.jsonl:9: event 8 (placed): box K1c needs a value below 5 as K1d holds 5, but found 6"));
    let (code, _, stderr) = common::sunfold(&["audit", "no/such/dir"]);
    assert_eq!(code, 2, "{stderr}");
}

/// One field of one event changed: the die, a box, a value, a card, a cell.
fn mutate(event: &mut serde_json::Value, rng: &mut SeededRng) {
    let pick = |rng: &mut SeededRng, items: &[&str]| {
        items[rng.below(items.len() as u64) as usize].to_owned()
    };
    let object = event.as_object_mut().unwrap();
    let keys: Vec<String> = object
        .keys()
        .filter(|k| !["seq", "type", "at", "prev"].contains(&k.as_str()))
        .cloned()
        .collect();
    if keys.is_empty() {
        return;
    }
    let key = keys[rng.below(keys.len() as u64) as usize].clone();
    let value = object[&key].clone();
    object[&key] = match value {
        serde_json::Value::Array(mut items) if key == "dice" => {
            items[rng.below(3) as usize] = (1 + rng.below(6)).into();
            items.into()
        }
        serde_json::Value::Array(_) => {
            serde_json::json!([rng.below(9) as i64 - 4, rng.below(9) as i64 - 4])
        }
        serde_json::Value::Number(_) => (1 + rng.below(7)).into(),
        serde_json::Value::String(_) if key == "player" => {
            pick(rng, &["Ann", "Bob", "Chloé", "Dmitri", "Nobody"]).into()
        }
        serde_json::Value::String(_) if key == "card" => pick(
            rng,
            &["beach-1", "ocean-2", "fish-1", "couple-2", "bar-1", "nope"],
        )
        .into(),
        serde_json::Value::String(_) => {
            pick(rng, &["K1a", "K2c", "C1b", "B2", "V1a", "G3", "Z9", "C2a"]).into()
        }
        other => other,
    };
}

fn mutation_never_panics<G: Game>(replay: &str, seed: u64)
where
    G::Event: PartialEq,
{
    let text = std::fs::read_to_string(common::repo().join(replay)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut rng = SeededRng::new(seed);
    for _ in 0..300 {
        let at = 1 + rng.below(lines.len() as u64 - 1) as usize;
        let mut event: serde_json::Value = serde_json::from_str(lines[at]).unwrap();
        mutate(&mut event, &mut rng);
        let mutated = event.to_string();
        let mut reader = LineReader::new(text.as_bytes());
        let first = reader.next_line().unwrap().unwrap();
        let (mut fold, _) = Fold::<G>::start(&first).unwrap();
        for _ in 1..at {
            fold.feed(&reader.next_line().unwrap().unwrap()).unwrap();
        }
        let legal = G::legal_events(fold.state());
        let line = sunfold::log::Line {
            number: at + 1,
            bytes: mutated.as_bytes(),
            terminated: true,
        };
        let decoded = sunfold::log::decode::<G>(&line);
        match fold.feed(&line) {
            Ok(_) => {
                let Ok(sunfold::log::Record {
                    entry: sunfold::log::Entry::Game(event),
                    ..
                }) = decoded
                else {
                    panic!("accepted a line that does not decode: {mutated}")
                };
                assert!(
                    legal.contains(&event),
                    "accepted an event legal_events does not list: {mutated}"
                );
            }
            Err(error) => {
                // Rejected: by the rules (a RuleError), or as malformed.
                let message = error.to_string();
                assert!(!message.is_empty());
                if let Ok(sunfold::log::Record {
                    entry: sunfold::log::Entry::Game(event),
                    ..
                }) = decoded
                {
                    assert!(
                        !legal.contains(&event),
                        "rejected a legal event: {mutated}: {message}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_mutated_event_is_legal_and_accepted_or_rejected_never_a_panic() {
    mutation_never_panics::<Soleils>("replays/soleils-4p-sun-limit.jsonl", 1);
    mutation_never_panics::<Soleils>("replays/soleils-12p.jsonl", 2);
    mutation_never_panics::<Summertime>("replays/summertime-double-pass-ending.jsonl", 3);
    mutation_never_panics::<Summertime>("replays/summertime-rulebook-examples.jsonl", 4);
}
