//! `Opened::steps`, the one walk through a log beneath `analyse` and the
//! HTML viewer: each line's change, with the state before it, agrees with
//! a whole fold stopped at the same event; a broken line ends the walk
//! with the fold standing just before it.

use crate::common;

use sunfold::log::{Change, FoldError, ReplayError, StepError, line_hash, open};
use sunfold::present::Present;
use sunfold::soleils::Soleils;

/// A recorded 62 Soleils match with a decision taken back (line 4), and a
/// `claimed` line appended to it.
fn log_with_undo_and_claim() -> String {
    let text =
        std::fs::read_to_string(common::repo().join("tests/rescore/soleils-undone-skip.jsonl"))
            .unwrap();
    let last = text.lines().last().unwrap();
    let seq = text.lines().count();
    format!(
        "{text}{{\"seq\":{seq},\"prev\":\"{}\",\"type\":\"claimed\",\"scores\":{{\"Ann\":3,\"Bob\":4}}}}\n",
        line_hash(last.as_bytes())
    )
}

/// The state after event `at`, by a whole fold, as [`seen`] shows it.
fn folded_to(text: &str, at: u64) -> String {
    let fold = open(text.as_bytes())
        .ok()
        .unwrap()
        .fold::<Soleils>(Some(at), &mut |_| {})
        .ok()
        .unwrap();
    seen(fold.state())
}

/// Everything the reports show of a state: every sheet, the sun tracks,
/// the round, the dice and the score.
fn seen(state: &sunfold::soleils::State) -> String {
    serde_json::to_string(&<Soleils as Present>::view(state)).unwrap()
}

#[test]
fn given_a_log_with_an_undo_and_a_claim_when_walked_then_each_step_agrees_with_a_whole_fold() {
    let text = log_with_undo_and_claim();
    let mut steps = open(text.as_bytes())
        .ok()
        .unwrap()
        .steps::<Soleils>()
        .ok()
        .unwrap();
    assert_eq!(seen(steps.state()), folded_to(&text, 0));
    let mut kinds = Vec::new();
    while let Some(step) = steps.next() {
        let step = step.ok().unwrap();
        assert_eq!(step.line as u64, step.seq + 1, "line {}", step.line);
        assert_eq!(
            seen(&step.before),
            folded_to(&text, step.seq - 1),
            "the state before line {}",
            step.line
        );
        assert_eq!(
            seen(steps.state()),
            folded_to(&text, step.seq),
            "the state after line {}",
            step.line
        );
        kinds.push(match step.change {
            Change::Event(event) => sunfold::kit::game::EventKind::kind(&event).to_owned(),
            Change::Undone(taken) => format!("undone {} by {}", taken.seq, taken.by),
            Change::Claimed(scores) => format!("claimed {scores:?}"),
        });
    }
    assert_eq!(
        kinds,
        [
            "rolled",
            "sun_entered",
            "undone 2 by 3",
            "placed",
            "sun_entered",
            "sun_entered",
            "claimed {\"Ann\": 3, \"Bob\": 4}",
        ]
    );
    assert!(steps.next().is_none(), "a finished walk stays finished");
}

#[test]
fn given_an_illegal_line_when_walked_then_the_walk_ends_there_with_the_fold_just_before_it() {
    let text = log_with_undo_and_claim();
    // Line 5 places a 2, which the roll (1, 5, 6) did not give. The lines
    // after it keep their old hashes: the walk never gets that far.
    let broken: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let line = if i == 4 {
                line.replace("\"value\":5", "\"value\":2")
            } else {
                line.to_owned()
            };
            line + "\n"
        })
        .collect();
    let mut steps = open(broken.as_bytes())
        .ok()
        .unwrap()
        .steps::<Soleils>()
        .ok()
        .unwrap();
    let mut lines = Vec::new();
    let error = loop {
        match steps.next().expect("the walk ends with the error") {
            Ok(step) => lines.push(step.line),
            Err(error) => break error,
        }
    };
    assert_eq!(lines, [2, 3, 4]);
    assert!(steps.next().is_none(), "the walk ends at its error");
    let StepError::Rejected(located) = &error else {
        panic!("expected a rejected line, but a line could not be read");
    };
    assert_eq!((located.line, located.seq), (5, Some(4)));
    assert!(matches!(located.error, ReplayError::Rule(_)), "{located}");
    assert_eq!(seen(steps.state()), folded_to(&text, 3));
    assert!(
        steps.fold_so_far().rejected().is_some(),
        "the event decoded"
    );
    match steps.into_error(error) {
        FoldError::Rejected { error, fold } => {
            assert_eq!(error.line, 5);
            assert_eq!(fold.events(), 4);
        }
        _ => panic!("expected FoldError::Rejected"),
    }
}
