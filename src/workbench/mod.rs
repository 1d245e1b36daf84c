//! The designer's workbench: games played in batches by the bots and
//! tallied, the reports of simulate and compare, ladders, sweeps, shards
//! and their merge, and the decisions of a match judged.
//!
//! Its files: [`batch`] (games over threads, the same on any count),
//! [`tally`] (figures summed as games are played), [`distribution`]
//! (score buckets), [`figures`] and [`head`] (what a simulate or compare
//! report holds), [`ladder`], [`sweep`], [`partial`] and [`merge`] (shards
//! and their merge), [`analysis`] (the decisions of a match judged).

pub mod analysis;
mod batch;
mod distribution;
mod figures;
mod head;
pub mod ladder;
pub mod merge;
pub mod partial;
pub mod sweep;
mod tally;

pub use batch::{batches, game_seed};
pub use figures::{BotWins, Histogram, Report, Row, SeatRange};
pub use head::Head;
pub use ladder::{Exact, FEW, Figure, Gap, Ladder, LadderGame, Record, Rung, Skill, ladder};
pub use tally::{Paired, Tally, Won, kinds};
