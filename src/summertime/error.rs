//! Why a well-formed Summertime event is illegal now, or a start event
//! cannot begin a game.

use super::deck::{CostText, DeckErrors};
use super::state::EndReason;
use std::fmt;

/// What the table was waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Awaited {
    Reveal { stack: u8 },
    Discard,
    Action { player: String },
    PlayOrEnd { player: String },
}

impl fmt::Display for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Awaited::Reveal { stack } => write!(f, "a card revealed on stack {stack}"),
            Awaited::Discard => f.write_str("the discard of the face-up cards"),
            Awaited::Action { player } => {
                write!(f, "{player}'s buy, tile flip or pass")
            }
            Awaited::PlayOrEnd { player } => write!(f, "{player}'s play or turn end"),
        }
    }
}

/// Cell coordinates displayed as `(2,1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At(pub i32, pub i32);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.0, self.1)
    }
}

/// A list of names displayed as `ocean or beach`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Either(pub Vec<String>);

impl fmt::Display for Either {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(" or "))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("expected one start event, but found a second one")]
    SecondStart,
    #[error("expected no more events, but the game is over: {reason}")]
    GameOver { reason: EndReason },
    #[error("expected {awaited}, but found {found}")]
    Unexpected {
        awaited: Awaited,
        found: &'static str,
    },
    #[error("expected {expected}'s turn, but found {found}")]
    NotYourTurn { expected: String, found: String },
    #[error("expected one of the players {}, but found {found:?}{suggestion}", .known.join(", "))]
    UnknownPlayer {
        found: String,
        known: Vec<String>,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected a card of the deck, but found {found:?}{suggestion}")]
    UnknownCard {
        found: String,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error("expected stack {expected}, but found stack {found}")]
    WrongStack { expected: u8, found: u8 },
    #[error("expected {expected} to be turned up from stack {stack}, but found {found}")]
    WrongReveal {
        stack: u8,
        expected: String,
        found: String,
    },
    #[error("expected a card not yet seen, but {card} was already used in this game")]
    AlreadySeen { card: String },
    #[error(
        "expected {card}'s back to show {declared}, as declared when it was on top, but it shows {actual}"
    )]
    BackMismatch {
        card: String,
        declared: CostText,
        actual: CostText,
    },
    #[error("expected the cost behind the new top card of stack {stack}, but found none")]
    BehindMissing { stack: u8 },
    #[error("expected no cost behind stack {stack}: {reason}")]
    BehindNotExpected { stack: u8, reason: &'static str },
    #[error("expected an item of the deck, but found {found:?}")]
    UnknownItem { found: String },
    #[error("expected a face-up card ({}), but found {found}", .face_up.join(", "))]
    NotFaceUp { found: String, face_up: Vec<String> },
    #[error("cost is {cost}, but {face_up}")]
    CannotAfford { cost: CostText, face_up: Shortfall },
    #[error("expected face-down tiles to turn up, but all of {player}'s tiles are face up")]
    NothingToFlip { player: String },
    #[error("expected a buy before playing cards this turn, but {player} has not bought")]
    NotBought { player: String },
    #[error("a sixth card in one turn: expected at most {max} plays, but found one more")]
    TooManyPlays { max: u8 },
    #[error("expected a card in {player}'s hand, but found {card}")]
    NotInHand { player: String, card: String },
    #[error("expected the first card at (0,0), but found {cell}")]
    FirstNotAtOrigin { cell: At },
    #[error("expected an empty cell, but {cell} holds {card}")]
    CellTaken { cell: At, card: String },
    #[error("expected a cell next to a played card, but {cell} has no neighbour")]
    Detached { cell: At },
    #[error(
        "the grid would be {width} wide and {height} high: expected at most {long} × {short} either way"
    )]
    GridTooLarge {
        width: i32,
        height: i32,
        long: u8,
        short: u8,
    },
    #[error("card needs a neighbour showing {needs}, but cell {cell} borders only {borders}")]
    NeedsNeighbour {
        needs: Either,
        cell: At,
        borders: Borders,
    },
    #[error("expected a reveal only once no card is face up, but {}", still_up(.face_up))]
    RevealWhileFaceUp { face_up: Vec<String> },
    #[error("expected a discard only after two passes in a row, but {passes}")]
    NotTwoPasses { passes: PassRun },
    #[error(
        "expected the back of a card of the deck behind stack {stack}, but no card costs {declared}"
    )]
    NoSuchBack { stack: u8, declared: CostText },
    #[error(
        "expected an unseen card of its own for each back declared as {declared} ({stacks}), but found {found} once {card} is {taken}"
    )]
    BackWithoutCard {
        declared: CostText,
        stacks: Stacks,
        found: usize,
        card: String,
        taken: &'static str,
    },
    #[error(
        "expected an unseen card of its own for each back declared as {declared} ({stacks}), but found {found}: no card can be turned up there"
    )]
    BacksUnmet {
        declared: CostText,
        stacks: Stacks,
        found: usize,
    },
    #[error("expected a card turned up on {due}, but found stack {found}")]
    StackNotDue { due: Stacks, found: u8 },
    #[error("expected the face-up cards {}, but found {}", .expected.join(", "), .found.join(", "))]
    WrongDiscard {
        expected: Vec<String>,
        found: Vec<String>,
    },
}

