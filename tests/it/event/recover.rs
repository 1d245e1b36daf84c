//! An event log recovers, and its results stay true, through the built
//! binary: a torn last line repaired by `sunfold repair` with every event
//! command working after it, an event log audited as one, every attached
//! result checked against its table's log, and a seating cut short by a
//! crash seated again to the same files.

use crate::common;

use std::path::{Path, PathBuf};

use common::run_ok as run;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A 62 Soleils event of four players at two tables, its first round
/// seated and played by bots, in the test's own folder: the folder and the
/// event log.
fn played(test: &str) -> (PathBuf, PathBuf) {
    let dir = common::scratch(&format!("recover-{test}"));
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\n").unwrap();
    let event = dir.join("cup.jsonl");
    run(&[
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--table-size",
        "2",
        "--rounds",
        "3",
        "--seed",
        "7",
    ]);
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event), "--bot", "greedy"]);
    (dir, event)
}

/// `sunfold ARGS`, which must exit `expected`: its standard output and
/// error, with the folder written as DIR and every SHA-256 as HASH.
fn said(args: &[&str], expected: i32, dir: &Path) -> (String, String) {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, expected, "sunfold {args:?}: {stdout}{stderr}");
    let clean = |text: String| hashes_hidden(&text.replace(s(dir), "DIR"));
    (clean(stdout), clean(stderr))
}

/// `text` with each run of 64 hex digits written as HASH.
fn hashes_hidden(text: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 { "HASH" } else { &run });
        run.clear();
        out.push(c);
    }
    out.push_str(if run.len() == 64 { "HASH" } else { &run });
    out
}

#[test]
fn a_torn_event_log_is_repaired_and_every_event_command_works_after_it() {
    let (dir, event) = played("torn");
    let whole = std::fs::read(&event).unwrap();
    // A crash cuts the last line, a result, in half.
    let torn = &whole[..whole.len() - 20];
    std::fs::write(&event, torn).unwrap();
    let cut = torn.iter().rposition(|&b| b == b'\n').unwrap() + 1;

    // Every command refuses it, and says how to repair it.
    for args in [
        vec!["event", "standings", s(&event)],
        vec!["event", "seat", s(&event)],
        vec!["event", "play", s(&event), "--bot", "greedy"],
        vec!["event", "drop", s(&event), "p2"],
    ] {
        let (_, stderr) = said(&args, 1, &dir);
        assert!(stderr.contains("sunfold repair"), "{args:?}: {stderr}");
    }
    let (code, _, stderr) =
        common::sunfold_or_hang(&["serve", "--event", s(&event), "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("sunfold repair"), "{stderr}");
    let (_, refused) = said(&["event", "standings", s(&event)], 1, &dir);

    // Repair cuts off the torn bytes alone, and keeps them beside the log.
    let (repaired, _) = said(&["repair", s(&event)], 0, &dir);
    assert_eq!(std::fs::read(&event).unwrap(), &torn[..cut]);
    let kept = PathBuf::from(format!("{}.torn", s(&event)));
    assert_eq!(std::fs::read(&kept).unwrap(), &torn[cut..]);
    let (again, _) = said(&["repair", s(&event)], 0, &dir);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("recover__torn_event_log_refused", refused);
        insta::assert_snapshot!("recover__torn_event_log_repaired", repaired);
        insta::assert_snapshot!("recover__repaired_event_log_is_complete", again);
    });

    // Every event command works after it: the table whose result was torn
    // off is attached again from its log, and the event goes on.
    run(&["event", "standings", s(&event)]);
    let replayed = run(&["event", "play", s(&event), "--bot", "greedy"]);
    assert_eq!(replayed.lines().count(), 1, "{replayed}");
    run(&["event", "seat", s(&event)]);
    run(&["event", "drop", s(&event), "p2"]);
    run(&["event", "play", s(&event), "--bot", "greedy"]);
    run(&["event", "standings", s(&event)]);
    run(&["event", "verify", s(&event)]);
    let (audited, _) = said(&["audit", s(&event)], 0, &dir);
    assert!(audited.contains("valid event log"), "{audited}");
}

#[test]
fn damage_above_the_last_line_of_an_event_log_is_reported_never_repaired() {
    let (dir, event) = played("damaged");
    let mut text = std::fs::read_to_string(&event).unwrap();
    // A name changed by hand on line 2, then a torn write at the end.
    text = text.replacen("\"Ann\"", "\"Anx\"", 1);
    text.push_str("{\"seq\":99,\"type\":\"clo");
    std::fs::write(&event, &text).unwrap();
    let (_, damaged) = said(&["repair", s(&event)], 1, &dir);
    assert_eq!(std::fs::read_to_string(&event).unwrap(), text, "untouched");
    assert!(!PathBuf::from(format!("{}.torn", s(&event))).exists());
    common::snapshots().bind(|| {
        insta::assert_snapshot!("recover__damaged_event_log_not_repaired", damaged);
    });
}

