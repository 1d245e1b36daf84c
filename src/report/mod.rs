//! The workbench's reports, each in one folder with its text, its JSON and
//! its drawing: [`compare`] (what `simulate` and `compare` print and draw),
//! [`ladder`] and [`sweep`]. They read the bots' results from
//! [`crate::workbench`] and lay their charts out as scenes of the drawing engine
//! ([`crate::render`]); [`kit`] holds what the drawn reports share: the
//! type styles, the tick axis and the page footers.

pub mod compare;
pub mod kit;
pub mod ladder;
pub mod sweep;

use crate::render::paper::Paper;
use crate::render::scene::Scene;
use crate::workbench::sweep::Sweep;
use crate::workbench::{Ladder, Report};

/// A workbench report, finished: what a batch verb prints (and draws)
/// when it is run whole, and what `merge` makes of its shards.
#[derive(Clone, Copy, Debug)]
pub enum Finished<'a> {
    /// `simulate` (no variant B) or `compare`.
    Compare(&'a Report),
    Ladder(&'a Ladder),
    Sweep(&'a Sweep),
}

impl Finished<'_> {
    /// The report as text.
    pub fn text(self) -> String {
        match self {
            Finished::Compare(report) => compare::text::text(report),
            Finished::Ladder(report) => ladder::text::text(report),
            Finished::Sweep(report) => sweep::text::text(report),
        }
    }

    /// The report as one JSON object, without a newline.
    pub fn json(self) -> String {
        match self {
            Finished::Compare(report) => compare::text::json(report),
            Finished::Ladder(report) => ladder::text::json(report),
            Finished::Sweep(report) => sweep::text::json(report),
        }
    }

    /// The report drawn on pages of `paper`.
    pub fn drawing(self, paper: Paper) -> Scene {
        match self {
            Finished::Compare(report) => compare::report(report, paper),
            Finished::Ladder(report) => ladder::report(report, paper),
            Finished::Sweep(report) => sweep::report(report, paper),
        }
    }
}
