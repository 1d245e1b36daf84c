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
/// and a runner-up is "clearly behind" only when the whole interval of
/// that margin is above 0 (Holm's correction over every decision measured
/// may still call such a one a near tie). With at most 16 choices, every
/// one is measured, in either game.
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
                if low <= 0.0 {
                    assert_eq!(
                        runner["near_tie"].as_bool(),
                        Some(true),
                        "{replay} after line {at}: {hint}"
                    );
                }
                let (choices, measured) = (&hint["choices"], &hint["measured"]);
                if choices.as_u64() <= Some(16) {
                    assert_eq!(measured, choices, "{replay} after line {at}: {hint}");
                }
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

/// Given Summertime tables a few turns into seeded games, where the seat
/// to move has at most `EVERY_CHOICE` legal choices, when `judge` judges
/// each of those choices taken there, then every choice was measured and
/// none searched for, and the verdict is what a plain count gives: each
/// choice played out alone on the measuring futures, the highest exact
/// sum of values the best (the first in the order of the choices on a
/// tie), the taken one standing when it sums as high, and the points lost
/// the difference of the sums over the rollouts, in exact fractions.
#[test]
fn summertime_judges_every_choice_on_the_same_futures() {
    use num_rational::Ratio;
    use sunfold::bots::{Searched, Searcher, Simulated};
    use sunfold::summertime::Summertime;
    use sunfold::workbench::analysis::{Decision, MEASURE, judge, measuring};

    let (rollouts, seed) = (4, 29);
    let n = i64::from(rollouts * MEASURE);
    let mut searcher = Searcher::<Summertime>::new();
    let mut judged = 0;
    for (game, turns) in [(1, 2), (2, 4), (3, 6), (4, 3)] {
        let state = super::search::summertime_midgame(game, turns);
        let mut seats = Vec::new();
        Summertime::deciders(&state, &mut seats);
        let seat = seats[0];
        let mut options = Vec::new();
        Summertime::options(&state, seat, &mut options);
        assert!(options.len() <= Summertime::EVERY_CHOICE, "{options:?}");
        let seq = 40 + game;
        // The plain way: each choice alone, its values summed.
        let sums: Vec<i64> = (options.iter())
            .map(|&o| {
                let alone =
                    searcher.evaluate(&state, seat, &[o], rollouts * MEASURE, measuring(seed, seq));
                alone.total(0) as i64
            })
            .collect();
        let top = *sums.iter().max().unwrap();
        let first_top = sums.iter().position(|&s| s == top).unwrap();
        for (t, &taken) in options.iter().enumerate() {
            let decision = Decision {
                seq,
                before: state.clone(),
                seat,
                action: taken,
            };
            let j = judge::<Summertime>(&decision, rollouts, seed, &mut searcher);
            judged += 1;
            assert!(j.every_choice(), "game {game}: {j:?}");
            assert_eq!((j.searches, j.held, j.choices), (0, 0, options.len()));
            if sums[t] >= top {
                assert_eq!(j.best, taken, "game {game}, choice {t}");
                assert_eq!(j.lost.estimate, 0.0);
            } else {
                assert_eq!(j.best, options[first_top], "game {game}, choice {t}");
                let lost = Ratio::new(top - sums[t], n);
                let exact = *lost.numer() as f64 / *lost.denom() as f64;
                assert!(
                    (j.lost.estimate - exact).abs() < 1e-9,
                    "{} against {lost}",
                    j.lost.estimate
                );
            }
        }
    }
    assert!(judged >= 8, "only {judged} decisions judged");
}
