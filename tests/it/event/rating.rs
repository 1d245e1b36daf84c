//! `sunfold rating` end to end: two 62 Soleils events played by bots, one
//! player known to both by the id the players files give, one matched by
//! name with a warning, one who played no table and is not rated; the
//! text and the JSON pinned, the JSON checked against its schema.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use sunfold::schema::{SchemaKind, schema_text};

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("rating-{name}"))
}

use common::run_ok as run;

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
    // Ivy arrives after the last round is seated, as an older log may
    // hold (`event arrive` now refuses it): she plays no table.
    let ivy = sunfold::event::Player {
        id: "p5".to_owned(),
        name: "Ivy".to_owned(),
    };
    sunfold::event::file::append(&summer, &sunfold::table::SystemClock, |_| {
        let arrived = vec![sunfold::event::Entry::Arrived(ivy)];
        Ok::<_, sunfold::event::EventFileError>((arrived, ()))
    })
    .unwrap();
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
    // Given in the other order, they are still rated in the order played;
    // taken in the order given, they rate otherwise.
    let reversed = ["summer.jsonl", "spring.jsonl", "--format", "json"];
    assert_eq!(rating(&dir, &reversed).1, json);
    let given = rating(&dir, &[&reversed[..], &["--order", "given"]].concat()).1;
    let given: Value = serde_json::from_str(&given).unwrap();
    assert_eq!(given["order"], "given");
    assert_eq!(given["events"][0]["file"], "summer.jsonl");
    assert_ne!(given["rows"], report["rows"]);
    // The times the events were played are the times their first rounds
    // were seated: shown, and pinned as PLAYED.
    assert_eq!(report["order"], "played");
    let (mut text, mut json) = (text, json);
    for (event, file) in [(0, &spring), (1, &summer)] {
        let played = report["events"][event]["played"].as_str().unwrap();
        let seated = std::fs::read_to_string(file).unwrap();
        let seated = (seated.lines())
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|e| e["type"] == "seated")
            .unwrap();
        let at = seated["at"].as_str().unwrap();
        assert_eq!(played.get(..19), at.get(..19), "{played} is not {at}");
        text = text.replace(played, "PLAYED");
        json = json.replace(played, "PLAYED");
    }
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
    let order = refuse(&["rating", s(&spring), "--order", "soon"], 2);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("rating__unknown_order", order);
        insta::assert_snapshot!("rating__missing", missing);
        insta::assert_snapshot!("rating__chain_broken", chain);
        insta::assert_snapshot!("rating__twice", twice);
        insta::assert_snapshot!("rating__mixed_games", mixed);
    });
}

/// Two event logs written before event logs carried times, by the binary
/// of that day, with what it printed for them then.
#[test]
fn event_logs_with_no_times_rate_as_they_did_in_the_order_given() {
    let old = common::repo().join("tests/older-formats/events");
    // The text `sunfold rating autumn.jsonl winter.jsonl` printed when the
    // logs were written.
    let then = "\
soleils ratings (Weng-Lin) from 2 events, in the order given: autumn.jsonl, then winter.jsonl
rank  name  id       mu  sigma  mu-3sigma  tables  events
   1  Dee   dee   34.53   6.80      14.12       3       2
   2  Eve   eve   30.10   6.64      10.17       3       2
   3  Cid   cid   28.58   6.67       8.58       3       2
   4  Bob   bob   16.19   6.50      -3.32       3       2
   5  Ann   ann   16.62   6.72      -3.54       3       2
";
    let (code, text, warning) = rating(&old, &["autumn.jsonl", "winter.jsonl"]);
    assert_eq!((code, text.as_str()), (0, then), "{warning}");
    let (code, given, none) = rating(&old, &["autumn.jsonl", "winter.jsonl", "--order", "given"]);
    assert_eq!((code, given.as_str(), none.as_str()), (0, then, ""));
    // With an event that has times, the order played cannot be known.
    let dir = scratch("undated");
    let spring = played(&dir, "spring", "Ann\tann\nBob\tbob\n", "2", 1, "greedy");
    let (code, stdout, mixed) = rating(&old, &[s(&spring), "autumn.jsonl"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    let mixed = mixed.replace(s(&dir), "DIR");
    let (code, _, _) = rating(&old, &[s(&spring), "autumn.jsonl", "--order", "given"]);
    assert_eq!(code, 0);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("rating__in_order_given", warning);
        insta::assert_snapshot!("rating__undated_among_dated", mixed);
    });
}
