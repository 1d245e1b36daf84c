//! Why a well-formed event is illegal now, or a start event cannot begin a game.

use super::die::Dice;
use super::state::EndReason;
use super::template::{Need, TemplateErrors};
use std::fmt;

/// What a player was expected to decide next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    PlacementOrSun,
    Crab { from: String },
    Sun,
    Bonus,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::PlacementOrSun => f.write_str("a placement or a sun entry"),
            Expected::Crab { from } => write!(f, "a crab copy from {from} or a decline"),
            Expected::Sun => f.write_str("a sun entry"),
            Expected::Bonus => f.write_str("a bonus digit or a decline"),
        }
    }
}

/// What a box needs because of a neighbour in one of its constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    pub need: Need,
    pub other: String,
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let other = &self.other;
        match self.need {
            Need::Below(n) => write!(f, "a value below {n} as {other} holds {n}"),
            Need::Above(n) => write!(f, "a value above {n} as {other} holds {n}"),
            Need::Equal(n) => write!(f, "the value {n} as {other} holds {n}"),
            Need::Unlike(n) => write!(f, "a value other than {n} as {other} holds {n}"),
        }
    }
}

/// The sun entries that would have been legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SunChoice {
    /// After a placement: the die left over.
    LeftOver(u8),
    /// When skipping the placement: any one of the dice.
    AnyDie(Dice),
}

impl fmt::Display for SunChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SunChoice::LeftOver(v) => write!(f, "{v}, the die left after the placement"),
            SunChoice::AnyDie(dice) => write!(f, "one of the dice {dice}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("expected one start event, but found a second one")]
    SecondStart,
    #[error("expected no more events, but the game is over: {reason}")]
    GameOver { reason: EndReason },
    #[error("expected one of the players {}, but found {found:?}{suggestion}", .known.join(", "))]
    UnknownPlayer {
        found: String,
        known: Vec<String>,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected a box of the sheet, but found {found:?}{suggestion}")]
    UnknownBox {
        found: String,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected the roll that opens round {round}, but found {found}")]
    NoRoll { round: u16, found: &'static str },
    #[error("expected {player} to finish round {round} with {expected}, but found the next roll")]
    RoundOpen {
        round: u16,
        player: String,
        expected: Expected,
    },
    #[error("expected the next roll, as {player} has finished round {round}, but found {found}")]
    PlayerDone {
        player: String,
        round: u16,
        found: &'static str,
    },
    #[error(
        "expected {expected} from {waits_on}: {player} has finished round {round}, which waits on {waits_on}, but found {found}"
    )]
    RoundWaits {
        player: String,
        round: u16,
        waits_on: String,
        expected: Expected,
        found: &'static str,
    },
    #[error(
        "expected no crab decision from {player}: no neighbour of crab box {id} can take {value}, but found {found}"
    )]
    NoCrabCopy {
        player: String,
        id: String,
        value: u8,
        found: &'static str,
    },
    #[error("expected {expected} from {player}, but found {found}")]
    Unexpected {
        player: String,
        expected: Expected,
        found: &'static str,
    },
    #[error("expected an empty box, but {id} already holds {value}")]
    BoxFilled { id: String, value: u8 },
    #[error("box {id} has pearl {pearl}: expected a {pearl} among the dice {dice}, but found none")]
    NoPearlDie { id: String, pearl: u8, dice: Dice },
    #[error(
        "box {id}: expected {value} on a die other than the pearl die {pearl}, but the roll is {dice}"
    )]
    NoValueDie {
        id: String,
        pearl: u8,
        value: u8,
        dice: Dice,
    },
    #[error("box {id} needs {requirement}, but found {value}")]
    Violates {
        id: String,
        value: u8,
        requirement: Requirement,
    },
    #[error("expected a crab copy from {expected}, but found one from {found}")]
    WrongCrabSource { expected: String, found: String },
    #[error("expected a box next to {from} ({}), but found {to}", .neighbours.join(", "))]
    NotAdjacent {
        from: String,
        to: String,
        neighbours: Vec<String>,
    },
    #[error("expected a sun entry of {expected}, but found {found}")]
    SunValue { expected: SunChoice, found: u8 },
    #[error(
        "expected a placement, as skipping is allowed only when blocked and {player} could write {value} in {id}, but found a sun entry without one"
    )]
    SkipNotAllowed {
        player: String,
        id: String,
        value: u8,
    },
}

/// Why a start event cannot begin a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("expected game \"soleils\", but found {found:?}")]
    WrongGame { found: String },
    #[error("expected 1 to 12 players, but found {found}")]
    PlayerCount { found: usize },
    #[error("expected 2 to 12 players, or 1 with the rule option solo=true, but found 1")]
    SoloNotAsked,
    #[error("expected 1 player under the rule option solo=true, but found {found}")]
    SoloWithMore { found: usize },
    #[error("expected a non-empty name for player {position}, but found {found:?}")]
    EmptyName { position: usize, found: String },
    #[error("expected unique player names, but found {name:?} twice")]
    DuplicateName { name: String },
    #[error("{}", .0.embedded("template"))]
    Template(TemplateErrors),
}
