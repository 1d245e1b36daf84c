//! Every error message of every tier, pinned. The exhaustive matches make a
//! new variant a compile error here until its message is pinned too.

mod common;

use sunfold::log::DecodeError;
use sunfold::path::JsonPath;
use sunfold::soleils::template::{Need, ProblemKind, TemplateErrors, TemplateProblem};
use sunfold::soleils::{Dice, EndReason, Expected, Requirement, RuleError, SetupError, SunChoice};

fn rule_errors() -> Vec<RuleError> {
    let s = |t: &str| t.to_owned();
    let requirement = |need| Requirement {
        need,
        other: s("K4"),
    };
    vec![
        RuleError::SecondStart,
        RuleError::GameOver {
            reason: EndReason::RoundLimit { rounds: 20 },
        },
        RuleError::GameOver {
            reason: EndReason::SunLimit {
                players: vec![s("Ann"), s("Bob")],
                limit: 62,
            },
        },
        RuleError::UnknownPlayer {
            found: s("Zoé"),
            known: vec![s("Ann"), s("Bob")],
        },
        RuleError::UnknownBox { found: s("K9") },
        RuleError::NoRoll {
            round: 1,
            found: "placed",
        },
        RuleError::RoundOpen {
            round: 3,
            player: s("Bob"),
            expected: Expected::PlacementOrSun,
        },
        RuleError::PlayerDone {
            player: s("Ann"),
            round: 3,
            found: "placed",
        },
        RuleError::Unexpected {
            player: s("Ann"),
            expected: Expected::Crab { from: s("K1d") },
            found: "sun_entered",
        },
        RuleError::Unexpected {
            player: s("Ann"),
            expected: Expected::Sun,
            found: "placed",
        },
        RuleError::Unexpected {
            player: s("Ann"),
            expected: Expected::Bonus,
            found: "rolled",
        },
        RuleError::BoxFilled {
            id: s("K3"),
            value: 5,
        },
        RuleError::NoPearlDie {
            id: s("K3"),
            pearl: 4,
            dice: Dice([1, 2, 3]),
        },
        RuleError::NoValueDie {
            id: s("K3"),
            pearl: 4,
            value: 6,
            dice: Dice([4, 5, 2]),
        },
        RuleError::Violates {
            id: s("K3"),
            value: 5,
            requirement: requirement(Need::Below(4)),
        },
        RuleError::Violates {
            id: s("K3"),
            value: 2,
            requirement: requirement(Need::Above(4)),
        },
        RuleError::Violates {
            id: s("K3"),
            value: 2,
            requirement: requirement(Need::Equal(4)),
        },
        RuleError::Violates {
            id: s("K3"),
            value: 4,
            requirement: requirement(Need::Unlike(4)),
        },
        RuleError::WrongCrabSource {
            expected: s("K1d"),
            found: s("K1c"),
        },
        RuleError::NotAdjacent {
            from: s("K1d"),
            to: s("G1"),
            neighbours: vec![s("C1a"), s("K2d")],
        },
        RuleError::SunValue {
            expected: SunChoice::LeftOver(2),
            found: 5,
        },
        RuleError::SunValue {
            expected: SunChoice::AnyDie(Dice([4, 5, 2])),
            found: 6,
        },
        RuleError::SkipNotAllowed {
            player: s("Ann"),
            id: s("K1b"),
            value: 4,
        },
    ]
}

fn pinned_rule(error: &RuleError) {
    match error {
        RuleError::SecondStart
        | RuleError::GameOver { .. }
        | RuleError::UnknownPlayer { .. }
        | RuleError::UnknownBox { .. }
        | RuleError::NoRoll { .. }
        | RuleError::RoundOpen { .. }
        | RuleError::PlayerDone { .. }
        | RuleError::Unexpected { .. }
        | RuleError::BoxFilled { .. }
        | RuleError::NoPearlDie { .. }
        | RuleError::NoValueDie { .. }
        | RuleError::Violates { .. }
        | RuleError::WrongCrabSource { .. }
        | RuleError::NotAdjacent { .. }
        | RuleError::SunValue { .. }
        | RuleError::SkipNotAllowed { .. } => {}
    }
}

