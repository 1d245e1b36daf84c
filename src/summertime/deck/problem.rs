//! Everything that can be wrong with a well-formed deck.

use crate::kit::path::{JsonPath, Problem, Problems, Subject};

/// One problem in a deck, located by its JSON path.
pub type DeckProblem = Problem<DeckProblemKind>;

/// Every problem found in a deck, in document order.
pub type DeckErrors = Problems<DeckProblemKind>;

impl Subject for DeckProblemKind {
    const WHAT: &'static str = "deck";
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
    #[error("expected a built-in pictogram ({}), but found {found:?}", .known.join(", "))]
    UnknownPictogram {
        found: String,
        known: &'static [&'static str],
    },
    #[error("expected no pictogram on an item, which prints its name, but found {found:?}")]
    PictogramOnItem { found: String },
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
