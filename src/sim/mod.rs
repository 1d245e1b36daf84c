//! Bots and batch simulation. Bots only ever choose among `legal_events`;
//! every move goes through the reducer. Randomness comes from the portable
//! [`crate::kit::rng::SeededRng`], in separate streams for the table's luck, the
//! order of simultaneous decisions and each seat's bot, so that a seed means
//! the same games forever and two variants can be played on the same luck.
//!
//! Its files: [`run`] (the bots and one game played), [`games`] (each
//! game's bot hooks), [`search`] (the search bot), [`batch`] (games over
//! threads, the same on any count), [`tally`] and [`sums`] (figures summed
//! as games are played), [`metric`] (figures and their intervals),
//! [`distribution`] (score buckets), [`report`] and [`head`] (what a
//! simulate or compare report holds), [`variant`] (a sheet or deck with its
//! options), [`differ`] (what two variants change), [`ladder`], [`sweep`],
//! [`partial`] and [`merge`] (shards and their merge), [`analysis`] (the
//! decisions of a match judged), [`deal`] (a Summertime deal from a seed).

pub mod analysis;
mod batch;
pub mod deal;
mod differ;
mod distribution;
mod games;
mod head;
pub mod ladder;
pub mod merge;
mod metric;
pub mod partial;
mod report;
mod run;
pub mod search;
mod sums;
pub mod sweep;
mod tally;
pub mod variant;

pub use batch::{batches, game_seed};
pub use differ::{Change, SameRules, changes, differing};
pub use head::Head;
pub use ladder::{Ladder, LadderGame, Record, Rung, Skill, ladder};
pub use metric::{ALPHA, Estimate, Metric, Moments, Section, Unit, Z95, holm, mean_of, share_of};
pub use report::{BotWins, Histogram, Report, Row, SeatRange};
pub use run::{
    Bot, BotError, GameResult, NotSearch, PlayerCountError, PlayerRange, Simulated, lineup, play,
    play_from, player_count,
};
pub use search::{DEFAULT_ROLLOUTS, Searched, Searcher};
pub use sums::{Fixed, Sums};
pub use tally::{Paired, Tally, Won, kinds};
pub use variant::{SoleilsVariant, SummertimeVariant, VariantInfo};
