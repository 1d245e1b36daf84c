//! The golden replays: every file in `replays/` is audited by the binary, and
//! its final sheets and score are snapshotted. Adding a replay adds a test.

use crate::common;

#[test]
fn every_golden_replay_audits_clean_and_matches_its_snapshot() {
    let replays = common::files(&common::repo().join("replays"), "jsonl");
    assert!(replays.len() >= 3, "expected the bundled replays");
    for path in replays {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let relative = format!("replays/{name}.jsonl");
        let (code, stdout, stderr) = common::sunfold(&["replay", &relative]);
        assert_eq!(code, 0, "{relative} failed: {stderr}");
        assert_eq!(stderr, "");
        common::snapshots().bind(|| insta::assert_snapshot!(format!("replay__{name}"), stdout));
    }
}

/// Logs of an older format that hold what the current rules refuse (a
/// physical game stuck by a declared back no unseen card shows, an undo
/// after the end, claims before it) replay as they always did, valid, and
/// `replay` and `audit` name those entries with their lines.
#[test]
fn every_older_format_replay_stays_valid_and_names_what_the_current_rules_refuse() {
    let replays = common::files(&common::repo().join("tests/older-formats"), "jsonl");
    assert!(replays.len() >= 3, "expected the older-format replays");
    for path in replays {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let relative = format!("tests/older-formats/{name}.jsonl");
        let (code, replay, stderr) = common::sunfold(&["replay", &relative]);
        assert_eq!(code, 0, "{relative} failed: {stderr}");
        let (code, audit, stderr) = common::sunfold(&["audit", &relative]);
        assert_eq!(code, 0, "{relative}: audit failed: {stderr}");
        let shown =
            format!("$ sunfold replay {relative}\n{replay}\n$ sunfold audit {relative}\n{audit}");
        common::snapshots()
            .bind(|| insta::assert_snapshot!(format!("older_format__{name}"), shown));
    }
}

#[test]
fn replay_stops_after_the_event_given_with_at() {
    let (code, stdout, _) = common::sunfold(&[
        "replay",
        "replays/soleils-2p-round-limit.jsonl",
        "--at",
        "9",
    ]);
    assert_eq!(code, 0);
    common::snapshots().bind(|| insta::assert_snapshot!("replay__at_9", stdout));
}

#[test]
fn replay_at_past_the_end_is_an_error() {
    let (code, _, stderr) = common::sunfold(&[
        "replay",
        "replays/soleils-2p-round-limit.jsonl",
        "--at",
        "5000",
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "replays/soleils-2p-round-limit.jsonl: expected an event 5000 to stop after, but the log ends at event 107\n"
    );
}

#[test]
fn json_output_has_the_final_score() {
    let (code, stdout, _) = common::sunfold(&[
        "replay",
        "replays/soleils-4p-sun-limit.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["valid"], true);
    assert_eq!(report["events"], 118);
    let score = &report["state"]["score"];
    common::snapshots().bind(|| insta::assert_json_snapshot!("replay__4p_score_json", score));
}