fn setup_errors() -> Vec<SetupError> {
    let problem = |path: JsonPath, kind| TemplateProblem { path, kind };
    let root = JsonPath::root();
    vec![
        SetupError::WrongGame {
            found: "chess".into(),
        },
        SetupError::PlayerCount { found: 13 },
        SetupError::PlayerCount { found: 0 },
        SetupError::EmptyName {
            position: 2,
            found: " ".into(),
        },
        SetupError::DuplicateName { name: "Ann".into() },
        SetupError::Template(TemplateErrors(vec![
            problem(
                root.key("boxes").index(0).key("pearl"),
                ProblemKind::PearlOutOfRange { found: 7 },
            ),
            problem(root.key("end").key("rounds"), ProblemKind::NoRounds),
        ])),
    ]
}

fn pinned_setup(error: &SetupError) {
    match error {
        SetupError::WrongGame { .. }
        | SetupError::PlayerCount { .. }
        | SetupError::EmptyName { .. }
        | SetupError::DuplicateName { .. }
        | SetupError::Template(_) => {}
    }
}

fn decode_errors() -> Vec<DecodeError> {
    vec![
        DecodeError::EmptyFile,
        DecodeError::BlankLine,
        DecodeError::NotUtf8 { column: 12 },
        DecodeError::TornLine { bytes: 26 },
        DecodeError::Json {
            column: 41,
            detail: "trailing comma".into(),
        },
        DecodeError::NoType {
            found: "an array".into(),
        },
        DecodeError::NoSeq {
            found: "\"one\"".into(),
        },
        DecodeError::StartNotFirst {
            found: "rolled".into(),
        },
        DecodeError::UnsupportedFormat {
            supported: 1,
            found: "2".into(),
        },
        DecodeError::UnknownGame {
            found: "\"yahtzee\"".into(),
            known: &["soleils"],
        },
        DecodeError::UnknownType {
            game: "soleils",
            found: "rolld".into(),
            known: &["started", "rolled"],
        },
        DecodeError::Seq {
            expected: 5,
            found: 4,
        },
        DecodeError::Seq {
            expected: 5,
            found: 6,
        },
        DecodeError::Seq {
            expected: 5,
            found: 9,
        },
        DecodeError::Seq {
            expected: 5,
            found: 2,
        },
        DecodeError::Schema {
            path: "at".into(),
            detail: "expected an RFC 3339 timestamp".into(),
        },
        DecodeError::Schema {
            path: String::new(),
            detail: "expected a die value from 1 to 6, but found 7".into(),
        },
    ]
}

fn pinned_decode(error: &DecodeError) {
    match error {
        DecodeError::EmptyFile
        | DecodeError::BlankLine
        | DecodeError::NotUtf8 { .. }
        | DecodeError::TornLine { .. }
        | DecodeError::Json { .. }
        | DecodeError::NoType { .. }
        | DecodeError::NoSeq { .. }
        | DecodeError::StartNotFirst { .. }
        | DecodeError::UnsupportedFormat { .. }
        | DecodeError::UnknownGame { .. }
        | DecodeError::UnknownType { .. }
        | DecodeError::Seq { .. }
        | DecodeError::Schema { .. } => {}
    }
}

