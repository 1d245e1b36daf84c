//! `sunfold rating` end to end: two 62 Soleils events played by bots, one
//! player known to both by the id the players files give, one matched by
//! name with a warning, one who played no table and is not rated; the
//! text and the JSON pinned, the JSON checked against its schema.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use sunfold::schema::{SchemaKind, schema_text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sunfold-rating-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> String {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "sunfold {args:?} failed: {stderr}");
    stdout
}

/// `sunfold rating ARGS` run in `dir`, so that the event logs are named
/// as given there: (exit code, stdout, stderr).
fn rating(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .arg("rating")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// An event of the players in `players`, at tables of `size`, played by
/// `bot` for `rounds` rounds from `seed`.
fn played(dir: &Path, name: &str, players: &str, size: &str, rounds: u32, bot: &str) -> PathBuf {
    let file = dir.join(format!("{name}.txt"));
    std::fs::write(&file, players).unwrap();
    let event = dir.join(format!("{name}.jsonl"));
    let rounds_text = rounds.to_string();
    run(&[
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&file),
        "--table-size",
        size,
        "--rounds",
        &rounds_text,
        "--seed",
        "5",
    ]);
    for _ in 0..rounds {
        run(&["event", "seat", s(&event)]);
        run(&["event", "play", s(&event), "--bot", bot]);
    }
    event
}

#[test]
fn players_are_rated_across_two_events_by_id_and_by_name() {
    let dir = scratch("two");
    let spring = played(
        &dir,
        "spring",
        "Ann\tann\nBob\nCid\nDee\nEve\nFay\n",
        "3",
        3,
        "greedy",
    );
    let summer = played(
        &dir,
        "summer",
        "Ann\tann\nBob\nGus\nHal\n",
        "4",
        2,
        "random",
    );
    run(&["event", "arrive", s(&summer), "Ivy"]);
    let both = ["spring.jsonl", "summer.jsonl"];
    let (code, text, warning) = rating(&dir, &both);
    assert_eq!(code, 0, "{warning}");
    let (code, json, _) = rating(&dir, &["spring.jsonl", "summer.jsonl", "--format", "json"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(&json).unwrap();
    let schema: Value = serde_json::from_str(&schema_text(SchemaKind::RatingReport)).unwrap();
    assert_eq!(
        common::schema::breaks(&schema, &schema, &report, "rating"),
        None
    );

    let rows = report["rows"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(rows.len(), 8, "Ann and Bob once each, Ivy not rated");
    assert_eq!(
        (row("ann")["tables"].as_u64(), row("ann")["events"].as_u64()),
        (Some(5), Some(2))
    );
    assert_eq!(row("p2")["events"], 2, "Bob is matched by name");
    assert_eq!(report["unrated"][0]["name"], "Ivy");
    // Sensible order: the best-rated player's mean rank beats the worst's.
    let ranks = |id: &str| -> f64 {
        let mut ranks = Vec::new();
        for event in [&spring, &summer] {
            for line in std::fs::read_to_string(event).unwrap().lines() {
                let entry: Value = serde_json::from_str(line).unwrap();
                if entry["type"] == "result" {
                    for seat in entry["seats"].as_array().unwrap() {
                        if seat["id"] == id {
                            ranks.push(seat["rank"].as_f64().unwrap());
                        }
                    }
                }
            }
        }
        ranks.iter().sum::<f64>() / ranks.len() as f64
    };
    let (best, worst) = (&rows[0], &rows[rows.len() - 1]);
    assert!(
        ranks(best["id"].as_str().unwrap()) < ranks(worst["id"].as_str().unwrap()),
        "{best} ranks no better than {worst}"
    );
    // The same events give the same ratings, byte for byte.
    let again = rating(&dir, &["spring.jsonl", "summer.jsonl", "--format", "json"]);
    assert_eq!(again.1, json);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("rating__text", text);
        insta::assert_snapshot!("rating__json", json);
        insta::assert_snapshot!("rating__same_by_name", warning);
    });
}

#[test]
fn bad_event_logs_are_refused_with_their_place() {
    let dir = scratch("bad");
    let spring = played(&dir, "spring", "Ann\nBob\n", "2", 1, "random");
    let refuse = |args: &[&str], exit: i32| {
        let (code, stdout, stderr) = common::sunfold(args);
        assert_eq!(code, exit, "sunfold {args:?}: {stdout}{stderr}");
        assert!(stdout.is_empty());
        stderr.replace(s(&dir), "DIR")
    };
    let missing = refuse(&["rating", s(&dir.join("nowhere.jsonl"))], 2);
    let broken = dir.join("broken.jsonl");
    let text = std::fs::read_to_string(&spring).unwrap();
    std::fs::write(&broken, text.replace("\"Bob\"", "\"Bib\"")).unwrap();
    let chain = refuse(&["rating", s(&spring), s(&broken)], 1);
    let twice = refuse(&["rating", s(&spring), s(&spring)], 2);
    let swiss = dir.join("swiss.jsonl");
    let players = dir.join("spring.txt");
    run(&[
        "event",
        "new",
        s(&swiss),
        "--game",
        "summertime",
        "--players-file",
        s(&players),
        "--seed",
        "1",
    ]);
    let mixed = refuse(&["rating", s(&spring), s(&swiss)], 2);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("rating__missing", missing);
        insta::assert_snapshot!("rating__chain_broken", chain);
        insta::assert_snapshot!("rating__twice", twice);
        insta::assert_snapshot!("rating__mixed_games", mixed);
    });
}
