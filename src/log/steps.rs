//! A log walked line by line: what each line did, with the state before
//! it. This is the one loop beneath the tools that look at every decision
//! of a match (the analysis, the HTML viewer), so that each need not fold
//! the lines on its own.
//!
//! ```no_run
//! # use sunfold::log::{Change, open_file};
//! # use sunfold::soleils::Soleils;
//! let mut steps = open_file("match.jsonl".as_ref()).ok().unwrap().steps::<Soleils>().ok().unwrap();
//! while let Some(step) = steps.next() {
//!     let step = step.ok().unwrap();
//!     if let Change::Event(event) = &step.change {
//!         // step.before is the state the event was checked against,
//!         // steps.state() the state after it.
//!     }
//! }
//! ```

use super::error::LogError;
use super::fold::{Fold, TakenBack};
use super::open::{FoldError, Opened};
use super::reader::{Line, LineReader, Record};
use crate::kit::game::Game;
use std::collections::BTreeMap;
use std::io::{self, BufRead};

/// What one line of a log did.
#[derive(Clone, Debug, PartialEq)]
pub enum Change<E> {
    /// A game event, applied.
    Event(E),
    /// An `undone` entry took back a decision.
    Undone(TakenBack<E>),
    /// A `claimed` entry recorded the scores written on paper.
    Claimed(BTreeMap<String, i64>),
}

/// One line of a log, folded.
pub struct Step<G: Game> {
    /// The line's number, from 1.
    pub line: usize,
    /// The line's `seq`.
    pub seq: u64,
    /// The state before the line: the one its event was checked against.
    pub before: G::State,
    pub change: Change<G::Event>,
}

/// Why a walk stopped before the end of the log. The walk then stands just
/// before the line: [`Steps::fold_so_far`] holds the state that line was checked
/// against, and [`Steps::into_error`] makes this the [`FoldError`] that
/// `Opened::fold` gives.
pub enum StepError<G: Game> {
    /// A line cannot be read.
    Io {
        /// The number of the line that could not be read.
        line: usize,
        error: io::Error,
    },
    /// A line is malformed or illegal.
    Rejected(LogError<G>),
}

/// The lines of a log after its start line, folded one at a time. Each
/// item is a [`Step`], or the error that ends the walk.
pub struct Steps<G: Game, R> {
    fold: Fold<G>,
    start: Record<G::Event>,
    lines: LineReader<R>,
    ended: bool,
}

impl<R: BufRead> Opened<R> {
    /// Starts a walk through the log as game `G`: the start line is folded,
    /// the other lines are read as the walk asks for them.
    pub fn steps<G: Game>(self) -> Result<Steps<G, R>, FoldError<G>> {
        let (first, terminated, lines) = self.into_parts();
        let line = Line {
            number: 1,
            bytes: &first,
            terminated,
        };
        let (fold, start) = Fold::<G>::start(&line).map_err(FoldError::Start)?;
        Ok(Steps {
            fold,
            start,
            lines,
            ended: false,
        })
    }
}

impl<G: Game, R: BufRead> Steps<G, R> {
    /// The start line's record.
    pub fn start(&self) -> &Record<G::Event> {
        &self.start
    }

    /// The fold so far: after the last step, or just before the line that
    /// ended the walk.
    pub fn fold_so_far(&self) -> &Fold<G> {
        &self.fold
    }

    /// The state after the last step.
    pub fn state(&self) -> &G::State {
        self.fold.state()
    }

    pub fn into_fold(self) -> Fold<G> {
        self.fold
    }

    /// The error that ended the walk as the [`FoldError`] a whole fold
    /// gives, with the fold as it stands.
    pub fn into_error(self, error: StepError<G>) -> FoldError<G> {
        match error {
            StepError::Io { line, error } => FoldError::Io {
                line,
                events: self.fold.events(),
                error,
            },
            StepError::Rejected(error) => FoldError::Rejected {
                error,
                fold: Box::new(self.fold),
            },
        }
    }
}

impl<G: Game, R: BufRead> Iterator for Steps<G, R> {
    type Item = Result<Step<G>, StepError<G>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        let line = match self.lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => {
                self.ended = true;
                return None;
            }
            Err(error) => {
                self.ended = true;
                let line = self.lines.lines_read() + 1;
                return Some(Err(StepError::Io { line, error }));
            }
        };
        let number = line.number;
        let before = self.fold.state().clone();
        let (undone, claims) = (self.fold.taken_back().len(), self.fold.claims().len());
        match self.fold.feed_event(&line) {
            Ok((seq, event)) => {
                let change = match event {
                    Some(event) => Change::Event(event),
                    None if self.fold.taken_back().len() > undone => {
                        Change::Undone(self.fold.taken_back()[undone].clone())
                    }
                    None => {
                        debug_assert!(self.fold.claims().len() > claims);
                        let (_, scores) = self.fold.claims().last().expect("a line was claimed");
                        Change::Claimed(scores.clone())
                    }
                };
                Some(Ok(Step {
                    line: number,
                    seq,
                    before,
                    change,
                }))
            }
            Err(error) => {
                self.ended = true;
                Some(Err(StepError::Rejected(error)))
            }
        }
    }
}
