//! Bots and batch simulation. Bots only ever choose among `legal_events`;
//! every move goes through the reducer. Randomness comes from the portable
//! [`crate::rng::SeededRng`], in separate streams for the table's luck, the
//! order of simultaneous decisions and each seat's bot, so that a seed means
//! the same games forever and two variants can be played on the same luck.

mod distribution;
mod games;
mod metric;
mod report;
mod run;
mod tally;
mod variant;

pub use metric::{Estimate, Metric, Moments, Section, Unit, Z95};
pub use report::{BotWins, Histogram, Report, Row, SeatRange};
pub use run::{Bot, GameResult, PlayerRange, Simulated, play};
pub use tally::{Paired, Tally};
pub use variant::{SoleilsVariant, SummertimeVariant, VariantInfo};
