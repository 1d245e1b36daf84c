//! Logs damaged by a crash or by hand, as every verb that reads them
//! names the damage: a torn last line (cut anywhere, inside a character
//! too, or a tail of NUL bytes) and blank lines at the end, which `repair`
//! removes and keeps; damage above them, which it reports and leaves; and
//! an event log given to a match log's verb.

use crate::common;
use std::path::{Path, PathBuf};

/// Runs `sunfold ARGS` in `dir`, so that its messages name files as given.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = run_in(dir, args);
    assert_eq!(code, 0, "sunfold {args:?}: {stderr}");
    stdout
}

/// A match log `m.jsonl` of Chloé and Bob, three events long, in the
/// test's own empty folder.
fn match_log(test: &str) -> (PathBuf, Vec<u8>) {
    let dir = common::scratch(test);
    ok_in(
        &dir,
        &["new", "soleils", "m.jsonl", "--players", "Chloé,Bob"],
    );
    ok_in(&dir, &["roll", "m.jsonl", "--dice", "4,5,2"]);
    ok_in(&dir, &["place", "m.jsonl", "Chloé", "K1d", "5"]);
    let bytes = std::fs::read(dir.join("m.jsonl")).unwrap();
    (dir, bytes)
}

/// An event log `e.jsonl` of Ann, Chloé and Bob, created and seated, in
/// the test's own empty folder.
fn event_log(test: &str) -> (PathBuf, Vec<u8>) {
    let dir = common::scratch(test);
    std::fs::write(dir.join("p.txt"), "Ann\nChloé\nBob\n").unwrap();
    ok_in(
        &dir,
        &[
            "event",
            "new",
            "e.jsonl",
            "--game",
            "soleils",
            "--players-file",
            "p.txt",
            "--rounds",
            "1",
            "--seed",
            "1",
        ],
    );
    ok_in(&dir, &["event", "seat", "e.jsonl"]);
    let bytes = std::fs::read(dir.join("e.jsonl")).unwrap();
    (dir, bytes)
}

/// `bytes` and a write cut short after the first byte of the "é" of
/// "Chloé".
fn cut_in_a_character(bytes: &[u8], seq: usize) -> Vec<u8> {
    let mut torn = bytes.to_vec();
    let line = format!("{{\"seq\":{seq},\"type\":\"arrived\",\"name\":\"Chloé\"}}");
    let cut = line.find('é').unwrap() + 1;
    torn.extend_from_slice(&line.as_bytes()[..cut]);
    torn
}

/// `bytes` and a tail of NUL bytes, as a file system leaves a block that
/// was allocated but never written.
fn nul_tail(bytes: &[u8]) -> Vec<u8> {
    let mut torn = bytes.to_vec();
    torn.extend_from_slice(&[0; 512]);
    torn
}

#[test]
fn a_line_torn_inside_a_character_or_a_nul_tail_is_named_torn_with_the_repair_hint() {
    let (dir, whole) = match_log("damage-torn-match");
    let log = dir.join("m.jsonl");
    let mut said = Vec::new();
    for (name, torn) in [
        ("character", cut_in_a_character(&whole, 3)),
        ("nul", nul_tail(&whole)),
    ] {
        std::fs::write(&log, &torn).unwrap();
        for verb in ["replay", "status"] {
            let (code, _, stderr) = run_in(&dir, &[verb, "m.jsonl"]);
            assert_eq!(code, 1, "{verb} {name}: {stderr}");
            assert!(stderr.contains("(a torn write)"), "{verb} {name}: {stderr}");
            assert!(
                stderr.contains("sunfold repair m.jsonl removes it"),
                "{verb} {name}: {stderr}"
            );
        }
        said.push(run_in(&dir, &["replay", "m.jsonl"]).2);
        let repaired = ok_in(&dir, &["repair", "m.jsonl"]);
        assert!(repaired.contains("removed the torn line 4"), "{repaired}");
        assert_eq!(std::fs::read(&log).unwrap(), whole, "{name}");
        ok_in(&dir, &["replay", "m.jsonl"]);
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("damage__torn-character", said[0]);
        insta::assert_snapshot!("damage__torn-nul", said[1]);
    });
}

