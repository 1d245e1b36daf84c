//! Everything that can be wrong with a well-formed template.

use crate::kit::path::{JsonPath, Problem, Problems, Subject};

/// One problem in a template, located by its JSON path.
pub type TemplateProblem = Problem<ProblemKind>;

/// Every problem found in a template, in document order.
pub type TemplateErrors = Problems<ProblemKind>;

impl Subject for ProblemKind {
    const WHAT: &'static str = "template";
}

/// What is wrong, with the data needed to say it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemKind {
    #[error("expected template format 1, but found {found}")]
    UnsupportedFormat { found: u32 },
    #[error("expected game \"soleils\", but found {found:?}")]
    WrongGame { found: String },
    #[error("expected a non-empty {what}, but found an empty one")]
    Empty { what: &'static str },
    #[error("expected a unique {what} id, but found {id:?} again (first at {first})")]
    DuplicateId {
        what: &'static str,
        id: String,
        first: JsonPath,
    },
    #[error("expected a pearl from 1 to 6, but found {found}")]
    PearlOutOfRange { found: u8 },
    #[error("expected a cell inside the {columns}x{rows} grid, but found [{column}, {row}]")]
    CellOutsideGrid {
        column: u16,
        row: u16,
        columns: u16,
        rows: u16,
    },
    #[error("expected one box per cell, but cell [{column}, {row}] also holds box {other}")]
    SharedCell {
        column: u16,
        row: u16,
        other: String,
    },
    #[error("expected the id of a zone, but found {id:?}")]
    UnknownZone { id: String },
    #[error("expected the id of a group of zone {zone}, but found {id:?}")]
    UnknownGroup { id: String, zone: String },
    #[error("expected the id of a box, but found {id:?}")]
    UnknownBox { id: String },
    #[error("expected every zone to hold a box, but zone {id} holds none")]
    EmptyZone { id: String },
    #[error("expected every group to hold a box, but group {id} holds none")]
    EmptyGroup { id: String },
    #[error("expected at least 2 boxes in a {constraint} set, but found {found}")]
    SetTooSmall {
        constraint: &'static str,
        found: usize,
    },
    #[error(
        "expected at most 6 boxes in a distinct set (there are only 6 values), but found {found}"
    )]
    DistinctTooLarge { found: usize },
    #[error("expected two different boxes, but found {id} twice")]
    RepeatedBox { id: String },
    #[error("expected a reward of at least 1, but found 0")]
    ZeroReward,
    #[error("expected at least 1 round, but found 0")]
    NoRounds,
    #[error("expected a sun limit of at least 1, but found 0")]
    NoSunLimit,
    #[error("expected at least {rounds} sun slots (one per round), but found {found}")]
    TooFewSlots { rounds: u16, found: u16 },
    #[error("expected thresholds in increasing order, but found {found} after {previous}")]
    ThresholdOrder { previous: u16, found: u16 },
    #[error("expected a threshold a sun total can reach (at most {max}), but found {found}")]
    UnreachableThreshold { found: u16, max: u16 },
    #[error(
        "expected an order of boxes that values can follow, but found a cycle: {}",
        cycle.join(", ")
    )]
    OrderCycle { cycle: Vec<String> },
    #[error(
        "expected {first} and {second} to be able to hold one value, as the same set at {same} makes them, but found {relation}"
    )]
    SameAndApart {
        first: String,
        second: String,
        same: JsonPath,
        relation: String,
    },
    #[error(
        "expected a value from 1 to 6 to be left to box {id}, but found it at place {} of {} boxes that must each be less than the next",
        below + 1,
        below + above + 1
    )]
    NoValueLeft {
        id: String,
        below: usize,
        above: usize,
    },
    #[error(
        "expected a zone a game can fill (at most {most} values are written in a game), but found zone {zone} with {boxes} boxes"
    )]
    ZoneTooLarge {
        zone: String,
        boxes: usize,
        most: usize,
    },
    #[error(
        "expected the boxes of {what} {id} to be able to hold values all at once, but found no values that meet the constraints among them"
    )]
    NeverCompleted { what: &'static str, id: String },
    #[error(
        "expected zone {zone} to be completed at least 1 time in {} when its boxes are written one by one, each a value its constraints allow then, but found 1 time in {one_in}",
        super::reach::IMPROBABLE
    )]
    Improbable { zone: String, one_in: u64 },
}
