//! Every error message of every tier, pinned. The exhaustive matches make a
//! new variant a compile error here until its message is pinned too.

use crate::common;

use sunfold::kit::path::JsonPath;
use sunfold::log::{DecodeError, MetaError};
use sunfold::soleils::template::{Need, ProblemKind, TemplateProblem};
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
            suggestion: Default::default(),
        },
        RuleError::UnknownPlayer {
            found: s("ann"),
            known: vec![s("Ann"), s("Bob")],
            suggestion: sunfold::kit::suggest::Suggestion(Some(s("Ann"))),
        },
        RuleError::UnknownBox {
            found: s("K9"),
            suggestion: Default::default(),
        },
        RuleError::UnknownBox {
            found: s("k1a"),
            suggestion: sunfold::kit::suggest::Suggestion(Some(s("K1a"))),
        },
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
        RuleError::RoundWaits {
            player: s("Bob"),
            round: 3,
            waits_on: s("Ann"),
            expected: Expected::Bonus,
            found: "bonus_placed",
        },
        RuleError::Unexpected {
            player: s("Ann"),
            expected: Expected::Crab { from: s("K1d") },
            found: "sun_entered",
        },
        RuleError::NoCrabCopy {
            player: s("Ann"),
            id: s("K1d"),
            value: 5,
            found: "crab_declined",
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
        | RuleError::RoundWaits { .. }
        | RuleError::NoCrabCopy { .. }
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
        SetupError::SoloNotAsked,
        SetupError::SoloWithMore { found: 3 },
        SetupError::EmptyName {
            position: 2,
            found: " ".into(),
        },
        SetupError::DuplicateName { name: "Ann".into() },
        SetupError::Template(sunfold::kit::path::Problems(vec![
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
        | SetupError::SoloNotAsked
        | SetupError::SoloWithMore { .. }
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
        DecodeError::ByteOrderMark,
        DecodeError::NotJson {
            found: "not json".into(),
        },
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
            supported: &[1, 2, 3],
            found: "4".into(),
        },
        DecodeError::UnknownGame {
            found: "\"yahtzee\"".into(),
            known: &["soleils"],
        },
        DecodeError::UnknownType {
            game: "soleils",
            found: "rolld".into(),
            known: vec!["started", "rolled", "undone", "claimed"],
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
        DecodeError::ChainBroken { line: 3 },
        DecodeError::ChainMissing,
        DecodeError::ChainUnexpected,
        DecodeError::EventLog,
    ]
}

fn pinned_decode(error: &DecodeError) {
    match error {
        DecodeError::EmptyFile
        | DecodeError::BlankLine
        | DecodeError::NotUtf8 { .. }
        | DecodeError::TornLine { .. }
        | DecodeError::ByteOrderMark
        | DecodeError::NotJson { .. }
        | DecodeError::Json { .. }
        | DecodeError::NoType { .. }
        | DecodeError::NoSeq { .. }
        | DecodeError::StartNotFirst { .. }
        | DecodeError::UnsupportedFormat { .. }
        | DecodeError::UnknownGame { .. }
        | DecodeError::UnknownType { .. }
        | DecodeError::Seq { .. }
        | DecodeError::Schema { .. }
        | DecodeError::ChainBroken { .. }
        | DecodeError::ChainMissing
        | DecodeError::ChainUnexpected
        | DecodeError::EventLog => {}
    }
}

fn meta_errors() -> Vec<MetaError> {
    vec![
        MetaError::NothingToUndo {
            barrier: "roll or reveal",
        },
        MetaError::NotLast {
            expected: 17,
            found: 12,
        },
        MetaError::UnknownClaimant {
            found: "Zed".into(),
            known: vec!["Ann".into(), "Bob".into()],
        },
        MetaError::UndoPastEnd,
        MetaError::ClaimBeforeEnd,
        MetaError::CalledAfterEnd,
        MetaError::Called { seq: 40 },
        MetaError::AuthorBeforeFormat {
            format: 3,
            found: "referee".into(),
        },
        MetaError::AuthorOfStart {
            found: "Ann".into(),
        },
        MetaError::UnknownAuthor {
            found: "Zed".into(),
            known: vec!["Ann".into(), "Bob".into()],
            bots: false,
        },
        MetaError::UnknownAuthor {
            found: "bot:clever".into(),
            known: vec!["Ann".into(), "Bob".into()],
            bots: true,
        },
    ]
}

fn pinned_meta(error: &MetaError) {
    match error {
        MetaError::NothingToUndo { .. }
        | MetaError::NotLast { .. }
        | MetaError::UnknownClaimant { .. }
        | MetaError::UndoPastEnd
        | MetaError::ClaimBeforeEnd
        | MetaError::CalledAfterEnd
        | MetaError::Called { .. }
        | MetaError::AuthorBeforeFormat { .. }
        | MetaError::AuthorOfStart { .. }
        | MetaError::UnknownAuthor { .. } => {}
    }
}

#[test]
fn meta_error_messages() {
    let text = listing(&meta_errors(), pinned_meta);
    common::snapshots().bind(|| insta::assert_snapshot!("messages__meta_errors", text));
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
        ProblemKind::OrderCycle {
            cycle: vec!["K1b < K1a".into(), "K1a < K1b".into()],
        },
        ProblemKind::SameAndApart {
            first: "C2a".into(),
            second: "C2b".into(),
            same: JsonPath::root().key("constraints").index(4).key("same"),
            relation: "them in one distinct set".into(),
        },
        ProblemKind::NoValueLeft {
            id: "K1d".into(),
            below: 3,
            above: 3,
        },
        ProblemKind::ZoneTooLarge {
            zone: "koinobori".into(),
            boxes: 12,
            most: 9,
        },
        ProblemKind::NeverCompleted {
            what: "group",
            id: "K1".into(),
        },
        ProblemKind::Improbable {
            zone: "koinobori".into(),
            one_in: 260,
        },
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
        | ProblemKind::UnreachableThreshold { .. }
        | ProblemKind::OrderCycle { .. }
        | ProblemKind::SameAndApart { .. }
        | ProblemKind::NoValueLeft { .. }
        | ProblemKind::ZoneTooLarge { .. }
        | ProblemKind::NeverCompleted { .. }
        | ProblemKind::Improbable { .. } => {}
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

mod summertime_messages {
    use super::common;
    use sunfold::kit::path::JsonPath;
    use sunfold::summertime::deck::{CostText, DeckProblem, DeckProblemKind};
    use sunfold::summertime::{
        At, Awaited, Before, Borders, Either, EndReason, PassRun, RuleError, SetupError, Shortfall,
        Stacks,
    };

    fn s(t: &str) -> String {
        t.to_owned()
    }

    fn rule_errors() -> Vec<RuleError> {
        let cost = CostText(vec![(2, s("coconut")), (1, s("breadfruit"))]);
        vec![
            RuleError::SecondStart,
            RuleError::GameOver {
                reason: EndReason::LastCardBought,
            },
            RuleError::GameOver {
                reason: EndReason::LastCardsDiscarded,
            },
            RuleError::GameOver {
                reason: EndReason::GridFull { cards: 30 },
            },
            RuleError::Unexpected {
                awaited: Awaited::Reveal { stack: 1 },
                found: "bought",
            },
            RuleError::Unexpected {
                awaited: Awaited::Discard,
                found: "passed",
            },
            RuleError::Unexpected {
                awaited: Awaited::Action { player: s("Ann") },
                found: "turn_ended",
            },
            RuleError::Unexpected {
                awaited: Awaited::PlayOrEnd { player: s("Ann") },
                found: "passed",
            },
            RuleError::NotYourTurn {
                expected: s("Ann"),
                found: s("Ben"),
            },
            RuleError::UnknownPlayer {
                found: s("Zoé"),
                known: vec![s("Ann"), s("Ben")],
                suggestion: Default::default(),
            },
            RuleError::UnknownCard {
                found: s("kite-1"),
                suggestion: Default::default(),
            },
            RuleError::UnknownCard {
                found: s("fish1"),
                suggestion: sunfold::kit::suggest::Suggestion(Some(s("fish-1"))),
            },
            RuleError::WrongStack {
                expected: 1,
                found: 2,
            },
            RuleError::WrongReveal {
                stack: 1,
                expected: s("couple-1"),
                found: s("fish-2"),
            },
            RuleError::AlreadySeen { card: s("ocean-1") },
            RuleError::BackMismatch {
                card: s("beach-1"),
                declared: cost.clone(),
                actual: CostText(vec![(1, s("coconut")), (2, s("coral"))]),
            },
            RuleError::BehindMissing { stack: 0 },
            RuleError::BehindNotExpected {
                stack: 1,
                reason: "in a dealt game the order gives it",
            },
            RuleError::UnknownItem { found: s("sand") },
            RuleError::NotFaceUp {
                found: s("fish-2"),
                face_up: vec![s("ocean-1"), s("couple-1")],
            },
            RuleError::CannotAfford {
                cost: cost.clone(),
                face_up: Shortfall(vec![(1, s("coconut"))]),
            },
            RuleError::CannotAfford {
                cost,
                face_up: Shortfall(vec![(1, s("coconut")), (0, s("breadfruit"))]),
            },
            RuleError::CannotAfford {
                cost: CostText(vec![(3, s("shell"))]),
                face_up: Shortfall(vec![(0, s("shell"))]),
            },
            RuleError::NothingToFlip { player: s("Ann") },
            RuleError::NotBought { player: s("Ann") },
            RuleError::TooManyPlays { max: 5 },
            RuleError::NotInHand {
                player: s("Ann"),
                card: s("fish-1"),
            },
            RuleError::FirstNotAtOrigin { cell: At(3, 3) },
            RuleError::CellTaken {
                cell: At(0, 0),
                card: s("beach-1"),
            },
            RuleError::Detached { cell: At(2, 2) },
            RuleError::GridTooLarge {
                width: 7,
                height: 1,
                long: 6,
                short: 5,
            },
            RuleError::NeedsNeighbour {
                needs: Either(vec![s("ocean")]),
                cell: At(2, 1),
                borders: Borders(vec![s("beach")]),
            },
            RuleError::NeedsNeighbour {
                needs: Either(vec![s("fish"), s("palm tree")]),
                cell: At(2, 1),
                borders: Borders(vec![]),
            },
            RuleError::WrongDiscard {
                expected: vec![s("ocean-1"), s("couple-1")],
                found: vec![s("ocean-1")],
            },
            RuleError::RevealWhileFaceUp {
                face_up: vec![s("ocean-1"), s("couple-1")],
            },
            RuleError::RevealWhileFaceUp {
                face_up: vec![s("catamaran-1")],
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: Some(s("Ann")),
                    before: Before::Turn {
                        player: s("Ben"),
                        action: "tile flip",
                    },
                },
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: Some(s("Ann")),
                    before: Before::Discard,
                },
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: Some(s("Ann")),
                    before: Before::Start,
                },
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: None,
                    before: Before::Turn {
                        player: s("Ben"),
                        action: "buy",
                    },
                },
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: None,
                    before: Before::Discard,
                },
            },
            RuleError::NotTwoPasses {
                passes: PassRun {
                    last_pass: None,
                    before: Before::Start,
                },
            },
            RuleError::NoSuchBack {
                stack: 1,
                declared: CostText(vec![(3, s("coconut"))]),
            },
            RuleError::BackWithoutCard {
                declared: CostText(vec![(1, s("coconut")), (2, s("coral"))]),
                stacks: Stacks(vec![0]),
                found: 0,
                card: s("beach-1"),
                taken: "turned up",
            },
            RuleError::BackWithoutCard {
                declared: CostText(vec![
                    (1, s("breadfruit")),
                    (1, s("coral")),
                    (1, s("flower")),
                ]),
                stacks: Stacks(vec![0, 1]),
                found: 1,
                card: s("beach-4"),
                taken: "played",
            },
            RuleError::BacksUnmet {
                declared: CostText(vec![(1, s("coconut")), (2, s("coral"))]),
                stacks: Stacks(vec![0, 1, 2]),
                found: 2,
            },
            RuleError::StackNotDue {
                due: Stacks(vec![1, 2]),
                found: 0,
            },
        ]
    }

    fn pinned_rule(error: &RuleError) {
        match error {
            RuleError::SecondStart
            | RuleError::GameOver { .. }
            | RuleError::Unexpected { .. }
            | RuleError::NotYourTurn { .. }
            | RuleError::UnknownPlayer { .. }
            | RuleError::UnknownCard { .. }
            | RuleError::WrongStack { .. }
            | RuleError::WrongReveal { .. }
            | RuleError::AlreadySeen { .. }
            | RuleError::BackMismatch { .. }
            | RuleError::BehindMissing { .. }
            | RuleError::BehindNotExpected { .. }
            | RuleError::UnknownItem { .. }
            | RuleError::NotFaceUp { .. }
            | RuleError::CannotAfford { .. }
            | RuleError::NothingToFlip { .. }
            | RuleError::NotBought { .. }
            | RuleError::TooManyPlays { .. }
            | RuleError::NotInHand { .. }
            | RuleError::FirstNotAtOrigin { .. }
            | RuleError::CellTaken { .. }
            | RuleError::Detached { .. }
            | RuleError::GridTooLarge { .. }
            | RuleError::NeedsNeighbour { .. }
            | RuleError::WrongDiscard { .. }
            | RuleError::RevealWhileFaceUp { .. }
            | RuleError::NotTwoPasses { .. }
            | RuleError::NoSuchBack { .. }
            | RuleError::BackWithoutCard { .. }
            | RuleError::BacksUnmet { .. }
            | RuleError::StackNotDue { .. } => {}
        }
    }

    fn setup_errors() -> Vec<SetupError> {
        vec![
            SetupError::WrongGame {
                found: s("soleils"),
            },
            SetupError::PlayerCount { found: 3 },
            SetupError::EmptyName {
                position: 2,
                found: s(""),
            },
            SetupError::DuplicateName { name: s("Ann") },
            SetupError::UnknownFirst { found: s("Cy") },
            SetupError::ClosingSide { found: 2 },
            SetupError::Shape {
                what: "cards in each stack",
                expected: 10,
                found: 9,
            },
            SetupError::UnknownCard { found: s("kite-1") },
            SetupError::CardTwice { card: s("fish-2") },
            SetupError::Deck(sunfold::kit::path::Problems(vec![DeckProblem {
                path: JsonPath::root().key("cards").index(5).key("needs").index(0),
                kind: DeckProblemKind::UnknownPicture { id: s("kite") },
            }])),
        ]
    }

    fn pinned_setup(error: &SetupError) {
        match error {
            SetupError::WrongGame { .. }
            | SetupError::PlayerCount { .. }
            | SetupError::EmptyName { .. }
            | SetupError::DuplicateName { .. }
            | SetupError::UnknownFirst { .. }
            | SetupError::ClosingSide { .. }
            | SetupError::Shape { .. }
            | SetupError::UnknownCard { .. }
            | SetupError::CardTwice { .. }
            | SetupError::Deck(_) => {}
        }
    }

    fn deck_problems() -> Vec<DeckProblemKind> {
        vec![
            DeckProblemKind::UnsupportedFormat { found: 2 },
            DeckProblemKind::WrongGame {
                found: s("soleils"),
            },
            DeckProblemKind::Empty { what: "name" },
            DeckProblemKind::DuplicateId {
                what: "card",
                id: s("beach-1"),
                first: JsonPath::root().key("cards").index(0).key("id"),
            },
            DeckProblemKind::UnknownPicture { id: s("kite") },
            DeckProblemKind::UnknownPictogram {
                found: s("kite"),
                known: sunfold::summertime::deck::PICTOGRAMS,
            },
            DeckProblemKind::PictogramOnItem { found: s("fish") },
            DeckProblemKind::UnknownItem { id: s("sand") },
            DeckProblemKind::ValueKind { found: "both" },
            DeckProblemKind::ValueKind { found: "neither" },
            DeckProblemKind::ZeroValue,
            DeckProblemKind::TooManyNeeds { found: 3 },
            DeckProblemKind::MultiplierWithoutNeeds,
            DeckProblemKind::RepeatedNeed { id: s("ocean") },
            DeckProblemKind::CardCount {
                expected: 34,
                hand: 2,
                stack: 10,
                found: 33,
            },
            DeckProblemKind::ClosingCount { found: 2 },
            DeckProblemKind::Unaffordable {
                item: s("coconut"),
                found: 3,
                max: 2,
            },
            DeckProblemKind::Grid { long: 4, short: 5 },
            DeckProblemKind::Zero,
        ]
    }

    fn pinned_deck(problem: &DeckProblemKind) {
        match problem {
            DeckProblemKind::UnsupportedFormat { .. }
            | DeckProblemKind::WrongGame { .. }
            | DeckProblemKind::Empty { .. }
            | DeckProblemKind::DuplicateId { .. }
            | DeckProblemKind::UnknownPicture { .. }
            | DeckProblemKind::UnknownPictogram { .. }
            | DeckProblemKind::PictogramOnItem { .. }
            | DeckProblemKind::UnknownItem { .. }
            | DeckProblemKind::ValueKind { .. }
            | DeckProblemKind::ZeroValue
            | DeckProblemKind::TooManyNeeds { .. }
            | DeckProblemKind::MultiplierWithoutNeeds
            | DeckProblemKind::RepeatedNeed { .. }
            | DeckProblemKind::CardCount { .. }
            | DeckProblemKind::ClosingCount { .. }
            | DeckProblemKind::Unaffordable { .. }
            | DeckProblemKind::Grid { .. }
            | DeckProblemKind::Zero => {}
        }
    }

    fn all() -> String {
        [
            super::listing(&rule_errors(), pinned_rule),
            super::listing(&setup_errors(), pinned_setup),
            super::listing(&deck_problems(), pinned_deck),
        ]
        .join("\n\n")
    }

    #[test]
    fn summertime_messages() {
        let text = all();
        common::snapshots().bind(|| insta::assert_snapshot!("messages__summertime", text));
    }

    #[test]
    fn summertime_messages_are_lowercase() {
        for line in all().lines().filter(|l| !l.is_empty()) {
            let first = line.trim_start().chars().next().unwrap();
            assert!(!first.is_uppercase(), "starts in upper case: {line}");
        }
    }
}