#[test]
fn an_event_log_torn_inside_a_character_or_with_a_nul_tail_is_named_torn_by_the_event_verbs() {
    let (dir, whole) = event_log("damage-torn-event");
    let log = dir.join("e.jsonl");
    for torn in [cut_in_a_character(&whole, 2), nul_tail(&whole)] {
        std::fs::write(&log, &torn).unwrap();
        for verb in ["standings", "play"] {
            let (code, _, stderr) = run_in(&dir, &["event", verb, "e.jsonl"]);
            assert_eq!(code, 1, "event {verb}: {stderr}");
            assert!(stderr.contains("(a torn write)"), "event {verb}: {stderr}");
            assert!(
                stderr.contains("sunfold repair e.jsonl removes it"),
                "event {verb}: {stderr}"
            );
        }
        ok_in(&dir, &["repair", "e.jsonl"]);
        assert_eq!(std::fs::read(&log).unwrap(), whole);
    }
}

#[test]
fn audit_names_repair_for_a_torn_log_and_for_blank_lines_at_the_end() {
    let (dir, whole) = match_log("damage-audit");
    std::fs::write(dir.join("m.jsonl"), cut_in_a_character(&whole, 3)).unwrap();
    let mut blank = whole.clone();
    blank.extend_from_slice(b"\n");
    std::fs::write(dir.join("n.jsonl"), &blank).unwrap();
    let mut torn = whole.clone();
    torn.extend_from_slice(b"{\"seq\":3,\"ty");
    std::fs::write(dir.join("o.jsonl"), &torn).unwrap();
    let (code, stdout, _) = run_in(&dir, &["audit", "m.jsonl", "n.jsonl", "o.jsonl"]);
    assert_eq!(code, 1, "{stdout}");
    common::snapshots().bind(|| insta::assert_snapshot!("damage__audit", stdout));
    assert!(
        stdout.contains("sunfold repair m.jsonl removes it"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sunfold repair n.jsonl removes them"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sunfold repair o.jsonl removes it"),
        "{stdout}"
    );
    let (_, stdout, _) = run_in(&dir, &["audit", "o.jsonl", "--format", "json"]);
    let line: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    let advice = line["error"]["advice"].as_str().unwrap_or_default();
    assert!(advice.starts_with("a crash cut the last write short: sunfold repair o.jsonl"));
    // An event log too.
    let (dir, whole) = event_log("damage-audit-event");
    std::fs::write(dir.join("e.jsonl"), nul_tail(&whole)).unwrap();
    let (code, stdout, _) = run_in(&dir, &["audit", "e.jsonl"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("sunfold repair e.jsonl removes it"),
        "{stdout}"
    );
}

#[test]
fn a_second_repair_keeps_the_first_torn_bytes() {
    let (dir, whole) = match_log("damage-twice");
    let log = dir.join("m.jsonl");
    let mut first = whole.clone();
    first.extend_from_slice(b"{\"seq\":3,\"type\":\"cra");
    std::fs::write(&log, &first).unwrap();
    let said = ok_in(&dir, &["repair", "m.jsonl"]);
    assert!(said.contains("kept in m.jsonl.torn)"), "{said}");
    std::fs::write(&log, nul_tail(&whole)).unwrap();
    let said = ok_in(&dir, &["repair", "m.jsonl"]);
    assert!(said.contains("kept in m.jsonl.torn.2)"), "{said}");
    std::fs::write(&log, cut_in_a_character(&whole, 3)).unwrap();
    let said = ok_in(&dir, &["repair", "m.jsonl"]);
    assert!(said.contains("kept in m.jsonl.torn.3)"), "{said}");
    assert_eq!(
        std::fs::read(dir.join("m.jsonl.torn")).unwrap(),
        b"{\"seq\":3,\"type\":\"cra"
    );
    assert_eq!(std::fs::read(dir.join("m.jsonl.torn.2")).unwrap(), [0; 512]);
    assert_eq!(
        std::fs::read(dir.join("m.jsonl.torn.3")).unwrap(),
        &cut_in_a_character(&whole, 3)[whole.len()..]
    );
    assert_eq!(std::fs::read(&log).unwrap(), whole);
}

#[test]
fn damage_above_the_last_line_is_reported_with_its_line_and_never_repaired() {
    let (dir, whole) = match_log("damage-above");
    let log = dir.join("m.jsonl");
    let text = String::from_utf8(whole.clone()).unwrap();
    let cases = [
        // A rule broken on the last line, which is complete.
        ("rule", text.replace("\"value\":5", "\"value\":6")),
        // A blank line between two events.
        (
            "blank",
            text.replacen('\n', "\n\n", 2).replacen("\n\n", "\n", 1),
        ),
        // A line cut short above a complete one, a torn tail after.
        (
            "cut",
            text.replacen("\"dice\"", "\"di\n", 1) + "{\"seq\":3,\"ty",
        ),
    ];
    let mut said = Vec::new();
    for (name, damaged) in cases {
        std::fs::write(&log, &damaged).unwrap();
        let (code, stdout, stderr) = run_in(&dir, &["repair", "m.jsonl"]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{name}: {stderr}");
        assert!(stderr.contains("nothing was changed"), "{name}: {stderr}");
        assert_eq!(std::fs::read_to_string(&log).unwrap(), damaged, "{name}");
        assert!(!dir.join("m.jsonl.torn").exists(), "{name}");
        said.push(stderr);
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("damage__above-rule", said[0]);
        insta::assert_snapshot!("damage__above-blank", said[1]);
        insta::assert_snapshot!("damage__above-cut", said[2]);
    });
}

#[test]
fn blank_lines_at_the_end_are_named_by_every_verb_and_removed_by_repair() {
    let (dir, whole) = match_log("damage-blank");
    let log = dir.join("m.jsonl");
    let mut blank = whole.clone();
    blank.extend_from_slice(b"\n \r\n");
    std::fs::write(&log, &blank).unwrap();
    for verb in ["replay", "status"] {
        let (code, _, stderr) = run_in(&dir, &[verb, "m.jsonl"]);
        assert_eq!(code, 1, "{verb}: {stderr}");
        assert!(
            stderr.contains(
                "the log ends in blank lines: sunfold repair m.jsonl removes them and keeps them aside"
            ),
            "{verb}: {stderr}"
        );
    }
    let (_, _, stderr) = run_in(&dir, &["replay", "m.jsonl"]);
    common::snapshots().bind(|| insta::assert_snapshot!("damage__blank-end", stderr));
    let (code, _, _) = run_in(&dir, &["roll", "m.jsonl", "--dice", "1,2,3"]);
    assert_eq!(code, 1, "nothing is appended after a blank line");
    let said = ok_in(&dir, &["repair", "m.jsonl"]);
    assert_eq!(
        said,
        "m.jsonl: removed the blank lines 4 to 5 at the end (4 bytes, kept in m.jsonl.torn)\n"
    );
    assert_eq!(std::fs::read(&log).unwrap(), whole);
    assert_eq!(std::fs::read(dir.join("m.jsonl.torn")).unwrap(), b"\n \r\n");
    ok_in(&dir, &["replay", "m.jsonl"]);
    // An event log alike.
    let (dir, whole) = event_log("damage-blank-event");
    let mut blank = whole.clone();
    blank.extend_from_slice(b"\n");
    std::fs::write(dir.join("e.jsonl"), &blank).unwrap();
    let (code, _, stderr) = run_in(&dir, &["event", "standings", "e.jsonl"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("sunfold repair e.jsonl removes them"),
        "{stderr}"
    );
    ok_in(&dir, &["repair", "e.jsonl"]);
    assert_eq!(std::fs::read(dir.join("e.jsonl")).unwrap(), whole);
}

#[test]
fn an_event_log_given_to_replay_or_status_is_named_with_the_event_verbs() {
    let (dir, _) = event_log("damage-event-as-match");
    let mut said = Vec::new();
    for verb in ["replay", "status"] {
        let (code, stdout, stderr) = run_in(&dir, &[verb, "e.jsonl"]);
        assert_eq!((code, stdout.as_str()), (1, ""), "{verb}: {stderr}");
        assert!(
            stderr.contains("but found an event log"),
            "{verb}: {stderr}"
        );
        assert!(
            stderr.contains("sunfold event standings e.jsonl")
                && stderr.contains("sunfold audit e.jsonl"),
            "{verb}: {stderr}"
        );
        said.push(stderr);
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("damage__event-log-replay", said[0]);
        insta::assert_snapshot!("damage__event-log-status", said[1]);
    });
}

/// Given a torn log, a log with blank lines at its end, an event log and
/// a log with an illegal line, when `replay --format json` reads each,
/// then the JSON carries the advice the text gives under the error, as
/// fields: what it is, in words, and the commands to paste (`repair`, the
/// event verbs), and the command for the state before the line; the legal
/// events instead stay in `error.alternatives`.
#[test]
fn replay_json_gives_the_advice_the_text_gives() {
    let (dir, whole) = match_log("damage-json-advice");
    let log = dir.join("m.jsonl");
    let mut reports = Vec::new();
    let mut blank = whole.clone();
    blank.extend_from_slice(b"\n\n");
    let (_, event) = event_log("damage-json-advice-event");
    let mut illegal = String::from_utf8(whole.clone()).unwrap();
    illegal.push_str(&format!(
        "{{\"seq\":3,\"prev\":\"{}\",\"type\":\"placed\",\"player\":\"Bob\",\"box\":\"K1d\",\"value\":6}}\n",
        hash_of_last_line(&whole)
    ));
    for (name, bytes) in [
        ("torn", cut_in_a_character(&whole, 3)),
        ("blank", blank),
        ("event", event),
        ("illegal", illegal.into_bytes()),
    ] {
        std::fs::write(&log, &bytes).unwrap();
        let (code, stdout, stderr) = run_in(&dir, &["replay", "m.jsonl", "--format", "json"]);
        assert_eq!(code, 1, "{name}: {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let text = run_in(&dir, &["replay", "m.jsonl"]).2;
        if let Some(advice) = json.get("advice") {
            assert!(
                text.contains(advice["message"].as_str().unwrap()),
                "{name}: {text}"
            );
            for command in advice["commands"].as_array().unwrap() {
                assert!(text.contains(command.as_str().unwrap()), "{name}: {text}");
            }
        }
        if let Some(command) = json.get("state_before_command") {
            assert!(text.contains(command.as_str().unwrap()), "{name}: {text}");
        }
        let mut fields = json.clone();
        fields.as_object_mut().unwrap().remove("state_before_error");
        reports.push(format!("{name}:\n{fields:#}"));
    }
    let kinds: Vec<String> = (reports.iter())
        .map(|r| {
            r.lines()
                .find(|l| l.contains("\"kind\""))
                .unwrap_or("")
                .trim()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "\"kind\": \"torn_line\",",
            "\"kind\": \"blank_lines_at_end\",",
            "\"kind\": \"event_log\",",
            ""
        ]
    );
    common::snapshots().bind(|| {
        insta::assert_snapshot!("damage__replay_json_advice", reports.join("\n\n"));
    });
}

/// The SHA-256 of the last line of `bytes`, as the next line's `prev`.
fn hash_of_last_line(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let last = bytes
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap();
    Sha256::digest(last)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
