//! One bad log per error category, under `tests/bad/`. Each must exit 1 with
//! a located message, pinned by a snapshot.

use crate::common;

#[test]
fn every_bad_replay_fails_with_a_located_pinned_message() {
    let bad = common::files(&common::repo().join("tests/bad"), "jsonl");
    assert!(bad.len() >= 40, "expected one log per error category");
    for path in bad {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let relative = format!("tests/bad/{name}.jsonl");
        let (code, stdout, stderr) = common::sunfold(&["replay", &relative]);
        assert_eq!(code, 1, "{relative}: expected exit 1, got {code}: {stderr}");
        assert_eq!(stdout, "", "{relative} printed a report despite failing");
        assert!(
            stderr.starts_with(&format!("{relative}:")),
            "{relative}: error not located: {stderr}"
        );
        common::snapshots().bind(|| insta::assert_snapshot!(format!("bad__{name}"), stderr));
    }
}

#[test]
fn json_errors_carry_line_seq_type_and_alternatives() {
    let (code, stdout, stderr) = common::sunfold(&[
        "replay",
        "tests/bad/violates-less.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(stderr, "");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["error"]["line"], 9);
    assert_eq!(report["error"]["seq"], 8);
    assert_eq!(report["error"]["type"], "placed");
    assert_eq!(
        report["error"]["message"],
        "box K1c needs a value below 5 as K1d holds 5, but found 6"
    );
    assert_eq!(report["last_valid_seq"], 7);
    let alternatives = report["error"]["alternatives"].as_array().unwrap();
    assert!(alternatives.contains(&"Ann placed 1 in K1c".into()));
}

#[test]
fn a_missing_file_is_an_io_error_with_exit_2() {
    let (code, stdout, stderr) = common::sunfold(&["replay", "no/such/match.jsonl"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(stderr, "sunfold: no/such/match.jsonl: no such file\n");
}

#[test]
fn a_directory_is_an_io_error_with_exit_2() {
    let (code, _, stderr) = common::sunfold(&["replay", "replays"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("sunfold: replays: "), "{stderr}");
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let (code, _, stderr) = common::sunfold(&["replay"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, _) = common::sunfold(&["replay", "x.jsonl", "--format", "yaml"]);
    assert_eq!(code, 2);
    let (code, stdout, _) = common::sunfold(&["replay", "--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Exit codes:"));
}
