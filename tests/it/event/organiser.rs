//! What an organiser expects of the `sunfold event` commands, through the
//! built binary: `event play` keeps off tables played by people, the
//! players file says what it renamed, a player is dropped by name, and the
//! seating says who starts.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("organiser-{name}"))
}

use common::run_ok as run;

pub(super) fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A refusal's message (exit 1) with the scratch folder written as DIR.
pub(super) fn refusal(args: &[&str], dir: &Path) -> String {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 1, "sunfold {args:?} should refuse: {stdout}{stderr}");
    stderr.replace(s(dir), "DIR")
}

/// A new event of `game` for the players `names` (one a line) in `dir`,
/// with `extra` arguments: its path.
fn new_event(dir: &Path, game: &str, names: &str, extra: &[&str]) -> PathBuf {
    let players = dir.join("players.txt");
    std::fs::write(&players, names).unwrap();
    let event = dir.join("ev.jsonl");
    let mut args = vec!["event", "new", s(&event), "--game", game];
    args.extend(["--players-file", s(&players), "--seed", "5"]);
    args.extend(extra);
    run(&args);
    event
}

#[test]
fn event_play_keeps_off_a_table_with_entries_recorded_at_the_table() {
    let dir = scratch("play");
    let names = "Ann\nBob\nCid\nDee\nEve\nFay\n";
    let event = new_event(&dir, "soleils", names, &["--table-size", "3"]);
    run(&["event", "seat", s(&event)]);
    let table = |t: u32| dir.join(format!("ev.d/round-1/table-{t}.jsonl"));
    // Given a roll recorded at table 1,
    run(&["roll", s(&table(1))]);
    let recorded = std::fs::read(table(1)).unwrap();
    let (event_before, table_2) = (std::fs::read(&event).unwrap(), std::fs::read(table(2)));
    // when the whole round is played by bots, it is refused before any
    // table is played;
    let refused = refusal(&["event", "play", s(&event)], &dir);
    assert_eq!(std::fs::read(table(1)).unwrap(), recorded);
    assert_eq!(std::fs::read(table(2)).ok(), table_2.ok());
    assert_eq!(std::fs::read(&event).unwrap(), event_before);
    // one table can be played alone;
    let played = run(&["event", "play", s(&event), "--table", "2"]);
    assert!(
        played.starts_with("round 1 table 2: ") && played.lines().count() == 1,
        "{played}"
    );
    assert_eq!(std::fs::read(table(1)).unwrap(), recorded);
    // not twice, nor a table the round does not have;
    let twice = refusal(&["event", "play", s(&event), "--table", "2"], &dir);
    let ninth = refusal(&["event", "play", s(&event), "--table", "9"], &dir);
    // and --force plays on after the entries recorded at the table.
    let forced = run(&["event", "play", s(&event), "--table", "1", "--force"]);
    assert!(forced.contains("round 1 table 1: "), "{forced}");
    let log = std::fs::read_to_string(table(1)).unwrap();
    assert!(log.starts_with(std::str::from_utf8(&recorded).unwrap()));
    assert!(log.lines().count() > 2);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("organiser__play_recorded_table", refused);
        insta::assert_snapshot!("organiser__play_table_twice", twice);
        insta::assert_snapshot!("organiser__play_unknown_table", ninth);
    });
}

#[test]
fn a_players_file_says_what_it_renamed_and_skips_the_ids_it_gives() {
    let dir = scratch("players");
    let players = dir.join("players.txt");
    let event = dir.join("ev.jsonl");
    let new = |force: bool| {
        let mut args = vec!["event", "new", s(&event), "--game", "soleils"];
        args.extend(["--players-file", s(&players), "--seed", "1"]);
        if force {
            args.push("--force");
        }
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let strs = |args: &[String]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    // Given three Anns, one named "Ann (2)" on the last line,
    std::fs::write(&players, "Ann\nAnn\nAnn (2)\nBob\nBob\n").unwrap();
    let args = new(false);
    let (code, stdout, stderr) =
        common::sunfold(&strs(&args).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("of 5 players"), "{stdout}");
    // the second Ann is renamed to a name no line gives, with a warning
    // that names both lines.
    let names: Vec<String> = registered(&event)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Ann", "Ann (3)", "Ann (2)", "Bob", "Bob (2)"]);
    let renamed = stderr.replace(s(&dir), "DIR");
    // Given ids given on later lines, a generated id skips them.
    std::fs::write(&players, "Ann\tp2\nBob\nCid\tp3\n").unwrap();
    let args = new(true);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let ids: Vec<String> = registered(&event)
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["p2", "p4", "p3"]);
    // And an arrival's generated id skips them too.
    let arrived = run(&["event", "arrive", s(&event), "Dee"]);
    assert!(arrived.contains("Dee joins as p5"), "{arrived}");
    // A file of one player makes no event.
    std::fs::write(&players, "# the club\nAnn\n").unwrap();
    let args = new(true);
    let one = refusal(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("organiser__players_renamed", renamed);
        insta::assert_snapshot!("organiser__one_player", one);
    });
}

/// The players an event log registered, in its order.
fn registered(event: &Path) -> Vec<Value> {
    std::fs::read_to_string(event)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "registered")
        .collect()
}

