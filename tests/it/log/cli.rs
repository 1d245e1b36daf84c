//! The command line's own surface: JSON reports and their shape, template
//! check in JSON and on bytes that are not text, alternatives as commands,
//! completions and the manual page.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    common::temp_dir("cli")
}

fn fresh(name: &str) -> String {
    common::fresh("cli", name)
}

fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn replay_json_puts_the_error_inside_the_error_object() {
    // Given a valid log, when it is replayed as JSON, then the report says
    // so and holds the state with its score table.
    let valid = json(&ok(&[
        "replay",
        "docs/examples/postcard.jsonl",
        "--format",
        "json",
    ]));
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["game"], "soleils");
    assert!(valid["state"]["score"].is_array());
    assert!(valid.get("error").is_none());

    // Given a log with an illegal line, then the exit code is 1 and the
    // error sits in `.error`, with the state before it.
    let (code, stdout, _) = common::sunfold(&[
        "replay",
        "tests/bad/violates-less.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let bad = json(&stdout);
    assert_eq!(bad["valid"], false);
    for key in ["line", "seq", "type", "message", "alternatives"] {
        assert!(bad["error"].get(key).is_some(), "no .error.{key}: {bad}");
        assert!(bad.get(key).is_none(), "a top-level {key}: {bad}");
    }
    assert!(bad["state_before_error"]["players"].is_array());
    assert_eq!(
        bad["last_valid_seq"].as_u64(),
        bad["error"]["seq"].as_u64().map(|s| s - 1)
    );
}

#[test]
fn the_json_reports_of_the_docs_match_the_code() {
    // The docs show the shape of `replay --format json`; its fields are the
    // report's.
    let doc = std::fs::read_to_string(common::repo().join("docs/replay-format.md")).unwrap();
    let report = json(&ok(&[
        "replay",
        "docs/examples/postcard.jsonl",
        "--format",
        "json",
    ]));
    for key in report.as_object().unwrap().keys() {
        assert!(doc.contains(&format!("\"{key}\":")), "docs lack {key}");
    }
    assert!(doc.contains(&format!("\"events\": {}", report["events"])));
    assert!(doc.contains(&format!("\"ended\": {}", report["state"]["ended"])));
    let (_, stdout, _) = common::sunfold(&[
        "replay",
        "tests/bad/violates-less.jsonl",
        "--format",
        "json",
    ]);
    let bad = json(&stdout);
    assert!(doc.contains(&format!("\"message\": {}", bad["error"]["message"])));
}

#[test]
fn status_groups_the_next_entries_by_decision_as_commands_to_paste() {
    // Given a round that every player has finished, when status is asked,
    // then the 216 orderings of the next dice are one command.
    let file = fresh("closed.jsonl");
    ok(&[
        "new",
        "soleils",
        &file,
        "--players",
        "Ann,Bob",
        "--dice-seed",
        "7",
    ]);
    ok(&["roll", &file, "--dice", "4,5,2"]);
    ok(&["sun", &file, "Ann", "4"]);
    ok(&["sun", &file, "Bob", "5"]);
    let text = ok(&["status", &file]);
    assert!(
        text.contains(&format!(
            "legal next entries, by decision:\n  the roll for turn 2:\n    sunfold roll {file}\n"
        )),
        "{text}"
    );
    let status = json(&ok(&["status", &file, "--format", "json"]));
    assert_eq!(status["commands"].as_array().unwrap().len(), 1);
    assert_eq!(status["legal_events"].as_array().unwrap().len(), 216);

    // Given a pending placement, then each command, pasted, is accepted.
    ok(&["roll", &file, "--dice", "1,2,3"]);
    let status = json(&ok(&["status", &file, "--format", "json"]));
    let groups = status["commands"].as_array().unwrap();
    let decisions: Vec<&str> = groups
        .iter()
        .map(|g| g["decision"].as_str().unwrap())
        .collect();
    assert_eq!(
        decisions,
        [
            "Ann: a placement",
            "Ann: a sun entry",
            "Bob: a placement",
            "Bob: a sun entry"
        ]
    );
    let command = groups[0]["commands"][0].as_str().unwrap();
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[..3], ["sunfold", "place", file.as_str()]);
    ok(&words[1..]);
}

