//! Slow checks of the designer's verbs: a hint and its analysis at the
//! default judging budget.

use crate::common;

/// Given the 4-player golden stopped after its roll, when Maxime asks for
/// a hint at the default budget, then the hint is the decision that
/// measured best and its runner-up is behind it or a near tie; once
/// either is recorded next, `analyse` at the same seed lets the hint
/// stand, and says "no better decision found" for the runner-up only when
/// no search picked the hint.
#[test]
fn a_hint_recommends_what_measured_best_and_analyse_agrees() {
    let replay = "replays/soleils-4p-sun-limit.jsonl";
    let log = super::hints::cut(replay, 2, "slow-hint-cut2");
    let args = ["hint", log.as_str(), "Maxime", "--seed", "71"];
    let (code, hint, stderr) = common::sunfold(&args);
    assert_eq!(code, 0, "{stderr}");
    let json = common::sunfold(&[&args[..], &["--format", "json"]].concat()).1;
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let h = &report["hints"][0];
    let runner = &h["runner_up"];
    assert!(
        runner["margin"]["estimate"].as_f64().unwrap() >= 0.0,
        "{hint}"
    );
    let mut out = hint.replace(&log, "cut2.jsonl");
    for (which, event) in [
        ("the hint", &h["event"]),
        ("its runner-up", &runner["event"]),
    ] {
        let log = super::hints::cut(replay, 2, "slow-hint-judged");
        let entry = serde_json::to_string(event).unwrap();
        let (code, _, stderr) = common::sunfold(&["append", &log, &entry]);
        assert_eq!(code, 0, "{stderr}");
        let (code, judged, stderr) =
            common::sunfold(&["analyse", &log, "--seed", "71", "--format", "json"]);
        assert_eq!(code, 0, "{stderr}");
        let judged: serde_json::Value = serde_json::from_str(&judged).unwrap();
        let last = &judged["decisions"].as_array().unwrap()[0];
        let said = |v: &serde_json::Value| v.as_str().unwrap_or("").to_owned();
        let lost = &last["points_lost"];
        let lost = match (
            lost["estimate"].as_f64(),
            lost["ci95"][0].as_f64(),
            lost["ci95"][1].as_f64(),
        ) {
            (Some(e), Some(low), Some(high)) => format!(", lost {e:.1} [{low:.1}, {high:.1}]"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "\n{which} recorded: {}; {}{lost}",
            said(&last["taken"]["said"]),
            said(&last["verdict"])
        ));
        if which == "the hint" {
            assert_eq!(last["best"]["said"], h["said"], "{judged}");
        }
    }
    common::snapshots().bind(|| insta::assert_snapshot!("search__hint_measured_best", out));
}
