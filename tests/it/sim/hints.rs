//! What `hint` recommends agrees with its own figures: the hint is the
//! decision that measured best, so its runner-up is never ahead of it.

use crate::common;

/// The first `cut` lines of `replay`, in a fresh log of the test `name`.
pub fn cut(replay: &str, cut: usize, name: &str) -> String {
    let text = std::fs::read_to_string(common::repo().join(replay)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let log = common::fresh(name, "part.jsonl");
    std::fs::write(&log, lines[..cut].join("\n") + "\n").unwrap();
    log
}

/// Given every position of a golden game of each game, when `hint` names
/// its pick and its runner-up, then the margin between them (the pick's
/// value minus the runner-up's, on the same futures) is never below 0,
/// and the text calls a runner-up "clearly behind" only when the whole
/// interval of that margin is above 0.
#[test]
fn a_runner_up_is_never_ahead_of_the_hint() {
    let mut runners = 0;
    for (replay, lines) in [
        ("replays/soleils-2p-round-limit.jsonl", 108),
        ("replays/summertime-rulebook-examples.jsonl", 27),
    ] {
        for at in 1..lines {
            let log = cut(replay, at, &format!("hint-margin-{}", at % 4));
            let args = ["hint", log.as_str(), "--bot", "search:8", "--seed", "13"];
            let (code, stdout, _) = common::sunfold(&[&args[..], &["--format", "json"]].concat());
            if code != 0 {
                continue;
            }
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            for hint in report["hints"].as_array().unwrap() {
                let Some(runner) = hint["runner_up"].as_object() else {
                    continue;
                };
                runners += 1;
                let margin = &runner["margin"];
                let low = margin["ci95"][0].as_f64().unwrap();
                let estimate = margin["estimate"].as_f64().unwrap();
                assert!(estimate >= 0.0, "{replay} after line {at}: {hint}");
                assert_eq!(
                    runner["near_tie"],
                    low <= 0.0,
                    "{replay} after line {at}: {hint}"
                );
            }
            let (_, text, _) = common::sunfold(&args);
            for line in text.lines().filter(|l| l.contains("clearly behind")) {
                let behind = line.split("), ").nth(1).unwrap_or_default();
                assert!(!behind.starts_with('-'), "{replay} after line {at}: {line}");
            }
        }
    }
    assert!(runners > 40, "only {runners} runner-ups");
}
