//! Everything that can be wrong with a well-formed deck.

use crate::path::JsonPath;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckProblem {
    pub path: JsonPath,
    pub kind: DeckProblemKind,
}

impl fmt::Display for DeckProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.kind)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckProblemKind {
    #[error("expected deck format 1, but found {found}")]
    UnsupportedFormat { found: u32 },
    #[error("expected game \"summertime\", but found {found:?}")]
    WrongGame { found: String },
    #[error("expected a non-empty {what}, but found an empty one")]
    Empty { what: &'static str },
    #[error("expected a unique {what} id, but found {id:?} again (first at {first})")]
    DuplicateId {
        what: &'static str,
        id: String,
        first: JsonPath,
    },
    #[error("expected the id of a picture, but found {id:?}")]
    UnknownPicture { id: String },
    #[error("expected the id of an item, but found {id:?}")]
    UnknownItem { id: String },
    #[error("expected either points or a multiplier, but found {found}")]
    ValueKind { found: &'static str },
    #[error("expected a value of at least 1, but found 0")]
    ZeroValue,
    #[error("expected at most 2 condition pictures, but found {found}")]
    TooManyNeeds { found: usize },
    #[error("expected a multiplier to name the pictures it multiplies, but found no condition")]
    MultiplierWithoutNeeds,
    #[error("expected two different condition pictures, but found {id} twice")]
    RepeatedNeed { id: String },
    #[error(
        "expected {expected} cards ({hand} dealt to each of 2 players and 3 stacks of {stack}), but found {found}"
    )]
    CardCount {
        expected: usize,
        hand: u8,
        stack: u8,
        found: usize,
    },
    #[error("expected 3 closing cards, one under each stack, but found {found}")]
    ClosingCount { found: usize },
    #[error(
        "expected a cost of at most {max} of one item (each player has {max}), but found {found} {item}"
    )]
    Unaffordable { item: String, found: usize, max: u8 },
    #[error(
        "expected a grid of at least 1 × 1 with the long side not shorter, but found {long} × {short}"
    )]
    Grid { long: u8, short: u8 },
    #[error("expected at least 1, but found 0")]
    Zero,
}

/// Every problem found in a deck, in document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckErrors(pub Vec<DeckProblem>);

impl DeckErrors {
    pub fn problems(&self) -> &[DeckProblem] {
        &self.0
    }
}

impl fmt::Display for DeckErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.0.len();
        write!(
            f,
            "the deck has {count} problem{}",
            if count == 1 { "" } else { "s" }
        )?;
        for problem in &self.0 {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DeckErrors {}