#[test]
fn template_check_reports_as_json_too() {
    let sound = json(&ok(&[
        "template",
        "check",
        "sheet-templates/62-soleils-d-ete.json",
        "--format",
        "json",
    ]));
    assert_eq!(sound["valid"], true);
    assert_eq!(sound["kind"], "sheet");
    assert_eq!(sound["problems"], Value::Array(Vec::new()));

    let (code, stdout, _) = common::sunfold(&[
        "template",
        "check",
        "tests/templates/many-problems.json",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let report = json(&stdout);
    assert_eq!(report["valid"], false);
    let problems = report["problems"].as_array().unwrap();
    assert!(!problems.is_empty());
    for problem in problems {
        assert!(problem["path"].is_string() && problem["message"].is_string());
    }
}

#[test]
fn template_check_names_bytes_that_are_not_text() {
    // Given a template with a Latin-1 byte on its third line, then check
    // exits 1 and says where.
    let file = fresh("latin1.json");
    std::fs::write(
        &file,
        b"{\n  \"game\": \"soleils\",\n  \"name\": \"\xe9t\xe9\"\n}\n",
    )
    .unwrap();
    let (code, _, stderr) = common::sunfold(&["template", "check", &file]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            format!(
                "{file}: line 3 column 12: expected UTF-8 text, but found an invalid byte\n{file}: 1 problem\n"
            )
            .as_str()
        )
    );
    // Given a byte-order mark, then it is named.
    let file = fresh("bom.json");
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(std::fs::read(common::repo().join("sheet-templates/petit-ete.json")).unwrap());
    std::fs::write(&file, bytes).unwrap();
    let (code, _, stderr) = common::sunfold(&["template", "check", &file]);
    assert_eq!(code, 1);
    assert!(stderr.contains("byte-order mark"), "{stderr}");
}

#[test]
fn completions_and_a_manual_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = ok(&["completions", shell]);
        assert!(script.contains("sunfold"), "{shell}");
        assert!(script.contains("status"), "{shell}: no subcommand");
    }
    let bash = ok(&["completions", "bash"]);
    assert!(bash.contains("--dice-seed"), "no nested flags");
    let page = ok(&["man"]);
    assert!(page.starts_with(".ie"), "{}", &page[..80.min(page.len())]);
    assert!(page.contains(".TH sunfold 1"));
    let pages = dir().join("man");
    let _ = std::fs::remove_dir_all(&pages);
    std::fs::create_dir_all(&pages).unwrap();
    ok(&["man", "--dir", pages.to_str().unwrap()]);
    for page in ["sunfold.1", "sunfold-replay.1", "sunfold-new-soleils.1"] {
        assert!(pages.join(page).is_file(), "no {page}");
    }
    let (code, _, _) = common::sunfold(&["completions", "tcsh"]);
    assert_eq!(code, 2);
}

/// The batch verbs share one set of flags, but `--games` keeps each verb's
/// own default and meaning: 200 games for a ladder, 1,000 elsewhere.
#[test]
fn each_batch_verb_keeps_its_own_default_game_count() {
    let (code, ladder, _) = common::sunfold(&["ladder", "--help"]);
    assert_eq!(code, 0);
    assert!(ladder.contains("Games to play [default: 200]"), "{ladder}");
    for verb in ["simulate", "compare", "sweep"] {
        let (code, help, _) = common::sunfold(&[verb, "--help"]);
        assert_eq!(code, 0);
        let games = help.split("--games").nth(1).unwrap_or_default();
        let games = games.split("--seed").next().unwrap_or_default();
        assert!(
            games.contains("Games to play (per variant, in a comparison)")
                && games.contains("[default: 1000]"),
            "{verb}: {help}"
        );
    }
}