#[test]
fn audit_checks_an_event_log_as_an_event_log_in_its_folder_or_alone() {
    let (dir, event) = played("audit");
    // The folder: the event log and its tables' logs, all valid.
    let (folder, _) = said(&["audit", s(&dir)], 0, &dir);
    assert!(folder.contains("3 files, 0 bad"), "{folder}");
    let (alone, _) = said(&["audit", s(&event)], 0, &dir);
    let (json, _) = said(&["audit", s(&event), "--format", "json"], 0, &dir);
    let line: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(line["valid"], true, "{line}");
    assert_eq!(line["game"], "soleils", "{line}");
    assert_eq!(line["event"]["results"], 2, "{line}");

    // An entry the event refuses, on the last line: its line and its rule.
    run(&["event", "drop", s(&event), "p2"]);
    let text = std::fs::read_to_string(&event).unwrap();
    let illegal = text.replace(
        "\"type\":\"dropped\",\"id\":\"p2\"",
        "\"type\":\"dropped\",\"id\":\"zz\"",
    );
    assert_ne!(illegal, text);
    std::fs::write(&event, &illegal).unwrap();
    let (rule, _) = said(&["audit", s(&event)], 1, &dir);
    // A line changed above the last: the chain names the line after it.
    let broken = text.replacen("\"Bob\"", "\"Box\"", 1);
    std::fs::write(&event, &broken).unwrap();
    let (chain, _) = said(&["audit", s(&dir)], 1, &dir);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("recover__audit_event_log_valid", alone);
        insta::assert_snapshot!("recover__audit_event_log_illegal_entry", rule);
        insta::assert_snapshot!("recover__audit_event_folder_chain_broken", chain);
    });
}

#[test]
fn verify_names_each_result_whose_table_log_changed_or_is_gone_and_standings_warn() {
    let (dir, event) = played("verify");
    let (all, _) = said(&["event", "verify", s(&event)], 0, &dir);
    // The event log given as a table's log is refused, not locked twice.
    let (code, _, err) = common::sunfold_or_hang(&[
        "event",
        "result",
        s(&event),
        "--table",
        "1",
        s(&event),
        "--correct",
        "--reason",
        "read again",
    ]);
    assert_eq!(code, 1, "{err}");
    let (_, quiet) = said(&["event", "standings", s(&event)], 0, &dir);
    assert_eq!(quiet, "", "no warning while every log holds");

    // Table 1's log gains a line after its result; table 2's is gone.
    let one = sunfold::event::table_path(&event, 1, 1);
    let mut bytes = std::fs::read(&one).unwrap();
    bytes.extend_from_slice(b"{\"type\":\"claimed\"}\n");
    std::fs::write(&one, bytes).unwrap();
    std::fs::remove_file(sunfold::event::table_path(&event, 1, 2)).unwrap();
    let (differ, _) = said(&["event", "verify", s(&event)], 1, &dir);
    let (standings, warned) = said(&["event", "standings", s(&event)], 0, &dir);
    assert!(
        standings.contains("Ann"),
        "the standings are printed: {standings}"
    );
    common::snapshots().bind(|| {
        insta::assert_snapshot!("recover__verify_all_hold", all);
        insta::assert_snapshot!("recover__verify_changed_and_missing", differ);
        insta::assert_snapshot!("recover__standings_warn_changed_and_missing", warned);
    });
}

#[test]
fn a_seating_cut_short_before_its_line_is_seated_again_to_the_same_files() {
    let dir = common::scratch("recover-reseat");
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\nEve\n").unwrap();
    let event = dir.join("cup.jsonl");
    run(&[
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--table-size",
        "2",
        "--seed",
        "3",
    ]);
    let before = std::fs::read(&event).unwrap();
    run(&["event", "seat", s(&event)]);
    let round = dir.join("cup.d/round-1");
    let files = common::files(&round, "jsonl");
    assert_eq!(files.len(), 2);
    let written: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let seated = std::fs::read_to_string(&event).unwrap();
    // As a kill -9 after the tables' logs, before the `seated` line.
    std::fs::write(&event, &before).unwrap();
    run(&["event", "seat", s(&event)]);
    assert_eq!(common::files(&round, "jsonl"), files);
    for (file, bytes) in files.iter().zip(&written) {
        assert_eq!(&std::fs::read(file).unwrap(), bytes, "{}", file.display());
    }
    let without_time = |text: &str| {
        let line: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let mut line = line.as_object().unwrap().clone();
        line.remove("at");
        line
    };
    let again = std::fs::read_to_string(&event).unwrap();
    assert_eq!(without_time(&again), without_time(&seated));
}

#[test]
fn an_event_log_whose_last_line_lost_only_its_newline_takes_the_next_entry_on_a_line_of_its_own() {
    let (dir, event) = played("newline");
    let whole = std::fs::read(&event).unwrap();
    std::fs::write(&event, &whole[..whole.len() - 1]).unwrap();
    let (repaired, _) = said(&["repair", s(&event)], 0, &dir);
    assert!(
        repaired.contains("complete JSON without a newline"),
        "{repaired}"
    );
    run(&["event", "drop", s(&event), "p2"]);
    let text = std::fs::read_to_string(&event).unwrap();
    assert!(
        text.starts_with(std::str::from_utf8(&whole).unwrap()),
        "{text}"
    );
    let (audited, _) = said(&["audit", s(&event)], 0, &dir);
    assert!(audited.contains("valid event log, 9 entries"), "{audited}");
}

#[test]
fn a_table_log_whose_last_line_lost_only_its_newline_is_played_on_a_line_of_its_own() {
    // Given round 2 seated, and a table log whose last line lost its
    // newline.
    let (dir, event) = played("table-newline");
    run(&["event", "seat", s(&event)]);
    let table = dir.join("cup.d/round-2/table-1.jsonl");
    let whole = std::fs::read(&table).unwrap();
    assert_eq!(whole.last(), Some(&b'\n'));
    std::fs::write(&table, &whole[..whole.len() - 1]).unwrap();
    // When the bots play the round.
    run(&["event", "play", s(&event), "--bot", "greedy"]);
    // Then the table log keeps its lines and audits, and its result is
    // attached.
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(
        text.starts_with(std::str::from_utf8(&whole).unwrap()),
        "{text}"
    );
    let (audited, _) = said(&["audit", s(&table)], 0, &dir);
    assert!(audited.contains("valid"), "{audited}");
    let (verified, _) = said(&["event", "verify", s(&event)], 0, &dir);
    assert!(!verified.is_empty());
}