fn problems() -> Vec<ProblemKind> {
    let s = |t: &str| t.to_owned();
    vec![
        ProblemKind::UnsupportedFormat { found: 2 },
        ProblemKind::WrongGame {
            found: s("summertime"),
        },
        ProblemKind::Empty { what: "name" },
        ProblemKind::DuplicateId {
            what: "box",
            id: s("K1a"),
            first: JsonPath::root().key("boxes").index(0).key("id"),
        },
        ProblemKind::PearlOutOfRange { found: 7 },
        ProblemKind::CellOutsideGrid {
            column: 12,
            row: 3,
            columns: 9,
            rows: 7,
        },
        ProblemKind::SharedCell {
            column: 0,
            row: 1,
            other: s("K1a"),
        },
        ProblemKind::UnknownZone { id: s("lagoon") },
        ProblemKind::UnknownGroup {
            id: s("K7"),
            zone: s("koinobori"),
        },
        ProblemKind::UnknownBox { id: s("Q7") },
        ProblemKind::EmptyZone { id: s("dunes") },
        ProblemKind::EmptyGroup { id: s("V4") },
        ProblemKind::SetTooSmall {
            constraint: "same",
            found: 1,
        },
        ProblemKind::DistinctTooLarge { found: 7 },
        ProblemKind::RepeatedBox { id: s("K1c") },
        ProblemKind::ZeroReward,
        ProblemKind::NoRounds,
        ProblemKind::NoSunLimit,
        ProblemKind::TooFewSlots {
            rounds: 20,
            found: 18,
        },
        ProblemKind::ThresholdOrder {
            previous: 22,
            found: 20,
        },
        ProblemKind::UnreachableThreshold { found: 90, max: 67 },
    ]
}

fn pinned_problem(problem: &ProblemKind) {
    match problem {
        ProblemKind::UnsupportedFormat { .. }
        | ProblemKind::WrongGame { .. }
        | ProblemKind::Empty { .. }
        | ProblemKind::DuplicateId { .. }
        | ProblemKind::PearlOutOfRange { .. }
        | ProblemKind::CellOutsideGrid { .. }
        | ProblemKind::SharedCell { .. }
        | ProblemKind::UnknownZone { .. }
        | ProblemKind::UnknownGroup { .. }
        | ProblemKind::UnknownBox { .. }
        | ProblemKind::EmptyZone { .. }
        | ProblemKind::EmptyGroup { .. }
        | ProblemKind::SetTooSmall { .. }
        | ProblemKind::DistinctTooLarge { .. }
        | ProblemKind::RepeatedBox { .. }
        | ProblemKind::ZeroReward
        | ProblemKind::NoRounds
        | ProblemKind::NoSunLimit
        | ProblemKind::TooFewSlots { .. }
        | ProblemKind::ThresholdOrder { .. }
        | ProblemKind::UnreachableThreshold { .. } => {}
    }
}

fn listing<E: std::fmt::Display>(errors: &[E], pinned: fn(&E)) -> String {
    errors
        .iter()
        .map(|e| {
            pinned(e);
            e.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn rule_error_messages() {
    let text = listing(&rule_errors(), pinned_rule);
    common::snapshots().bind(|| insta::assert_snapshot!("messages__rule_errors", text));
}

#[test]
fn setup_error_messages() {
    let text = listing(&setup_errors(), pinned_setup);
    common::snapshots().bind(|| insta::assert_snapshot!("messages__setup_errors", text));
}

#[test]
fn decode_error_messages() {
    let text = listing(&decode_errors(), pinned_decode);
    common::snapshots().bind(|| insta::assert_snapshot!("messages__decode_errors", text));
}

#[test]
fn template_problem_messages() {
    let text = listing(&problems(), pinned_problem);
    common::snapshots().bind(|| insta::assert_snapshot!("messages__template_problems", text));
}

#[test]
fn messages_are_lowercase() {
    let all = [
        listing(&rule_errors(), pinned_rule),
        listing(&setup_errors(), pinned_setup),
        listing(&decode_errors(), pinned_decode),
        listing(&problems(), pinned_problem),
    ]
    .join("\n");
    for line in all.lines() {
        let first = line.trim_start().chars().next().unwrap();
        assert!(!first.is_uppercase(), "starts in upper case: {line}");
    }
}