#[test]
fn a_player_is_dropped_by_id_or_by_a_name_only_they_have() {
    let dir = scratch("drop");
    let names = "Ann\nBob\nSam\tsam-1\nAnn\nCid\tBob\n";
    let event = new_event(&dir, "soleils", names, &[]);
    let file = s(&event);
    let by_name = run(&["event", "drop", file, "Sam"]);
    assert!(by_name.contains("Sam (sam-1) dropped"), "{by_name}");
    let by_id = run(&["event", "drop", file, "p4"]);
    assert!(by_id.contains("Ann (2) (p4) dropped"), "{by_id}");
    let before = std::fs::read(&event).unwrap();
    // "Ann" may be Ann or Ann (2); "Bob" is Bob's name and Cid's id.
    let anns = refusal(&["event", "drop", file, "Ann"], &dir);
    let bob = refusal(&["event", "drop", file, "Bob"], &dir);
    let unknown = refusal(&["event", "drop", file, "Cyd"], &dir);
    assert_eq!(std::fs::read(&event).unwrap(), before);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("organiser__drop_ambiguous", anns + &bob);
        insta::assert_snapshot!("organiser__drop_unknown", unknown);
    });
}

#[test]
fn new_documents_every_argument_and_a_swiss_gets_the_rounds_it_needs() {
    let help = run(&["event", "new", "--help"]);
    let mut undocumented = Vec::new();
    let mut lines = help.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let argument = t.starts_with('-') || (t.starts_with('<') && line.starts_with("  "));
        // An argument's line either has its help after it, or the next
        // line, more indented, does.
        if argument && !t.contains("  ") {
            let next = lines.peek().map_or("", |l| l.trim());
            if next.is_empty() || next.starts_with('-') || next.starts_with('<') {
                undocumented.push(t.to_owned());
            }
        }
    }
    assert!(undocumented.is_empty(), "{undocumented:?} in:\n{help}");
    assert!(help.contains("⌈log2 N⌉"), "{help}");

    let dir = scratch("rounds");
    let nine: String = (1..=9).map(|i| format!("P{i}\n")).collect();
    let event = new_event(&dir, "summertime", &nine, &[]);
    let created: Value = serde_json::from_str(
        std::fs::read_to_string(&event)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(created["rounds"], 4, "⌈log2 9⌉ rounds");
    let soleils = new_event(&dir, "soleils", &nine, &["--force"]);
    let created: Value = serde_json::from_str(
        std::fs::read_to_string(&soleils)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(created["rounds"], 3);
}

#[test]
fn a_swiss_balances_who_starts_and_the_seating_says_so() {
    let mut all_three = 0;
    for seed in 1..=6 {
        let dir = scratch(&format!("colour-{seed}"));
        let players = dir.join("players.txt");
        let names: String = (1..=8).map(|i| format!("P{i}\n")).collect();
        std::fs::write(&players, names).unwrap();
        let event = dir.join("ev.jsonl");
        let seed = seed.to_string();
        run(&[
            "event",
            "new",
            s(&event),
            "--game",
            "summertime",
            "--players-file",
            s(&players),
            "--seed",
            &seed,
        ]);
        // What each player started and played before this round: a plain
        // count from the event log's seated lines.
        let mut started: std::collections::BTreeMap<String, (i64, i64, bool)> = Default::default();
        for round in 1..=3 {
            run(&["event", "seat", s(&event)]);
            let seating: Value =
                serde_json::from_str(&run(&["event", "seating", s(&event), "--format", "json"]))
                    .unwrap();
            for table in seating["tables"].as_array().unwrap() {
                let seats = table["players"].as_array().unwrap();
                let id = |i: usize| seats[i]["id"].as_str().unwrap().to_owned();
                let (first, second) = (id(0), id(1));
                let of = |id: &str| started.get(id).copied().unwrap_or((0, 0, false));
                let balance = |(s, p, _): (i64, i64, bool)| s - (p - s);
                let (a, b) = (of(&first), of(&second));
                // The player who started fewer of their games starts; on a
                // tie, the one who did not start their last game.
                assert!(
                    balance(a) < balance(b) || (balance(a) == balance(b) && (!a.2 || b.2)),
                    "round {round}: {first} {a:?} starts before {second} {b:?}"
                );
                started.insert(first.clone(), (a.0 + 1, a.1 + 1, true));
                started.insert(second.clone(), (b.0, b.1 + 1, false));
                // The seating reports the starts, this round's included.
                for (i, who) in [&first, &second].into_iter().enumerate() {
                    let (s, p, _) = started[who];
                    assert_eq!(seats[i]["started"], s, "{table}");
                    assert_eq!(seats[i]["played"], p, "{table}");
                }
            }
            let text = run(&["event", "seating", s(&event)]);
            assert!(text.contains("(started: "), "{text}");
            run(&["event", "play", s(&event), "--bot", "random"]);
        }
        all_three += started.values().filter(|(s, _, _)| *s == 3).count();
    }
    eprintln!("players who started 3 of 3 games, over 6 events of 8: {all_three}");
}

#[test]
fn the_standings_pdf_heads_every_page_with_its_columns() {
    let dir = scratch("pdf");
    let names: String = (1..=200).map(|i| format!("Player {i}\n")).collect();
    let event = new_event(&dir, "soleils", &names, &[]);
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event), "--bot", "random"]);
    let pdf = dir.join("standings.pdf");
    run(&["event", "standings", s(&event), "-o", s(&pdf)]);
    let out = std::process::Command::new("pdftotext")
        .args(["-layout", s(&pdf), "-"])
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let pages: Vec<&str> = text
        .split('\x0c')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert!(pages.len() >= 6, "{} pages", pages.len());
    for (i, page) in pages.iter().enumerate() {
        for heading in ["Rank", "Player", "Points", "Score", "Opp. pts", "Byes"] {
            assert!(
                page.contains(heading),
                "page {}: no {heading}:\n{page}",
                i + 1
            );
        }
    }
    for i in 1..=200 {
        let name = format!("Player {i} ");
        assert!(text.contains(&name) || text.contains(&format!("Player {i}\n")));
    }
}