/// Stacks by number, displayed as `stack 0`, `stacks 0 and 2` or `stacks
/// 0, 1 and 2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stacks(pub Vec<u8>);

impl fmt::Display for Stacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let numbers: Vec<String> = self.0.iter().map(u8::to_string).collect();
        match numbers.split_last() {
            None => f.write_str("no stack"),
            Some((last, [])) => write!(f, "stack {last}"),
            Some((last, rest)) => write!(f, "stacks {} and {last}", rest.join(", ")),
        }
    }
}

fn still_up(face_up: &[String]) -> String {
    let verb = if face_up.len() == 1 { "is" } else { "are" };
    format!("{} {verb} still face up", face_up.join(", "))
}

/// The passes that end a turn sequence, displayed as `Ann's pass follows
/// Ben's buy`: why a discard is not due.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassRun {
    /// Who made the one pass in a row, if the last turn was a pass.
    pub last_pass: Option<String>,
    /// What came before that pass, or before now if there was none.
    pub before: Before,
}

/// What came before the passes of a [`PassRun`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Before {
    /// The first turn of the game.
    Start,
    /// The last discard, after two passes in a row.
    Discard,
    /// A turn that was not a pass: `buy` or `tile flip`.
    Turn {
        player: String,
        action: &'static str,
    },
}

impl fmt::Display for PassRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.last_pass, &self.before) {
            (Some(p), Before::Turn { player, action }) => {
                write!(f, "{p}'s pass follows {player}'s {action}")
            }
            (Some(p), Before::Discard) => {
                write!(f, "{p}'s pass is the first since the last discard")
            }
            (Some(p), Before::Start) => write!(f, "{p}'s pass is the first of the game"),
            (None, Before::Turn { player, action }) => {
                write!(f, "the last turn was {player}'s {action}, not a pass")
            }
            (None, Before::Discard) => f.write_str("no one has passed since the last discard"),
            (None, Before::Start) => f.write_str("no one has passed yet"),
        }
    }
}

/// The items a player lacks, with how many of each are face up, displayed
/// as `only 1 coconut is face up` or `only 1 coconut and no shell are face up`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortfall(pub Vec<(u8, String)>);

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(n, name)| match n {
                0 => format!("no {name}"),
                n => format!("{n} {name}"),
            })
            .collect();
        let verb = if parts.len() == 1 { "is" } else { "are" };
        if self.0.iter().all(|(n, _)| *n == 0) {
            write!(f, "{} {verb} face up", parts.join(" and "))
        } else {
            write!(f, "only {} {verb} face up", parts.join(" and "))
        }
    }
}

/// The pictures around a cell, displayed as `beach and ocean`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Borders(pub Vec<String>);

impl fmt::Display for Borders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("empty cells")
        } else {
            f.write_str(&self.0.join(" and "))
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("expected game \"summertime\", but found {found:?}")]
    WrongGame { found: String },
    #[error("expected exactly 2 players, but found {found}")]
    PlayerCount { found: usize },
    #[error("expected a non-empty name for player {position}, but found {found:?}")]
    EmptyName { position: usize, found: String },
    #[error("expected unique player names, but found {name:?} twice")]
    DuplicateName { name: String },
    #[error("expected the first player to be one of the players, but found {found:?}")]
    UnknownFirst { found: String },
    #[error("expected closing side 0 or 1, but found {found}")]
    ClosingSide { found: u8 },
    #[error("expected {expected} {what}, but found {found}")]
    Shape {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("expected a card of the deck, but found {found:?}")]
    UnknownCard { found: String },
    #[error("expected every card once in the order, but found {card} twice")]
    CardTwice { card: String },
    #[error("{}", .0.embedded("deck"))]
    Deck(DeckErrors),
}
